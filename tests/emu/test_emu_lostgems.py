"""Lost Gems on six emulated tiles: the official MicroPython, the rp2 HAL, IR faces on PIO.

A story as players live it, with every step seen twice: in the colours decoded from each tile's
WS2812 pin and in the `LG` lines `blinks monitor` reads off the tiles' serial ports. Time is the
emulator's (driven mode): the same run every time.

1. Six flashed tiles in a blob; a 6-second hold on one deals one colour (red).
2. A tile holding R1 is moved apart and revealed with a double-click; a power cut (the board
   switched off and on) brings it back revealed.
3. A triple-click makes it the first play of the gem board; a power cut keeps it played.
4. A tile holding R2 is put against it: it joins the board as a play.
5. A second R1 put against the board is an error (red flashes, then discarded).
6. A face-down tile switched off and on is face down again.
"""

import pytest
from emu_helpers import flashed_image
from games.lostgems import display, shards

from host_tools.bridge.monitor import Monitor
from host_tools.emu.cluster import pixel_colour
from simulator.mpy.build import build


class Table:
    """The six tiles with what the monitor reads and the LEDs show, tile by tile."""

    def __init__(self, tiles, monitor):
        self.tiles = tiles
        self.monitor = monitor
        self.index = {tiles.serial_of(i).hex(): i for i in range(tiles.n)}
        self.states = {}  # tile -> (state, shard name) from its latest LG state/restore line
        self.lines = []

    def read_monitor(self):
        while (rec := self.monitor.next(timeout=0.01)) is not None:
            event = rec.get("event") or {}
            if not event:
                continue
            self.lines.append(rec["line"])
            tile = self.index.get(event.get("tile"))
            if event.get("kind") == "state":
                self.states[tile] = (event["new"], event["shard"])
            elif event.get("kind") == "restore":
                self.states[tile] = (event["state"], event["shard"])

    def advance(self, ms):
        self.tiles.advance(ms)
        self.read_monitor()

    def until(self, predicate, limit_ms, step_ms=100):
        waited = 0
        while not predicate():
            assert waited < limit_ms, f"not within {limit_ms} ms: {self.states} {self.lines[-8:]}"
            self.advance(step_ms)
            waited += step_ms
        return self.tiles.now_ms

    def shows(self, i, picture):
        colours = self.tiles.colours(i)
        return colours == picture

    def state(self, i):
        return self.states.get(i, (None, None))[0]

    def shard(self, i):
        return shards.parse(self.states[i][1])


@pytest.mark.long
def test_lost_gems_deals_reveals_and_plays_on_emulated_tiles(cluster, tmp_path):
    state = tmp_path / "table"
    flashed_image(build(), state, tiles=6)
    tiles = cluster(6, state=state, shape="blob", mode="driven")
    monitor = Monitor(tiles.ports)
    monitor.start()
    table = Table(tiles, monitor)
    try:
        table.advance(2500)  # six boots, links up: every tile breathes white (undealt)
        assert all(tiles.colours(i) is not None for i in range(6))

        # 1. the deal: hold tile 0 for 6 s
        fires = tiles.press(0, 6300) - 300
        table.until(lambda: all(table.state(i) == "face down" for i in range(6)), 20000)
        dealt = table.until(
            lambda: all(table.shows(i, display.face_down()) for i in range(6)), 2000
        )
        assert dealt - fires < 5000
        hand = sorted(shards.name(table.shard(i)) for i in range(6))
        assert hand == ["R1", "R1", "R1", "R2", "R2", "R3"]  # one colour, each shard once
        ones = [i for i in range(6) if shards.name(table.shard(i)) == "R1"]
        two = next(i for i in range(6) if shards.name(table.shard(i)) == "R2")
        first, spare = ones[0], ones[1]

        # 2. move a 1 apart and reveal it; a power cut keeps it revealed
        tiles.lift(first)
        table.advance(1000)
        tiles.clicks(first, 2)
        table.until(lambda: table.state(first) == "revealed", 2000)
        table.until(lambda: table.shows(first, display.revealed(table.shard(first))), 500)
        tiles.power(first, False)
        table.advance(300)
        table.states.pop(first)
        tiles.power(first, True)
        table.until(lambda: table.state(first) == "revealed", 5000)  # LG restore revealed
        table.until(lambda: table.shows(first, display.revealed(table.shard(first))), 1000)

        # 3. the first play: a triple-click on the lone 1
        table.advance(1000)
        tiles.clicks(first, 3)
        table.until(lambda: table.state(first) == "played", 2000)
        played = display.played(table.shard(first), False, 0)
        table.until(lambda: table.shows(first, played), 500)
        tiles.power(first, False)
        table.advance(300)
        tiles.power(first, True)
        table.until(lambda: table.tiles.resets[first][-1][1] == "power", 1000)
        table.until(lambda: table.shows(first, played), 5000)

        # 4. a 2 put against the board joins it
        tiles.lift(two)
        table.advance(700)
        tiles.place(two, beside=first, face=1)
        table.until(lambda: table.state(two) == "played", 3000)
        table.until(lambda: table.shows(two, display.played(table.shard(two), False, 0)), 500)

        # 5. another 1 against the board is an error, then lies discarded
        tiles.lift(spare)
        table.advance(700)
        tiles.place(spare, beside=first, face=4)
        table.until(lambda: table.state(spare) == "error", 3000)
        table.until(lambda: table.state(spare) == "discarded", 5000)
        table.until(lambda: table.shows(spare, display.discarded(table.shard(spare))), 500)

        # 6. a face-down tile still in the jungle: off and on, face down again
        rest = next(i for i in range(6) if table.state(i) == "face down")
        tiles.power(rest, False)
        table.advance(300)
        table.states.pop(rest)
        tiles.power(rest, True)
        table.until(lambda: table.state(rest) == "face down", 5000)
        table.until(lambda: table.shows(rest, display.face_down()), 1000)
    finally:
        monitor.stop()
    assert any(line.startswith("LG deal") and "dealt size=6" in line for line in table.lines)
    assert [pixel_colour(p) for p in tiles.leds(first)] == display.played(
        table.shard(first), False, 0
    )
