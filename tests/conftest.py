"""Tests import the firmware by its tile names (`from runtime.tile import Tile`), as the host
packages do: the firmware tree goes on sys.path first (host_tools/firmware_tree.py)."""

from host_tools.firmware_tree import put_firmware_on_path

put_firmware_on_path()
