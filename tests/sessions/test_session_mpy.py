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
