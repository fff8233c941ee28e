"""Button gestures from timestamped edges (runs on CPython under pytest and on MicroPython)."""

from rt_hal import Events, clicks, make, play
from runtime import link


def gestures(edges, until=3000, every=10):
    hal, tile = make()
    ev = Events()
    tile.game.on_loop = ev
    play(hal, tile, edges, until, every)
    return ev


def test_single_click_fires_when_window_runs_out():
    ev = gestures(clicks([100]), 1000)
    assert ev.names() == ["single"]
    t = next(t for t, n in ev.log if n == "single")
    assert 430 <= t < 440  # window 100..430, seen at the first pass after it ran out


def test_presses_320ms_apart_are_a_double_click():
    assert gestures(clicks([100, 420]), 2000).names() == ["double"]


def test_presses_340ms_apart_are_two_single_clicks():
    assert gestures(clicks([100, 440]), 2000).names() == ["single", "single"]


def test_three_quick_clicks_are_a_multi_click_with_count_3():
    assert gestures(clicks([100, 300, 500]), 2000).names() == ["multi3"]


def test_five_quick_clicks_count_5():
    assert gestures(clicks([0, 200, 400, 600, 800]), 2000).names() == ["multi5"]


def test_result_does_not_depend_on_pass_cadence():
    edges = clicks([100, 420]) + clicks([1500])
    for every in (1, 7, 10, 33, 100):
        assert gestures(edges, 3000, every).names() == ["double", "single"], every


def test_hold_1990ms_is_no_long_press():
    ev = gestures([(100, True), (2090, False)], 4000)
    assert ev.names() == []


def test_hold_2000ms_is_a_long_press_and_no_click():
    ev = gestures([(100, True), (2100, False)], 4000)
    assert ev.names() == ["long"]


def test_long_press_fires_while_still_held():
    ev = gestures([(100, True), (5000, False)], 5500)
    long_at = next(t for t, n in ev.log if n == "long")
    assert 2100 <= long_at < 2110


def test_holding_past_the_window_cancels_the_clicks():
    # a click, then a press held 500 ms: the sequence is cancelled, nothing fires
    ev = gestures([(100, True), (160, False), (300, True), (800, False)], 2000)
    assert ev.names() == []


def test_bounces_within_20ms_count_as_one_press():
    bouncy = [
        (100, True),
        (103, False),
        (105, True),
        (110, False),
        (112, True),
        (170, False),
        (174, True),
        (178, False),
    ]
    ev = gestures(bouncy, 1000)
    assert ev.names() == ["single"]
    assert [n for _, n in ev.log].count("pressed") == 1


def test_level_settles_after_lockout_when_a_bounce_ends_it():
    # raw goes down, bounces up inside the lockout and stays up: the press ends at 120 ms
    hal, tile = make()
    play(hal, tile, [(100, True), (110, False)], 115, every=5)
    assert tile.button_down()
    play(hal, tile, [], 125, every=5)
    assert not tile.button_down()


def test_flags_are_cleared_when_read():
    hal, tile = make()
    play(hal, tile, clicks([0]), 500)
    assert tile.button_pressed()
    assert not tile.button_pressed()
    assert tile.button_single_clicked()
    assert not tile.button_single_clicked()
    assert tile.button_click_count() == 1


def test_long_long_press_only_when_not_alone():
    ev = gestures([(100, True), (6300, False)], 7000)
    assert ev.names() == ["long"]
    hal, tile = make()
    ev = Events()
    tile.game.on_loop = ev
    edges = [(100, True), (6300, False)]
    while hal.t < 7000:  # a neighbour keeps face 2 alive with a value frame every 50 ms
        if hal.t % 50 == 0:
            hal.rx[2].append((hal.t, link.VALUE_FRAME[5]))
        play(hal, tile, [e for e in edges if hal.t < e[0] <= hal.t + 10], hal.t + 10)
    assert ev.names() == ["long", "longlong"]
    assert 6100 <= next(t for t, n in ev.log if n == "longlong") < 6110


def test_each_click_flag_latches_on_its_own_until_read():
    # a single click, then a double click, both before the game looks: both flags are up
    hal, tile = make()
    play(hal, tile, clicks([100]) + clicks([1000, 1200]), 3000)
    assert tile.button_double_clicked()
    assert tile.button_single_clicked()
    assert not tile.button_single_clicked() and not tile.button_double_clicked()
    assert tile.button_click_count() == 2  # the count of the latest click event
    play(hal, tile, clicks([3100, 3300, 3500]) + clicks([4000]), 6000)
    assert tile.button_multi_clicked() and tile.button_single_clicked()
    assert tile.button_click_count() == 1


def test_long_long_press_is_decided_at_6000ms_not_later():
    # alone at the 6 s mark, a neighbour arrives while the button is still held: nothing fires
    hal, tile = make()
    ev = Events()
    tile.game.on_loop = ev
    edges = [(100, True), (8000, False)]
    while hal.t < 8500:
        if hal.t >= 6500 and hal.t % 50 == 0:
            hal.rx[2].append((hal.t, link.VALUE_FRAME[5]))
        play(hal, tile, [e for e in edges if hal.t < e[0] <= hal.t + 10], hal.t + 10)
    assert not tile.is_alone()
    assert ev.names() == ["long"]


class QuietSkipper(Events):
    """A game that reads its flags only when the button was not quiet: it must miss nothing."""

    def __init__(self):
        super().__init__()
        self.skipped = 0

    def __call__(self, tile):
        if tile.button_quiet():
            self.skipped += 1
            return
        super().__call__(tile)


def test_a_game_that_skips_quiet_passes_sees_every_gesture():
    edges = clicks([100, 420]) + clicks([1500]) + [(2500, True), (4600, False)]
    for every in (1, 10, 33):
        full, skipper = Events(), QuietSkipper()
        for game in (full, skipper):  # the same presses on two tiles
            hal, tile = make()
            tile.game.on_loop = game
            play(hal, tile, edges, 6000, every)
        assert skipper.log == full.log, every
        assert [n for _, n in full.log] == [
            "pressed", "released", "pressed", "released", "double",
            "pressed", "released", "single", "pressed", "long", "released",
        ]  # fmt: skip
        assert skipper.skipped > 6000 // every // 3  # the passes away from the button
