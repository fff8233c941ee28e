"""Keeping state with the tile's firmware on real MicroPython (co-simulation): a shard in a hand
sleeps after 10 minutes, wakes on a press with its state intact, and comes back the same after a
reset (its saved blob read back by MicroPython)."""

import shutil

import pytest
from games.lostgems import LostGems
from lg_story import deal, logs, state, take_into_hand
from runtime import tile as runtime_tile

from simulator.world import World, shapes

cosim = pytest.importorskip("simulator.cosim.cluster")


@pytest.mark.skipif(shutil.which("micropython") is None, reason="no micropython command")
def test_a_shard_on_micropython_sleeps_wakes_and_survives_a_reset_as_it_was():
    w = World(seed=13)
    runners = cosim.mpy_runners(1, tiles=6)
    try:
        for i, (q, r) in enumerate(shapes.blob(6)):
            w.add_tile(LostGems, q=q, r=r, runner=runners.get(i))
        w.advance(300)
        deal(w, 3)
        mpy_tile = 0
        shard = w.inspect(mpy_tile)["shard"]
        take_into_hand(w, mpy_tile)
        w.double_click(mpy_tile)
        assert state(w, mpy_tile) == "revealed"
        w.advance(runtime_tile.SLEEP_MS + 1000)
        assert w.inspect(mpy_tile)["asleep"] and w.leds(mpy_tile) == [0] * 6
        w.click(mpy_tile)  # wakes it (the runtime swallows the waking press)
        info = w.inspect(mpy_tile)
        assert not info["asleep"] and max(w.leds(mpy_tile)) > 0
        assert (info["state"], info["shard"]) == ("revealed", shard)
        w.reset_tile(mpy_tile)
        w.advance(300)
        assert (state(w, mpy_tile), w.inspect(mpy_tile)["shard"]) == ("revealed", shard)
        assert any(line.startswith("LG restore ") for line in logs(w, mpy_tile))
    finally:
        cosim.close_runners(w)
