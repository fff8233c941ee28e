"""A deployed tile on the real micropython, as every game's heap test measures it: its heap
after setup (counted from after the runtime's import, deal and courier included, as
bench/bench_lostgems.py counts it) and the bytes a steady pass allocates (gc off,
gc.mem_alloc() before and after 100 passes), each in positions the game's test sets up."""

import os
import subprocess

import pytest

from simulator.mpy import build, host_micropython
from simulator.mpy.host_micropython import micropython_command

MICROPYTHON = micropython_command()
BUDGET = 32 * 1024  # the heap a tile may use after setup (issue 3)
needs_micropython = pytest.mark.skipif(
    MICROPYTHON is None, reason="the micropython command is not installed"
)

SCRIPT = r"""
import gc
from runtime.tile import Tile
from runtime import colors, courier, deal, link
from runtime.hal_contract import Hal as RuntimeHal
gc.collect()
base = gc.mem_alloc()
from games.{game} import {cls} as Game, store


class Hal(RuntimeHal):
    def __init__(self, blob, values):
        self.t = 0
        self.blob = blob
        self.values = values  # the value each face's neighbour sends
        self.rx_frame = link.VALUE_FRAME[0]
        self.rx_ms = 0
        self.given = [-1] * 6

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
        self.rx_frame = link.VALUE_FRAME[self.values[face]]
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


def measure(blob, values, state):
    hal = Hal(blob, values)
    tile = Tile(hal, Game)
    for i in range(20):
        hal.t += 20
        tile.step()
    assert tile.inspect()["state"] == state, tile.inspect()
    gc.collect()
    heap = gc.mem_alloc() - base
    gc.disable()
    before = gc.mem_alloc()
    for i in range(100):
        hal.t += 20
        tile.step()
    alloc = (gc.mem_alloc() - before) // 100
    gc.enable()
    return heap, alloc


{cases}
results = [measure(blob, values, state) for blob, values, state in cases]
print("RESULT", results[0][0], *[alloc for _, alloc in results])
"""


def deployed(into, game, cls):
    """The image `blinks flash --game GAME` puts on a tile (.mpy), written under `into`."""
    image = build.build(game=f"games.{game}:{cls}")
    return image.for_arch(host_micropython.native_arch()).write_under(into)


def steady_passes(into, game, cls, cases):
    """(heap after setup in bytes, [bytes allocated per steady pass, one a case]) of a tile of
    firmware game `games.GAME` (class `cls`) deployed under `into`. `cases` is MicroPython code
    that sets `cases` to [(saved blob, the six neighbours' face values, the state the tile
    settles in)], with the game's `store` and `record = bytes(4)` at hand."""
    firmware = deployed(str(into), game, cls)
    assert os.path.exists(os.path.join(firmware, "games", game, "game.mpy"))
    script = SCRIPT.replace("{game}", game).replace("{cls}", cls).replace("{cases}", cases)
    out = subprocess.run(
        [MICROPYTHON, "-X", "heapsize=192K", "-c", script],
        env=dict(os.environ, MICROPYPATH=firmware),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    heap, *allocs = map(int, out.stdout.split("RESULT")[1].split())
    return heap, allocs


def assert_steady_and_within_budget(into, game, cls, cases):
    """A tile of `games.GAME` allocates nothing in a steady pass of any of `cases` (as
    steady_passes takes them), and its heap after setup fits the BUDGET."""
    heap, allocs = steady_passes(into, game, cls, cases)
    assert allocs == [0] * len(allocs)
    assert 0 < heap <= BUDGET, heap
