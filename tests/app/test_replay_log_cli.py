"""`blinks sim --replay-log FILE`: a physical session recorded by the monitor, replayed in the window."""

import json

from host_tools.bridge.monitor import parse_line
from host_tools.cli import main


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
    assert "broken.jsonl:2" in capsys.readouterr().err


TABLE = [
    ("/dev/ttyACM0", "LG state tile=a001 t=10 undealt -> dealing shard=-"),
    ("/dev/ttyACM0", "LG state tile=a001 t=900 dealing -> face down shard=B2"),
    ("/dev/ttyACM1", "LG state tile=b002 t=950 dealing -> face down shard=R1"),
    ("/dev/ttyACM1", "LG state tile=b002 t=3000 face down -> revealed shard=R1"),
]  # 0.05 s apart: b002 is revealed at 0.15 s


def test_replay_log_stops_at_run_for_and_saves_the_screenshot_at_the_window_size(
    tmp_path, monkeypatch, capsys
):
    import pygame

    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    log = tmp_path / "table.jsonl"
    record(log, TABLE)
    shot = tmp_path / "shot.png"
    args = ["sim", "--replay-log", str(log), "--run-for", "0.12", "--screenshot", str(shot)]
    assert main([*args, "--window", "1100x700"]) == 0
    out, err = capsys.readouterr()
    assert "b002: face down R1" in out  # its reveal at 0.15 s was not reached
    assert "pygame" not in out + err  # no banner
    assert pygame.image.load(str(shot)).get_size() == (1100, 700)


def test_a_simulator_recording_given_as_a_physical_log_says_which_command_plays_it(
    tmp_path, monkeypatch, capsys
):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    recording = tmp_path / "game.jsonl"
    assert main(["sim", "--run-for", "1", "--record", str(recording)]) == 0
    assert main(["sim", "--replay-log", str(recording)]) == 2
    err = capsys.readouterr().err
    assert "is a recording of the simulator (`blinks sim --record`)" in err
    assert f"blinks sim --replay {recording}" in err


def test_a_physical_log_that_is_not_utf8_is_named_with_its_line(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    log = tmp_path / "table.jsonl"
    record(log, TABLE)
    log.write_bytes(log.read_bytes() + b'{"time": 9, "port": "\xff"}\n')
    assert main(["sim", "--replay-log", str(log)]) == 2
    assert f"{log}:5: not UTF-8 text" in capsys.readouterr().err
