"""Waterfall's bots, `blinks playtest --game waterfall` and `blinks session run` on `.wf`
scripts (rules only)."""

import json
import pathlib

import pytest

from host_tools.cli import main
from simulator.games.waterfall import bots

EXAMPLES = pathlib.Path(__file__).resolve().parents[2] / "examples" / "waterfall"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_bots_play_whole_games_the_rules_accept(players):
    for seed in range(20):
        state = bots.play_game("greedy", seed=seed, players=players)
        assert state.over and state.ended in ("twenty", "deck", "turns")
        assert state.turns > 5


def test_the_greedy_bot_beats_random_play():
    greedy = [max(bots.play_game("greedy", seed=s).scores) for s in range(60)]
    randomly = [max(bots.play_game("random", seed=s).scores) for s in range(60)]
    assert sum(greedy) > 1.5 * sum(randomly)


def test_games_are_reproducible_from_their_seed():
    a = bots.play_game("greedy", seed=11, players=3).to_dict()
    b = bots.play_game("greedy", seed=11, players=3).to_dict()
    assert a == b


def test_playtest_json_has_the_winners_mean_and_how_games_ended(capsys):
    assert main(["playtest", "--game", "waterfall", "--games", "40", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["games"] == 40 and figures["players"] == 2 and figures["bot"] == "greedy"
    scores = [max(bots.play_game("greedy", seed=s).scores) for s in range(40)]
    assert figures["mean"] == pytest.approx(sum(scores) / 40, abs=1e-4)
    ended = figures["ended"]
    assert sum(ended.values()) == pytest.approx(1.0)
    assert (
        figures["twenty_fraction"] == ended["twenty"] and figures["deck_fraction"] == ended["deck"]
    )


def test_playtest_refuses_what_waterfall_has_not(capsys):
    assert main(["playtest", "--game", "waterfall", "--bot", "conventions", "--games", "2"]) == 2
    assert "no Waterfall bot" in capsys.readouterr().err
    assert main(["playtest", "--game", "waterfall", "--ceiling", "--games", "2"]) == 2
    assert main(["playtest", "--game", "waterfall", "--players", "5", "--games", "2"]) == 2
    assert main(["playtest", "--players", "3", "--games", "2"]) == 2  # Lost Gems has two


def test_the_example_script_passes_on_the_referee(capsys):
    code = main(["session", "run", str(EXAMPLES / "rules-basics.wf"), "--rules-only"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "falls out at the bottom" in out


def run(tmp_path, capsys, text, *flags):
    path = tmp_path / "s.wf"
    path.write_text(text)
    code = main(["session", "run", str(path), "--rules-only", *flags])
    out, err = capsys.readouterr()
    return code, out, err


def test_a_failed_expect_exits_1_and_an_illegal_move_2(tmp_path, capsys):
    code, _, err = run(tmp_path, capsys, "expect waterfall 2\n")
    assert code == 1 and "s.wf:1: expect waterfall 2: expected 2, got 1" in err
    code, _, err = run(tmp_path, capsys, "A fall\n")
    assert code == 2 and "s.wf:1:" in err and "play at least one" in err
    code, _, err = run(tmp_path, capsys, "B play 1\n")
    assert code == 2 and "A's turn" in err
    code, _, err = run(tmp_path, capsys, "A dance\n")
    assert code == 2 and "expected a move" in err
    code, _, err = run(tmp_path, capsys, "expect tile 3 shows card\n")
    assert code == 2 and "without --rules-only" in err


def test_json_of_a_session(tmp_path, capsys):
    code, out, _ = run(tmp_path, capsys, "players 3\nA play 1\nexpect hand A 3\n", "--json")
    data = json.loads(out)
    assert code == 0 and data["players"] == 3 and len(data["hands"]["A"]) == 3
    assert data["tiles"] == [] and data["deal_ms"] is None


def test_a_playtest_game_saved_as_a_script_replays_to_the_same_end(tmp_path, capsys):
    folder = tmp_path / "games"
    assert (
        main(
            [
                "playtest",
                "--game",
                "waterfall",
                "--games",
                "2",
                "--players",
                "3",
                "--scripts",
                str(folder),
            ]
        )
        == 0
    )
    capsys.readouterr()
    scripts = sorted(folder.glob("*.wf"))
    assert len(scripts) == 2
    assert main(["session", "run", str(folder), "--rules-only", "-q"]) == 0
    assert "2 scripts: 2 passed" in capsys.readouterr().out
