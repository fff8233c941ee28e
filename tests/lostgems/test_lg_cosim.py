"""The deal with every tile running the firmware on real MicroPython (co-simulation): a line of
six at 10% loss, then a first play by triple-click."""

import shutil

import pytest
from games.lostgems import LostGems
from lg_story import deal, deck_counter, first_play, hand_out, shard, state, states

from simulator.world import World, shapes

cosim = pytest.importorskip("simulator.cosim.cluster")


@pytest.mark.skipif(shutil.which("micropython") is None, reason="no micropython command")
def test_a_deal_and_a_first_play_with_tiles_on_micropython():
    w = World(seed=11, ir_loss=0.1)
    runners = cosim.mpy_runners(6, tiles=6)
    try:
        for i, (q, r) in enumerate(shapes.line(6)):
            w.add_tile(LostGems, q=q, r=r, runner=runners.get(i))
        w.advance(300)
        deal(w, 0)
        assert states(w) == ["face down"] * 6
        assert hand_out(w) == deck_counter(1)
        mpy_tile = 1
        first_play(w, mpy_tile)
        expected = "played" if shard(w, mpy_tile) == "R1" else "error"
        assert state(w, mpy_tile) == expected
    finally:
        cosim.close_runners(w)
