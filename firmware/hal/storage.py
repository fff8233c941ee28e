"""The tile's saved state on its flash filesystem, written atomically.

A save writes a new file and renames it over the old one: littlefs (the rp2 port's filesystem)
renames atomically, so a reset or a flat battery mid-save leaves the old state or the new one,
never half of each.
"""

import os

STATE_FILE = "tile_state.bin"


def read_file(path):
    """The file's bytes, or None when there is none."""
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError:
        return None


def write_atomic(path, data):
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(data)
    os.rename(tmp, path)
