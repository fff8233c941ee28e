"""The firmware as MicroPython runs it off a tile: where its tree is (firmware_tree), the .mpy
image a tile receives (build, manifest), and the host's own MicroPython, the unix port
(host_micropython). The co-simulation needs all three, and so do the host tools that flash and
emulate tiles: they live here, in the lower layer, which host_tools imports."""
