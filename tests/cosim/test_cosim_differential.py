"""The firmware runs the same on real MicroPython as in-process: same seed, same hands, the same
LED frame after every pass and the same infrared traffic, frame by frame."""

import random
import textwrap

import pytest
from cosim_probe_games import DatagramProbe, Everything, ExpiryProbe, GestureProbe
from games.lostgems import LostGems

from simulator.cosim.differential import first_difference, record
from simulator.world import shapes


def differential(game, cells, scenario, mpy, seed=1, ir_loss=0.0, **world_options):
    """Run in-process and with the `mpy` tiles on MicroPython; assert nothing differs."""
    reference = record(game, cells, scenario, seed=seed, ir_loss=ir_loss, **world_options)
    cosim = record(game, cells, scenario, seed=seed, ir_loss=ir_loss, mpy=mpy, **world_options)
    assert reference.passes, "the scenario ran no tile pass"
    assert first_difference(reference, cosim) is None
    return reference


def gestures(w):
    w.advance(300)
    w.click(0)
    w.double_click(1)
    w.triple_click(2)
    w.hold(0, 2300)  # long press
    w.advance(400)
    w.hold(1, 6300)  # long-long press (the tile is not alone)
    w.advance(400)
    for _ in range(3):  # contact bounce: shorter than the 20 ms debounce
        w.press(2)
        w.advance(4)
        w.release(2)
        w.advance(3)
    w.advance(600)
    for gap in (320, 340):  # either side of the 330 ms click window
        w.hold(0, 60)
        w.advance(gap - 60)
        w.hold(0, 60)
        w.advance(800)
    for held in (1990, 2000):  # either side of the 2000 ms long press
        w.hold(2, held)
        w.advance(500)


def test_button_gestures_match_with_some_tiles_on_micropython():
    run = differential(GestureProbe, shapes.blob(3), gestures, mpy={0, 2})
    assert any("double" in line for _, line in run.logs[1])
    assert any("longlong" in line for _, line in run.logs[1])
    assert any("multi" in line for _, line in run.logs[2])
    assert sum("long at" in line for _, line in run.logs[2]) == 1  # 2000 ms is, 1990 ms is not


def expiry(w):
    w.advance(500)
    w.lift(1)
    w.advance(350)  # its neighbours' faces expire
    w.place(1, *shapes.blob(4)[1])
    w.advance(300)
    w.rotate(2, 2)
    w.click(3)  # a new value to send
    w.advance(300)
    w.lift(0)
    w.advance(400)


def test_value_expiry_matches_with_every_tile_on_micropython():
    run = differential(ExpiryProbe, shapes.blob(4), expiry, mpy={0, 1, 2, 3})
    assert any("now" in line for _, line in run.logs[2])
    red = 31 << 10
    assert red in run.passes[-1][2] or any(red in leds for _, _, leds in run.passes)


def test_datagrams_at_30_percent_loss_match_on_micropython():
    def chatter(w):
        w.advance(3000)

    run = differential(DatagramProbe, shapes.blob(5), chatter, mpy={0, 1, 2, 3, 4}, ir_loss=0.3)
    fates = {fate for *_, fate in run.traffic}
    assert "lost" in fates and "delivered" in fates
    assert all(view["received"] > 3 for view in run.views)


def random_hands(seed, actions=30):
    """A scenario of random moves by careless hands: clicks, holds, bounces, tiles lifted,
    placed, rotated and power-cycled, with pauses between."""

    def scenario(w):
        rng = random.Random(seed)
        cells = [(q, r) for q in range(-2, 3) for r in range(-2, 3)]
        for _ in range(actions):
            tid = rng.choice(w.tiles)
            move = rng.randrange(9)
            if move == 0:
                w.click(tid)
            elif move == 1:
                w.double_click(tid)
            elif move == 2:
                w.hold(tid, rng.randrange(100, 2600))
            elif move == 3:
                w.press(tid)
                w.advance(rng.randrange(1, 30))
                w.release(tid)
            elif move == 4:
                w.lift(tid)
            elif move == 5:
                free = [c for c in cells if w.tile_at(*c) is None]
                w.place(tid, *rng.choice(free), rotation=rng.randrange(6))
            elif move == 6 and w.position(tid):
                w.rotate(tid, rng.randrange(1, 6))
            elif move == 7:
                w.reset_tile(tid)
            w.advance(rng.randrange(0, 400))

    return scenario


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_hands_match_with_half_the_tiles_on_micropython(seed):
    run = differential(
        Everything,
        shapes.blob(5),
        random_hands(seed),
        mpy={0, 2, 4},
        seed=seed,
        ir_loss=0.2,
        bit_flip=0.002,
    )
    assert sum(len(lines) for lines in run.logs) > 10


