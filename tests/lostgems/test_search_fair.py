"""The search bot is a fair player: it never reads its own shards or the jungle's order.

A referee plays it; at each of its turns the bot is asked again with its own shards and every
shard still to draw replaced by impossible values (99) in the hidden state, and must choose the
same move (a bot that read them would choose otherwise, or fail on an index out of range)."""

import copy
import json

from host_tools.cli import main
from simulator.games.lostgems.bots import play_game
from simulator.games.lostgems.bots.base import seated_bots
from simulator.games.lostgems.bots.conventions import ConventionBot
from simulator.games.lostgems.bots.search import SearchBot
from simulator.games.lostgems.observation import event_seen_by
from simulator.games.lostgems.referee import GameState

IMPOSSIBLE = 99


def blinded(state, player):
    """A shallow copy of `state` whose hidden part (the player's own hand, the draw order
    still to come) holds impossible shards."""
    other = copy.copy(state)
    other.hands = [list(h) for h in state.hands]
    other.hands[player] = [IMPOSSIBLE] * len(state.hands[player])
    other.deck = state.deck[: state.next_draw] + [IMPOSSIBLE] * (len(state.deck) - state.next_draw)
    return other


def test_the_search_bot_chooses_the_same_without_its_hidden_state():
    checked = 0
    for seed in (5,):
        state = GameState(seed=seed)
        bots = seated_bots(SearchBot, ConventionBot, seed)
        while not state.over:
            p = state.current
            move = bots[p].act(state.observation(p))
            if p == 0:
                assert bots[0].act(blinded(state, 0).observation(0)) == move
                checked += 1
            event = state.apply(move)
            for q in (0, 1):
                bots[q].observe(state.observation(q), event if q == p else event_seen_by(event, q))
    assert checked > 5
    assert bots[0].searched > 0  # the checked turns include searched ones


def test_a_seed_replays_the_same_game():
    first = play_game(SearchBot, seed=11)
    second = play_game(SearchBot, seed=11)
    assert [str(e.move) for e in first.history] == [str(e.move) for e in second.history]
    assert first.score == second.score


def test_playtest_runs_the_search_bot(capsys):
    assert main(["playtest", "--bot", "search", "--games", "5", "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["bot"] == "search" and got["games"] == 5
    assert sum(got["histogram"]) == 5 and 0 <= got["mean"] <= 9
    assert set(got["lost"]) == {
        "last_copy_discarded",
        "last_copy_misplayed",
        "out_of_turns",
        "two_errors",
    }
