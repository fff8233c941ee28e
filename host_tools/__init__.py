"""Host side of the tiles: the `blinks` command, the serial bridge (ports, flash, monitor)."""

from host_tools.firmware_tree import put_firmware_on_path

put_firmware_on_path()  # the firmware's packages by their tile names: see firmware_tree.py
