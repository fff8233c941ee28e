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

from simulator.mpy.host_micropython import micropython_command

MICROPYTHON = micropython_command()
BUDGET = 32 * 1024


@pytest.mark.skipif(MICROPYTHON is None, reason="the micropython command is not installed")
def test_a_deployed_lost_gems_tile_fits_in_32_kb_of_heap(tmp_path):
    firmware = bench_lostgems.deployed_firmware(str(tmp_path))
    assert os.path.exists(os.path.join(tmp_path, firmware, "games", "lostgems", "game.mpy"))
    _, _, heap, code, _, _ = bench_lostgems.run_tile_script(MICROPYTHON, str(tmp_path), firmware, 1)
    assert 0 < code < heap <= BUDGET, f"heap after setup {heap} B (game code {code} B)"


@pytest.mark.skipif(MICROPYTHON is None, reason="the micropython command is not installed")
def test_a_steady_pass_of_a_face_down_tile_allocates_nothing(tmp_path):
    """Six neighbours' values in, replies out, the picture painted: on MicroPython (gc off,
    gc.mem_alloc() before and after 100 passes) not one byte is allocated. A pass that did
    would mean a collection every so often, held up for milliseconds on a tile."""
    firmware = bench_lostgems.deployed_firmware(str(tmp_path))
    *_, alloc = bench_lostgems.run_tile_script(MICROPYTHON, str(tmp_path), firmware, 1)
    assert alloc == 0
