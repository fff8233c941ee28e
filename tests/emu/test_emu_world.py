"""EmuWorld, the emulated tiles as the window's world (host_tools/emu/world.py), on a stand-in
for the emulator: what it is asked to do, and when in emulated time. No binaries needed.

The emulator here runs at a chosen share of real time (`speed`), as a loaded machine's does;
the window's frames come every 1/30 s of a made-up wall clock.
"""

import itertools
import os
import threading

import pytest

from host_tools.emu.world import EmuWorld, TileLog
from simulator.world import shapes


class FakeCluster:
    """What EmuWorld uses of an EmuCluster, with emulated time run by `tick`."""

    def __init__(self, n=6, speed=1.0, shape="blob"):
        self.n = n
        self.cells = getattr(shapes, shape)(n)
        self.shape = shape
        self.ports = [f"/tmp/fake/tty{i}" for i in range(n)]
        self.up = [threading.Event() for _ in range(n)]
        self.output = [bytearray() for _ in range(n)]
        self.led_frames = [[] for _ in range(n)]
        self.now_ms = 0.0
        self.target = 0.0
        self.speed = speed
        self.calls = []  # (emulated ms when asked, what)

    def tick(self, wall_ms):
        """The emulator runs toward its target for `wall_ms` of real time."""
        self.now_ms = min(self.target, self.now_ms + wall_ms * self.speed)

    def run_to(self, t):
        assert t >= self.target
        self.target = t

    def advance(self, ms):
        self.now_ms += ms
        self.target = self.now_ms
        return self.now_ms

    def button(self, tile, down, at):
        assert at >= self.now_ms
        self.calls.append((self.now_ms, "down" if down else "up", tile, at))

    def lift(self, tile):
        self.calls.append((self.now_ms, "lift", tile))

    def rewire(self, tile, wires, cell=None):
        self.calls.append((self.now_ms, "rewire", tile, sorted(wires)))
        self.cells[tile] = cell

    def colours(self, tile):
        return None


class Window:
    """The frames of a window someone watches (paced): each asks for its 1/30 s."""

    def __init__(self, speed):
        self.wall = 0.0
        self.cluster = FakeCluster(speed=speed)
        self.world = EmuWorld(self.cluster, lockstep=False, wall=lambda: self.wall)

    def frames(self, ms):
        for _ in range(round(ms / (1000 / 30))):
            self.wall += 1 / 30
            self.cluster.tick(1000 / 30)
            self.world.advance(1000 / 30)
            self.world.pump()


def buttons(cluster):
    return [(what, at) for _, what, _, at in (c for c in cluster.calls if c[1] in ("down", "up"))]


def test_a_press_lasts_on_the_tile_as_long_as_it_was_held_while_the_emulator_lags():
    w = Window(speed=0.25)
    w.frames(3000)
    w.world.press(0)
    w.frames(6000)
    w.world.release(0)
    (_, down), (_, up) = buttons(w.cluster)
    assert abs((up - down) - 6000) < 1
    assert up > w.cluster.now_ms + 4000  # the release is played later on the tile
    assert w.world.lag_note() == "emulator at 0.25x real time"
    w.frames(30000)
    assert w.world.lag_note() == "emulator at 0.25x real time"
    assert w.cluster.now_ms > up  # it gets there


def test_the_clicks_of_a_double_click_keep_their_gaps_and_a_later_press_waits_for_them():
    w = Window(speed=0.2)
    w.frames(2000)
    w.world.press(1)
    w.frames(100)
    w.world.release(1)
    w.frames(133)
    w.world.press(1)
    w.frames(100)
    w.world.release(1)
    w.world.press(2)  # at once, on another tile: after the last release, never before it
    w.frames(100)
    w.world.release(2)
    times = [at for _, at in buttons(w.cluster)]
    assert [round(b - a) for a, b in itertools.pairwise(times)] == [100, 133, 100, 0, 100]


def test_a_fast_emulator_keeps_the_window_s_time_and_takes_inputs_within_a_frame():
    w = Window(speed=1.0)
    w.frames(2000)
    assert abs(w.cluster.now_ms - 2000) <= 40
    assert w.world.lag_note() is None
    w.world.press(0)
    w.frames(500)
    w.world.release(0)
    (_, down), (_, up) = buttons(w.cluster)
    assert 1990 <= down <= 2050 and abs(up - down - 500) <= 1


