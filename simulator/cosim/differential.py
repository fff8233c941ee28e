"""Differential runs: one scenario, one seed, in-process and on MicroPython; where they part.

`record()` builds a world, runs a scenario (a function of the world, moving tiles as hands
would) and records everything observable: the LED frame after every tile pass, every infrared
frame with its fate (the world's IR trace), and at the end each tile's log, storage and
inspector view. `first_difference()` compares two recordings and says, in words, where the
first divergence is. Because the world is deterministic, any difference between a run with some
tiles on MicroPython and the all-in-process run is a MicroPython difference in the firmware (or
a co-simulation fault, which `interpreter="cpython"` tells apart).
"""

import json

from runtime.tile import Tile

from simulator.cosim.runner import MpyTileRunner
from simulator.world import World


class _RecordingRunner:
    """Wraps a tile runner; records the tile's LED frame after each of its passes."""

    def __init__(self, inner, hal, passes):
        self.inner = inner
        self.micropython = getattr(inner, "micropython", False)
        self._hal = hal
        self._passes = passes

    def step(self):
        self.inner.step()
        hal = self._hal
        self._passes.append((hal.millis(), hal.tile_id, tuple(hal.leds)))

    def inspect(self):
        return self.inner.inspect()

    def reset(self):
        self.inner.reset()

    def close(self):
        close = getattr(self.inner, "close", None)
        if close is not None:
            close()


class Recording:
    """What one run showed: passes [(ms, tile, leds)], traffic [(ms, tile, face, bytes, fate)],
    and per tile at the end: logs, storage, inspect views (without the co-simulation's
    "micropython" mark and "heap" figures)."""

    def __init__(self, passes, traffic, logs, storage, views, end_ms):
        self.passes = passes
        self.traffic = traffic
        self.logs = logs
        self.storage = storage
        self.views = views
        self.end_ms = end_ms


def record(
    game_class,
    cells,
    scenario,
    seed=0,
    ir_loss=0.0,
    mpy=(),
    interpreter="micropython",
    **world_options,
):
    """Run `scenario(world)` on tiles of `game_class` at `cells`; tiles whose index is in `mpy`
    run on MicroPython (or under `interpreter`). Returns a Recording."""
    world = World(seed=seed, ir_loss=ir_loss, **world_options)
    world.ir.trace = []
    passes = []
    mpy = set(mpy)

    def make(hal, game):
        if hal.tile_id in mpy:
            inner = MpyTileRunner(hal, game, interpreter=interpreter)
        else:
            inner = Tile(hal, game)
        return _RecordingRunner(inner, hal, passes)

    try:
        for q, r in cells:
            world.add_tile(game_class, q=q, r=r, runner=make)
        scenario(world)
        views = []
        for tid in world.tiles:
            # A co-simulated view has crossed the pipe as JSON (tuples arrive as lists): compare
            # every view in that form.
            view = json.loads(json.dumps(world.inspect(tid)))
            view.pop("micropython", None)
            view.pop("heap", None)
            views.append(view)
        hals = [world.hal(tid) for tid in world.tiles]
        return Recording(
            passes,
            world.ir.trace,
            [list(hal.log_lines) for hal in hals],
            [hal.storage for hal in hals],
            views,
            world.now,
        )
    finally:
        for tid in world.tiles:
            world.runner(tid).close()


def first_difference(a, b):
    """None when the recordings match; otherwise one line saying where they first differ
    (the earlier in simulated time of the first differing pass and the first differing frame)."""
    found = []
    for name, ours, theirs in (("pass", a.passes, b.passes), ("frame", a.traffic, b.traffic)):
        for i in range(min(len(ours), len(theirs))):
            if ours[i] != theirs[i]:
                when = min(ours[i][0], theirs[i][0])
                found.append((when, f"{name} {i} at {when} ms: {ours[i]!r} != {theirs[i]!r}"))
                break
        else:
            if len(ours) != len(theirs):
                found.append((a.end_ms, f"{name} count {len(ours)} != {len(theirs)}"))
    if found:
        return min(found)[1]
    for what in ("logs", "storage", "views"):
        ours, theirs = getattr(a, what), getattr(b, what)
        if len(ours) != len(theirs):
            return f"tile count {len(ours)} != {len(theirs)}"
        for tid in range(len(ours)):
            if ours[tid] != theirs[tid]:
                return f"tile {tid} {what}: {ours[tid]!r} != {theirs[tid]!r}"
    return None
