"""Host side of the tiles: the `blinks` command, the serial bridge (ports, flash, monitor)."""
