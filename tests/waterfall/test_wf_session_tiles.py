"""Waterfall session scripts on 27 simulated tiles (`blinks session run` without --rules-only):
every move made as people make it, the tiles checked against the referee after each."""

import json
import pathlib

from host_tools.cli import main

EXAMPLES = pathlib.Path(__file__).resolve().parents[2] / "examples" / "waterfall"


def test_the_example_plays_on_the_tiles_and_they_agree_with_the_referee(capsys):
    code = main(["session", "run", str(EXAMPLES / "rules-basics.wf"), "--json"])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    data = json.loads(captured.out)
    water = {t["card"]: t for t in data["tiles"] if t["state"] == "waterfall"}
    assert sorted(water) == sorted(data["waterfall"].values())
    assert data["deal_ms"] > 0 and len(data["tiles"]) == 27


def test_a_bot_game_replays_on_the_tiles(tmp_path, capsys):
    folder = tmp_path / "g"
    assert (
        main(
            [
                "playtest",
                "--game",
                "waterfall",
                "--games",
                "1",
                "--players",
                "4",
                "--seed",
                "21",
                "--scripts",
                str(folder),
            ]
        )
        == 0
    )
    capsys.readouterr()
    assert main(["session", "run", str(folder), "-q"]) == 0, capsys.readouterr().err


def test_expect_tile_reads_a_tile_on_the_table(tmp_path, capsys):
    script = tmp_path / "t.wf"
    script.write_text("seed 2\nexpect tile 0 shows card\nexpect tile 0 shows waterfall\n")
    assert main(["session", "run", str(script)]) == 1
    err = capsys.readouterr().err
    assert "t.wf:3: expect tile 0 shows waterfall: expected waterfall, got card" in err
    assert "t.wf:2" not in err


def test_the_example_holds_on_a_lossy_link(capsys):
    script = str(EXAMPLES / "rules-basics.wf")
    assert main(["session", "run", script, "--ir-loss", "0.3", "-q"]) == 0, capsys.readouterr().err


def test_playtest_physical_plays_each_bot_game_on_the_tiles(monkeypatch, capsys):
    from simulator.games.waterfall.tiles import TilesRunner

    made = []  # every move the tiles runner made on the tiles
    after_move = TilesRunner.after_move
    monkeypatch.setattr(
        TilesRunner, "after_move", lambda self, st, ev: made.append(st) or after_move(self, st, ev)
    )
    args = ["playtest", "--game", "waterfall", "--games", "2", "--seed", "8", "--physical"]
    assert main([*args, "--json"]) == 0, capsys.readouterr().err
    data = json.loads(capsys.readouterr().out)
    assert data["physical"] is True and data["games"] == 2
    assert len(made) >= 2 * data["mean_turns"]  # a turn is one move or more
    assert main(args) == 0
    assert "they agreed with the referee" in capsys.readouterr().out


def test_playtest_physical_says_which_game_the_tiles_got_wrong(monkeypatch, capsys):
    # The tiles are checked against the referee: a game written out with a wrong last
    # expect (as a tile showing the wrong thing would read) stops the run with exit 1.
    from simulator.games.waterfall import bots

    write = bots.game_script
    monkeypatch.setattr(bots, "game_script", lambda *a: write(*a) + "expect waterfall 99\n")
    args = ["playtest", "--game", "waterfall", "--games", "1", "--seed", "8", "--physical"]
    assert main(args) == 1
    err = capsys.readouterr().err
    assert "the tiles disagree with the referee (seed 8:" in err and "99" in err
