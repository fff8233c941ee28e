"""Waterfall's referee: setup, the actions, blocking, falling out, the two endings, and what a
player may see."""

import pytest
from games.waterfall import cards
from wf_decks import BASIC

from simulator.games.waterfall import rules
from simulator.games.waterfall.referee import GameState, IllegalMove
from simulator.games.waterfall.rules import event_seen_by


def names(state, ids):
    return [cards.name(state.kinds[t]) for t in ids]


def test_the_deck_fits_one_deal_and_names_round_trip():
    deck = cards.deck()
    assert len(deck) == cards.DECK_SIZE == 27
    assert max(deck) <= 15 and min(deck) >= 1  # a kind travels as a nibble in the deal
    for kind in set(deck):
        assert cards.parse(cards.name(kind)) == kind
        assert 1 <= cards.number_of(kind) <= 3


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_starts_with_the_first_add_and_deals_four_each(players):
    s = GameState(players=players, seed=9)
    top = s.waterfall[(0, 0)]
    assert cards.action_of(s.kinds[top]) == cards.ADD
    assert not any(cards.action_of(k) == cards.ADD for k in s.kinds[:top])
    assert [len(h) for h in s.hands] == [4] * players
    assert len(s.pile) == 27 - 1 - 4 * players
    assert s.pawns == [None] * players


def test_five_players_are_refused():
    with pytest.raises(ValueError, match="2 to 4"):
        GameState(players=5)


def test_a_turn_needs_a_play_before_the_fall_and_add_grows_the_waterfall():
    s = GameState(deck=BASIC)
    with pytest.raises(IllegalMove, match="play at least one"):
        s.apply(rules.fall())
    s.apply(rules.play(1))  # DRAW-R1: 1 step
    assert s.steps == 1
    s.apply(rules.fall())
    assert s.legal_moves() == [rules.step("left")]  # from above: the start tile only
    ev = s.apply(rules.step("left"))
    assert ev.entered == (0, 0) and ev.action == cards.ADD
    assert s.open_places() == [(1, 0), (1, 1)]
    s.apply(rules.add(2, (1, 0)))  # ADD-G1
    assert names(s, [s.waterfall[(1, 0)]]) == ["ADD-G1"]
    assert s.current == 1 and s.pawns[0] == (0, 0)


def blocked_state():
    """A at 1.0 with 1.0's two ways down: 2.0 (B stands there) and 2.1 (free)."""
    s = GameState(deck=BASIC)
    for place, name in (
        ((1, 0), "ADD-G1"),
        ((1, 1), "ADD-B1"),
        ((2, 0), "STOP-G3"),
        ((2, 1), "DRAW-G2"),
    ):
        s.waterfall[place] = s.kinds.index(cards.parse(name))
    s.pawns = [(1, 0), (2, 0)]
    s.phase, s.steps = "fall", 2
    return s


def test_a_tile_holding_another_pawn_refuses_entry_while_the_other_way_is_free():
    s = blocked_state()
    assert s.legal_moves() == [rules.step("right")]
    with pytest.raises(IllegalMove, match="holds pawn B"):
        s.apply(rules.step("left"))


def test_both_ways_blocked_lets_the_pawn_enter_either():
    s = blocked_state()
    s.players = 3
    s.pawns = [(1, 0), (2, 0), (2, 1)]
    s.hands.append([])
    s.score_piles.append([])
    assert s.legal_moves() == [rules.step("left"), rules.step("right")]
    s.apply(rules.step("left"))
    assert s.pawns[0] == s.pawns[1] == (2, 0)


def test_an_empty_place_below_is_never_blocked_and_falling_out_ends_the_turn():
    s = blocked_state()
    del s.waterfall[(2, 1)]
    assert s.legal_moves() == [rules.step("right")]  # out at the bottom, not into B
    ev = s.apply(rules.step("right"))
    assert ev.exited and ev.turn_over
    assert s.pawns[0] is None and s.current == 1


def test_draw_takes_three_and_reshuffles_the_discards_when_the_pile_runs_out():
    s = blocked_state()
    s.discards, s.pile = s.pile[3:], s.pile[:1]
    before = len(s.hands[0]) + len(s.discards) + len(s.pile)
    ev = s.apply(rules.step("right"))  # 2.1: DRAW-G2
    assert ev.action == cards.DRAW and len(ev.drew) == 3 and ev.reshuffled
    assert len(s.hands[0]) + len(s.discards) + len(s.pile) == before
    assert s.discards == []


