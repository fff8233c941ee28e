"""Waterfall with tiles on real MicroPython (co-simulation): dealt, attached under the top at
odd rotations, a pawn steps into them, one is reset and keeps its pawn (the blob MicroPython
saved), the pawn falls out; and the firmware's pure parts import and agree on MicroPython."""

import pytest
from games.waterfall import Waterfall, cards
from on_micropython import cluster, needs_micropython, run_checks
from wf_story import attach, clicks, deal, info, pawns, points_up, settle, start, state

pytest.importorskip("simulator.cosim.cluster")


@needs_micropython
def test_waterfall_tiles_on_micropython_join_carry_a_pawn_and_survive_a_reset():
    mpy = [0, 1, 2]
    with cluster(Waterfall, len(mpy)) as w:
        deal(w, 5)
        assert all(info(w, t).get("micropython") for t in mpy)
        adds = [t for t in w.tiles if cards.action_of(cards.parse(info(w, t)["card"])) == 0]
        top = next((t for t in adds if t in mpy), adds[0])
        below = [t for t in (*mpy, 3, 4) if t != top][:3]
        start(w, top, rotation=0)
        for t, place, rot in zip(below, [(1, 0), (1, 1), (2, 1)], [2, 5, 3]):
            attach(w, t, place, rot)
        assert all(points_up(w, t) for t in below)
        clicks(w, top, 1)
        clicks(w, below[0], 1)
        settle(w)
        assert pawns(w) == {"A": below[0]}
        w.reset_tile(below[0])  # MicroPython starts again from its saved blob
        settle(w, 500)
        assert state(w, below[0]) == "waterfall" and points_up(w, below[0])
        assert pawns(w) == {"A": below[0]}
        clicks(w, below[0], 1)  # A clicks the pawn's own tile: out at the bottom
        settle(w)
        assert pawns(w) == {} and info(w, top)["above"] == ["A", "B", "C", "D"]


CHECKS = """
from games.waterfall import Waterfall, cards, display, store
deck = cards.deck()
assert len(deck) == cards.DECK_SIZE == 27 and max(deck) <= 15
for k in range(1, 16):
    assert cards.parse(cards.name(k)) == k
seqs, handing = [7, 0, 300, 65535], [-1, 2, 6, -1]
blob = store.encode("waterfall", 3, 2, True, 5, [1, 0, 3], "card", bytes(4), seqs, handing)
want = ("waterfall", 3, 2, True, 5, [1, 0, 3], "card", bytes(4), seqs, handing)
assert store.decode(blob) == want
assert store.decode(b"junk") is None
out = display.card(10, 1, [0] * 6)
print("ok", cards.name(10), out[1] == display.GEM_COLORS[0])
"""


@needs_micropython
def test_the_firmware_imports_and_its_pure_parts_agree_on_micropython():
    out = run_checks(CHECKS)
    assert out == "ok SCORE-R3 True"
