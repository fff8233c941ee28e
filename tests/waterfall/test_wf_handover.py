"""A tile reset (a power cut, a crash restart) at any moment of a pawn's move between tiles, as
stories: A steps from the top into the tile below it, and later falls out at the bottom, its
pawn passed up tile to tile to the top. Each tile taking part is reset, alone, at every few
milliseconds of the move; afterwards each player's pawn is in exactly one place."""

import copy

import pytest
from runtime.button import CLICK_WINDOW_MS
from wf_story import build, clicks, deal, info, settle, table

EVERY_MS = 3  # reset moments this far apart (a tile's pass is ~20 ms, a frame under 2 ms)
AFTER_MS = 60  # and on a little after the move has settled
RECOVER_MS = 4000  # a reset tile's neighbours hear it again, a pending pawn is sent again


def places(w):
    """{player: [every tile holding that player's pawn, or "above"]}."""
    out = {p: [] for p in "ABCD"}
    for t in w.tiles:
        seen = info(w, t)
        for p in seen["pawns"]:
            out[p].append(t)
        for p in seen["above"]:
            out[p].append("above")
    return out


def click_without_waiting(w, tid, n):
    """n clicks as `clicks` makes them, stopping just before the tile takes them (the click
    window from the last press runs out): the move has not started yet."""
    for i in range(n):
        if i:
            w.advance(120)
        w.press(tid)
        pressed = w.now
        w.advance(80)
        w.release(tid)
    w.advance(pressed + CLICK_WINDOW_MS - 30 - w.now)


def every_moment_of(w, move, done):
    """Copies of world `w`, each advanced to a later moment of `move` (a function of a world
    that starts it), from just before the move starts until a little after `done` holds."""
    start = copy.deepcopy(w)
    move(start)
    whole = copy.deepcopy(start)
    assert whole.run_until(lambda: done(whole), 5000), places(whole)
    span = whole.now - start.now + AFTER_MS
    for ms in range(0, span, EVERY_MS):
        moment = copy.deepcopy(start)
        moment.advance(ms)
        yield ms, moment


def assert_one_pawn_each(w, where, ms, reset):
    got = places(w)
    for p in "ABCD":
        assert len(got[p]) == 1, f"reset tile {reset} {ms} ms into the move: {got}"
    assert got["A"][0] in where, f"reset tile {reset} {ms} ms into the move: {got}"


@pytest.fixture(scope="module")
def waterfall():
    """A waterfall of four tiles; A's pawn has entered the top."""
    w = table(27, seed=10)
    deal(w)
    at = build(w, {(0, 0): "ADD-G2", (1, 0): "SCORE-B1", (1, 1): "DRAW-R1", (2, 0): "STOP-B3"})
    clicks(w, at[(0, 0)], 1)
    settle(w)
    assert places(w)["A"] == [at[(0, 0)]]
    return w, at


@pytest.mark.parametrize("reset", ["sender", "receiver"])
def test_a_step_survives_a_reset_of_either_tile_at_any_moment(waterfall, reset):
    w, at = waterfall
    top, low = at[(0, 0)], at[(1, 0)]
    tid = top if reset == "sender" else low
    moments = 0
    for ms, moment in every_moment_of(
        w, lambda x: click_without_waiting(x, low, 1), lambda x: places(x)["A"] == [low]
    ):
        moment.reset_tile(tid)
        moment.advance(RECOVER_MS)
        # the step went through, or it did not and A is where it was (A clicks again)
        assert_one_pawn_each(moment, (top, low), ms, tid)
        moments += 1
    assert moments > 20


@pytest.mark.parametrize("reset", ["pawn", "between", "top"])
def test_a_fall_out_survives_a_reset_of_any_tile_on_the_way_up(waterfall, reset):
    w, at = waterfall
    w = copy.deepcopy(w)
    top, mid, low = at[(0, 0)], at[(1, 0)], at[(2, 0)]
    clicks(w, mid, 1)
    clicks(w, low, 1)
    settle(w)
    assert places(w)["A"] == [low]
    tid = {"pawn": low, "between": mid, "top": top}[reset]
    for ms, moment in every_moment_of(
        w, lambda x: click_without_waiting(x, low, 1), lambda x: places(x)["A"] == ["above"]
    ):
        moment.reset_tile(tid)
        moment.advance(RECOVER_MS)
        assert_one_pawn_each(moment, (low, mid, "above"), ms, tid)


def test_a_reset_after_the_hand_over_leaves_a_game_that_goes_on(waterfall):
    """The receiving tile reset right as it takes the pawn: the next step still works."""
    w, at = waterfall
    w = copy.deepcopy(w)
    top, low, right = at[(0, 0)], at[(1, 0)], at[(1, 1)]
    click_without_waiting(w, low, 1)
    assert w.run_until(lambda: "A" in info(w, low)["pawns"], 2000)
    w.reset_tile(low)
    w.advance(RECOVER_MS)
    assert places(w)["A"] == [low]
    clicks(w, at[(2, 0)], 1)  # A steps on, into the STOP below
    settle(w)
    assert places(w)["A"] == [at[(2, 0)]]
    clicks(w, top, 2)  # and B enters, then steps down-right
    clicks(w, right, 2)
    settle(w)
    assert places(w)["B"] == [right]
