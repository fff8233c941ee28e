"""The referee against LOSTGEMS.md part 1, edge case by edge case."""

import pytest

from simulator.games.lostgems import GameState, IllegalMove, Move, parse_shard
from simulator.games.lostgems.moves import ALL_HINTS

# A holds R1 Y1, B holds B1 R2; jungle from the top: Y2 B2 R3 Y3 B3 R1 R1 Y1 Y1 B1 B1 R2 Y2 B2
DECK = "R1 Y1 B1 R2 Y2 B2 R3 Y3 B3 R1 R1 Y1 Y1 B1 B1 R2 Y2 B2"


def game(deck=DECK, start=0):
    return GameState(deck=[parse_shard(s) for s in deck.split()], start=start)


def names(g, player):
    return g.to_dict()["hands"]["AB"[player]]


def test_deal_gives_two_to_each_hand_and_leaves_fourteen():
    g = game()
    assert names(g, 0) == ["R1", "Y1"] and names(g, 1) == ["B1", "R2"]
    assert g.jungle == 14 and g.hints == 3 and g.errors == 0 and not g.over


def test_discard_refused_with_all_three_tokens_available():
    g = game()
    with pytest.raises(IllegalMove, match="spent hint token"):
        g.apply(Move.discard(1))
    assert g.turns == 0 and names(g, 0) == ["R1", "Y1"]  # nothing lost


def test_hint_refused_with_no_token():
    g = game()
    for _ in range(3):
        g.apply(Move.hint_value(3))
    assert g.hints == 0
    with pytest.raises(IllegalMove, match="hint token"):
        g.apply(Move.hint_colour(0))
    assert g.hints == 0 and g.turns == 3


def test_hint_naming_no_shard_is_legal_and_costs_a_token():
    g = game()
    ev = g.apply(Move.hint_value(3))  # B holds B1 R2: no 3
    assert ev.touched == () and g.hints == 2
    # negative information: neither slot can be a 3
    assert all(v & 0b100 == 0 for _, v in g.knowledge[1])


def test_hint_points_at_every_matching_shard():
    g = game("R1 Y1 B1 B2 Y2 B2 R3 Y3 B3 R1 R1 Y1 Y1 B1 R2 R2 Y2 B1")
    ev = g.apply(Move.hint_colour(2))
    assert ev.touched == (1, 2)
    assert g.knowledge[1] == [(0b100, 7), (0b100, 7)]


def test_play_moves_remaining_shard_to_slot_one_and_draws_into_slot_two():
    g = game()
    g.apply(Move.play(1))  # A plays R1
    assert names(g, 0) == ["Y1", "Y2"] and g.gems == [1, 0, 0] and g.jungle == 13


def test_unplayable_shard_is_an_error_and_goes_to_the_discards():
    g = game()
    g.apply(Move.hint_value(1))
    ev = g.apply(Move.play(2))  # B plays R2 on an empty red gem
    assert ev.error and g.errors == 1 and g.discards == [parse_shard("R2")]
    assert names(g, 1) == ["B1", "Y2"]


def test_second_error_ends_the_game_at_once_with_zero():
    g = game("R2 Y2 B1 R3 R1 Y1 B2 B3 Y3 R1 R1 Y1 Y1 B1 B1 R2 Y2 B2")
    g.apply(Move.hint_value(1))
    g.apply(Move.play(1))  # B1 joins blue
    assert g.score == 1
    g.apply(Move.play(1))  # A: R2 error
    jungle = g.jungle
    ev = g.apply(Move.play(1))  # B: R3 error -> over
    assert g.over and g.errors == 2 and g.score == 0
    # "ends at once": no further turn, but the turn is whole: "either way, draw a replacement"
    assert ev.drew == g.hands[1][1] and g.jungle == jungle - 1 and len(g.hands[1]) == 2
    assert g.to_dict()["gems"] == {"R": 0, "Y": 0, "B": 1} and g.to_dict()["score"] == 0
    with pytest.raises(IllegalMove, match="over"):
        g.apply(Move.hint_value(1))
    assert g.legal_moves() == []


def test_completing_a_gem_regains_a_spent_token_but_never_beyond_three():
    # A: R1 R2 ; B: R3 Y1 ; A plays R1, B hints, A plays R2, B plays R3 at 2 tokens -> 3
    g = game("R1 R2 R3 Y1 Y2 B2 B1 Y3 B3 R1 R1 Y1 Y1 B1 B1 R2 Y2 B2")
    g.apply(Move.play(1))
    g.apply(Move.hint_value(2))
    g.apply(Move.play(1))
    assert g.hints == 2
    ev = g.apply(Move.play(1))
    assert ev.completed and ev.regained and g.hints == 3
    # and at 3 available tokens completing gains nothing
    g2 = game("R1 R2 R3 Y1 Y2 B2 B1 Y3 B3 R1 R1 Y1 Y1 B1 B1 R2 Y2 B2")
    g2.apply(Move.play(1))
    g2.apply(Move.play(2))  # B plays Y1
    g2.apply(Move.play(1))  # A plays R2
    ev = g2.apply(Move.play(1))  # B plays R3 with 3 tokens available
    assert ev.completed and not ev.regained and g2.hints == 3


def test_last_draw_gives_each_player_exactly_one_more_turn_partner_first():
    g = game()
    # hints and discards alternate until the jungle is empty: count turns after the last draw
    while g.jungle > 0:
        g.apply(Move.hint_value(3) if g.hints == 3 else Move.discard(1))
    drawer = 1 - g.current
    assert not g.over and g.final_turns == 2
    assert g.current == 1 - drawer  # the partner moves first
    g.apply(Move.hint_value(3) if g.hints else Move.discard(1))
    assert not g.over and g.current == drawer
    turns = g.turns
    g.apply(Move.hint_value(3) if g.hints else Move.discard(1))
    assert g.over and g.turns == turns + 1
    with pytest.raises(IllegalMove):
        g.apply(Move.hint_value(1))