def spare(s, name):
    """The id of a tile of kind `name` in the draw pile (taken out of it)."""
    t = next(t for t in s.pile if s.kinds[t] == cards.parse(name))
    s.pile.remove(t)
    return t


def test_score_takes_at_most_two_tiles_of_gems_visited_this_turn():
    s = GameState(deck=BASIC)  # the start tile is ADD-R1 (ruby)
    s.waterfall[(1, 0)] = spare(s, "SCORE-R3")
    s.hands[0] = [spare(s, n) for n in ("ADD-R2", "STOP-B3", "STOP-R3", "DRAW-R1", "SCORE-G2")]
    s.apply(rules.play(4))  # DRAW-R1: 1 step... and STOP-B3 for 3 more
    s.apply(rules.play(2))
    s.apply(rules.fall())
    s.apply(rules.step("left"))  # the start tile: ADD
    s.apply(rules.add(3, (1, 1)))  # SCORE-G2 joins; A holds ADD-R2 STOP-R3
    s.hands[0].append(spare(s, "ADD-B1"))
    ev = s.apply(rules.step("left"))  # 1.0: SCORE; ruby visited, sapphire not
    assert ev.action == cards.SCORE and s.phase == "score"
    assert s.legal_moves() == [rules.score(1), rules.score(2), rules.done()]
    s.apply(rules.score(2))  # STOP-R3: 3 points
    s.apply(rules.score(1))  # ADD-R2: 2 points, and that is two: the fall goes on
    assert s.score(0) == 5 and s.phase == "fall"
    assert names(s, s.hands[0]) == ["ADD-B1"]
    assert s.score(1) == 0


def test_stop_ends_the_fall_with_steps_left():
    s = blocked_state()
    s.pawns = [(1, 0), None]
    ev = s.apply(rules.step("left"))  # 2.0: STOP-G3
    assert ev.action == cards.STOP and ev.turn_over
    assert s.current == 1


def test_the_game_ends_once_the_waterfall_holds_twenty():
    s = GameState(deck=BASIC)
    spare = [t for t in s.pile]
    row, i = 1, 0
    while len(s.waterfall) < 19:
        s.waterfall[(row, i)] = spare.pop()
        i += 1
        if i > row:
            row, i = row + 1, 0
    s.pile = spare
    s.apply(rules.play(1))
    s.apply(rules.fall())
    s.apply(rules.step("left"))  # ADD: the 20th tile
    s.apply(rules.add(1, s.open_places()[0]))
    assert s.over and s.ended == "twenty"
    with pytest.raises(IllegalMove, match="over"):
        s.apply(rules.play(1))


def test_the_game_ends_when_nothing_is_left_to_draw():
    s = GameState(deck=BASIC)
    s.pile, s.discards = [], []
    s.apply(rules.play(1))  # to the discards: something is left to draw again
    s.apply(rules.fall())
    s.discards = []
    s.apply(rules.step("left"))
    s.apply(rules.add(1, (1, 0)))
    assert s.over and s.ended == "deck"


def test_a_player_sees_no_other_hand_and_not_what_others_drew():
    s = blocked_state()
    obs_b = s.observation(1)
    assert not hasattr(obs_b, "hands")
    assert obs_b.hand_sizes() == [len(h) for h in s.hands]
    assert obs_b.legal_moves() == []  # not B's turn
    ev = s.apply(rules.step("right"))  # A draws 3
    seen = event_seen_by(ev, 1)
    assert len(seen.drew) == 3 and set(seen.drew) == {cards.NO_CARD}
    assert event_seen_by(ev, 0).drew == ev.drew and ev.drew[0] != cards.NO_CARD


def test_a_refused_step_names_the_way_down_or_the_pawn_in_it():
    s = GameState(deck=BASIC)
    s.apply(rules.play(1))
    s.apply(rules.fall())
    with pytest.raises(IllegalMove, match="from above the waterfall the only way down is left"):
        s.apply(rules.step("right"))
    s = blocked_state()
    with pytest.raises(IllegalMove, match="that tile holds pawn B, and the other way down is free"):
        s.apply(rules.step("left"))
