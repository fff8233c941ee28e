"""A hold is a lone discard only on a tile that is really alone (issue 44, item 12): on noisy
links a tile of a cluster can go seconds without a valid frame (its faces busy with the deal's
datagrams, which bit flips spoil far more often than short frames), and its 6-second deal hold
once counted as the 2-second discard. A frame that fails its checks is still a neighbour's
light, and the tile must have been unheard since 0.6 s before the press."""

import os
import sys

import pytest
from lg_story import HAND, dealt_table, state, table

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "bench"))

import bench_deal

DISCARD_HOLD_MS = 2100  # the long press fires at 2 s


def hold(w, tid, ms):
    w.press(tid)
    w.advance(ms)
    w.release(tid)
    w.advance(100)


def test_a_tile_that_hears_only_spoilt_frames_is_not_alone():
    w = dealt_table(6)
    t = 0
    dropped = w.inspect(t)["frames_dropped"]
    w.ir.bit_flip = 0.5  # every frame arrives spoilt: no valid one for seconds
    w.advance(500)
    w.press(t)
    w.advance(DISCARD_HOLD_MS + 400)
    assert state(w, t) == "face down"  # was: discarded at 2 s, no valid frame heard
    assert w.inspect(t)["frames_dropped"] > dropped + 20  # what it heard instead
    assert w.inspect(t)["expired"] == [True] * 6  # every face unheard, as far as values go
    w.release(t)


def test_a_tile_put_down_alone_just_before_the_hold_is_not_yet_lone():
    w = dealt_table(6)
    t = 3
    w.lift(t)
    w.place(t, *HAND)
    w.advance(300)  # it heard its neighbours 0.3 s before the press
    hold(w, t, DISCARD_HOLD_MS)
    assert state(w, t) == "face down"
    w.advance(700)  # now unheard for longer than the 0.6 s before a hold
    hold(w, t, DISCARD_HOLD_MS)
    assert state(w, t) == "discarded"


def test_a_lone_tile_on_a_quiet_table_still_discards_at_2_s():
    w = table(1)
    w.advance(1000)
    w.inspect(0)  # undealt: nothing to discard, but no deal either
    hold(w, 0, DISCARD_HOLD_MS)
    assert state(w, 0) == "undealt"
    w = dealt_table(6)
    w.lift(5)
    w.place(5, *HAND)
    w.advance(1000)
    hold(w, 5, DISCARD_HOLD_MS)
    assert state(w, 5) == "discarded"


# The two cases, found again with the bench's harness at its 4 kbit/s (the exact
# seeds of the report moved with the board's link rate): re-deals on a 12-tile ring and a
# line of 6 at 50 % frame loss and 3 % bit flips, where the held tile discarded itself
# before (seed 3, 3 rounds: tile 6 of the ring; seed 8, 2 rounds: tile 4 of the line).
@pytest.mark.parametrize(
    "shape, n, seed, rounds", [("ring", 12, 3, 3), ("ring", 12, 10, 3), ("line", 6, 8, 2)]
)
def test_the_held_tile_of_a_noisy_redeal_never_discards_itself(shape, n, seed, rounds):
    outcome, _, accepted = bench_deal.redeal(shape, 0.5, 0.03, seed, rounds, n=n)
    assert outcome in ("new", "old")
    assert accepted == 0
