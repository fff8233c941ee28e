"""The tile host's unit tests pass on the real MicroPython with a board's 192 KB heap, run by the
firmware test runner (tests/firmware/mpy_runner.py), exactly as the runtime's own tests are."""

import os
import subprocess

import test_cosim_host_unit

from simulator.cosim.runner import BOARD_HEAP, firmware_root, micropython_command

TESTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROOT = os.path.dirname(TESTS)


def test_tile_host_unit_tests_pass_on_micropython_with_a_boards_heap():
    path = [
        firmware_root(),
        os.path.join(TESTS, "firmware"),
        os.path.join(ROOT, "simulator", "cosim"),
        os.path.join(TESTS, "cosim"),
    ]
    out = subprocess.run(
        [
            micropython_command(),
            "-X",
            "heapsize=" + BOARD_HEAP,
            os.path.join(TESTS, "firmware", "mpy_runner.py"),
            "test_cosim_host_unit",
        ],
        env=dict(os.environ, MICROPYPATH=os.pathsep.join(path)),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    count = sum(1 for name in dir(test_cosim_host_unit) if name.startswith("test_"))
    assert out.returncode == 0, out.stdout + out.stderr
    assert out.stdout.strip().splitlines()[-1] == f"RESULT passed={count} failed=0", out.stdout


def test_lost_gems_unit_checks_pass_on_micropython_with_a_boards_heap():
    # tests/lostgems runs these checks with the unix port's default (larger) heap; a tile has
    # 192 KB, so run them once more the way a board would.
    checks = os.path.join(TESTS, "lostgems", "lg_checks.py")
    out = subprocess.run(
        [micropython_command(), "-X", "heapsize=" + BOARD_HEAP, checks],
        env=dict(
            os.environ, MICROPYPATH=os.pathsep.join([firmware_root(), os.path.dirname(checks)])
        ),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    with open(checks) as f:
        count = sum(1 for line in f if line.startswith("def check_"))
    assert out.returncode == 0, out.stdout + out.stderr
    assert out.stdout.strip().splitlines()[-1] == f"ok {count}", out.stdout
