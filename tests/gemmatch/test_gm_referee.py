"""Gem Match's referee: the deal, placing, the groups and their tiers (the document's examples:
two groups of one tier count as one of the next), resolving, the extra placement, skipping, the
two endings and the score."""

import random

import pytest
from games.gemmatch import tokens
from gm_positions import position

from simulator.games.gemmatch import moves as mv
from simulator.games.gemmatch.field import merged
from simulator.games.gemmatch.referee import GameState, IllegalMove
from simulator.games.gemmatch.rules import BASIC, BIG, HUGE, IMPROVED, SMALL
from simulator.games.gemmatch.tactics import Outlook


def test_every_token_has_a_basic_and_an_improved_side_and_fits_one_deal():
    deck = tokens.deck()
    assert len(deck) == tokens.DECK_SIZE == 27 and 1 <= min(deck) and max(deck) <= 15
    for kind in set(deck):
        basic, improved = tokens.side_of(kind, BASIC), tokens.side_of(kind, IMPROVED)
        assert all(basic[f] != basic[(f + 1) % 6] for f in range(6))
        assert sum(improved[f] == improved[(f + 1) % 6] for f in range(6)) == 1
        assert tokens.parse(tokens.name(kind)) == kind


def test_the_deal_gives_each_player_two_basic_and_two_improved_and_a_first_draw():
    s = GameState(seed=4)
    assert [len(h) for h in s.hands] == [5, 4]  # A, to move, has drawn
    for hand in s.hands:
        assert [s.sides[t] for t in hand[:4]] == [BASIC, BASIC, IMPROVED, IMPROVED]
    assert s.sides[s.hands[0][4]] == BASIC  # a draw shows the basic side
    assert len(s.pile) == 27 - 9


def test_the_first_token_goes_on_the_centre_and_the_next_ones_touch_the_field():
    s = GameState(seed=4)
    assert {m.cell for m in s.legal_moves()} == {(0, 0)}
    with pytest.raises(IllegalMove, match="centre"):
        s.apply(mv.place(1, (1, 0), 0))
    s.apply(mv.place(1, (0, 0), 0))
    assert {m.cell for m in s.legal_moves()} == {(0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0)}
    with pytest.raises(IllegalMove, match="touching"):
        s.apply(mv.place(1, (2, 0), 0))
    with pytest.raises(IllegalMove, match="already holds"):
        s.apply(mv.place(1, (0, 0), 0))


def test_a_player_draws_only_while_holding_fewer_than_five():
    s = position(
        field=[((0, 0), "T1", "basic", 0)],
        hand_a=[("T2", "basic")] * 2,
        hand_b=[("T3", "basic")] * 2 + [("T4", "basic")] * 3,
    )
    s.apply(mv.place(1, (0, 1), 1))  # P on Y: no group; B holds 5: no draw
    assert len(s.hands[1]) == 5 and s.current == 1
    pile = len(s.pile)
    s.apply(mv.place(1, (0, -1), 1))
    assert len(s.hands[0]) == 2 and len(s.pile) == pile - 1  # A held 1: draws


def test_two_gems_alike_across_two_touching_faces_are_a_group_of_two():
    # T1 (RYRYRY) turns R north; T7 (RGRGRG) on the cell north of it, turned one step, turns
    # its face 2 (R) south: the two R gems touch
    s = position(field=[((0, 0), "T1", "basic", 0)], hand_a=[("T7", "basic")] * 2)
    ev = s.apply(mv.place(1, (0, -1), 1))
    assert [(p.tier, p.gems, sorted(p.cells)) for p in ev.groups] == [(SMALL, 2, [(0, -1), (0, 0)])]
    assert set(s.legal_moves()) == {mv.heap((0, -1)), mv.heap((0, 0))}  # one token to the heap
    s.apply(mv.heap((0, 0)))
    assert len(s.heaps[0]) == 1 and s.score(0) == 1 and s.current == 1
    assert s.token_at((0, 0)) is None and s.token_at((0, -1)) is not None


def test_an_improved_tokens_own_pair_is_no_group():
    s = position(field=[((0, 0), "T1", "basic", 0)], hand_a=[("T1", "improved")])
    ev = s.apply(mv.place(1, (0, -1), 2))  # BB faces south (on R) and south-east (empty)
    assert ev.groups == [] and s.current == 1


def test_a_group_of_three_sends_one_token_to_the_heap_one_to_the_hand_and_allows_a_placement():
    # T8 improved (RRYBYB) turned 3 puts its RR pair south and south-west; south is T1's R
    s = position(field=[((0, 0), "T1", "basic", 0)], hand_a=[("T8", "improved"), ("T2", "basic")])
    ev = s.apply(mv.place(1, (0, -1), 3))
    assert [(p.tier, p.gems) for p in ev.groups] == [(BIG, 3)]
    s.apply(mv.heap((0, 0)))
    assert s.score(0) == 1
    with pytest.raises(IllegalMove, match="goes to the hand"):
        s.apply(mv.heap((0, -1)))
    s.apply(mv.hand((0, -1), IMPROVED))  # the pair comes back, improved side up
    assert s.phase == "extra" and mv.pass_() in s.legal_moves()
    assert s.score(0) == 2  # a token in the heap, an improved token in the hand
    s.apply(mv.pass_())
    assert s.current == 1


