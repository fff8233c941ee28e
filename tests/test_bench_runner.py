"""bench/run.py: a bench whose inputs this machine lacks is skipped (exit 0), one that fails is
failed (exit 1), and the other benches still report."""

import json
import os
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "bench"))

import run as bench_run

BENCHES = {
    "bench_fine": "def run(quick):\n    return {'fine_figure': 1}\n",
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
