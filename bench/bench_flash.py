"""flash_speedup: `blinks flash` to 6 tiles at once vs the official `mpremote cp`, one tile after another.

Both flash the same firmware files (the .mpy build `blinks flash` makes, plus main.py), to the
same places (fw/<build>/... and main.py at the root, checked file by file afterwards), to six
fresh virtual tiles running at board-like speed (host_tools.virtual_tile defaults: 100 kB/s
serial, 48 kB/s flash writes, 2 ms per executed command). Each tile is its own process, as a
board is its own machine. Goal: flash_speedup >= 4; flash_unchanged_s, the same command run again
with the build unchanged (a person iterating on a game), <= 1 s. flash_one_tile_s (blinks flash to a single
tile) splits the gain: seq/6 vs one tile is the per-tile gain (fewer, larger commands: base64 in
2 KB chunks against mpremote's 256-byte reprs), one tile vs six is the parallel gain.
With --quick the sequential baseline copies to 2 tiles and counts that time three times (each
tile of the baseline is flashed alone, one after another, so its time grows with the count).
"""

import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from host_tools import virtual_tile
from simulator.mpy.build import build
from simulator.mpy.host_micropython import native_arch

TILES = 6

# {figure: (what it measures, goal)}: docs/benchmarks.md's rows (bench/run.py checks every key).
FIGURES = {
    "flash_speedup": (
        "Sequential `mpremote cp` to 6 virtual tiles divided by `blinks flash` to the same 6 in parallel.",
        "≥ 4",
    ),
    "flash_seq_s": (
        "Wall s of `mpremote cp` to the 6 tiles one after another (with --quick: 2 tiles timed, times 3).",
        "—",
    ),
    "flash_parallel_s": ("Wall s of `blinks flash` to the 6 tiles at once.", "—"),
    "flash_one_tile_s": ("Wall s of `blinks flash` to one tile.", "—"),
    "flash_unchanged_s": (
        "Wall s of the same `blinks flash` to the 6 tiles again, the build unchanged.",
        "≤ 1",
    ),
    "flash_tiles": ("Tiles flashed in parallel.", "—"),
    "flash_bytes": ("Bytes of the build a tile receives.", "—"),
    "flash_files": ("Files of the build a tile receives, main.py included.", "—"),
    "flash_vt_byte_rate": ("The virtual tiles' serial rate, bytes per s.", "—"),
    "flash_vt_flash_rate": ("The virtual tiles' flash write rate, bytes per s.", "—"),
    "flash_vt_exec_latency_ms": ("The virtual tiles' time to run one command, ms.", "—"),
}


def start_tiles(base, name, count=TILES):
    procs, ports = [], []
    for i in range(count):
        flash = os.path.join(base, f"{name}{i}")
        p = subprocess.Popen(
            [sys.executable, "-m", "host_tools.virtual_tile", flash],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            text=True,
        )
        procs.append(p)
    for p in procs:
        ports.append(p.stdout.readline().strip())
    return procs, ports


def stop_tiles(procs):
    for p in procs:
        p.terminate()
    for p in procs:
        p.wait(10)


def write_files(image, dest):
    """The image as a directory tree: fw/<build>/... and main.py, for mpremote cp."""
    for rel, data in list(image.files.items()) + [("../../main.py", image.main_py)]:
        path = os.path.normpath(os.path.join(dest, image.fw_dir, rel))
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)


def mpremote_sequential(ports, files_dir):
    t0 = time.perf_counter()
    for port in ports:
        subprocess.run(
            [
                sys.executable,
                "-m",
                "mpremote",
                "connect",
                port,
                "cp",
                "-r",
                "fw",
                ":",
                "+",
                "cp",
                "main.py",
                ":main.py",
            ],
            cwd=files_dir,
            check=True,
            stdout=subprocess.DEVNULL,
        )
    return time.perf_counter() - t0


