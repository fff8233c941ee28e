"""Co-simulation: tiles whose firmware runs in real `micropython` processes, in lockstep with the world.

`MpyTileRunner` stands in for the runtime's `Tile` as a world tile's runner; `mpy_runners` and
`close_runners` (cluster.py) are what front ends call for `--mpy N`; the wire protocol is in
PROTOCOL.md and `protocol`; `tile_host` is the MicroPython side; `differential` compares a
co-simulated run with an in-process one.
"""

from simulator.cosim.cluster import close_runners, mpy_runners
from simulator.cosim.runner import CosimError, MpyTileRunner

__all__ = ["CosimError", "MpyTileRunner", "close_runners", "mpy_runners"]
