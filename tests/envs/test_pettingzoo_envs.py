"""Every game as a PettingZoo AEC environment passes PettingZoo's own checks (api_test with 400
cycles, seed_test) and renders its table as text and in a window."""

import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from simulator.envs import GAMES, pettingzoo_env


@pytest.mark.parametrize("name", GAMES)
def test_pettingzoo_api_and_seeds(name):
    with warnings.catch_warnings():
        # the dict observation of every classic environment draws these two warnings
        warnings.filterwarnings("ignore", message="Observation.*")
        api_test(pettingzoo_env(name), num_cycles=400)
        seed_test(lambda: pettingzoo_env(name), num_cycles=400)


@pytest.mark.parametrize("name, players", [("waterfall", 4), ("gembatan", 3)])
def test_more_players_make_more_agents(name, players):
    env = pettingzoo_env(name, players=players)
    env.reset(seed=3)
    assert env.possible_agents == [f"player_{p}" for p in range(players)]


def test_a_seed_deals_the_referee_game_of_that_seed():
    from simulator.games.lostgems.referee import GameState

    env = pettingzoo_env("lostgems")
    env.reset(seed=1234)
    assert env.unwrapped.table.referee.deck == GameState(seed=1234).deck


def test_unseeded_resets_follow_the_last_seed():
    one, two = pettingzoo_env("waterfall"), pettingzoo_env("waterfall")
    one.reset(seed=5)
    two.reset(seed=5)
    one.reset()
    two.reset()
    assert one.unwrapped.deal_seed == two.unwrapped.deal_seed != 5


def test_mask_marks_exactly_the_legal_moves_of_lostgems():
    env = pettingzoo_env("lostgems")
    env.reset(seed=0)
    mask = env.observe("player_0")["action_mask"]
    names = env.unwrapped.legal_action_strings()
    assert sorted(names) == list(np.flatnonzero(mask))
    # all three hint tokens at the start: plays and hints, no discard
    assert set(names.values()) == {"play 1", "play 2"} | {
        f"hint {w}"
        for w in ("colour red", "colour yellow", "colour blue", "value 1", "value 2", "value 3")
    }
    assert not env.observe("player_1")["action_mask"].any()


def test_bad_options_are_named():
    with pytest.raises(ValueError, match="takes no option 'variant'"):
        pettingzoo_env("lostgems", variant=2)
    with pytest.raises(ValueError, match="is for 2, 3, 4 players"):
        pettingzoo_env("waterfall", players=5)
    with pytest.raises(ValueError, match="not a game here"):
        pettingzoo_env("chess")


def test_ansi_shows_the_view_of_the_seat_to_move():
    env = pettingzoo_env("lostgems", render_mode="ansi")
    env.reset(seed=9)
    text = env.render()
    assert text.splitlines()[0] == "Lost Gems, deal seed 9"
    assert "to move: player_0" in text
    hands = env.unwrapped.table.referee.hands
    partner = "partner_hand: [" + ", ".join(str(s) for s in hands[1]) + "]"
    assert partner in text  # B's shards, as A sees them


def test_human_render_draws_in_a_window(monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    env = pettingzoo_env("gemmatch", render_mode="human")
    env.reset(seed=1)
    env.render()
    import pygame

    assert pygame.display.get_surface().get_size() == (900, 640)
    env.close()
