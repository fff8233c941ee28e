"""Host side of the tiles: everything that runs on a computer and talks to tiles.

- cli/: the `blinks` command and the host tools' subcommands (flash, monitor, ports, diag, emu,
  uf2, fetch)
- bridge/: the serial bridge to real tiles, in layers: link (mpremote's transport with the
  limits it lacks), ports (finding and probing tiles), mpy_compat (whether a tile can load a
  build), deploy (one tile, safely), monitor and tile_states (reading logs);
  diag and diag_report (`blinks diag`: the bring-up check's phases and its judgement); and the
  one-file tile: uf2 (the container), binary_info (what a Pico program says of itself),
  fs_image (the littlefs image), tile_uf2 (the two together), bootsel (the Pico's UF2 drive)
- virtual_tile/: a board's USB REPL played by the real `micropython` unix port on a pty
- emu/: emulated RP2040 tiles running the official MicroPython firmware
- mirror/: a window drawing physical tiles' states, live or from a recorded session
- pins.py (the third-party binaries fetched on first use, each pinned by URL and SHA-256) and
  fetch.py (fetching one into the cache, kept only if it checks)

The layer above the simulator: the firmware build, the host's MicroPython and the firmware's
place on sys.path are simulator/mpy/'s, imported from here (never the other way round).
"""

import simulator  # noqa: F401 - puts the firmware's packages on sys.path by their tile names