def blinks_parallel(ports):
    args = [sys.executable, "-m", "host_tools.cli", "flash", "--quiet"]
    for port in ports:
        args += ["--port", port]
    t0 = time.perf_counter()
    subprocess.run(args, cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - t0


# What the game itself writes on a tile's flash once it runs (hal/headless.py, hal/storage.py).
TILE_OWN_FILES = {"tile_serial.bin", "tile_state.bin"}


def flash_tree(flash_dir):
    """Every file on a tile's flash as {path: bytes}, but for the game's own state files."""
    tree = {}
    for top, _dirs, names in os.walk(flash_dir):
        for n in names:
            path = os.path.join(top, n)
            rel = os.path.relpath(path, flash_dir).replace(os.sep, "/")
            if rel not in TILE_OWN_FILES:
                with open(path, "rb") as f:
                    tree[rel] = f.read()
    return tree


def tiles_hold(base, name, image, count=TILES):
    """None if every tile holds exactly the image where boot and `blinks ports` look for it
    (fw/<build>/..., main.py at the root), else what is wrong. The whole tree is compared, so
    a baseline that copied the right bytes to the wrong places is caught, not timed."""
    want = {f"{image.fw_dir}/{rel}": data for rel, data in image.files.items()}
    want["main.py"] = image.main_py
    for i in range(count):
        have = flash_tree(os.path.join(base, f"{name}{i}"))
        if have != want:
            missing = sorted(set(want) - set(have))[:3]
            extra = sorted(set(have) - set(want))[:3]
            differ = sorted(p for p in set(want) & set(have) if want[p] != have[p])[:3]
            return f"{name}{i}: missing {missing}, unexpected {extra}, different {differ}"
    return None


def run(quick: bool) -> dict:
    image = build()
    with tempfile.TemporaryDirectory(prefix="bench-flash-") as base:
        files_dir = os.path.join(base, "files")
        write_files(image, files_dir)
        seq_tiles = 2 if quick else TILES
        procs, ports = start_tiles(base, "seq", count=seq_tiles)
        try:
            seq = mpremote_sequential(ports, files_dir) * TILES / seq_tiles
        finally:
            stop_tiles(procs)
        procs, ports = start_tiles(base, "par")
        try:
            par = blinks_parallel(ports)
            again = blinks_parallel(ports)  # the same build once more: a person iterating
        finally:
            stop_tiles(procs)
        procs, ports = start_tiles(base, "one", count=1)
        try:
            one = blinks_parallel(ports)
        finally:
            stop_tiles(procs)
        # blinks flash sends a tile the build's native code compiled for the tile's CPU (the
        # virtual tiles' MicroPython runs on this PC's); mpremote cp copies the files as built
        theirs = image.for_arch(native_arch() or image.arch)
        wrong = (
            tiles_hold(base, "seq", image, count=seq_tiles)
            or tiles_hold(base, "par", theirs)
            or tiles_hold(base, "one", theirs, count=1)
        )
        if wrong:
            raise RuntimeError("a tile did not end up with the firmware: " + wrong)
    return {
        "flash_speedup": round(seq / par, 2),
        "flash_seq_s": round(seq, 2),
        "flash_parallel_s": round(par, 2),
        "flash_one_tile_s": round(one, 2),  # blinks flash to one tile: the rest is parallelism
        # the whole `blinks flash` command again, the build unchanged (goal <= 1 s)
        "flash_unchanged_s": round(again, 2),
        "flash_tiles": TILES,
        "flash_bytes": image.total_bytes(),
        "flash_files": len(image.files) + 1,
        "flash_vt_byte_rate": virtual_tile.BYTE_RATE,
        "flash_vt_flash_rate": virtual_tile.FLASH_RATE,
        "flash_vt_exec_latency_ms": virtual_tile.EXEC_LATENCY * 1000,
    }


if __name__ == "__main__":
    print(run(quick="--quick" in sys.argv))
