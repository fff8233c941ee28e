"""Choosing which tiles of a world run on MicroPython, and ending their processes afterwards.

The front ends (`blinks sim --mpy N`, `blinks session run ... --mpy N`) and the Python API use
these two calls around `World.add_tile(..., runner=...)`:

    runners = mpy_runners(n, tiles=18)          # {tile index: runner factory}, the first n tiles
    for i, (q, r) in enumerate(cells):
        world.add_tile(LostGems, q=q, r=r, runner=runners.get(i))   # None: in-process
    ...
    close_runners(world)                        # end the MicroPython processes
"""

from simulator.cosim.runner import BOARD_HEAP, MpyTileRunner


def mpy_runners(count, tiles, heap=BOARD_HEAP, interpreter="micropython"):
    """{tile index: factory} putting the first `count` of `tiles` tiles on MicroPython.
    Raises ValueError for a count outside 0..tiles (nothing is started)."""
    if not isinstance(count, int) or isinstance(count, bool) or not 0 <= count <= tiles:
        raise ValueError(
            f"mpy_runners: count must be a whole number of tiles from 0 to tiles={tiles}, "
            f"not {count!r}"
        )

    def factory(hal, game_class):
        return MpyTileRunner(hal, game_class, heap=heap, interpreter=interpreter)

    return {i: factory for i in range(count)}


def close_runners(world):
    """End every co-simulated tile's process (in-process tiles have nothing to close)."""
    for tid in world.tiles:
        close = getattr(world.runner(tid), "close", None)
        if close is not None:
            close()
