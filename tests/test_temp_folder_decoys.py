"""A folder in the temporary directory named like a firmware package (games/, runtime/), left by
anything on the machine, must not hide the firmware: MicroPython puts a script's own folder
first on its import path, so a script written straight into $TMPDIR would import the decoy.
The heap measure (the bench's and the heap tests') runs with such decoys present."""

import os
import sys
import tempfile

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bench"))

import bench_lostgems

from simulator.mpy.host_micropython import micropython_command

MICROPYTHON = micropython_command()


@pytest.fixture
def decoyed_tmp(tmp_path, monkeypatch):
    """A temporary directory holding `games` and `runtime` packages that fail on import."""
    tmp = tmp_path / "tmp"
    for package in ("games", "runtime"):
        (tmp / package).mkdir(parents=True)
        (tmp / package / "__init__.py").write_text(
            f"raise ImportError('the decoy {package} in the temp folder was imported')\n"
        )
    monkeypatch.setattr(tempfile, "tempdir", str(tmp))
    monkeypatch.setenv("TMPDIR", str(tmp))
    return tmp


@pytest.mark.skipif(MICROPYTHON is None, reason="the micropython command is not installed")
def test_the_heap_measure_imports_the_firmware_not_a_decoy_in_the_temp_folder(
    tmp_path, decoyed_tmp
):
    assert tempfile.gettempdir() == str(decoyed_tmp)
    work = tmp_path / "work"
    work.mkdir()
    firmware = bench_lostgems.deployed_firmware(str(work))
    _, _, heap, code, _, _ = bench_lostgems.run_tile_script(MICROPYTHON, str(work), firmware, 1)
    assert 0 < code < heap
    assert sorted(os.listdir(decoyed_tmp)) == ["games", "runtime"]  # nothing left behind
