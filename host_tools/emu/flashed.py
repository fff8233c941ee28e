"""Emulated tiles that already hold a game: one tile flashed by `blinks flash`, its flash cloned.

A builder flashes one tile and then the rest; emulated tiles of the same MicroPython and build
end up with the same flash image byte for byte, so the image of one tile flashed for real
(host_tools.cli.flash over its emulated USB serial port, in fast mode) is kept in the cache and
copied to every tile that needs it. `blinks emu --window --game NAME` uses this to start with a
flashed table. (The emulated-tile tests start most tiles from `blinks uf2`'s file instead, made
on the host in a moment; they use this where a tile must be one `blinks flash` wrote.)
"""

import fcntl
import hashlib
import os
import shutil
import tempfile

from simulator.cache_folder import cache_root


def cache_dir():
    return os.path.join(cache_root(), "emu-flash")


def flash_image_path(image, firmware, folder=None):
    """Where the flash image of one tile holding `image` over the MicroPython UF2 `firmware`
    is kept (made by flash_tiles if missing)."""
    with open(firmware, "rb") as f:
        uf2 = hashlib.sha256(f.read()).hexdigest()[:12]
    return os.path.join(folder or cache_dir(), f"{image.build}-{uf2}.flash")


def flash_tiles(image, state_dir, tiles, firmware, bootrom, folder=None):
    """Give tiles 0..tiles-1 of `state_dir` a flash that `blinks flash` put `image` on; returns
    the cached image's path. The first call flashes one emulated tile for real (a minute or so);
    later calls, from any process, copy what it left. Raises RuntimeError if that flash fails."""
    from host_tools.cli.flash import flash_all
    from host_tools.emu.cluster import EmuCluster

    cached = flash_image_path(image, firmware, folder)
    os.makedirs(os.path.dirname(cached), exist_ok=True)
    with open(cached + ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # parallel callers wait for one flash
        if not os.path.exists(cached):
            work = tempfile.mkdtemp(prefix="blinks-flash-")
            try:
                with EmuCluster(
                    tiles=1, state_dir=work, mode="fast", firmware=firmware, bootrom=bootrom
                ) as one:
                    result = flash_all(one.ports, image, quiet=True)[0]
                    if not result.ok:
                        raise RuntimeError(f"the flash of an emulated tile failed: {result.error}")
                shutil.copyfile(os.path.join(work, "tile0.flash"), cached + ".tmp")
                os.replace(cached + ".tmp", cached)
            finally:
                shutil.rmtree(work, ignore_errors=True)
    os.makedirs(state_dir, exist_ok=True)
    for i in range(tiles):
        shutil.copyfile(cached, os.path.join(state_dir, f"tile{i}.flash"))
    return cached
