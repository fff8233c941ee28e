"""A tiny HAL for runtime unit tests: a hand-driven clock and queues (CPython and MicroPython).

Tests set `hal.t`, push button edges and frames, call `tile.step()` and read what was sent.
It is a test fixture, not a tile: the simulator's real HAL lives in simulator/world/tile_hal.py.
"""

from runtime.hal_contract import Hal
from runtime.tile import Tile


class RtHal(Hal):
    def __init__(self, seed=1):
        self.t = 0
        self.edges = []
        self.rx = [[] for _ in range(6)]  # (ms, bytes) per face, oldest first
        self.rx_frame = b""
        self.rx_ms = 0
        self.sent = []  # (ms, face, bytes), the latest 60 to 120 (MicroPython's test heap is small)
        self.sent_count = 0
        self.busy = [False] * 6
        self.shown = [0] * 6
        self.shows = 0
        self.storage = None
        self.lines = []
        self.seed = seed

    def millis(self):
        return self.t

    def button_edges(self):
        e = self.edges
        self.edges = []
        return e

    def send_frame(self, face, data):
        if self.busy[face]:
            return False
        self.sent.append((self.t, face, bytes(data)))
        self.sent_count += 1
        if len(self.sent) > 120:
            del self.sent[:60]
        return True

    def receive_frame(self, face):
        box = self.rx[face]
        if not box:
            return 0
        self.rx_ms, self.rx_frame = box.pop(0)
        return len(self.rx_frame)

    def show(self, colors):
        self.shown = list(colors)
        self.shows += 1

    def entropy(self):
        self.seed = (self.seed * 1103515245 + 12345) & 0xFFFFFFFF
        return self.seed

    def serial_number(self):
        return b"RT" + bytes((self.seed & 255, 1, 2, 3, 4, 5))

    def load(self):
        return self.storage

    def save(self, data):
        self.storage = bytes(data)

    def log(self, text):
        self.lines.append(text)


class Recorder:
    """A game that runs a callback each pass (tests put their checks in it)."""

    def __init__(self, tile):
        self.tile = tile
        self.on_loop = None
        self.passes = 0

    def setup(self):
        pass

    def loop(self):
        self.passes += 1
        if self.on_loop is not None:
            self.on_loop(self.tile)


def make(game=Recorder, seed=1):
    hal = RtHal(seed)
    tile = Tile(hal, game)
    return hal, tile


def run_to(hal, tile, until, every=10):
    """Step the tile every `every` ms up to and including time `until`."""
    while hal.t + every <= until:
        hal.t += every
        tile.step()
    if hal.t < until:
        hal.t = until
        tile.step()


class Events:
    """Collects the button flags a game sees, with the pass time they were seen."""

    def __init__(self):
        self.log = []

    def __call__(self, tile):
        t = tile.millis()
        if tile.button_pressed():
            self.log.append((t, "pressed"))
        if tile.button_released():
            self.log.append((t, "released"))
        if tile.button_single_clicked():
            self.log.append((t, "single"))
        if tile.button_double_clicked():
            self.log.append((t, "double"))
        if tile.button_multi_clicked():
            self.log.append((t, f"multi{tile.button_click_count()}"))
        if tile.button_long_pressed():
            self.log.append((t, "long"))
        if tile.button_long_long_pressed():
            self.log.append((t, "longlong"))

    def names(self):
        return [n for _, n in self.log if n not in ("pressed", "released")]


def play(hal, tile, edges, until, every=10):
    """Step the tile every `every` ms up to `until`, handing each raw edge (ms, down) to the HAL
    at the first pass at or after its time (as an interrupt would have timestamped it)."""
    pending = list(edges)
    while hal.t < until:
        hal.t = min(hal.t + every, until)
        while pending and pending[0][0] <= hal.t:
            hal.edges.append(pending.pop(0))
        tile.step()


def clicks(starts, down_ms=60):
    """Raw edges for clicks pressed at the given times, each held down_ms."""
    out = []
    for s in starts:
        out.append((s, True))
        out.append((s + down_ms, False))
    return out
