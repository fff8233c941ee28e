"""The deal ceiling (deal_ceiling.py) against a second, plain search that plays the referee
itself, and against what the bots and the referee make of the same deals."""

import copy
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from host_tools.cli import main
from simulator.games.lostgems import GameState
from simulator.games.lostgems.bots import bot_class, play_game
from simulator.games.lostgems.deal_ceiling import best_line, ceiling, deal_ceiling, first_player
from simulator.games.lostgems.moves import ALL_HINTS, HINT, Move
from simulator.games.lostgems.shards import TYPE_COUNTS, parse_shard, shuffled_deck


def referee_key(g):
    """A full-information position: with every shard known, slot order means nothing."""
    return (
        g.next_draw,
        tuple(sorted(g.hands[0])),
        tuple(sorted(g.hands[1])),
        tuple(g.gems),
        g.hints,
        g.errors,
        g.current,
        g.final_turns,
    )


def after(g, move):
    h = copy.deepcopy(g)
    h.apply(move)
    h.history = []
    return h


def referee_moves(g):
    """Every legal move, but one hint for all six: with every shard known they are alike."""
    return [m for m in g.legal_moves() if m.kind != HINT or m == ALL_HINTS[0]]


def referee_best(g, memo):
    """The best final score from `g`, by trying every legal move on copies of the referee."""
    if g.over:
        return g.score
    key = referee_key(g)
    if key not in memo:
        memo[key] = max(referee_best(after(g, m), memo) for m in referee_moves(g))
    return memo[key]


def referee_reaches_9(g, memo):
    """Whether some play from `g` scores 9: as referee_best, but giving up on a line as soon
    as a needed shard has no copy left (the only pruning, so the search stays small)."""
    if g.over:
        return g.score == 9
    key = referee_key(g)
    if key not in memo:
        gone = [0] * 9
        for s in g.discards:
            gone[s] += 1
        lost = any(gone[t] == TYPE_COUNTS[t] and t % 3 >= g.gems[t // 3] for t in range(9))
        memo[key] = not lost and any(referee_reaches_9(after(g, m), memo) for m in referee_moves(g))
    return memo[key]


def late_state(seed, choices, jungle_left):
    """A game dealt from `seed`, played by `choices` among the legal moves until at most
    `jungle_left` shards are left to draw (or the game ends); never a second error, which
    would leave nothing to search."""
    g = GameState(seed=seed, start=seed % 2)
    i = 0
    while not g.over and g.jungle > jungle_left:
        legal = [m for m in g.legal_moves() if g.errors == 0 or not second_error(g, m)]
        g.apply(legal[choices[i % len(choices)] % len(legal)])
        i += 1
    return g


def second_error(g, move):
    if move.kind != "play":
        return False
    s = g.hands[g.current][move.slot - 1]
    return g.gems[s // 3] != s % 3


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    choices=st.lists(st.integers(0, 100), min_size=1, max_size=30),
    jungle_left=st.integers(0, 3),
)
def test_the_ceiling_of_a_late_position_is_the_best_any_play_of_the_referee_makes(
    seed, choices, jungle_left
):
    g = late_state(seed, choices, jungle_left)
    assert ceiling(g) == referee_best(g, {})


# Deals whose ceiling is below 9 and deals that reach 9, as the search finds them; the plain
# search on the referee must agree on both kinds.
@pytest.mark.parametrize("seed", [0, 1, 44, 66, 92, 2, 3, 17, 37])
def test_whether_a_deal_can_reach_9_agrees_with_a_plain_search_on_the_referee(seed):
    deck = shuffled_deck(seed)
    assert (deal_ceiling(deck) == 9) == referee_reaches_9(GameState(deck=deck), {})


def test_both_kinds_of_deal_are_in_that_sample():
    ceilings = {deal_ceiling(shuffled_deck(seed)) for seed in (0, 1, 44, 66, 92, 2, 3, 17, 37)}
    assert 9 in ceilings and min(ceilings) < 9


@pytest.mark.parametrize("seed", range(0, 120, 3))
def test_the_best_line_played_on_the_referee_scores_the_ceiling(seed):
    g = GameState(seed=seed, start=seed % 2)
    before = g.to_dict()
    line = best_line(g)
    assert g.to_dict() == before  # the state is left as it is
    for move in line:
        g.apply(move)
    assert g.over and g.score == deal_ceiling(g.deck, seed % 2)


@pytest.mark.parametrize("bot", ["conventions", "cautious"])
def test_no_bot_game_scores_above_its_deals_ceiling(bot):
    for seed in range(150):
        g = play_game(bot_class(bot), seed=seed)
        assert g.score <= deal_ceiling(g.deck, first_player(g))
        assert ceiling(g) == g.score  # a finished game can make nothing more


def test_discarding_the_only_3_of_a_colour_costs_that_point_and_no_more():
    deck = "B3 R1 Y1 B1 R2 Y2 B2 R3 Y3 R1 R1 Y1 Y1 B1 B1 R2 Y2 B2"
    g = GameState(deck=[parse_shard(s) for s in deck.split(" ")])
    assert ceiling(g) == 9
    g.apply(ALL_HINTS[0])  # A and B spend a token each, so that A may discard
    g.apply(ALL_HINTS[0])
    g.apply(Move.discard(1))  # A's B3
    assert ceiling(g) == 8
    line = best_line(g)
    for move in line:
        g.apply(move)
    assert g.score == 8 and g.gems == [3, 3, 2]


def test_playtest_reports_what_the_deals_allowed_whatever_the_workers(capsys):
    args = ["playtest", "--bot", "cautious", "--games", "40", "--seed", "30", "--json"]
    assert main(args + ["--ceiling"]) == 0
    alone = json.loads(capsys.readouterr().out)
    assert main(args + ["--ceiling", "--jobs", "2"]) == 0
    assert json.loads(capsys.readouterr().out) == alone
    games = [play_game(bot_class("cautious"), seed=30 + i) for i in range(40)]
    ceilings = [deal_ceiling(shuffled_deck(30 + i)) for i in range(40)]
    scores = [g.score for g in games]
    figures = alone["ceiling"]
    assert figures["mean"] == pytest.approx(sum(ceilings) / 40)
    assert figures["below_9_pct"] == pytest.approx(100 * sum(c < 9 for c in ceilings) / 40)
    assert figures["reached_pct"] == pytest.approx(
        100 * sum(s == c for s, c in zip(scores, ceilings)) / 40
    )
    assert figures["lost_to_play"] == pytest.approx(figures["mean"] - alone["mean"])
    short = sorted((s - c, 30 + i, s, c) for i, (s, c) in enumerate(zip(scores, ceilings)) if s < c)
    assert figures["worst"] == [[seed, s, c] for _, seed, s, c in short[:5]]
    assert len(figures["worst"]) == 5  # the cautious bot falls short in most games
    assert main(args) == 0
    assert "ceiling" not in json.loads(capsys.readouterr().out)  # only when asked: it costs
    assert main(args[:-1] + ["--ceiling"]) == 0
    text = capsys.readouterr().out
    assert "deal ceiling (every shard known): mean " in text
    seed, score, c = figures["worst"][0]
    assert f"furthest below their deal's ceiling: seed {seed} ({score} of {c}), " in text
