"""Gem Match scripts and bot games played on 27 simulated tiles: the examples, `expect tile`,
a lossy link, and `blinks playtest --physical`."""

import json
import pathlib

from host_tools.cli import main

EXAMPLES = pathlib.Path(__file__).resolve().parents[2] / "examples" / "gemmatch"


def test_the_basics_play_on_the_tiles_and_json_lists_them(capsys):
    assert main(["session", "run", "--json", str(EXAMPLES / "rules-basics.gm")]) == 0
    data = json.loads(capsys.readouterr().out)
    tiles = data["tiles"]
    assert len(tiles) == 27 and data["deal_ms"] > 0
    states = sorted(t["state"] for t in tiles)
    assert states.count("field") == len(data["field"]) == 1
    assert states.count("heap") == sum(data["heaps"].values()) == 2
    assert states.count("hand") == sum(len(h) for h in data["hands"].values()) == 9
    assert states.count("pile") == data["pile"] == 15


def test_expect_tile_reads_a_tile_and_is_refused_on_the_referee_alone(tmp_path, capsys):
    text = (EXAMPLES / "rules-basics.gm").read_text() + "expect tile 99 shows field\n"
    script = tmp_path / "t.gm"
    script.write_text(text)
    assert main(["session", "run", str(script)]) == 2
    assert "there is no tile 99" in capsys.readouterr().err
    assert main(["session", "run", "--rules-only", str(script)]) == 2
    assert "needs the simulated tiles" in capsys.readouterr().err


def test_a_lossy_link_still_agrees(capsys):
    path = str(EXAMPLES / "rules-basics.gm")
    assert main(["session", "run", "-q", "--ir-loss", "0.2", path]) == 0


def test_playtest_physical_plays_bot_games_on_the_tiles(capsys):
    args = ["playtest", "--game", "gemmatch", "--bot", "greedy", "--games", "2", "--physical"]
    assert main(args + ["--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["physical"] is True and figures["games"] == 2