def states(w):
    return [w.inspect(t)["state"] for t in w.tiles]


def deal_and_play(w):
    """Hold a tile 6 s to deal, wait for the cluster to settle, then play as players would: a
    lone 1 in the middle starts the board, the 2 of its colour joins it, a 3 that does not fit
    is an error, and a lone shard held 2 s is discarded."""
    w.advance(300)
    w.press(4)
    w.advance(6000)
    w.advance(20)
    w.release(4)
    for _ in range(100):  # poll in 100 ms chunks: each poll asks every tile
        w.advance(100)
        if "dealing" not in states(w):
            break
    assert states(w) == ["face down"] * 18
    where = {w.inspect(t)["shard"]: t for t in sorted(w.tiles, reverse=True)}
    first, second, wrong = where["R1"], where["R2"], where["B3"]
    discard = next(t for t in w.tiles if t not in (first, second, wrong, 4))
    w.advance(500)
    w.lift(first)
    w.place(first, -40, 0)
    w.advance(300)
    w.triple_click(first)
    w.advance(500)
    w.lift(second)
    w.place(second, -39, 0)
    w.advance(600)
    w.lift(wrong)
    w.place(wrong, -40, 1)
    w.advance(600)
    w.lift(discard)
    w.place(discard, 40, 0)
    w.advance(1000)  # lone: unheard since 0.6 s before the press at least
    w.hold(discard, 2200)
    w.advance(500)
    return first, second, wrong, discard


@pytest.mark.parametrize("loss", [0.0, 0.3])
def test_eighteen_tile_deal_and_plays_match_with_all_eighteen_on_micropython(loss):
    moves = []
    run = differential(
        LostGems,
        shapes.blob(18),
        lambda w: moves.append(deal_and_play(w)),
        mpy=range(18),
        seed=3,
        ir_loss=loss,
    )
    assert moves[0] == moves[1]  # both runs dealt the same shards to the same tiles
    first, second, wrong, discard = moves[0]
    assert sorted(view["shard"][0] for view in run.views) == sorted("RRRRRRYYYYYYBBBBBB")
    assert [run.views[t]["state"] for t in (first, second)] == ["played", "played"]
    assert run.views[wrong]["state"] in ("error", "discarded")
    assert run.views[discard]["state"] == "discarded"


BREAKS_ON_MICROPYTHON = '''
"""A game that (wrongly) relies on dict order: CPython keeps insertion order, MicroPython does not."""

from runtime import colors


class DictOrderGame:
    def __init__(self, tile):
        self.tile = tile

    def setup(self):
        pass

    def loop(self):
        shades = {}
        for f in (5, 4, 3, 2, 1, 0):
            shades[f] = colors.dim(colors.CYAN, 40 * f)
        order = list(shades)  # the bug: the order of a dict is not part of MicroPython's promise
        for i in range(6):
            self.tile.set_color_on_face(shades[order[i]], i)
'''


def test_a_cpython_only_construct_is_caught(tmp_path, monkeypatch):
    (tmp_path / "dict_order_game.py").write_text(textwrap.dedent(BREAKS_ON_MICROPYTHON))
    monkeypatch.syspath_prepend(str(tmp_path))
    from dict_order_game import DictOrderGame

    def idle(w):
        w.advance(200)

    cells = shapes.line(2)
    reference = record(DictOrderGame, cells, idle)
    same_host_on_cpython = record(DictOrderGame, cells, idle, mpy={1}, interpreter="cpython")
    on_micropython = record(DictOrderGame, cells, idle, mpy={1})
    assert first_difference(reference, same_host_on_cpython) is None  # the pipe is faithful
    difference = first_difference(reference, on_micropython)
    assert difference is not None and difference.startswith("pass")
