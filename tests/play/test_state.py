"""The play layer's Game/State (simulator.play.state) on every game with a referee: the deal is a
chance node, random playouts end, returns stay in the game's range, clones are independent and
every legal action is one the referee accepts."""

import random

import pytest

from simulator.play.state import CHANCE, DEALS, TERMINAL, Game

GAMES = ["lostgems", "waterfall", "gemmatch", "gembatan"]


def playout(state, rng):
    """Random legal actions until the game ends; the number of moves made."""
    moves = 0
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
        moves += 1
    return moves


def test_the_first_state_is_the_deal_a_chance_node():
    state = Game("lostgems").new_initial_state()
    assert state.is_chance_node() and state.current_player() == CHANCE
    outcomes = state.chance_outcomes()
    assert len(outcomes) == DEALS and [s for s, _ in outcomes[:3]] == [0, 1, 2]
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    assert state.observation_string(0) == "deal"
    state.apply_action(7)
    assert not state.is_chance_node() and state.current_player() == 0
    assert state.chance_outcomes() == []


@pytest.mark.parametrize("name", GAMES)
def test_random_playouts_end_with_returns_in_range(name):
    game = Game(name)
    for seed in range(2):
        state = game.dealt_state(seed)
        assert playout(state, random.Random(seed)) > 0
        assert state.current_player() == TERMINAL and state.legal_actions() == []
        returns = state.returns()
        assert len(returns) == game.num_players()
        assert all(game.min_utility <= r <= game.max_utility for r in returns)


@pytest.mark.parametrize("name", GAMES)
def test_a_clone_is_independent(name):
    state = Game(name).dealt_state(3)
    before = state.observation_string(0)
    other = state.clone()
    playout(other, random.Random(1))
    assert other.is_terminal() and not state.is_terminal()
    assert state.observation_string(0) == before
    # and the original plays on as if the clone had never been made
    again = Game(name).dealt_state(3)
    assert playout(state, random.Random(2)) == playout(again, random.Random(2))
    assert state.returns() == again.returns()


@pytest.mark.parametrize("name", GAMES)
def test_every_legal_action_is_accepted_by_the_referee(name):
    state = Game(name).dealt_state(11)
    rng = random.Random(4)
    for _ in range(6):
        if state.is_terminal():
            break
        player = state.current_player()
        for action in state.legal_actions():
            child = state.clone()
            child.apply_action(action)  # the referee raises IllegalMove for a move it refuses
            assert child.current_player() != CHANCE
        assert state.legal_actions(1 - player) == [] or state.game.players > 2
        state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("name", GAMES)
def test_an_action_out_of_range_is_refused(name):
    state = Game(name).dealt_state(0)
    with pytest.raises(ValueError, match="not legal"):
        state.apply_action(len(state.legal_actions()))
    with pytest.raises(ValueError, match="seed"):
        Game(name).new_initial_state().apply_action(-1)


def test_the_observation_hides_what_the_seat_may_not_see():
    """Lost Gems: each player sees the partner's hand, never their own."""
    state = Game("lostgems").dealt_state(5)
    hands = state.referee.hands
    a, b = state.observation_string(0), state.observation_string(1)
    assert f"partner_hand: {hands[1]}" in a and f"partner_hand: {hands[0]}" in b
    assert a != b and "object at" not in a


def test_a_player_count_the_game_does_not_take_is_refused():
    assert Game("waterfall", players=4).dealt_state(0).returns() == [0, 0, 0, 0]
    with pytest.raises(ValueError, match="for 2 players"):
        Game("gemmatch", players=3)
