"""OpenSpiel's own bots play Lost Gems as seats of `blinks playtest` (openspiel:random, mcts,
ismcts), each searching worlds its observation allows."""

import json
import random
from collections import Counter

import pyspiel
import pytest

from host_tools.cli import main
from simulator.envs import bots, openspiel_game
from simulator.envs.worlds import determinized
from simulator.games.lostgems.bots import bot_class
from simulator.games.lostgems.bots.base import play_game
from simulator.games.lostgems.observation import possible_shards
from simulator.games.lostgems.referee import GameState
from simulator.games.lostgems.shards import FULL_DECK


def mid_game(seed, moves=7):
    """A game some random moves in, still going: plays only while no error token is lost."""
    state = GameState(seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        legal = [m for m in state.legal_moves() if state.errors == 0 or m.kind != "play"]
        state.apply(rng.choice(legal))
    assert not state.over
    return state


@pytest.mark.parametrize("seed", range(6))
def test_a_world_agrees_with_what_the_player_sees(seed):
    truth = mid_game(seed)
    player = truth.current
    obs = truth.observation(player)
    world = determinized(obs, random.Random(seed))
    seen = world.observation(player)
    for name in ("partner_hand", "gems", "discards", "hints", "errors", "jungle", "turns"):
        assert getattr(seen, name) == getattr(obs, name), name
    assert seen.knowledge(0) == obs.knowledge(0) and seen.knowledge(1) == obs.knowledge(1)
    own = world.hands[player]
    assert all(s in possible_shards(k) for s, k in zip(own, obs.knowledge(player)))
    played = [c * 3 + v for c, h in enumerate(truth.gems) for v in range(h)]
    pieces = world.hands[0] + world.hands[1] + world.discards + played
    pieces += world.deck[world.next_draw :]
    assert Counter(pieces) == Counter(FULL_DECK)


def test_resample_from_infostate_keeps_the_partner_hand():
    game = openspiel_game("lostgems")
    state = game.new_initial_state().world(mid_game(3))
    player = state.current_player()
    other = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert other.referee.hands[1 - player] == state.referee.hands[1 - player]
    assert other.legal_actions() == state.legal_actions()


def test_playtest_names_find_the_bots():
    assert bot_class("openspiel:mcts") is bots.OpenSpielMcts
    assert bot_class("openspiel:ismcts") is bots.OpenSpielIsmcts


@pytest.mark.parametrize("cls", [bots.OpenSpielRandom, bots.OpenSpielMcts, bots.OpenSpielIsmcts])
def test_each_bot_plays_a_whole_game(cls, monkeypatch):
    monkeypatch.setattr(bots, "SIMULATIONS", 10)  # a short search: this checks the plumbing
    state = play_game(cls, seed=4)
    assert state.over and 0 <= state.score <= 9


def test_blinks_playtest_seats_an_openspiel_bot_beside_ours(capsys):
    code = main(
        [
            "playtest",
            "--game",
            "lostgems",
            "--bot",
            "openspiel:random",
            "--partner",
            "conventions",
            "--games",
            "3",
            "--json",
        ]
    )
    assert code == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["bot"] == "openspiel:random" and figures["partner"] == "conventions"
    assert figures["games"] == 3
