"""Lost Gems with tiles running the firmware on real MicroPython (co-simulation): a deal of a
line of six at 10% loss and a first play by triple-click; keeping state: a shard in a hand
sleeps after 10 minutes, wakes on a press with its state intact, and comes back the same after
a reset (its saved blob read back by MicroPython); and the deal's safety with MicroPython
tiles: re-deals on noisy links are all or nothing, a tile lifted after its READY shows
uncertain and takes its shard once back, a tile reset after its READY comes back uncertain
(from the vote MicroPython saved) and learns the outcome."""

import shutil
from contextlib import contextmanager

import pytest
from games.lostgems import LostGems
from lg_story import (
    deal,
    deck_counter,
    first_play,
    hand_out,
    hold_and_fire,
    logs,
    phase,
    settle,
    shard,
    shown,
    state,
    states,
    table_outcome,
    take_into_hand,
)
from runtime import tile as runtime_tile

from simulator.world import World, shapes

cosim = pytest.importorskip("simulator.cosim.cluster")
needs_micropython = pytest.mark.skipif(
    shutil.which("micropython") is None, reason="no micropython command"
)


@contextmanager
def lostgems_world(cells, on_micropython, seed, ir_loss=0.0, bit_flip=0.0):
    """Lost Gems on `cells`, the first `on_micropython` tiles on MicroPython, settled 300 ms."""
    w = World(seed=seed, ir_loss=ir_loss, bit_flip=bit_flip, bit_rate=4000)
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


@needs_micropython
def test_redeals_on_noisy_links_with_every_tile_on_micropython_are_all_or_nothing():
    outcomes = []
    for seed, loss, flips in ((21, 0.3, 0.001), (23, 0.1, 0.01)):
        with lostgems_world(shapes.ring(6), 6, seed) as w:
            deal(w, 0)
            old = shown(w)
            w.ir.loss, w.ir.bit_flip = loss, flips
            hold_and_fire(w, 3)
            settle(w, 3)
            outcomes.append(table_outcome(w, old))
    assert "new" in outcomes


@needs_micropython
def test_a_micropython_tile_lifted_after_its_ready_is_uncertain_then_takes_its_shard():
    with lostgems_world(shapes.line(6), 2, seed=24, ir_loss=0.1) as w:
        deal(w, 5)
        old = shown(w)
        hold_and_fire(w, 5)
        assert w.run_until(lambda: phase(w, 1) == "prepared" and phase(w, 5) == "dealing", 20000)
        cell = w.position(0)[:2]
        w.lift(0)  # on MicroPython; voted, and its READY reached tile 1
        assert w.run_until(lambda: w.inspect(5)["deal"]["result"] == "dealt 6", 20000)
        assert w.run_until(lambda: state(w, 0) == "uncertain", 5000)
        assert w.inspect(0)["micropython"]
        w.advance(10000)
        assert state(w, 0) == "uncertain"
        w.place(0, *cell)
        assert w.run_until(lambda: state(w, 0) == "face down", 10000)
        assert table_outcome(w, old) == "new"


@needs_micropython
def test_a_micropython_tile_reset_after_its_ready_comes_back_uncertain_and_learns():
    with lostgems_world(shapes.line(6), 3, seed=25) as w:
        deal(w, 5)
        old = shown(w)
        hold_and_fire(w, 5)
        assert w.run_until(lambda: phase(w, 2) == "prepared" and phase(w, 3) != "prepared", 20000)
        w.reset_tile(2)  # on MicroPython: its vote was saved there
        w.advance(60)
        assert state(w, 2) == "uncertain"
        assert w.run_until(
            lambda: "uncertain" not in states(w) and "dealing" not in states(w), 20000
        )
        assert table_outcome(w, old) == "new"
