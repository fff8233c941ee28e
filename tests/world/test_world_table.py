"""The table: placing, moving, shapes, bad input, power cycles, sleep, determinism."""

import random

import pytest
from games.demo import Demo
from runtime import colors
from runtime.tile import SLEEP_MS, START_WOKE
from wg_games import Beacon, Courier

from simulator.world import OccupiedError, World, shapes
from simulator.world.grid import DIRECTIONS


def connected(cells):
    cells = set(cells)
    start = next(iter(cells))
    seen = {start}
    todo = [start]
    while todo:
        q, r = todo.pop()
        for dq, dr in DIRECTIONS:
            c = (q + dq, r + dr)
            if c in cells and c not in seen:
                seen.add(c)
                todo.append(c)
    return seen == cells


def test_every_shape_is_one_connected_cluster_of_distinct_cells():
    for n in range(1, 25):
        for cells in (
            shapes.blob(n),
            shapes.line(n),
            shapes.ring(n),
            shapes.random_shape(n, random.Random(n)),
        ):
            assert len(cells) == n and len(set(cells)) == n
            assert connected(cells)
    assert (0, 0) not in shapes.ring(18)  # a ring has a hole
    assert shapes.random_shape(12, random.Random(4)) == shapes.random_shape(12, random.Random(4))
    with pytest.raises(ValueError):
        shapes.blob(0)


def test_placing_on_an_occupied_cell_raises_and_changes_nothing():
    w = World()
    a = w.add_tile(Beacon, 0, 0)
    b = w.add_tile(Beacon, 1, 0)
    with pytest.raises(OccupiedError, match=r"cell \(0, 0\) holds tile 0"):
        w.place(b, 0, 0)
    assert w.position(b) == (1, 0, 0) and w.tile_at(0, 0) == a
    with pytest.raises(OccupiedError):
        w.add_tile(Beacon, 1, 0)
    assert w.tiles == [a, b]
    w.place(a, 0, 0, rotation=3)  # placing a tile where it already is: a rotation only
    assert w.position(a) == (0, 0, 3)


def test_bad_tile_ids_and_moves_raise_value_error():
    w = World()
    a = w.add_tile(Beacon, None, None)
    assert w.position(a) is None and w.neighbours(a) == {}
    for call in (
        lambda: w.press(5),
        lambda: w.leds(-1),
        lambda: w.rotate(a),
        lambda: w.advance(-1),
        lambda: World(ir_loss=1.5),
    ):
        with pytest.raises(ValueError):
            call()


def test_game_bad_input_has_documented_outcomes():
    class Careless:
        def __init__(self, tile):
            self.tile = tile
            self.errors = []

        def setup(self):
            pass

        def loop(self):
            t = self.tile
            t.set_value_sent_on_all_faces(200)  # clamps to 63
            for call in (
                lambda: t.set_color_on_face(colors.RED, 6),
                lambda: t.send_datagram_on_face(bytes(17), 0),
            ):
                try:
                    call()
                except ValueError as exc:
                    self.errors.append(str(exc))

    w = World()
    a = w.add_tile(Careless, 0, 0)
    b = w.add_tile(Beacon, 0, -1)
    w.advance(300)
    assert w.runner(b).game.face_view()[3] == 63
    assert w.inspect(a)["face_out"] == [63] * 6
    errors = w.runner(a).game.errors
    assert "face index must be 0-5, got 6" in errors
    assert "datagram is 17 bytes, at most 16" in errors


def test_lift_and_place_move_links_and_lose_frames_in_flight():
    w = World(seed=4)
    a = w.add_tile(Beacon, 0, 0)
    b = w.add_tile(Beacon, 1, 0)
    w.advance(200)
    assert w.neighbours(a) == {2: (b, 5)}
    w.lift(b)
    assert w.neighbours(a) == {} and w.position(b) is None
    w.place(b, -1, 0)
    assert w.neighbours(a) == {5: (b, 2)}
    w.advance(300)
    view = w.runner(a).game.face_view()
    assert view[5] == 1 and view[2] is None


def test_reset_tile_makes_a_fresh_game_and_keeps_storage():
    w = World(seed=1)
    a = w.add_tile(Demo, 0, 0)
    w.advance(100)
    w.click(a)
    hue = w.inspect(a)["hue"]
    first = w.runner(a).game
    w.reset_tile(a)
    w.advance(100)
    assert w.runner(a).game is not first
    assert w.inspect(a)["hue"] == hue  # the demo saved its hue on the click


