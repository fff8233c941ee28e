"""The headless world: tiles on a hex grid, face pairing, infrared links, a virtual clock.

Never imports pygame. `World` (world.py) is the entry point; `shapes` gives cluster layouts,
`grid` the geometry, `ir` the link model, `tile_hal` each tile's HAL.

The seam for other tile runners (co-simulation): the world talks to a tile only through
(1) its `SimHal`, the queues of inputs and outputs (button edges, frames per face, LED colours,
storage, log), and (2) a runner object with `step()` (run one pass now, calling the HAL),
`inspect()` (a JSON-able dict) and `reset()` (power cycle, storage kept). `World.add_tile(game,
q, r, rotation, runner=make)` calls `make(hal, game_class)` to build it; the default is the
runtime's own `Tile`. A runner that drives a separate MicroPython process forwards that process's
HAL calls to the `SimHal` it was given, at the world's current time.
"""

from simulator.world.world import OccupiedError, World

__all__ = ["OccupiedError", "World"]
