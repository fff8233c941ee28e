"""A Lost Gems tile fits issue 3's heap budget (32 KB in use after setup()) on the real MicroPython,
in the form a tile runs: the .mpy image `blinks flash` deploys. Measured exactly as
bench/bench_lostgems.py measures mpy_heap_kb (from after the runtime's import); the bench keeps
the figure, this test only guards the budget."""

import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "bench"))

import bench_lostgems

from host_tools.host_micropython import micropython_command

MICROPYTHON = micropython_command()
BUDGET = 32 * 1024


@pytest.mark.skipif(MICROPYTHON is None, reason="the micropython command is not installed")
def test_a_deployed_lost_gems_tile_fits_in_32_kb_of_heap(tmp_path):
    firmware = bench_lostgems.deployed_firmware(str(tmp_path))
    assert os.path.exists(os.path.join(tmp_path, firmware, "games", "lostgems", "game.mpy"))
    _, _, heap, code, _ = bench_lostgems.run_tile_script(MICROPYTHON, str(tmp_path), firmware, 1)
    assert 0 < code < heap <= BUDGET, f"heap after setup {heap} B (game code {code} B)"
