"""Simulator: the headless world, the pygame front end, co-simulation and scripted sessions,
and the firmware as MicroPython runs it off a tile (mpy/). The layer below host_tools: it
imports nothing of host_tools (docs/architecture.md)."""

from simulator.mpy.firmware_tree import put_firmware_on_path

put_firmware_on_path()  # the world runs the firmware's packages by their tile names
