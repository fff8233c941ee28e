"""Emulated tiles that already hold a game: the chip of a Pico that `blinks uf2`'s file made.

A builder without a USB cable to spare drags one UF2 onto each board in BOOTSEL mode: the
official MicroPython with the build laid on its filesystem as `blinks flash` lays it
(host_tools.bridge.tile_uf2). The emulated tiles start from the same file, written into a blank
chip as the bootloader writes it, so `blinks emu --window --game NAME` has a flashed table at
once. The flash over USB serial is `blinks flash`'s, and the emulated-tile tests run it.
"""

import os

from host_tools.bridge import fs_image, uf2
from host_tools.bridge.tile_uf2 import make_tile_uf2, read_micropython_uf2


def drop_uf2(flash, data):
    """A UF2 file dragged onto a Pico in BOOTSEL mode: its pages written into `flash` (a whole
    chip's bytes), every other page left as it was."""
    for address, page in uf2.flash_pages(uf2.read_blocks(data)).items():
        at = address - fs_image.FLASH_BASE
        flash[at : at + len(page)] = page


def uf2_chip(image, firmware):
    """The flash of a blank Pico once `blinks uf2`'s file for `image` (a build) over the
    MicroPython UF2 at `firmware` was dragged onto it. Raises TileUf2Error if the two do not
    fit (an .mpy format this MicroPython would not import)."""
    with open(firmware, "rb") as f:
        micropython = read_micropython_uf2(f.read())
    flash = bytearray(b"\xff" * fs_image.FLASH_BYTES)  # erased, as the emulator makes a chip
    drop_uf2(flash, make_tile_uf2(micropython, image))
    return flash


def give_tiles(flash, state_dir, tiles):
    """Tiles 0..tiles-1 of `state_dir` start with `flash` (their chips, byte for byte)."""
    os.makedirs(state_dir, exist_ok=True)
    for i in range(tiles):
        with open(os.path.join(state_dir, f"tile{i}.flash"), "wb") as f:
            f.write(flash)
