"""Button gestures through the world, at and around their timing boundaries."""

from wg_games import Beacon, Gestures

from simulator.world import World


def world_with(game=Gestures, seed=0):
    w = World(seed=seed)
    tid = w.add_tile(game, 0, 0)
    w.advance(100)
    return w, tid


def press_for(w, tid, down_ms):
    w.press(tid)
    w.advance(down_ms)
    w.release(tid)


def two_presses(gap_ms, seed=0):
    """Two clicks whose presses are gap_ms apart (press to press)."""
    w, tid = world_with(seed=seed)
    press_for(w, tid, 60)
    w.advance(gap_ms - 60)
    press_for(w, tid, 60)
    w.advance(1000)
    return w.runner(tid).game.names()


def test_a_320ms_gap_is_a_double_click():
    for seed in range(3):
        assert two_presses(320, seed) == ["double"]


def test_a_340ms_gap_is_two_single_clicks():
    for seed in range(3):
        assert two_presses(340, seed) == ["single", "single"]


def test_click_helpers_produce_their_gestures():
    w, tid = world_with()
    w.click(tid)
    w.double_click(tid)
    w.triple_click(tid)
    assert w.runner(tid).game.names() == ["single", "double", "multi3"]


def test_a_1990ms_hold_is_no_long_press():
    w, tid = world_with()
    w.hold(tid, 1990)
    w.advance(1000)
    assert w.runner(tid).game.names() == []


def test_a_2000ms_hold_is_a_long_press_and_not_a_click():
    w, tid = world_with()
    start = w.now
    w.hold(tid, 2000)
    w.advance(1000)
    game = w.runner(tid).game
    assert game.names() == ["long"]
    assert start + 2000 <= game.events[0][0] <= start + 2000 + w.loop_ms + 2


def test_long_long_press_needs_a_neighbour():
    w, tid = world_with()
    w.hold(tid, 6500)
    w.advance(500)
    assert w.runner(tid).game.names() == ["long"]
    w.add_tile(Beacon, 0, 1)
    w.advance(500)
    w.hold(tid, 6500)
    w.advance(500)
    assert w.runner(tid).game.names() == ["long", "long", "longlong"]
