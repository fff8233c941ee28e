"""What the host tools say to a newcomer's slips: a firmware folder or a port that is not one,
a recording into a missing folder, and tables that fit an 80-column terminal."""

import json
import re

import pytest

from host_tools.cli import main
from host_tools.cli.flash import TileResult, outcome_words


def test_flash_names_a_firmware_folder_that_does_not_exist(tmp_path, capsys):
    missing = tmp_path / "missing"
    assert main(["flash", "--dry-run", "--firmware", str(missing)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"blinks flash: --firmware {missing}: no such folder")
    assert "tile_config.json" not in err


@pytest.mark.parametrize("kind", ["folder", "file"])
def test_a_port_that_is_a_folder_or_a_file_is_said_to_be_no_serial_port(kind, tmp_path, capsys):
    port = tmp_path / "port"
    port.mkdir() if kind == "folder" else port.write_text("root:x:0:0\n")
    assert main(["ports", "--port", str(port), "--json"]) == 1
    row = json.loads(capsys.readouterr().out)[0]
    assert row["error"].startswith(f"a {kind}, not a serial port")
    assert main(["flash", "--quiet", "--port", str(port)]) == 1
    assert f"FAILED {port}: a {kind}, not a serial port" in capsys.readouterr().err


def test_monitor_names_the_missing_folder_of_its_recording(tmp_path, capsys):
    record = tmp_path / "missing" / "x.jsonl"
    assert main(["monitor", "--port", "/dev/null", "--record", str(record)]) == 2
    err = capsys.readouterr().err
    assert err == f"blinks monitor: --record: there is no folder {record.parent}\n"


def screen_lines(out):
    """What a terminal shows of `out`: lines without their colour escapes."""
    return re.sub(r"\x1b\[[0-9;]*m", "", out).splitlines()


def test_tables_fit_an_80_column_terminal(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("TTY_COMPATIBLE", "1")  # rich takes stdout for a terminal
    monkeypatch.setenv("COLUMNS", "80")
    port = tmp_path / "a-rather-long-name-for-a-serial-port-as-by-id-paths-are"
    port.mkdir()
    main(["ports", "--port", str(port)])
    lines = screen_lines(capsys.readouterr().out)
    assert max(len(line) for line in lines) <= 80
    assert str(port) in "".join(line.split("│")[1].strip() for line in lines if "│" in line)
    main(["flash", "--dry-run"])
    lines = screen_lines(capsys.readouterr().out)
    assert any("main.py" in line for line in lines) and max(len(x) for x in lines) <= 80


def test_tables_keep_a_row_a_line_when_piped(tmp_path, capsys):
    port = tmp_path / "a-rather-long-name-for-a-serial-port-as-by-id-paths-are"
    port.mkdir()
    main(["ports", "--port", str(port)])
    rows = [line for line in capsys.readouterr().out.splitlines() if str(port) in line]
    assert len(rows) == 1 and "not a serial port" in rows[0]


def test_after_ctrl_c_a_tiles_bar_says_which_firmware_it_kept():
    kept, switched, failed = (TileResult(p) for p in ("a", "b", "c"))
    kept.cancelled = switched.cancelled = True
    switched.switched = True
    assert "old firmware kept" in outcome_words(kept)
    assert "new firmware" in outcome_words(switched)
    assert "failed" in outcome_words(failed) and "failed" not in outcome_words(kept)
