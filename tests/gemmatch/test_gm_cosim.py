"""Gem Match with tiles on real MicroPython (co-simulation): dealt, drawn, a field of two tokens
whose gems make a group of two across them, lit on both; one is reset and comes back on the
field; and the firmware's pure parts import and agree on MicroPython."""

import pytest
from games.gemmatch import Gemmatch
from gm_story import deal, draw, info, lit, put, start_field, state
from on_micropython import cluster, needs_micropython, run_checks

pytest.importorskip("simulator.cosim.cluster")


@needs_micropython
def test_gem_match_tiles_on_micropython_light_a_group_and_survive_a_reset():
    mpy = [0, 1]
    with cluster(Gemmatch, len(mpy)) as w:
        deal(w, 5)
        assert all(info(w, t).get("micropython") for t in mpy)
        a, b = mpy
        draw(w, a, (-20, 20))
        draw(w, b, (-18, 19))
        gems_a, gems_b = info(w, a)["gems"], info(w, b)["gems"]
        # a face f of a and a face g of b alike: turn a so f points north, b so g points south
        f, g = next((f, g) for f in range(6) for g in range(6) if gems_a[f] == gems_b[g])
        start_field(w, a, rotation=-f % 6)
        put(w, b, (0, -1), rotation=(3 - g) % 6)
        assert lit(w, a)[f] == 2 and lit(w, b)[g] == 2
        assert sum(1 for x in lit(w, a) + lit(w, b) if x) == 2
        w.reset_tile(b)  # MicroPython starts again from its saved blob
        w.advance(1500)
        assert state(w, b) == "field" and info(w, b)["gems"] == gems_b


CHECKS = """
from games.gemmatch import Gemmatch, display, groups, store, tokens
deck = tokens.deck()
assert len(deck) == tokens.DECK_SIZE == 27 and max(deck) <= 15
for k in range(1, 10):
    assert tokens.parse(tokens.name(k)) == k
blob = store.encode("taken", 8, 1, True, "pile", bytes(4))
assert store.decode(blob) == ("taken", 8, 1, True, "pile", bytes(4))
assert store.decode(b"junk") is None
side = tokens.side_of(8, 1)
heard = [1 << 3 | 1, 0, 0, 0, 0, 0]
out = groups.sizes(side, heard, 2, [0] * 6)
frame = display.field(side, [2, 2, 0, 0, 0, 0], 0, [0] * 6)
print("ok", tokens.side_name(side), out, groups.send(side, heard, 1), frame[0] == display.GEM_COLORS[1])
"""


@needs_micropython
def test_the_firmware_imports_and_its_pure_parts_agree_on_micropython():
    out = run_checks(CHECKS)
    # T8 improved: RR twin on faces 0-1; a one-gem red chain across face 0 makes a group of 3;
    # face 1 sends red and 3 (itself, its twin, and the chain across face 0)
    assert out == "ok RRYBYB [3, 3, 0, 0, 0, 0] 11 True"
