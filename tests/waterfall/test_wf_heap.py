"""A steady pass of a Waterfall tile allocates nothing on MicroPython (gc off, gc.mem_alloc()
before and after 100 passes): a tile off the waterfall next to six others, and a waterfall tile
holding a pawn next to waterfall tiles. And a deployed tile's heap (the .mpy image `blinks
flash` sends) after setup stays within the 32 KB budget Lost Gems keeps, counted as
bench/bench_lostgems.py counts it: from after the runtime's import (deal and courier included)."""

import os
import subprocess

import pytest

from simulator.mpy import build, host_micropython
from simulator.mpy.host_micropython import micropython_command

MICROPYTHON = micropython_command()

SCRIPT = r"""
import gc
from runtime.tile import Tile
from runtime import colors, courier, deal, link
from runtime.hal_contract import Hal as RuntimeHal
gc.collect()
base = gc.mem_alloc()
from games.waterfall import Waterfall, store


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
    tile = Tile(hal, Waterfall)
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


record = bytes(4)
card = store.encode("card", 5, None, False, 15, [], "undealt", record)
heap, card_alloc = measure(card, [0] * 6, "card")
# up is face 2: its up-left neighbour (face 1) is a waterfall tile seen from its own
# down-right (2); the others are waterfall tiles too, and its down faces are free (0)
water = store.encode("waterfall", 10, 2, False, 14, [0], "undealt", record)
values = [32 | 2, 32 | 2, 0, 32 | 1, 0, 32 | 5]
_, water_alloc = measure(water, values, "waterfall")
print("RESULT", heap, card_alloc, water_alloc)
"""


def deployed(into):
    """The image `blinks flash --game waterfall` puts on a tile (.mpy), written under `into`."""
    image = build.build(game="games.waterfall:Waterfall")
    return image.for_arch(host_micropython.native_arch()).write_under(into)


@pytest.mark.skipif(MICROPYTHON is None, reason="the micropython command is not installed")
def test_steady_passes_allocate_nothing_and_the_heap_fits(tmp_path):
    firmware = deployed(str(tmp_path))
    assert os.path.exists(os.path.join(firmware, "games", "waterfall", "game.mpy"))
    out = subprocess.run(
        [MICROPYTHON, "-X", "heapsize=192K", "-c", SCRIPT],
        env=dict(os.environ, MICROPYPATH=firmware),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    heap, card_alloc, water_alloc = map(int, out.stdout.split("RESULT")[1].split())
    assert card_alloc == 0 and water_alloc == 0, out.stdout
    assert 0 < heap <= 32 * 1024, heap
