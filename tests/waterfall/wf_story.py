"""Helpers that let Waterfall's multi-tile tests read like stories: a table of tiles, people's
moves, and what every tile shows. Everything goes through the headless world."""

import tile_story
from games.waterfall import Waterfall
from tile_story import LONE_WAIT_MS, info, state

from simulator.games.waterfall.rules import cell_of

TOP = (0, -30)  # where the waterfall starts, far from the dealt cluster


def table(n=27, seed=1, loss=0.0, game=Waterfall):
    return tile_story.table(game, n, seed, loss)


def card(w, tid):
    return w.inspect(tid)["card"]


def deal(w, tid=0, timeout=30000):
    """Hold a tile until it deals; run until every tile shows its back. Returns the ms it took
    from the hold firing."""
    return tile_story.deal(w, tid, "card", timeout)


def tile_with(w, name, taken=()):
    """A tile dealt the card `name` that is not in `taken` (lowest id first)."""
    return tile_story.tile_with(w, "card", name, taken)


def start(w, tid, rotation=0):
    """Carry a tile alone to TOP, turned so its face 0 points up, and triple-click it."""
    w.place(tid, *TOP, rotation=rotation)
    w.advance(LONE_WAIT_MS)
    w.triple_click(tid)
    assert state(w, tid) == "waterfall" and info(w, tid)["top"]


def attach(w, tid, place, rotation, wait=True):
    """Put a tile at a waterfall place (row, index) under the top at TOP, with a rotation."""
    w.place(tid, *cell_of(place, TOP), rotation=rotation)
    if wait:
        assert w.run_until(lambda: state(w, tid) == "waterfall", 2000), state(w, tid)


def build(w, layout):
    """A waterfall from {place: card name}: the top is the (0, 0) card; tiles turned every way."""
    taken = []
    top = tile_with(w, layout[(0, 0)], taken)
    taken.append(top)
    start(w, top)
    at = {(0, 0): top}
    for n, (place, name) in enumerate(sorted(layout.items())):
        if place == (0, 0):
            continue
        t = tile_with(w, name, taken)
        taken.append(t)
        attach(w, t, place, n % 6)
        at[place] = t
    return at


def points_up(w, tid):
    """Whether the tile's up face points north in the world (whatever its rotation)."""
    up = info(w, tid)["up"]
    return up is not None and (up + w.position(tid)[2]) % 6 == 0


def clicks(w, tid, n):
    """n clicks as a person makes them (the world's own gestures go up to three)."""
    for i in range(n):
        if i:
            w.advance(120)
        w.press(tid)
        w.advance(80)
        w.release(tid)
    w.advance(450)


def pawns(w):
    """{player: tile} for every pawn on a tile."""
    out = {}
    for t in w.tiles:
        for p in info(w, t)["pawns"]:
            out[p] = t
    return out


def settle(w, ms=800):
    w.advance(ms)
