"""`blinks playtest --against NAME`: two bots on the same deals, compared deal by deal."""

import json
import math

import pytest

from host_tools.cli import main
from simulator.games.lostgems.playtest import paired_stats, run_games


def test_paired_stats_take_each_deal_on_its_own():
    got = paired_stats([9, 7, 8, 5], [9, 8, 5, 4], first_seed=20)
    # differences 0, -1, +3, +1: mean 0.75, sample variance (0.5625+3.0625+5.0625+0.0625)/3
    assert got["difference"] == 0.75
    assert math.isclose(got["difference_stderr"], math.sqrt((8.75 / 3) / 4))
    assert (got["better"], got["same"], got["worse"]) == (2, 1, 1)
    assert got["largest"] == [(22, 8, 5), (21, 7, 8), (23, 5, 4)]  # ties: the lower seed first
    assert paired_stats([3], [3], first_seed=0)["largest"] == []
    with pytest.raises(ValueError):
        paired_stats([1, 2], [1], first_seed=0)


def test_against_reports_both_bots_on_the_same_deals(capsys):
    argv = ["playtest", "--bot", "cautious", "--against", "conventions", "--games", "80"]
    assert main([*argv, "--seed", "3", "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    mine = run_games("cautious", 80, seed=3)
    theirs = run_games("conventions", 80, seed=3)
    against = got["against"]
    assert got["bot"] == "cautious" and against["bot"] == "conventions"
    assert got["histogram"] == [mine.count(s) for s in range(10)]
    assert math.isclose(against["mean"], sum(theirs) / 80)
    assert math.isclose(against["difference"], (sum(mine) - sum(theirs)) / 80)
    assert against["better"] == sum(a > b for a, b in zip(mine, theirs))
    assert against["worse"] == sum(a < b for a, b in zip(mine, theirs))
    seed, score, other = against["largest"][0]
    assert (score, other) == (mine[seed - 3], theirs[seed - 3])
    assert abs(score - other) == max(abs(a - b) for a, b in zip(mine, theirs))
    # The pairing: far tighter than the two means' own standard errors would allow.
    assert against["difference_stderr"] < math.hypot(got["stderr"], against["stderr"])

    assert main([*argv, "--seed", "3", "--jobs", "2", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == got

    assert main([*argv, "--seed", "3"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[-3].startswith("against conventions on the same deals: mean ")
    assert lines[-2].startswith(f"cautious minus conventions: {against['difference']:+.3f} ± ")
    assert lines[-1].startswith(f"largest differences: seed {seed} ({score} vs {other})")


def test_against_keeps_the_partner_in_seat_b(capsys):
    argv = ["playtest", "--bot", "conventions", "--partner", "cautious", "--games", "40"]
    assert main([*argv, "--against", "cautious", "--json"]) == 0
    against = json.loads(capsys.readouterr().out)["against"]
    both_cautious = run_games("cautious", 40)
    assert math.isclose(against["mean"], sum(both_cautious) / 40)
    assert main([*argv, "--against", "cautious"]) == 0
    out = capsys.readouterr().out
    assert "against cautious (A) with cautious (B) on the same deals" not in out  # one name
    assert "against cautious playing both seats on the same deals" in out


def test_an_unknown_bot_to_compare_with_is_one_line_before_any_game(capsys):
    assert main(["playtest", "--against", "nobody", "--games", "5"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("blinks playtest: --against: no bot called 'nobody'")
