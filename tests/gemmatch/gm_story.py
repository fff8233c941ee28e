"""Helpers that let Gem Match's multi-tile tests read like stories: a table of tiles, people's
moves, and what every tile shows. Everything goes through the headless world."""

import tile_story
from games.gemmatch import Gemmatch
from tile_story import LONE_WAIT_MS, info, state

FIELD = (0, -30)  # the field's centre, far from the dealt cluster
SETTLE_MS = 3000


def table(n=27, seed=1, loss=0.0):
    return tile_story.table(Gemmatch, n, seed, loss)


def deal(w, tid=0, timeout=30000):
    """Hold a tile until it deals; run until every tile shows its back (the pile)."""
    tile_story.deal(w, tid, "pile", timeout)


def tile_with(w, name, taken=()):
    """A tile dealt the token `name` that is not in `taken` (lowest id first)."""
    return tile_story.tile_with(w, "token", name, taken)


def draw(w, tid, to, side="basic"):
    """Double-click a pile tile (it shows its basic side), carry it to cell `to`, and turn it
    over if `side` is improved."""
    w.double_click(tid)
    assert state(w, tid) == "hand", state(w, tid)
    w.place(tid, *to)
    w.advance(LONE_WAIT_MS)
    if side == "improved":
        w.double_click(tid)
        assert info(w, tid)["side"] == "improved"


def start_field(w, tid, rotation=0):
    """Carry a hand token alone to the field's centre, turned, and triple-click it."""
    w.place(tid, *FIELD, rotation=rotation)
    w.advance(LONE_WAIT_MS)
    w.triple_click(tid)
    assert state(w, tid) == "field"


def put(w, tid, cell, rotation):
    """Carry a hand token to the field cell (q, r) (relative to the centre), turned."""
    w.place(tid, FIELD[0] + cell[0], FIELD[1] + cell[1], rotation=rotation)
    assert w.run_until(lambda: state(w, tid) == "field", 2000), state(w, tid)
    w.advance(SETTLE_MS // 3)


def lit(w, tid):
    return info(w, tid)["lit"]
