"""The firmware type-checks against MicroPython's rp2 stubs, so a call the board lacks fails here.

Scope: hal/ and main.py (the code that touches the board) are checked strictly, with runtime/
and games/ followed for their types only; runtime/ and games/ are checked by a second test
with the same stubs. Every function body is checked (check_untyped_defs).
"""

import os
import shutil

import pytest
from mpy_mypy import FIRMWARE, check


def test_board_code_typechecks_against_rp2_stubs(tmp_path):
    status, report = check(
        [os.path.join(FIRMWARE, "hal"), os.path.join(FIRMWARE, "main.py")],
        str(tmp_path),
        quiet_packages=("runtime", "games"),
    )
    assert status == 0, report


def test_runtime_typechecks_against_micropython_stubs(tmp_path):
    status, report = check([os.path.join(FIRMWARE, "runtime")], str(tmp_path))
    assert status == 0, report


def test_games_typecheck_against_micropython_stubs(tmp_path):
    status, report = check([os.path.join(FIRMWARE, "games")], str(tmp_path))
    assert status == 0, report


@pytest.mark.parametrize(
    "module, right, wrong, complaint",
    [
        # machine.bitstream, not a neopixel-style write: CPython would only find out on the tile
        (
            "rp2_hal.py",
            "machine.bitstream(",
            "machine.neopixel_write(",
            'Module has no attribute "neopixel_write"',
        ),
        # a PIO state machine reports its FIFO with tx_fifo(), there is no tx_fifo_level(); the
        # faces' code reaches it through FaceLink fields, which it must type for this
        (
            "ir_faces.py",
            "link.sm.tx_fifo()",
            "link.sm.tx_fifo_level()",
            '"StateMachine" has no attribute "tx_fifo_level"',
        ),
    ],
)
def test_a_call_the_board_does_not_have_is_caught(tmp_path, module, right, wrong, complaint):
    firmware = tmp_path / "firmware"
    shutil.copytree(FIRMWARE, firmware, ignore=shutil.ignore_patterns("__pycache__"))
    path = firmware / "hal" / module
    source = path.read_text()
    assert right in source
    path.write_text(source.replace(right, wrong))
    status, report = check(
        [str(firmware / "hal")],
        str(tmp_path / "work"),
        str(firmware),
        quiet_packages=("runtime", "games"),
    )
    assert status == 1
    assert module in report and complaint in report
