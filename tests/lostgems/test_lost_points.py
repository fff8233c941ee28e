"""Where a game's missing points went: each cause on a fixed deck, and on random games the
causes always add up to 9 - score, checked against the discard pile (hypothesis)."""

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from host_tools.cli import main
from simulator.games.lostgems import GameState, Move, run_games
from simulator.games.lostgems.lost_points import LOSS_CAUSES, lost_points, mean_losses
from simulator.games.lostgems.shards import TYPE_COUNTS, parse_shard

# A: R2 R2, B: R3 Y1, then the jungle from the top.
DECK = "R2 R2 R3 Y1 R1 R1 R1 Y1 Y1 Y2 Y2 Y3 B1 B1 B1 B2 B2 B3"


def game(deck, moves):
    g = GameState(deck=[parse_shard(s) for s in deck.split()])
    for move in moves:
        g.apply(move)
    return g


def test_a_lost_last_copy_costs_its_colour_the_values_from_it_up_by_its_cause():
    g = game(
        DECK,
        [
            Move.hint_colour(0),  # A
            Move.hint_value(1),  # B
            Move.discard(1),  # A: R2, one copy left
            Move.discard(1),  # B: R3, the last copy
            Move.play(1),  # A: the last R2, an error: red can reach 1 at most
        ],
    )
    assert g.errors == 1 and g.score == 0
    # The misplayed 2 costs red 2 points; the discarded 3 above it costs nothing more.
    # Yellow and blue can still make 6 points, red 1: 7 points still to make.
    assert lost_points(g) == (0, 2, 7, 0)


def test_a_discarded_three_costs_one_point_and_two_errors_cost_all_nine():
    # A: B3 Y1, B: R1 Y2, then the jungle from the top.
    g = game("B3 Y1 R1 Y2 R1 R1 R2 R2 R3 Y1 Y1 Y2 Y3 B1 B1 B1 B2 B2", [Move.hint_value(3)])
    g.apply(Move.play(1))  # B: R1 joins the red gem, draws R1
    g.apply(Move.discard(1))  # A: B3, the only one; draws R1
    assert lost_points(g) == (1, 0, 8 - 1, 0)  # 8 points reachable, 1 made
    g.apply(Move.play(2))  # B: R1, an error
    g.apply(Move.play(2))  # A: R1, the second error
    assert g.over and g.score == 0
    assert lost_points(g) == (0, 0, 0, 9)


def ceiling_from_discards(g):
    """The most each gem can reach, read off the discard pile (not the history)."""
    total = 0
    for colour in range(3):
        value = 0
        while value < 3 and g.discards.count(colour * 3 + value) < TYPE_COUNTS[colour * 3 + value]:
            value += 1
        total += value
    return total


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 10**6), choices=st.lists(st.integers(0, 1000), max_size=60))
def test_the_causes_add_up_to_what_the_game_fell_short_by(seed, choices):
    g = GameState(seed=seed, start=seed % 2)
    for c in choices:
        if g.over:
            break
        legal = g.legal_moves()
        g.apply(legal[c % len(legal)])
    discarded, misplayed, out_of_turns, two_errors = lost = lost_points(g)
    assert min(lost) >= 0 and sum(lost) == 9 - g.score
    assert two_errors == (9 if g.errors == 2 else 0)
    if g.errors < 2:
        assert discarded + misplayed == 9 - ceiling_from_discards(g)
        assert out_of_turns == ceiling_from_discards(g) - g.score
    if misplayed:
        assert any(event.error for event in g.history)


def test_playtest_reports_the_mean_loss_per_cause_whatever_the_workers(capsys):
    args = ["playtest", "--bot", "cautious", "--games", "60", "--seed", "7", "--json"]
    assert main(args) == 0
    alone = json.loads(capsys.readouterr().out)
    assert main(args + ["--jobs", "2"]) == 0
    assert json.loads(capsys.readouterr().out)["lost"] == alone["lost"]
    assert set(alone["lost"]) == set(LOSS_CAUSES)
    assert abs(sum(alone["lost"].values()) - (9 - alone["mean"])) < 1e-3  # rounded to 4 places
    expected = mean_losses(run_games("cautious", 60, seed=7, outcome=lost_points))
    assert alone["lost"] == {cause: round(loss, 4) for cause, loss in expected.items()}
    assert main(args[:-1]) == 0
    assert "points lost per game: " in capsys.readouterr().out
