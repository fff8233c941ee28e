"""What a tile is and how its game runs: the first step of `blinks diag` (docs/hardware.md).

The host sends this file's source through the raw REPL right after a soft reset (the game
stopped, its hardware freed, main.py not run) and calls `probe()`. It is kept apart from
hal/diag.py, the link checks, so that the heap it reports is the game's: only these few lines
are compiled beside the game when the heap is measured, as bench/rp2/pass_probe.py measures it.

The pass time is the median of PASSES loop passes of the tile's own game on the real HAL, run
20 ms apart as main.py runs them, after WARM_PASSES that let the links come up (every tile of
the diag runs this at the same time, so a tile's neighbours talk to it meanwhile). The game's
saved state is read, never written: the HAL's save is replaced for the run, and the host
soft-resets the tile afterwards, so nothing of the game's run is kept.
"""

import binascii
import gc
import json
import os
import sys
import time

WARM_PASSES = 25
PASSES = 50
PASS_MS = 20
DEFAULT_GAME = "games.lostgems:LostGems"  # main.py's default, for a build with no config


def firmware_dir():
    """The build main.py runs (its FIRMWARE_DIR line, as `blinks flash` writes it), or None."""
    try:
        with open("main.py") as f:
            for line in f:
                if line.startswith('FIRMWARE_DIR = "'):
                    return line.split('"')[1]
    except OSError:
        pass
    return None


def _read_json(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def _game_class(name):
    module_name, _, class_name = name.partition(":")
    module = __import__(module_name)
    for part in module_name.split(".")[1:]:
        module = getattr(module, part)
    return getattr(module, class_name)


def _no_save(data):
    """The game's saves go nowhere during the diag: nothing is written on the tile."""


def probe():
    """The tile's release, board, serial and build, and its game's pass time and heap."""
    import machine  # here, not above: the module imports on the unix port too

    v = sys.implementation.version
    suffix = "-" + v[3] if len(v) > 3 and v[3] else ""
    info = {  # type: dict
        "micropython": "{}.{}.{}".format(*v[:3]) + suffix,
        "board": os.uname().machine,
        "serial": binascii.hexlify(machine.unique_id()).decode(),
        "firmware_dir": None,
        "firmware": None,
        "game": None,
    }
    fw = firmware_dir()
    if not fw:
        info["error"] = "no blinks build on this tile (main.py names no fw/<build>/): flash it"
        return info
    info["firmware_dir"] = fw
    version = _read_json(fw + "/version.json")
    if isinstance(version, dict):
        version.pop("files", None)
        info["firmware"] = version
    config = _read_json(fw + "/tile_config.json") or {}
    game = config.get("game", DEFAULT_GAME)
    info["game"] = game
    sys.path.insert(0, fw)
    from runtime.tile import Tile

    from hal.rp2_hal import Rp2Hal

    hal = Rp2Hal()
    hal.save = _no_save  # type: ignore[method-assign]
    tile = Tile(hal, _game_class(game))
    tile.step()  # the game's setup(): its saved state comes back
    gc.collect()
    info["heap_free"] = gc.mem_free()
    times = [0] * PASSES
    due = time.ticks_ms()
    for i in range(WARM_PASSES + PASSES):
        start = time.ticks_us()
        tile.step()
        if i >= WARM_PASSES:
            times[i - WARM_PASSES] = time.ticks_diff(time.ticks_us(), start)
        due = time.ticks_add(due, PASS_MS)
        wait = time.ticks_diff(due, time.ticks_ms())
        if wait > 0:
            time.sleep_ms(wait)
        if i % 10 == 9:
            print(".", end="")  # the host's read timeout counts from the last byte
    times.sort()
    info["pass_us"] = times[PASSES // 2]
    return info


def report(result):
    """One line of JSON after the dots: what the host reads."""
    print()
    print(json.dumps(result))
