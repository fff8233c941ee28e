"""bench/run.py: a bench whose inputs this machine lacks is skipped (exit 0), one that fails is
failed (exit 1), and the other benches still report; a figure without its sentence and goal
fails its bench; an interrupted run still reports what finished; --markdown writes one table."""

import json
import os
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "bench"))

import run as bench_run

FINE = (
    "FIGURES = {'fine_figure': ('How fine it is.', '>= 1')}\n\n"
    "def run(quick):\n    return {'fine_figure': 1}\n"
)
BENCHES = {
    "bench_fine": FINE,
    "bench_needs_binaries": (
        "from host_tools.emu.images import MissingImage\n\n"
        "def run(quick):\n    raise MissingImage('no MicroPython firmware at /x.uf2')\n"
    ),
    "bench_broken": "def run(quick):\n    raise RuntimeError('it broke')\n",
}


@pytest.fixture
def benches(tmp_path, monkeypatch):
    for name, text in BENCHES.items():
        (tmp_path / f"{name}.py").write_text(text)
    monkeypatch.setattr(bench_run, "HERE", str(tmp_path))
    monkeypatch.syspath_prepend(str(tmp_path))
    for name in BENCHES:
        monkeypatch.delitem(sys.modules, name, raising=False)


def test_a_bench_without_its_inputs_is_skipped_and_the_run_still_succeeds(benches, capsys):
    assert bench_run.main(["--quick", "--json", "--only", "fine", "needs_binaries"]) == 0
    figures = json.loads(capsys.readouterr().out)
    seconds = figures.pop("bench_seconds")
    assert sorted(seconds) == ["bench_fine", "bench_needs_binaries"]
    assert sorted(figures.pop("bench_cpu_seconds")) == sorted(seconds)
    assert figures.pop("bench_seconds_total") == round(sum(seconds.values()), 1)
    assert figures == {
        "fine_figure": 1,
        "skipped": {"bench_needs_binaries": "no MicroPython firmware at /x.uf2"},
        "left_running": {"bench_fine": [], "bench_needs_binaries": []},
        "bench_left_running": 0,
    }


def test_a_bench_that_fails_is_failed_and_the_run_exits_1(benches, capsys):
    assert bench_run.main(["--quick", "--json"]) == 1
    figures = json.loads(capsys.readouterr().out)
    assert figures["fine_figure"] == 1
    assert figures["failed"] == {"bench_broken": "RuntimeError: it broke"}
    assert "bench_needs_binaries" in figures["skipped"]


def add_bench(tmp_path, name, text):
    (tmp_path / f"{name}.py").write_text(text)
    sys.modules.pop(name, None)


def test_a_figure_without_its_sentence_and_goal_fails_its_bench(benches, tmp_path, capsys):
    add_bench(tmp_path, "bench_mute", "FIGURES = {}\n\ndef run(quick):\n    return {'mute': 2}\n")
    try:
        assert bench_run.main(["--quick", "--json", "--only", "mute", "fine"]) == 1
    finally:
        sys.modules.pop("bench_mute", None)
    figures = json.loads(capsys.readouterr().out)
    assert figures["mute"] == 2 and figures["fine_figure"] == 1
    assert figures["failed"] == {
        "bench_mute": "figures without a sentence and goal in FIGURES: mute"
    }


def test_an_interrupted_run_reports_the_benches_that_finished(benches, tmp_path, capsys):
    add_bench(tmp_path, "bench_halt", "def run(quick):\n    raise KeyboardInterrupt\n")
    try:
        code = bench_run.main(["--quick", "--json", "--only", "fine", "halt", "needs_binaries"])
    finally:
        sys.modules.pop("bench_halt", None)
    assert code == 130
    figures = json.loads(capsys.readouterr().out)
    assert figures["fine_figure"] == 1
    assert figures["interrupted"] == "bench_halt"
    assert sorted(figures["bench_seconds"]) == ["bench_fine", "bench_halt"]  # none after it
    assert "skipped" not in figures


def table_rows(path):
    rows = [line for line in path.read_text().splitlines() if line.startswith("| `")]
    return {row.split("`")[1]: [c.strip() for c in row.strip("|").split(" | ")] for row in rows}


def test_markdown_is_one_table_of_key_sentence_goal_and_value(benches, tmp_path, capsys):
    out = tmp_path / "benchmarks.md"
    add_bench(
        tmp_path,
        "bench_wordy",
        "FIGURES = {'wordy': ('Long values are cut.', '-')}\n\n"
        "def run(quick):\n    return {'wordy': 'x' * 500}\n",
    )
    try:
        assert bench_run.main(["--quick", "--only", "fine", "--markdown", str(out)]) == 0
        rows = table_rows(out)
        assert rows["fine_figure"] == ["`fine_figure`", "How fine it is.", ">= 1", "1"]
        assert "bench_seconds.bench_fine" in rows
        assert "commit" in out.read_text() and "cores" in out.read_text()
        # a second module alone keeps the first one's rows (the table filled a module at a time)
        assert bench_run.main(["--quick", "--only", "wordy", "--markdown", str(out)]) == 0
    finally:
        sys.modules.pop("bench_wordy", None)
    capsys.readouterr()
    rows = table_rows(out)
    assert rows["fine_figure"][3] == "1"
    assert rows["wordy"][3].startswith("xxx") and len(rows["wordy"][3]) <= 200
    assert {"bench_seconds.bench_fine", "bench_seconds.bench_wordy"} <= set(rows)
    assert all(len(cell) <= 200 for row in rows.values() for cell in row)
    assert out.read_text().count("| figure | what it measures | goal | value |") == 1


def test_the_benchs_micropython_scripts_ignore_a_games_folder_in_the_temp_dir(
    tmp_path, monkeypatch
):
    """MicroPython puts a script's folder first on its import path: a `runtime` or `games` folder
    in the shared temp directory must not hide the firmware from the bench's scripts."""
    import tempfile

    from simulator.mpy.host_micropython import micropython_command

    exe = micropython_command()
    if exe is None:
        pytest.skip("no micropython command (pip install -e '.[test]')")
    for name in ("games", "runtime"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "__init__.py").write_text(f"raise ImportError('decoy {name}')\n")
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    import bench_lostgems
    import bench_world

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    loop_us, _step, heap, *_ = bench_lostgems.run_tile_script(exe, root, "firmware", 1)
    assert loop_us >= 0 and heap > 0
    assert bench_world.runtime_pass_us_mpy() > 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games", "runtime"]  # nothing left
