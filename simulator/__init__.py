"""Simulator: the headless world, the pygame front end, co-simulation and scripted sessions."""

from host_tools.firmware_tree import put_firmware_on_path

put_firmware_on_path()  # the world runs the firmware's packages by their tile names
