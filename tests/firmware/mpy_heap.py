"""MicroPython-only check: heap in use after a tile's setup stays within the 32 KB budget.

Prints `heap_after_setup=N` (bytes allocated after gc.collect() with one tile built and its
game set up); the pytest wrapper asserts the figure.
"""

import gc

from rt_hal import make, run_to


def measure(game_module="games.demo", game_name="Demo"):
    gc.collect()
    base = gc.mem_alloc()
    module = __import__(game_module, None, None, [game_name])
    hal, tile = make(getattr(module, game_name))
    run_to(hal, tile, 100)
    hal.sent = []
    gc.collect()
    return gc.mem_alloc() - base


print(f"heap_after_setup={measure()}")
