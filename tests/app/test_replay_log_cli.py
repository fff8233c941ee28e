"""`blinks sim --replay-log FILE`: a physical session recorded by the monitor, replayed in the window."""

import json

from host_tools.cli import main
from host_tools.monitor import parse_line


def record(path, lines):
    with open(path, "w") as f:
        for i, (port, text) in enumerate(lines):
            rec = {"time": 0.05 * i, "port": port, "line": text}
            event = parse_line(text)
            if event:
                rec["event"] = event
            f.write(json.dumps(rec) + "\n")


def test_sim_replays_a_physical_log_to_the_recorded_end_states(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    log = tmp_path / "table.jsonl"
    record(
        log,
        [
            ("/dev/ttyACM0", "LG state tile=a001 t=10 undealt -> dealing shard=-"),
            ("/dev/ttyACM1", "LG state tile=b002 t=12 undealt -> dealing shard=-"),
            ("/dev/ttyACM0", "LG state tile=a001 t=900 dealing -> face down shard=B2"),
            ("/dev/ttyACM1", "LG state tile=b002 t=950 dealing -> face down shard=R1"),
            ("/dev/ttyACM1", "LG state tile=b002 t=3000 face down -> revealed shard=R1"),
        ],
    )
    assert main(["sim", "--replay-log", str(log), "--speed", "16"]) == 0
    out = capsys.readouterr().out
    assert "a001: face down B2" in out
    assert "b002: revealed R1" in out


def test_sim_names_the_bad_line_of_a_physical_log(tmp_path, capsys):
    log = tmp_path / "broken.jsonl"
    log.write_text('{"time": 0, "port": "p"}\n{"time": 1\n')
    assert main(["sim", "--replay-log", str(log)]) == 2
    assert "broken.jsonl:2" in capsys.readouterr().out