def test_a_group_of_four_or_more_takes_every_token_to_heap_or_hand():
    field = [((0, 0), "T1", "basic", 0), ((-1, 0), "T7", "basic", 1)]
    s = position(field=field, hand_a=[("T8", "improved")] + [("T2", "basic")] * 2)
    ev = s.apply(mv.place(1, (0, -1), 3))  # RR between two R gems: 4 gems on three tokens
    assert [(p.tier, p.gems, len(p.cells)) for p in ev.groups] == [(HUGE, 4, 3)]
    s.apply(mv.hand((0, -1), IMPROVED))
    s.apply(mv.heap((0, 0)))
    s.apply(mv.hand((-1, 0), BASIC))
    assert len(s.field) == 0 and s.score(0) == 2 and len(s.hands[0]) == 4
    assert s.phase == "extra" and s.legal_moves()[0].cell == (0, 0)  # an empty field again


def test_a_hand_never_holds_more_than_five():
    field = [((0, 0), "T1", "basic", 0), ((-1, 0), "T7", "basic", 1)]
    hand = [("T8", "improved"), ("T2", "basic"), ("T2", "basic"), ("T3", "basic"), ("T3", "basic")]
    s = position(field=field, hand_a=hand)
    s.apply(mv.place(1, (0, -1), 3))
    s.apply(mv.hand((0, -1), IMPROVED))  # five again
    assert {m.kind for m in s.legal_moves()} == {"heap"}
    with pytest.raises(IllegalMove, match="at most 5"):
        s.apply(mv.hand((0, 0), BASIC))


def test_two_groups_of_one_tier_made_at_once_count_as_one_of_the_next():
    # the document: two groups of 3 are a group of 4 (on hexes: two of 2 are one of 3). T7
    # (RGRGRG) turned 1 puts R north-east and south, on T1's R (1,-2) and T1's R (0,0)
    field = [((0, 0), "T1", "basic", 0), ((1, -2), "T1", "basic", 0)]
    s = position(field=field, hand_a=[("T7", "basic")] * 2)
    ev = s.apply(mv.place(1, (0, -1), 1))
    assert [(p.tier, p.gems, sorted(p.cells)) for p in ev.groups] == [
        (BIG, 4, [(0, -1), (0, 0), (1, -2)])
    ]


def test_two_groups_of_the_middle_tier_count_as_one_of_the_top():
    # the document: two groups of 4 are a group of 5. RR on T1's R is a group of 3; its two Y
    # gems on two T2s are two groups of 2, which count as one of 3: two of 3 make one of 4+
    field = [((0, 0), "T1", "basic", 0), ((-1, -1), "T2", "basic", 0), ((1, -2), "T2", "basic", 0)]
    s = position(field=field, hand_a=[("T8", "improved"), ("T3", "basic")])
    ev = s.apply(mv.place(1, (0, -1), 3))
    assert [(p.tier, len(p.cells)) for p in ev.groups] == [(HUGE, 4)]


def test_merging_keeps_tiers_apart_and_resolves_the_largest_first():
    class G:
        def __init__(self, size, cell):
            self.size, self.colour = size, 1
            self.gems = {(cell, d) for d in range(size)}

    found = merged([G(2, (0, 0)), G(3, (1, 0))])
    assert [t for t, _ in found] == [BIG, SMALL]
    found = merged([G(2, (0, 0)), G(2, (2, 0)), G(3, (1, 0))])  # 2+2 -> 3; 3+3 -> 4+
    assert [(t, g.size) for t, g in found] == [(HUGE, 7)]


def test_placing_is_compulsory_and_a_player_who_cannot_place_skips():
    s = position(field=[((0, 0), "T1", "basic", 0)], hand_a=[("T2", "basic")], pile=0)
    with pytest.raises(IllegalMove, match="no skipping"):
        s.apply(mv.skip())
    s = position(field=[((0, 0), "T1", "basic", 0)], pile=0)
    assert s.legal_moves() == [mv.skip()]
    s.apply(mv.skip())
    assert not s.over and s.legal_moves() == [mv.skip()]
    s.apply(mv.skip())
    assert s.over and s.ended == "skips"


def test_the_game_ends_when_the_pile_is_out_at_the_end_of_the_round():
    s = position(
        field=[((0, 0), "T1", "basic", 0)],
        hand_a=[("T2", "basic")] * 3,
        hand_b=[("T3", "basic")] * 3,
        pile=0,
    )
    s.apply(mv.place(1, (0, 1), 1))
    assert not s.over and s.current == 1  # B still has the round's turn
    s.apply(mv.place(1, (0, -1), 1))
    assert s.over and s.ended == "pile"
    with pytest.raises(IllegalMove, match="over"):
        s.apply(mv.place(1, (1, 0), 0))


