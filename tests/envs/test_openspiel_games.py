"""Every game as an OpenSpiel game: registered under python_blinks_<name>, its GameType true
to the game, and OpenSpiel's own random_sim_test (with serialization) passes."""

import pyspiel
import pytest

from simulator.envs import GAMES, openspiel_game
from simulator.envs.deal import deck_of, seed_identities
from simulator.games.lostgems.referee import GameState

Type = pyspiel.GameType


@pytest.mark.parametrize(
    "name", [g if g != "gembatan" else pytest.param(g, marks=pytest.mark.long) for g in GAMES]
)
def test_random_sim_test_with_serialization(name):
    pyspiel.random_sim_test(openspiel_game(name), num_sims=1, serialize=True, verbose=False)


def test_random_sim_test_more_players():
    pyspiel.random_sim_test(
        openspiel_game("waterfall", players=3, deals=50), num_sims=1, serialize=True, verbose=False
    )


@pytest.mark.parametrize("name", GAMES)
def test_load_game_after_openspiel_game(name):
    openspiel_game(name)
    game = pyspiel.load_game(f"python_blinks_{name}")
    assert game.get_type().short_name == f"python_blinks_{name}"
    state = game.new_initial_state()
    assert state.is_chance_node()


def test_game_types_say_what_each_game_is():
    for name in GAMES:
        kind = openspiel_game(name).get_type()
        assert kind.dynamics == Type.Dynamics.SEQUENTIAL
        assert kind.chance_mode == Type.ChanceMode.EXPLICIT_STOCHASTIC
        assert kind.information == Type.Information.IMPERFECT_INFORMATION
        cooperative = name == "lostgems"
        assert (kind.utility == Type.Utility.IDENTICAL) == cooperative
        assert (kind.utility == Type.Utility.GENERAL_SUM) != cooperative
        assert kind.provides_observation_tensor == cooperative
    assert openspiel_game("gembatan", players=4).num_players() == 4


def test_lostgems_deals_shard_by_shard_in_the_documented_order():
    game = openspiel_game("lostgems")
    state = game.new_initial_state()
    assert [o for o, _ in state.chance_outcomes()] == list(range(18))
    for identity in seed_identities(77):
        assert state.is_chance_node()
        state.apply_action(identity)
    assert not state.is_chance_node()
    # the seed's deal through the chance nodes is the referee's deal of that seed
    referee = GameState(seed=77)
    assert deck_of(seed_identities(77)) == referee.deck
    assert str(state).count("partner_hand") == 2
    assert f"partner_hand: [{', '.join(map(str, referee.hands[1]))}]" in state.observation_string(0)


def test_lostgems_observation_tensor_reads_the_partner_hand():
    game = openspiel_game("lostgems")
    state = game.new_initial_state()
    for identity in seed_identities(5):
        state.apply_action(identity)
    tensor = state.observation_tensor(0)
    assert len(tensor) == game.observation_tensor_size()
    b_hand = GameState(seed=5).hands[1]
    partner = tensor[1 : 1 + 18]
    assert [i for i, bit in enumerate(partner) if bit] == [b_hand[0], 9 + b_hand[1]]


def test_seed_games_deal_their_seed():
    from simulator.games.waterfall.referee import GameState as Waterfall

    game = openspiel_game("waterfall", deals=20)
    state = game.new_initial_state()
    assert len(state.chance_outcomes()) == 20
    state.apply_action(13)
    referee = Waterfall(seed=13)
    assert f"hand: {[referee.kinds[t] for t in referee.hands[0]]}" in state.observation_string(0)


def test_bad_parameters_are_named():
    with pytest.raises(ValueError, match="takes no option 'deals'"):
        openspiel_game("lostgems", deals=3)
    with pytest.raises(ValueError, match="is for 2, 3, 4 players"):
        openspiel_game("gembatan", players=6)
