"""Lost Gems with tiles running the firmware on real MicroPython (co-simulation): a deal of a
line of six at 10% loss and a first play by triple-click; and keeping state: a shard in a hand
sleeps after 10 minutes, wakes on a press with its state intact, and comes back the same after
a reset (its saved blob read back by MicroPython)."""

import shutil
from contextlib import contextmanager

import pytest
from games.lostgems import LostGems
from lg_story import (
    deal,
    deck_counter,
    first_play,
    hand_out,
    logs,
    shard,
    state,
    states,
    take_into_hand,
)
from runtime import tile as runtime_tile

from simulator.world import World, shapes

cosim = pytest.importorskip("simulator.cosim.cluster")
needs_micropython = pytest.mark.skipif(
    shutil.which("micropython") is None, reason="no micropython command"
)


@contextmanager
def lostgems_world(cells, on_micropython, seed, ir_loss=0.0):
    """Lost Gems on `cells`, the first `on_micropython` tiles on MicroPython, settled 300 ms."""
    w = World(seed=seed, ir_loss=ir_loss)
    runners = cosim.mpy_runners(on_micropython, tiles=len(cells))
    try:
        for i, (q, r) in enumerate(cells):
            w.add_tile(LostGems, q=q, r=r, runner=runners.get(i))
        w.advance(300)
        yield w
    finally:
        cosim.close_runners(w)


@needs_micropython
def test_a_deal_and_a_first_play_with_tiles_on_micropython():
    with lostgems_world(shapes.line(6), 6, seed=11, ir_loss=0.1) as w:
        deal(w, 0)
        assert states(w) == ["face down"] * 6
        assert hand_out(w) == deck_counter(1)
        mpy_tile = 1
        first_play(w, mpy_tile)
        expected = "played" if shard(w, mpy_tile) == "R1" else "error"
        assert state(w, mpy_tile) == expected


@needs_micropython
def test_a_shard_on_micropython_sleeps_wakes_and_survives_a_reset_as_it_was():
    with lostgems_world(shapes.blob(6), 1, seed=13) as w:
        deal(w, 3)
        mpy_tile = 0
        dealt = w.inspect(mpy_tile)["shard"]
        take_into_hand(w, mpy_tile)
        w.double_click(mpy_tile)
        assert state(w, mpy_tile) == "revealed"
        w.advance(runtime_tile.SLEEP_MS + 1000)
        assert w.inspect(mpy_tile)["asleep"] and w.leds(mpy_tile) == [0] * 6
        w.click(mpy_tile)  # wakes it (the runtime swallows the waking press)
        info = w.inspect(mpy_tile)
        assert not info["asleep"] and max(w.leds(mpy_tile)) > 0
        assert (info["state"], info["shard"]) == ("revealed", dealt)
        w.reset_tile(mpy_tile)
        w.advance(300)
        assert (state(w, mpy_tile), w.inspect(mpy_tile)["shard"]) == ("revealed", dealt)
        assert any(line.startswith("LG restore ") for line in logs(w, mpy_tile))
