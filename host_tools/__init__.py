"""Host side of the tiles: everything that runs on a computer and talks to tiles.

- cli/: the `blinks` command and the host tools' subcommands (flash, monitor, ports, emu, uf2,
  fetch)
- bridge/: the serial bridge to real tiles, in layers: link (mpremote's transport with the
  limits it lacks), ports (finding and probing tiles), build and manifest (what goes on a
  tile, as .mpy), mpy_compat, deploy (one tile, safely), monitor and tile_states (reading logs);
  and the one-file tile: uf2 (the container), binary_info (what a Pico program says of itself),
  fs_image (the littlefs image), tile_uf2 (the two together), bootsel (the Pico's UF2 drive)
- virtual_tile/: a board's USB REPL played by the real `micropython` unix port on a pty
- emu/: emulated RP2040 tiles running the official MicroPython firmware
- mirror/: a window drawing physical tiles' states, live or from a recorded session
- pins.py (the third-party binaries fetched on first use, each pinned by URL and SHA-256) and
  fetch.py (fetching one into the cache, kept only if it checks)
- host_micropython.py (the unix port the virtual tiles and co-simulation run) and
  firmware_tree.py (the firmware's packages by their tile names)
"""

from host_tools.firmware_tree import put_firmware_on_path

put_firmware_on_path()  # the firmware's packages by their tile names: see firmware_tree.py
