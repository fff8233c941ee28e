"""Where the firmware tree is, and putting it on sys.path so that `import runtime`, `import hal`
and `import games` mean on CPython what they mean on a tile.

On a tile, firmware/ is the board's root, so its packages are top-level. An installed host
environment does not claim those names in site-packages, where they could clash with other
distributions: a wheel ships the tree inside simulator as package data (simulator/firmware/),
a checkout (or an editable install of one) has it at firmware/ beside simulator/. Importing
`simulator` (which `host_tools` imports) puts it first on sys.path, as it is first on a tile's.
"""

import os
import sys

SIMULATOR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHIPPED = os.path.join(SIMULATOR, "firmware")  # a wheel's copy
CHECKOUT = os.path.join(os.path.dirname(SIMULATOR), "firmware")  # the source tree's


def firmware_dir():
    """The folder that holds main.py, runtime/, hal/ and games/ (a board's root)."""
    return SHIPPED if os.path.isfile(os.path.join(SHIPPED, "main.py")) else CHECKOUT


FIRMWARE = firmware_dir()


def put_firmware_on_path():
    """Make the firmware's packages importable by their tile names (once per process)."""
    if FIRMWARE not in sys.path:
        sys.path.insert(0, FIRMWARE)
