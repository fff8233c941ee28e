"""Where the emulated tiles' two binaries come from: MicroPython's UF2 and the RP2040 bootrom.

Neither is part of this project. Each is looked for in this order: the command line option,
an environment variable (BLINKS_RP2_FIRMWARE, BLINKS_RP2_BOOTROM), then the data folder
$XDG_DATA_HOME/blinks/rp2/ (usually ~/.local/share/blinks/rp2/) as `firmware.uf2` and
`bootrom.bin`. When one is missing, the error says where a user gets it.
"""

import os

FIRMWARE_ENV = "BLINKS_RP2_FIRMWARE"
BOOTROM_ENV = "BLINKS_RP2_BOOTROM"
BOOTROM_BYTES = 16384

FIRMWARE_HELP = (
    "the official MicroPython UF2 for the Raspberry Pi Pico (board RPI_PICO, 1.24 or newer) "
    "from https://micropython.org/download/RPI_PICO/"
)
BOOTROM_HELP = (
    "the RP2040's 16 KB mask ROM (revision B1): read it from any Pico with "
    "`picotool save -r 0 0x4000 bootrom.bin`, or build it from Raspberry Pi's "
    "pico-bootrom-rp2040 sources (https://github.com/raspberrypi/pico-bootrom-rp2040, tag b1)"
)


class MissingImage(FileNotFoundError):
    """A binary the emulator needs is not where it was looked for; the message says where to
    get it."""


def data_dir():
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(
        os.path.expanduser("~"), ".local", "share"
    )
    return os.path.join(base, "blinks", "rp2")


def _find(given, env, default_name, what, help_text):
    if given:
        source, path = "the path given", given
    elif os.environ.get(env):
        source, path = env, os.environ[env]
    else:
        source, path = "the default place", os.path.join(data_dir(), default_name)
    if not os.path.isfile(path):
        raise MissingImage(
            f"no {what} at {path} ({source}). Get {help_text}; then put it at "
            f"{os.path.join(data_dir(), default_name)}, set {env}, or pass it on the command line"
        )
    return os.path.abspath(path)


def firmware_path(given=None):
    path = _find(given, FIRMWARE_ENV, "firmware.uf2", "MicroPython firmware", FIRMWARE_HELP)
    with open(path, "rb") as f:
        if f.read(8) != b"UF2\nWQ]\x9e":
            raise MissingImage(f"{path} is not a UF2 file: expected {FIRMWARE_HELP}")
    return path


def bootrom_path(given=None):
    path = _find(given, BOOTROM_ENV, "bootrom.bin", "RP2040 bootrom", BOOTROM_HELP)
    if os.path.getsize(path) != BOOTROM_BYTES:
        raise MissingImage(f"{path} is not a 16 KB bootrom: expected {BOOTROM_HELP}")
    return path
