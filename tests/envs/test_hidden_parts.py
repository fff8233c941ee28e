"""Hidden information stays hidden: a player's observation (PettingZoo's and OpenSpiel's,
string and tensor) and information state do not change when the parts they may not see
change, and a player who may see them does see the change.

Lost Gems: a player never sees their own shards. Waterfall: the others' hands and the draw
pile's order. Gem Match and Gembatan: the order of their piles (Gembatan's tray too)."""

import numpy as np
import pyspiel
import pytest

from simulator.envs import openspiel_game, pettingzoo_env
from simulator.envs.deal import deck_of, seed_identities
from simulator.envs.table import SharedGame, dealt


def views(state, players):
    """Every player's observation string and information state (an OpenSpiel state)."""
    return [
        (state.observation_string(p), state.information_state_string(p)) for p in range(players)
    ]


def other_jungle_position(deck, shard, start=4):
    return next(i for i in range(start, len(deck)) if deck[i] != shard)


# --- Lost Gems -------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [0, 11, 42])
def test_openspiel_lostgems_own_shard_swapped_with_the_jungle(seed):
    game = openspiel_game("lostgems")
    deal = seed_identities(seed)
    deck = deck_of(deal)
    k = other_jungle_position(deck, deck[0])
    swapped = list(deal)
    swapped[0], swapped[k] = swapped[k], swapped[0]  # A's slot 1 for a jungle shard
    states = []
    for order in (deal, swapped):
        state = game.new_initial_state()
        for identity in order:
            state.apply_action(identity)
        state.apply_action(4)  # A hints red: about B's hand, the same in both deals
        states.append(state)
    one, two = states
    assert views(one, 2)[0] == views(two, 2)[0]
    assert one.observation_tensor(0) == two.observation_tensor(0)
    assert views(one, 2)[1][0] != views(two, 2)[1][0]  # B sees A's hand
    assert views(one, 2)[1][1] != views(two, 2)[1][1]
    assert one.observation_tensor(1) != two.observation_tensor(1)


def test_pettingzoo_lostgems_own_shard_swapped_with_the_jungle():
    env = pettingzoo_env("lostgems")
    env.reset(seed=3)
    before = {a: env.observe(a)["observation"].copy() for a in env.possible_agents}
    referee = env.unwrapped.table.referee
    k = other_jungle_position(referee.deck, referee.hands[0][1])
    referee.deck[1], referee.deck[k] = referee.deck[k], referee.deck[1]
    referee.hands[0][1] = referee.deck[1]
    assert np.array_equal(env.observe("player_0")["observation"], before["player_0"])
    assert not np.array_equal(env.observe("player_1")["observation"], before["player_1"])


# --- the other games: hands and piles ----------------------------------------------------


def swap_kinds(referee, one, two):
    referee.kinds[one], referee.kinds[two] = referee.kinds[two], referee.kinds[one]


def differing_pile_pair(kinds, pile):
    first = pile[0]
    return first, next(t for t in pile[1:] if kinds[t] != kinds[first])


def seat_strings(state, players):
    return [state.observation_string(p) for p in range(players)]


@pytest.mark.parametrize("name", ["waterfall", "gemmatch"])
def test_pile_order_is_hidden(name):
    state = dealt(SharedGame(name, 2), 8)
    before = seat_strings(state, 2)
    referee = state.referee
    swap_kinds(referee, *differing_pile_pair(referee.kinds, referee.pile))
    assert seat_strings(state, 2) == before


def test_waterfall_hand_hidden_from_the_others():
    state = dealt(SharedGame("waterfall", 3), 4)
    before = seat_strings(state, 3)
    referee = state.referee
    held = referee.hands[1][0]
    other = next(t for t in referee.pile if referee.kinds[t] != referee.kinds[held])
    swap_kinds(referee, held, other)
    after = seat_strings(state, 3)
    assert after[0] == before[0] and after[2] == before[2]
    assert after[1] != before[1]


def test_gembatan_pile_and_tray_order_hidden():
    state = dealt(SharedGame("gembatan", 2), 6)
    before = seat_strings(state, 2)
    referee = state.referee
    for pile in (referee.pile, referee.tray):
        k = next(i for i in range(1, len(pile)) if pile[i] != pile[0])
        pile[0], pile[k] = pile[k], pile[0]
    assert seat_strings(state, 2) == before


@pytest.mark.parametrize("name", ["waterfall", "gemmatch", "gembatan"])
def test_openspiel_and_pettingzoo_show_the_same_view(name):
    """Both adapters read the one view the hidden-part tests above check."""
    game = openspiel_game(name, deals=30)
    state = game.new_initial_state()
    state.apply_action(21)
    env = pettingzoo_env(name)
    env.reset(seed=21)
    for player, agent in enumerate(env.possible_agents):
        text = bytes(env.observe(agent)["observation"]).rstrip(b"\0").decode("utf-8")
        assert text == state.observation_string(player)
        assert state.information_state_string(player).endswith(text)
    assert pyspiel.load_game(f"python_blinks_{name}").num_players() == 2


def adapter_views(name, seed, players):
    """(referee, view(player)) through both adapters at once: OpenSpiel's observation string
    and information state, and PettingZoo's observation bytes, of one deal."""
    state = openspiel_game(name, players=players, deals=seed + 1).new_initial_state()
    state.apply_action(seed)
    env = pettingzoo_env(name, players=players)
    env.reset(seed=seed)
    env.unwrapped.table = state._play  # one referee behind both, so one change shows in both

    def view(player):
        state._sights = None  # read the referee again, as a new state would
        agent = env.possible_agents[player]
        return (
            state.observation_string(player),
            state.information_state_string(player),
            bytes(env.observe(agent)["observation"]),
        )

    return state.referee, view


def test_waterfall_hand_hidden_through_both_adapters():
    referee, view = adapter_views("waterfall", 4, 3)
    before = [view(p) for p in range(3)]
    held = referee.hands[1][0]
    other = next(t for t in referee.pile if referee.kinds[t] != referee.kinds[held])
    swap_kinds(referee, held, other)
    after = [view(p) for p in range(3)]
    assert after[0] == before[0] and after[2] == before[2]
    assert after[1][0] != before[1][0] and after[1][2] != before[1][2]
