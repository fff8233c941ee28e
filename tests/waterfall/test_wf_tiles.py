"""Waterfall on simulated tiles, as stories: a deal, orientation on a rotated cluster, a pawn's
fall through ADD, DRAW and SCORE, a fall out of the bottom, a blocked step, a reset mid-turn."""

from collections import Counter

import pytest
from games.waterfall import cards, display
from wf_story import (
    attach,
    build,
    card,
    clicks,
    deal,
    info,
    pawns,
    points_up,
    settle,
    start,
    state,
    table,
    tile_with,
)


@pytest.fixture(scope="module")
def dealt():
    """27 tiles, dealt once: each story takes a fresh copy of the cards it needs."""
    w = table(27, seed=3)
    ms = deal(w)
    return w, ms


def test_a_deal_gives_every_tile_one_card_of_the_deck(dealt):
    w, ms = dealt
    got = Counter(card(w, t) for t in w.tiles)
    assert got == Counter(cards.name(k) for k in cards.deck())
    assert all(state(w, t) == "card" for t in w.tiles)
    assert ms < 15000
    # face down: every tile shows the same back, whatever its card
    assert len({tuple(w.leds(t)) for t in w.tiles}) == 1


def test_a_small_cluster_deals_part_of_the_deck_and_a_lone_tile_cannot():
    w = table(5, seed=4)
    deal(w)
    assert all(cards.parse(card(w, t)) for t in w.tiles)
    w.place(0, 20, 20)
    w.advance(1000)
    w.hold(0, 6500)
    w.advance(500)
    assert info(w, 0)["show"] == "deal failed"


def test_orientation_is_found_on_a_rotated_cluster():
    w = table(27, seed=5)
    deal(w)
    top = tile_with(w, "ADD-R1")
    start(w, top, rotation=0)
    places = [(1, 0), (1, 1), (2, 0), (2, 1), (2, 2), (3, 1)]
    rotations = [3, 1, 5, 2, 4, 1]
    others = [t for t in w.tiles if t != top][: len(places)]
    # the rotated tiles are laid under the top all at once: they find up tile by tile
    for t, place, rot in zip(others, places, rotations):
        attach(w, t, place, rot, wait=False)
    assert w.run_until(lambda: all(state(w, t) == "waterfall" for t in others), 3000)
    assert all(points_up(w, t) for t in [top, *others])
    # the card reads the same way up on every tile: its first number spot on the up face
    for t in others:
        kind = cards.parse(card(w, t))
        assert list(w.leds(t)) == display.card(kind, info(w, t)["up"], [0] * 6)


def test_a_pawn_falls_through_add_draw_and_score():
    w = table(27, seed=6)
    deal(w)
    at = build(w, {(0, 0): "ADD-R1", (1, 0): "DRAW-G2", (2, 1): "SCORE-R3"})
    top, draw, score = at[(0, 0)], at[(1, 0)], at[(2, 1)]
    clicks(w, top, 1)  # A's pawn enters from above
    assert pawns(w) == {"A": top}
    assert info(w, top)["show"] == "action"  # the ADD flashes ...
    settle(w, 300)
    assert info(w, draw)["open"] and info(w, score)["open"]  # ... and opens the waterfall
    assert info(w, draw)["spots"] == 1 << 4  # 1.0: down-left (2.0) is free, 2.1 is taken
    assert info(w, score)["spots"] == 1 << 4 | 1 << 2
    clicks(w, draw, 1)  # A steps down-left, into DRAW
    settle(w)
    assert pawns(w) == {"A": draw}
    assert "action=DRAW" in " ".join(w.logs(draw))
    clicks(w, score, 1)  # and down-right, into SCORE
    settle(w)
    assert pawns(w) == {"A": score}
    assert "action=SCORE" in " ".join(w.logs(score))
    # ADD: a hand tile put at an attach spot joins the waterfall
    hand = tile_with(w, "STOP-B3")
    attach(w, hand, (3, 1), 2)
    assert points_up(w, hand)
    w.advance(2000)
    assert info(w, score)["spots"] == 1 << 2  # its down-left is taken now