def test_a_move_made_after_a_press_waits_in_emulated_time_until_the_press_is_over():
    w = Window(speed=0.25)
    w.frames(1000)
    w.world.press(5)
    w.frames(2000)
    w.world.release(5)
    w.world.lift(5)  # carried away at once: on the tile, only once the release has landed
    up = buttons(w.cluster)[-1][1]
    assert not [c for c in w.cluster.calls if c[1] == "lift"]
    w.frames(20000)
    (asked_at, _, tile), *_ = [c for c in w.cluster.calls if c[1] == "lift"]
    assert tile == 5 and up <= asked_at <= up + 1


def test_a_tile_dropped_among_several_is_wired_to_each_face_to_face_turned_or_not():
    w = Window(speed=1.0)
    world = w.world
    w.frames(500)
    # the blob of six: 0 (0,0), 1 (-1,1), 2 (-1,0), 3 (0,-1), 4 (1,-1), 5 (1,0)
    world.lift(3)
    world.place(3, 0, 1, 0)  # south of 0: touches 0 (its north), 1 (north-west), 5 (north-east)
    world.rotate(3, 1)  # turned a step clockwise: face f looks along direction f + 1
    w.frames(100)
    calls = [c[1:] for c in w.cluster.calls]
    assert calls == [
        ("lift", 3),
        ("rewire", 3, [(0, 0, 3), (1, 5, 4), (5, 1, 2)]),  # (its face, other, other's face)
        ("rewire", 3, [(0, 5, 4), (4, 1, 2), (5, 0, 3)]),
    ]
    assert world.position(3) == (0, 1, 1) and world.tile_at(0, 1) == 3
    assert w.cluster.cells[3] == (0, 1)  # the cluster is told where it lies too
    assert world.inspect(0)["expired"] == [True, False, False, False, False, False]  # 3 is south
    assert world.inspect(3)["expired"] == [False, True, True, True, False, False]


def test_lockstep_runs_emulated_time_before_it_returns_and_moves_at_once():
    cluster = FakeCluster()
    world = EmuWorld(cluster, lockstep=True)
    world.advance(250)
    assert cluster.now_ms == 250
    world.press(0)
    world.advance(6000)
    world.release(0)
    world.lift(0)
    assert buttons(cluster) == [("down", 250), ("up", 6250)]
    assert cluster.calls[-1] == (6250, "lift", 0)
    assert world.lag_note() is None


def test_a_tile_s_log_gives_its_lines_state_piece_and_heap():
    log = TileLog()
    out = bytearray(b"BLINKS boot tile=ab fw=fw/x game=games.lostgems:LostGems\r\nBLINKS he")
    log.take(out, 100)
    assert log.game == "games.lostgems:LostGems" and list(log.lines) == [
        "BLINKS boot tile=ab fw=fw/x game=games.lostgems:LostGems"
    ]
    out += b"ap free=150000 used=40000\r\nLG state tile=ab t=9 undealt -> face down shard=R1\r\n"
    log.take(out, 200)
    assert log.heap == (150000, 40000, 200)
    assert (log.state, log.piece) == ("face down", "R1")
    del out[:20]  # the cluster keeps the last 1 MB: the place is found again
    out += b"LG restore tile=ab t=5 revealed shard=R2 board=000\r\n"
    log.take(out, 300)
    assert (log.state, log.piece) == ("revealed", "R2") and len(log.lines) == 4


@pytest.mark.parametrize("shape", ["blob", "line", "ring"])
def test_the_window_lays_every_shape_of_18_on_the_table_off_the_labels(shape):
    from host_tools.emu.window import make_app

    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    app = make_app(FakeCluster(18, shape=shape))
    table, world = app.table, app.world
    cells = [world.position(t) for t in world.tiles]
    assert all(table.on_table(q, r) for q, r, _ in cells)
    start = {table.area_of_cell(q, r).name for q, r, _ in cells if table.area_of_cell(q, r)}
    if shape != "line":  # a line of 18 is longer than the jungle: it lies across the table
        assert start == {table.start_area}
    for t in world.tiles:  # laid out as the cluster's shape, moved: the same faces touch
        q, r, _ = cells[t]
        assert (q - cells[0][0], r - cells[0][1]) == (
            app.world.cluster.cells[t][0] - app.world.cluster.cells[0][0],
            app.world.cluster.cells[t][1] - app.world.cluster.cells[0][1],
        )
