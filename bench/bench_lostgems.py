"""Lost Gems figures: what one tile costs on real MicroPython (the deal's figures are in
bench_deal.py).

- mpy_loop_us: median microseconds of one game loop() pass of a face-down Lost Gems tile with
  six neighbours, on the real `micropython` command (goal <= 60); mpy_step_us is the whole
  runtime pass around it (frames in and out, button, LEDs).
- mpy_heap_kb: heap in use after setup() on MicroPython (gc.mem_alloc() after gc.collect()),
  counted from after the runtime's import, as tests/firmware/mpy_heap.py does: the game's
  bytecode plus the tile's and game's objects (goal <= 32). The runtime is every module a game
  builds on: tile, link, colors, and since the deal became game-agnostic (issue 33) deal and
  courier too; before, Lost Gems carried its own deal and it was counted with the game. On the unix port bytecode lives in
  the heap and objects are 64-bit; mpy_heap_code_kb is the game's bytecode part, and
  mpy_heap_total_kb counts the runtime's bytecode too.
  These figures (and the loop times) are of the form a tile runs: the image `blinks flash`
  deploys, every module compiled to .mpy by simulator.mpy.build. mpy_heap_source_kb and
  mpy_heap_source_code_kb are the same measure importing the .py sources (the simulator's
  co-simulation does that): there the compiler runs in the same heap and interns every local
  name, so that figure moves by a KB or more with the heap's layout; the .mpy one is steady.
- mpy_alloc_per_pass: bytes a steady pass of that face-down tile allocates (runtime + game, six
  value frames in, replies out), gc.mem_alloc() with collection off. Goal: 0. The same on an
  emulated RP2040 with the rp2 HAL is bench_rp2's rp2_alloc_per_pass.
"""

import os
import shutil
import subprocess
import sys
import tempfile

from simulator.mpy.host_micropython import micropython_command

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")

MPY_SCRIPT = r'''
import gc
import time
gc.collect()
empty = gc.mem_alloc()
from runtime.tile import Tile
from runtime import colors, courier, deal, link
from runtime.hal_contract import Hal as RuntimeHal
gc.collect()
base = gc.mem_alloc()
from games.lostgems import LostGems, shards, store
gc.collect()
code = gc.mem_alloc() - base


class BenchHal(RuntimeHal):
    """Six face-down neighbours: a value frame (0) arrives on every face before every pass."""

    def __init__(self):
        self.t = 0
        self.blob = store.encode(store.FACE_DOWN, shards.parse("R2"), 0, 0)
        self.rx_frame = link.VALUE_FRAME[0]
        self.rx_ms = 0
        self.given = [-1] * 6  # the time each face last got its frame

    def millis(self):
        return self.t

    def button_edges(self):
        return ()

    def send_frame(self, face, data):
        return True

    def receive_frame(self, face):
        if self.given[face] == self.t:
            return 0
        self.given[face] = self.t
        self.rx_ms = self.t
        return 2

    def show(self, colors):
        pass

    def entropy(self):
        return 12345

    def serial_number(self):
        return b"\x01\x02\x03\x04\x05\x06\x07\x08"

    def load(self):
        return self.blob

    def save(self, data):
        self.blob = bytes(data)

    def log(self, text):
        pass


hal = BenchHal()
tile = Tile(hal, LostGems)
tile.step()
gc.collect()
heap = gc.mem_alloc()
game = tile.game
info = tile.inspect()
assert info["state"] == "face down" and info["expired"] == [False] * 6, info
loops = []
steps = []
for i in range(PASSES):
    hal.t += 20
    t0 = time.ticks_us()
    tile.step()
    t1 = time.ticks_us()
    game.loop()
    t2 = time.ticks_us()
    steps.append(time.ticks_diff(t1, t0))
    loops.append(time.ticks_diff(t2, t1))
loops.sort()
steps.sort()
assert tile.inspect()["state"] == "face down"
gc.collect()
gc.disable()
before = gc.mem_alloc()
for i in range(100):
    hal.t += 20
    tile.step()
alloc = (gc.mem_alloc() - before) // 100
gc.enable()
print("RESULT", loops[len(loops) // 2], steps[len(steps) // 2], heap - base, code, heap - empty, alloc)
'''