def test_logs_reach_the_world():
    class Talker(Beacon):
        def setup(self):
            self.tile.log("hello from " + self.tile.serial_number().hex())

    w = World(seed=8)
    a = w.add_tile(Talker, 0, 0)
    b = w.add_tile(Talker, 1, 0)
    w.advance(50)
    assert w.logs(a)[0].startswith("hello from ")
    assert w.logs(a) != w.logs(b)  # each tile has its own serial number


def test_the_whole_cluster_sleeps_and_one_press_wakes_it_all():
    w = World(seed=6)

    class Sleepy(Beacon):
        def setup(self):
            self.tile.set_color(colors.BLUE)

    tiles = [w.add_tile(Sleepy, q, r) for q, r in shapes.line(4)]
    w.advance(SLEEP_MS - 2000)
    assert not any(w.inspect(t)["asleep"] for t in tiles)
    w.advance(4000)
    assert all(w.inspect(t)["asleep"] for t in tiles)
    assert all(w.leds(t) == [0] * 6 for t in tiles)
    w.advance(5000)
    assert all(w.inspect(t)["asleep"] for t in tiles)  # no tile wakes another by itself
    w.click(tiles[0])
    w.advance(500)
    assert not any(w.inspect(t)["asleep"] for t in tiles)
    assert all(w.runner(t).start_state() == START_WOKE for t in tiles)
    assert all(w.leds(t) == [colors.BLUE] * 6 for t in tiles)


def test_a_press_anywhere_keeps_the_whole_cluster_awake():
    w = World(seed=7)
    tiles = [w.add_tile(Beacon, q, r) for q, r in shapes.blob(5)]
    w.advance(SLEEP_MS - 60000)
    w.click(tiles[3])
    w.advance(61000)
    assert not any(w.inspect(t)["asleep"] for t in tiles)


def run_story(seed, loss=0.1, flips=0.001):
    w = World(seed=seed, ir_loss=loss, bit_flip=flips)
    w.ir.trace = []
    tiles = [w.add_tile(Courier, q, r, rotation=i % 6) for i, (q, r) in enumerate(shapes.blob(7))]
    for t in tiles:
        w.runner(t).game.limit = 5
    led_history = []
    for step in range(30):
        w.advance(97)
        if step == 10:
            w.click(tiles[2])
        if step == 20:
            w.place(tiles[6], 5, 5)
        led_history.append([w.leds(t) for t in tiles])
    return led_history, w.ir.trace, [w.inspect(t) for t in tiles]


def test_same_seed_and_inputs_give_the_same_run_bit_for_bit():
    first = run_story(11)
    assert run_story(11) == first
    other = run_story(12)
    assert other[1] != first[1]


def test_a_game_that_raises_stops_the_advance_and_loses_nothing():
    class Fragile(Beacon):
        def loop(self):
            super().loop()
            if len(self.seen) == 5:
                raise RuntimeError("bug in the game")

    w = World(seed=3)
    a = w.add_tile(Fragile, 0, 0)
    b = w.add_tile(Beacon, 1, 0)
    with pytest.raises(RuntimeError, match="bug in the game"):
        w.advance(1000)
    stopped = w.now
    assert stopped < 200
    w.advance(1000)
    assert w.now == stopped + 1000
    assert len(w.runner(a).game.seen) > 40  # the failing tile keeps running
    assert w.runner(b).game.face_view()[5] == 1


def test_run_until_looks_after_every_pass_or_every_every_ms():
    w = World(seed=8)
    w.add_tile(Demo, 0, 0)
    looked = []

    def after(ms):
        looked.append(w.now)
        return w.now >= ms

    assert w.run_until(lambda: after(130), 1000)
    passes = looked[1:]  # after each pass: the tile's 20 ms cadence, with its jitter
    assert 6 <= len(passes) <= 8 and 130 <= w.now < 160
    looked.clear()
    start = w.now
    assert w.run_until(lambda: after(start + 130), 1000, every_ms=50)
    assert looked == [start, start + 50, start + 100, start + 150]  # every 50 ms, not a pass
    looked.clear()
    assert not w.run_until(lambda: after(10**9), 120, every_ms=50)
    assert w.now == start + 270 and looked[-1] == start + 270  # the last look at the timeout