def test_a_score_is_the_heap_and_the_improved_tokens_in_hand():
    s = position(hand_a=[("T1", "improved"), ("T2", "basic"), ("T3", "improved")])
    s.heaps[0] = [s.pile.pop(), s.pile.pop()]
    assert s.score(0) == 4


def test_a_bot_sees_the_other_side_only_of_the_group_being_resolved():
    s = position(field=[((0, 0), "T1", "basic", 0)], hand_a=[("T7", "basic")] * 2)
    obs = s.observation(1)
    with pytest.raises(KeyError):
        obs.other_side((0, 0))
    s.apply(mv.place(1, (0, -1), 1))
    assert tokens.side_name(obs.other_side((0, 0))) == "BBRYRY"


def test_the_fast_outlook_finds_what_the_referee_finds():
    # the bots' shortcut (tactics) against the referee's search of the whole field, on the
    # positions of random games
    rng = random.Random(5)
    checked = 0
    for seed in range(6):
        s = GameState(seed=seed)
        while not s.over:
            moves = s.legal_moves()
            if s.phase in ("place", "extra") and moves[0].kind == "place":
                outlook = Outlook(s.field)
                for m in rng.sample(moves, min(40, len(moves))):
                    if m.kind != "place":
                        continue
                    t = s.hands[s.current][m.slot - 1]
                    gems = s.gems_of(t)
                    field = s.field.copy()
                    from simulator.games.gemmatch.field import Placed

                    field.put(m.cell, Placed(t, gems, m.rotation))
                    want = [(tier, sorted(g.gems)) for tier, g in merged(field.groups())]
                    got = [
                        (tier, sorted(g.gems))
                        for tier, g in outlook.outcome(m.cell, gems, m.rotation)
                    ]
                    assert got == want
                    checked += 1
            s.apply(rng.choice(moves))
    assert checked > 500


def test_the_bots_placement_gain_counts_what_the_outlooks_groups_are_worth():
    """placement_gain adds up gems and tokens instead of building the groups: on every open cell,
    rotation and token of random games' positions, and every hand room, it equals gain() of
    the outlook's own groups, and says whether any group is made; so does an outlook made
    around one cell only (the careful bot's look after a placement)."""
    from simulator.games.gemmatch.bots import gain, placement_gain_of
    from simulator.games.gemmatch.rules import neighbour

    rng = random.Random(11)
    checked = made = 0
    for seed in range(8):
        s = GameState(seed=seed)
        while not s.over:
            moves = s.legal_moves()
            if s.phase in ("place", "extra") and moves[0].kind == "place":
                outlook = Outlook(s.field)
                centre = rng.choice(outlook.cells)
                around = {neighbour(centre, d) for d in range(6)}
                local = Outlook(s.field, only=around)
                assert local.cells == [c for c in outlook.cells if c in around]
                for t in s.hands[s.current]:
                    gems = s.gems_of(t)
                    for cell in outlook.cells:
                        for rotation in range(6):
                            outcome = outlook.outcome(cell, gems, rotation)
                            for room in (0, 1, 2):
                                want = (gain(outcome, room), bool(outcome))
                                assert (
                                    placement_gain_of(outlook, cell, gems, rotation, room) == want
                                )
                                if cell in local.cells:
                                    got = placement_gain_of(local, cell, gems, rotation, room)
                                    assert got == want
                            checked += 1
                            made += bool(outcome)
            s.apply(rng.choice(moves))
    assert checked > 5000 and made > 500


def test_to_dict_tells_the_field_hands_and_scores():
    s = position(field=[((0, 0), "T1", "basic", 0)], hand_a=[("T7", "basic")] * 2)
    s.apply(mv.place(1, (0, -1), 1))
    d = s.to_dict()
    assert d["field"]["0,-1"] == {"token": "T7", "side": "basic", "gems": "RGRGRG", "turn": 1}
    assert d["phase"] == "resolve" and d["resolving"].startswith("a group of 2")
    assert d["hands"]["A"] == [{"token": "T7", "side": "basic", "gems": "RGRGRG"}]


def test_refusals_name_the_group_size_that_applied():
    s = position(field=[((0, 0), "T1", "basic", 0)], hand_a=[("T7", "basic"), ("T2", "basic")])
    with pytest.raises(IllegalMove, match="only after a group of 3 or more may a player pass"):
        s.apply(mv.pass_())
    for turn in range(6):  # T7's R against T1's R: a group of 2, which goes to the heap only
        trial = position(
            field=[((0, 0), "T1", "basic", 0)], hand_a=[("T7", "basic"), ("T2", "basic")]
        )
        ev = trial.apply(mv.place(1, (0, -1), turn))
        if [p.tier for p in ev.groups] == [SMALL]:
            break
    else:
        raise AssertionError("no turn of T7 makes a group of 2 there")
    with pytest.raises(IllegalMove, match=r"a group of 2 \(2 \w+ gems on .*\) sends its token"):
        trial.apply(mv.hand((0, 0), BASIC))
