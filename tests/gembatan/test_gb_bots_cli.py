"""Gembatan's bots, `blinks playtest --game gembatan`, and `blinks session run` on `.gb`
scripts, with and without --rules-only (Gembatan has no tiles), and --board-png."""

import json
import pathlib

import pytest
from script_refusal import refused

from host_tools.cli import main
from simulator.games.gembatan import bots

EXAMPLES = pathlib.Path(__file__).resolve().parents[2] / "examples" / "gembatan"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_bots_play_whole_games_the_rules_accept(players):
    for seed in range(3):
        for bot in ("greedy", "random"):
            state = bots.play_game(bot, seed=seed, players=players)
            assert state.over and state.ended in ("gems", "stuck", "turns")


def test_the_greedy_bot_beats_random_play():
    greedy = random = 0
    for seed in range(8):
        seats = ["greedy", "random"] if seed % 2 == 0 else ["random", "greedy"]
        state = bots.play_game(None, seed=seed, seats=seats)
        greedy += state.score(seats.index("greedy"))
        random += state.score(seats.index("random"))
    assert greedy > 1.3 * random


def test_playtest_json_has_each_seats_mean_and_how_games_ended(capsys):
    assert main(["playtest", "--game", "gembatan", "--games", "6", "--players", "3", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["games"] == 6 and figures["players"] == 3
    assert set(figures["mean"]) == {"A", "B", "C"}
    assert set(figures["ended"]) == {"gems", "stuck", "turns"}
    assert figures["chains_per_game"] > 0


@pytest.mark.parametrize(
    "extra, message",
    [
        (["--physical"], "--physical is not for --game gembatan (only lostgems, waterfall"),
        (["--ceiling"], "--ceiling is not for --game gembatan (only lostgems)"),
        (["--bot", "clever"], "no Gembatan bot called 'clever'"),
        (["--players", "5"], "--players must be from 2 to 4"),
        (["--against", "random", "--players", "3"], "--against pits two bots"),
    ],
)
def test_playtest_refuses_what_it_cannot_do(extra, message, capsys):
    assert main(["playtest", "--game", "gembatan", "--games", "1"] + extra) == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize("name", ["rules-basics.gb", "greedy-game.gb"])
@pytest.mark.parametrize("rules_only", [[], ["--rules-only"]])
def test_the_examples_run_green(name, rules_only, capsys):
    assert main(["session", "run", str(EXAMPLES / name)] + rules_only) == 0
    out = capsys.readouterr().out
    assert "0 expect(s) failed" in out
    if not rules_only:
        assert "Gembatan is not played on the tiles" in out


def test_board_png_draws_the_board_after_each_move(tmp_path, capsys):
    pictures = tmp_path / "boards"
    code = main(["session", "run", str(EXAMPLES / "rules-basics.gb"), "--board-png", str(pictures)])
    assert code == 0
    names = sorted(p.name for p in pictures.iterdir())
    moves = sum(
        1
        for line in (EXAMPLES / "rules-basics.gb").read_text().splitlines()
        if line[:2] in ("A ", "B ")
    )
    assert names[0] == "board-001.png" and len(names) == moves + 1  # the start, then each move
    assert all((pictures / n).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for n in names)


def test_board_png_is_refused_for_a_game_that_draws_no_board(tmp_path, capsys):
    script = tmp_path / "s.wf"
    script.write_text("A play 1\n")
    assert main(["session", "run", str(script), "--rules-only", "--board-png", str(tmp_path)]) == 2
    assert "--board-png: waterfall scripts draw no board picture" in capsys.readouterr().err


def write(tmp_path, text):
    path = tmp_path / "game.gb"
    path.write_text(text)
    return str(path)


@pytest.mark.parametrize(
    "text, line, message",
    [
        ("A tile 1 at 1,0\n", 1, "expected `tile N at X,Y turn T`"),
        ("A tile 1 at 1,0 turn 4\n", 1, "expected a turn, 0-3"),
        ("A gem 1 at 1,0 up\n", 1, "expected a side: north, east, south or west"),
        ("A trade 1 2\n", 1, "expected `trade tiles N... gems N...`"),
        ("players 5\n", 1, "Gembatan is for 2 to 4 players"),
        ("C done\n", 1, "this game has 2 players"),
        ("gems RB\n", 1, "`gems` lists the game's 60 gems"),
        ("tiles RB--\n", 1, "`tiles` lists the game's 60 tiles"),
        ("seed 4\nA done\n", 2, "lay at least one tile"),
        ("seed 4\nA gem 1 at 0,0 east\n", 2, "lay a tile first"),
        ("seed 4\nB trade\n", 2, "it is A's turn, not B's"),
        ("expect socket 0,0 east RX\n", 1, "expected a gem like RB"),
    ],
)
def test_a_bad_script_names_its_line_and_exits_2(tmp_path, capsys, text, line, message):
    refused(tmp_path, capsys, text, line, message, ".gb")


def test_a_failed_expect_exits_1_and_json_is_the_referees_game(tmp_path, capsys):
    path = write(tmp_path, "seed 4\nA trade\nexpect turn A\n")
    assert main(["session", "run", "--json", path]) == 1
    out, err = capsys.readouterr()
    assert f"{path}:3: expect turn A: expected A, got B" in err
    data = json.loads(out)
    assert (
        data["game"] == "gembatan"
        and data["current"] == "B"
        and data["board"]["0,0"]
        and data["tiles"] == []
    )
