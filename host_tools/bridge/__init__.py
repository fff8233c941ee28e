"""The serial bridge to tiles over USB: transport, ports, builds, flashing, logs.

Layers, lowest first: link (a tile's serial link through mpremote's transport), ports (which
ports are tiles, and what each runs), manifest and build (the firmware image), mpy_compat
(can the tile load it), deploy (one image onto one tile, safely), monitor and tile_states
(many tiles' output, parsed). The `blinks` subcommands in host_tools.cli drive them.
"""
