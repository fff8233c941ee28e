"""Gem Match's bots, `blinks playtest --game gemmatch` and `blinks session run` on `.gm` scripts
(rules only)."""

import json
import pathlib

import pytest
from script_refusal import refused

from host_tools.cli import main
from simulator.games.gemmatch import bots

EXAMPLES = pathlib.Path(__file__).resolve().parents[2] / "examples" / "gemmatch"


@pytest.mark.parametrize("bot", sorted(bots.BOTS))
def test_bots_play_whole_games_the_rules_accept(bot):
    for seed in range(4):
        state = bots.play_game(bot, seed=seed)
        assert state.over and state.ended in ("pile", "skips", "turns")
        assert state.turns >= 19  # the pile holds 19 tokens after the deal


def test_the_greedy_bot_beats_random_play_and_the_careful_bot_beats_greedy():
    def total(seats, seat):
        return sum(bots.play_game(None, seed=s, seats=seats).score(seat) for s in range(12))

    assert total(["greedy", "random"], 0) > 3 * total(["greedy", "random"], 1)
    assert total(["careful", "greedy"], 0) > total(["careful", "greedy"], 1)
    assert total(["greedy", "careful"], 1) > total(["greedy", "careful"], 0)


def test_games_are_reproducible_from_their_seed():
    assert (
        bots.play_game("careful", seed=11).to_dict() == bots.play_game("careful", seed=11).to_dict()
    )


def test_playtest_json_has_each_seats_mean_and_how_games_ended(capsys):
    assert (
        main(["playtest", "--game", "gemmatch", "--bot", "greedy", "--games", "30", "--json"]) == 0
    )
    figures = json.loads(capsys.readouterr().out)
    assert figures["games"] == 30 and figures["bot"] == "greedy"
    assert set(figures["mean"]) == {"A", "B"} and all(m > 3 for m in figures["mean"].values())
    assert sum(figures["wins"].values()) == 30
    assert set(figures["ended"]) == {"pile", "skips", "turns"}
    assert abs(sum(figures["ended"].values()) - 1) < 1e-9
    assert set(figures["groups_per_game"]) == {"2", "3", "4+"}


def test_playtest_against_swaps_seats_and_reports_each_bot(capsys):
    args = ["playtest", "--game", "gemmatch", "--bot", "greedy", "--against", "random"]
    assert main(args + ["--games", "10", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    by_bot = figures["by_bot"]
    assert by_bot["greedy"]["mean"] > by_bot["random"]["mean"]
    assert by_bot["greedy"]["wins"] + by_bot["random"]["wins"] + figures["wins"]["tie"] == 10


@pytest.mark.parametrize(
    "extra, message",
    [
        (["--bot", "clever"], "no Gem Match bot called 'clever'"),
        (["--against", "clever"], "no Gem Match bot called 'clever'"),
        (["--players", "3"], "--players is not for --game gemmatch (only waterfall, gembatan)"),
        (["--partner", "random"], "--partner is not for --game gemmatch (only lostgems)"),
        (["--games", "0"], "--games must be from 1"),
    ],
)
def test_playtest_refuses_what_it_cannot_do(extra, message, capsys):
    assert main(["playtest", "--game", "gemmatch", "--games", "2"] + extra) == 2
    assert message in capsys.readouterr().err


def test_playtest_scripts_replay_their_games(tmp_path, capsys):
    assert (
        main(
            [
                "playtest",
                "--game",
                "gemmatch",
                "--bot",
                "greedy",
                "--games",
                "2",
                "--scripts",
                str(tmp_path),
            ]
        )
        == 0
    )
    capsys.readouterr()
    scripts = sorted(tmp_path.glob("*.gm"))
    assert [p.name for p in scripts] == ["greedy-greedy-seed0.gm", "greedy-greedy-seed1.gm"]
    assert main(["session", "run", "--rules-only", "-q", str(tmp_path)]) == 0


@pytest.mark.parametrize("name", ["rules-basics.gm", "careful-game.gm"])
def test_the_examples_run_green_on_the_referee(name, capsys):
    assert main(["session", "run", "--rules-only", str(EXAMPLES / name)]) == 0
    assert "0 expect(s) failed" in capsys.readouterr().out


def write(tmp_path, text):
    path = tmp_path / "game.gm"
    path.write_text(text)
    return str(path)


DECK = "deck T1 T2 T7 T3 T8 T4 T5 T6 T9 T1 T1 T2 T2 T3 T3 T4 T4 T5 T5 T6 T6 T7 T7 T8 T8 T9 T9\n"


@pytest.mark.parametrize(
    "text, line, message",
    [
        ("A place 1 at 0,0\n", 1, "expected `place N at Q,R turn T`"),
        ("A place 1 at 0;0 turn 0\n", 1, "expected a cell Q,R like 1,-1"),
        ("A place 1 at 0,0 turn 6\n", 1, "expected a turn, 0-5"),
        ("A hand 0,0 shiny\n", 1, "expected a side, basic or improved"),
        ("C place 1 at 0,0 turn 0\n", 1, "expected seed, deck, deal, start"),
        ("deck T1 T2\n", 1, "a deck lists the 27 tokens"),
        ("A pass\nseed 3\n", 2, "`seed` is setup"),
        ("expect score A lots\n", 1, "expected a whole number"),
        ("expect nothing\n", 1, "expected expect score P N"),
        (DECK + "A place 1 at 1,0 turn 0\n", 2, "the first token of an empty field goes"),
        (DECK + "B place 1 at 0,0 turn 0\n", 2, "it is A's turn, not B's"),
        (DECK + "A place 1 at 0,0 turn 0\nB place 1 at 0,1 turn 0\nB pass\n", 4, "resolves"),
    ],
)
def test_a_bad_script_names_its_line_and_exits_2(tmp_path, capsys, text, line, message):
    refused(tmp_path, capsys, text, line, message, ".gm", "--rules-only")


def test_a_failed_expect_exits_1_and_the_session_goes_on(tmp_path, capsys):
    path = write(tmp_path, DECK + "A place 1 at 0,0 turn 0\nexpect field 2\nexpect turn B\n")
    assert main(["session", "run", "--rules-only", path]) == 1
    out, err = capsys.readouterr()
    assert f"{path}:3: expect field 2: expected 2, got 1" in err
    assert "1 expect(s) failed" in out


def test_session_json_is_the_referees_game(tmp_path, capsys):
    path = write(tmp_path, DECK + "A place 1 at 0,0 turn 0\n")
    assert main(["session", "run", "--rules-only", "--json", path]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["game"] == "gemmatch" and data["field"]["0,0"]["token"] == "T1"
    assert data["current"] == "B" and data["tiles"] == [] and data["deal_ms"] is None
