"""`blinks session run SCRIPT --mpy N`: a physical session with tiles on real MicroPython."""

import json

from simulator.sessions.cli import run_session

SCRIPT = """\
seed 4
deal blob
A hint colour red
expect hints 2
"""


def test_a_session_runs_with_tiles_on_micropython_and_reports_them(tmp_path, capsys):
    script = tmp_path / "short.lg"
    script.write_text(SCRIPT)
    assert run_session(str(script), as_json=True, mpy=2) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["hints"] == 2
    assert len(result["tiles"]) == 18
    assert sorted(t["shard"] for t in result["tiles"]) == sorted(
        c + str(v) for c in "RYB" for v in (1, 1, 1, 2, 2, 3)
    )
    assert isinstance(result["deal_ms"], int)


def test_mpy_with_rules_only_or_out_of_range_is_a_clear_error(tmp_path, capsys):
    script = tmp_path / "short.lg"
    script.write_text(SCRIPT)
    assert run_session(str(script), rules_only=True, mpy=2) == 2
    assert "--rules-only" in capsys.readouterr().err
    assert run_session(str(script), mpy=19) == 2
    assert "0 to 18" in capsys.readouterr().err


def test_a_tile_whose_micropython_process_dies_exits_3_naming_the_line_with_the_json(
    tmp_path, capsys, monkeypatch
):
    from host_tools.cli import main
    from simulator.games.lostgems import physical

    script = tmp_path / "dies.lg"
    script.write_text(SCRIPT + "B hint value 1\nexpect hints 1\n")
    perform = physical.Table.perform
    moves = []

    def perform_then_die(table, event):
        moves.append(event)
        if len(moves) == 2:  # B's hint, line 5: tile 0's process is killed under it
            process = table.world.runner(0)._process
            process.kill()
            process.wait()
        return perform(table, event)

    monkeypatch.setattr(physical.Table, "perform", perform_then_die)
    assert main(["session", "run", str(script), "--mpy", "1", "--json"]) == 3
    out, err = capsys.readouterr()
    assert f"{script}:5: tile 0 on MicroPython failed" in err
    result = json.loads(out)  # the game as it stood: both hints given, the last expect unrun
    assert result["turns"] == 2 and result["hints"] == 1
    assert len(result["tiles"]) == 18
    assert result["tiles"][0] == {"id": 0, "shard": None, "state": None}
    assert all(t["state"] for t in result["tiles"][1:])