# {figure: (what it measures, goal)}: docs/benchmarks.md's rows (bench/run.py checks every key).
FIGURES = {
    "mpy_loop_us": (
        "Median us of one Lost Gems loop() on the MicroPython unix port (x86), face down, six neighbours.",
        "≤ 60",
    ),
    "mpy_step_us": (
        "Median us of the whole runtime pass around that loop (frames, button, LEDs).",
        "—",
    ),
    "mpy_heap_kb": (
        "Heap after setup() on MicroPython, deployed .mpy form, counted after the runtime's import, kB.",
        "≤ 32",
    ),
    "mpy_alloc_per_pass": ("Bytes a steady pass of that tile allocates on MicroPython.", "0"),
    "mpy_heap_code_kb": ("The game's bytecode part of that heap, kB.", "—"),
    "mpy_heap_total_kb": ("That heap with the runtime's bytecode counted too, kB.", "—"),
    "mpy_heap_source_kb": ("mpy_heap_kb importing the .py sources instead of .mpy, kB.", "—"),
    "mpy_heap_source_code_kb": ("mpy_heap_code_kb importing the .py sources, kB.", "—"),
}


def deployed_firmware(into):
    """Write the image `blinks flash` puts on a tile (every module compiled to .mpy) under `into`,
    at the same relative path as on the tile's flash; returns that path ("fw/<build>")."""
    sys.path.insert(0, ROOT)
    from simulator.mpy import build
    from simulator.mpy.host_micropython import native_arch

    image = build.build(game="games.lostgems:LostGems").for_arch(native_arch())
    image.write_under(into)
    return image.fw_dir


def run_tile_script(exe, cwd, firmware_dir, passes):
    """(loop_us, step_us, heap, code, total, alloc) of one tile, importing the firmware from firmware_dir.

    firmware_dir is relative to cwd, as on a tile (every module's __file__ is kept in the heap,
    so an absolute path would make the figure depend on where the checkout lives)."""
    # A private folder: MicroPython puts the script's folder first on its import path, so a
    # /tmp/games or /tmp/runtime left by anything else would hide the firmware.
    folder = tempfile.mkdtemp(prefix="bench-lostgems-")
    path = os.path.join(folder, "tile_bench.py")
    with open(path, "w") as f:
        f.write(MPY_SCRIPT.replace("PASSES", str(passes)))
    try:
        out = subprocess.run(
            [exe, path],
            env=dict(os.environ, MICROPYPATH=firmware_dir),
            cwd=cwd,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    lines = [line for line in out.stdout.splitlines() if line.startswith("RESULT ")]
    if out.returncode != 0 or not lines:
        raise RuntimeError("micropython bench failed: " + out.stdout + out.stderr)
    return tuple(int(x) for x in lines[-1].split()[1:])


def kb(n):
    return round(n / 1024, 1)


def mpy_figures(quick):
    exe = micropython_command()
    if exe is None:
        return {"mpy_loop_us": None, "mpy_step_us": None, "mpy_heap_kb": None}
    passes = 500 if quick else 5000
    with tempfile.TemporaryDirectory() as tmp:
        loop_us, step_us, heap, code, total, alloc = run_tile_script(
            exe, tmp, deployed_firmware(tmp), passes
        )
    source = run_tile_script(exe, ROOT, "firmware", 1)
    return {
        "mpy_loop_us": loop_us,
        "mpy_step_us": step_us,
        "mpy_heap_kb": kb(heap),
        "mpy_alloc_per_pass": alloc,
        "mpy_heap_code_kb": kb(code),
        "mpy_heap_total_kb": kb(total),
        "mpy_heap_source_kb": kb(source[2]),
        "mpy_heap_source_code_kb": kb(source[3]),
    }


def run(quick: bool) -> dict:
    sys.path.insert(0, ROOT)
    sys.path.insert(0, FIRMWARE)
    return mpy_figures(quick)


if __name__ == "__main__":
    print(run("--quick" in sys.argv))
