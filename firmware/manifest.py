"""What goes on a tile, in MicroPython's manifest format (docs: reference/manifest).

`blinks flash` sends the modules listed here (compiled to .mpy) and builds main.py and
tile_config.json itself. To freeze the firmware into a MicroPython image instead, include this
file from a board manifest after the port's own:

    include("$(PORT_DIR)/boards/manifest.py")
    include("/path/to/firmware/manifest.py")

and copy main.py to the tile's filesystem. Paths here are relative to this file.
"""

# Only a manifest reader defines package() and friends: imported as a module (every file under
# firmware/ must import on MicroPython), this file does nothing.
if "package" in globals():
    metadata(description="Blinks tile firmware: runtime, HAL and games")
    package("runtime")  # the tile API a game uses
    package("hal")  # rp2 board HAL, and the headless one virtual tiles and co-simulation run
    package("games")  # Lost Gems, Waterfall and the demo; tile_config.json names the one that runs