def test_a_pawn_falls_out_of_the_bottom_and_returns_to_the_top():
    w = table(27, seed=7)
    deal(w)
    at = build(w, {(0, 0): "ADD-G1", (1, 1): "DRAW-R1"})
    top, low = at[(0, 0)], at[(1, 1)]
    clicks(w, top, 2)  # B enters from above (B clicks twice)
    clicks(w, low, 2)
    settle(w)
    assert pawns(w) == {"B": low}
    assert info(w, top)["above"] == ["A", "C", "D"]
    clicks(w, low, 2)  # B clicks the pawn's own tile: it falls out at the bottom
    settle(w)
    assert pawns(w) == {}
    assert info(w, top)["above"] == ["A", "B", "C", "D"]
    clicks(w, top, 2)  # and can enter again from the top
    assert pawns(w) == {"B": top}


def test_a_tile_holding_a_pawn_refuses_a_step_while_the_other_way_is_free():
    w = table(27, seed=8)
    deal(w)
    at = build(w, {(0, 0): "ADD-B1", (1, 0): "DRAW-G2", (1, 1): "STOP-R3"})
    top, left, right = at[(0, 0)], at[(1, 0)], at[(1, 1)]
    clicks(w, top, 1)  # A enters, steps down-left
    clicks(w, left, 1)
    settle(w)
    clicks(w, top, 2)  # B enters the top
    settle(w)
    assert pawns(w) == {"A": left, "B": top}
    clicks(w, left, 2)  # B may not step onto A: the right way is free
    settle(w, 300)
    assert pawns(w) == {"A": left, "B": top}
    assert info(w, left)["show"] == "refused"
    clicks(w, right, 2)
    settle(w)
    assert pawns(w) == {"A": left, "B": right}


def test_both_ways_blocked_lets_the_pawn_step_onto_another():
    w = table(27, seed=9)
    deal(w)
    at = build(w, {(0, 0): "ADD-R2", (1, 0): "DRAW-B3", (1, 1): "SCORE-G2"})
    top, left, right = at[(0, 0)], at[(1, 0)], at[(1, 1)]
    clicks(w, top, 1)
    clicks(w, left, 1)
    settle(w)
    clicks(w, top, 2)
    clicks(w, right, 2)
    settle(w)
    clicks(w, top, 3)  # C enters: both ways down hold a pawn
    settle(w)
    clicks(w, left, 3)
    settle(w)
    assert info(w, left)["pawns"] == ["A", "C"]
    clicks(w, top, 4)  # D enters, and the tile holding A and C ...
    clicks(w, left, 1)  # ... is left by A, who falls out at the bottom
    settle(w)
    assert info(w, left)["pawns"] == ["C"] and info(w, top)["pawns"] == ["D"]
    assert "A" in info(w, top)["above"]


def test_a_reset_mid_turn_keeps_the_waterfall_and_the_pawns():
    w = table(27, seed=10)
    deal(w)
    at = build(w, {(0, 0): "ADD-G2", (1, 0): "SCORE-B1"})
    top, low = at[(0, 0)], at[(1, 0)]
    clicks(w, top, 1)
    clicks(w, low, 1)
    settle(w)
    before = {t: (info(w, t)["up"], info(w, t)["card"]) for t in (top, low)}
    w.reset_tile(low)  # in the middle of A's turn
    w.reset_tile(top)
    settle(w, 500)
    assert pawns(w) == {"A": low}
    assert {t: (info(w, t)["up"], info(w, t)["card"]) for t in (top, low)} == before
    assert info(w, top)["top"] and info(w, top)["above"] == ["B", "C", "D"]
    hand = tile_with(w, "STOP-R3")
    attach(w, hand, (2, 0), 4)  # the waterfall still grows after the reset
    assert points_up(w, hand)
