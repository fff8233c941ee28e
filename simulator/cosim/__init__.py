"""Co-simulation: tiles whose firmware runs in real `micropython` processes, in lockstep with the world.

`MpyTileRunner` stands in for the runtime's `Tile` as a world tile's runner; the wire protocol is
described in PROTOCOL.md and `cosim_protocol`; `cosim_host` is the MicroPython side.
"""

from simulator.cosim.runner import CosimError, MpyTileRunner

__all__ = ["CosimError", "MpyTileRunner"]