def test_no_draw_once_the_jungle_is_empty_and_missing_slots_are_refused():
    g = game()
    while g.jungle > 0:
        g.apply(Move.hint_value(3) if g.hints == 3 else Move.discard(1))
    p = g.current
    g.apply(Move.discard(1) if g.hints < 3 else Move.play(1))
    assert len(g.hands[p]) == 1 and g.jungle == 0
    g.apply(Move.discard(1) if g.hints < 3 else Move.play(1))  # the drawer's last turn
    assert g.over


def test_a_slot_beyond_the_hand_is_refused():
    g = game()
    with pytest.raises(IllegalMove, match="slot 3"):
        g.apply(Move.play(3))


def test_all_three_gems_end_the_game_with_nine():
    # A and B alternate plays of shards dealt in order: A R1 Y1, B B1 R2, then R3? set a deck
    deck = "R1 Y1 B1 R2 Y2 B2 R3 Y3 B3 R1 R1 Y1 Y1 B1 B1 R2 Y2 B2"
    g = game(deck)
    plays = 0
    while not g.over and plays < 40:
        # play whichever slot holds a playable shard, else hint (legal: tokens come back on 3s)
        hand = g.hands[g.current]
        slot = next((i + 1 for i, s in enumerate(hand) if s % 3 == g.gems[s // 3]), None)
        jungle = g.jungle
        ev = g.apply(
            Move.play(slot) if slot else (Move.hint_value(1) if g.hints else Move.discard(1))
        )
        plays += 1
    assert g.score == 9 and g.over and g.to_dict()["gems"] == {"R": 3, "Y": 3, "B": 3}
    # the game ended at the ninth point, the play's replacement drawn as in any turn
    assert g.jungle > 0 and ev.drew is not None and g.jungle == jungle - 1


def test_bad_deck_is_refused_with_a_clear_error():
    with pytest.raises(ValueError, match="permutation"):
        game("R1 R1 R1 R1 Y2 B2 R3 Y3 B3 R1 R1 Y1 Y1 B1 B1 R2 Y2 B2")


def test_a_negative_seed_is_refused_rather_than_dealing_another_seeds_game():
    # random.Random(-n) shuffles as Random(n): seed -3 would silently replay seed 3's deal.
    assert GameState(seed=3).deck != GameState(seed=4).deck
    for bad in (-3, "3", 1.5):
        with pytest.raises(ValueError, match="whole number >= 0"):
            GameState(seed=bad)


def test_observation_hides_own_hand_and_masks_own_draw():
    g = game()
    obs = g.observation(0)
    assert obs.partner_hand == [parse_shard("B1"), parse_shard("R2")]
    assert not hasattr(obs, "hand") and not hasattr(obs, "hands")
    g.apply(Move.play(1))
    assert obs.last_event.drew is None  # A cannot see what A drew
    assert g.observation(1).last_event.drew == parse_shard("Y2")
    assert g.history[-1].drew == parse_shard("Y2")  # the referee's own record is untouched


def test_a_glance_reads_what_the_properties_read_and_events_tell_the_hand_size():
    # A whole game to its last round, both seats, every turn: glance() is the properties in
    # one call.
    g = GameState(seed=11)
    moves = iter([Move.hint_value(1), Move.discard(1)] * 20)
    last_round = False
    while not g.over:
        for obs in (g.observation(0), g.observation(1)):
            assert obs.glance() == (
                obs.hints,
                obs.errors,
                obs.jungle,
                obs.turns,
                obs.final_turns,
                obs.hand_size,
                tuple(obs.partner_hand),
            )
        last_round = last_round or g.final_turns is not None
        mover = g.current
        assert g.apply(next(moves)).holds == len(g.hands[mover])  # the mover's hand, after
    assert last_round


def test_the_drawer_sees_every_part_of_the_event_but_the_shard_drawn():
    g = GameState(seed=3)
    g.apply(Move.hint_value(1))
    g.apply(Move.discard(1))  # B discards and draws
    ev = g.history[-1]
    mine, theirs = g.observation(1).last_event, g.observation(0).last_event
    assert theirs is ev and ev.drew is not None
    assert mine.drew is None
    for name in ev.__slots__:
        if name != "drew":
            assert getattr(mine, name) == getattr(ev, name), name


@pytest.mark.parametrize(
    "move", [Move.hint_value(0), Move.hint_value(4), Move.hint_colour(3), Move.hint_colour(-1)]
)
def test_a_hint_naming_no_colour_or_value_of_the_game_is_refused(move):
    g = game()
    with pytest.raises(IllegalMove, match="names a colour"):
        g.apply(move)
    assert g.turns == 0 and g.hints == 3  # nothing changed


def test_the_six_hints_carry_their_index_as_their_code():
    assert [m.code for m in ALL_HINTS] == [0, 1, 2, 3, 4, 5]
    assert Move.hint_colour(2).code == 2 and Move.hint_value(1).code == 3
    assert Move.play(1).code == Move.discard(2).code == -1


def test_a_seed_deals_the_deck_as_random_shuffle_does():
    import random

    from simulator.games.lostgems.shards import full_deck, shuffled_deck

    for seed in list(range(300)) + [2**40 + 7, 10**30]:
        deck = full_deck()
        random.Random(seed).shuffle(deck)
        assert shuffled_deck(seed) == deck, seed
