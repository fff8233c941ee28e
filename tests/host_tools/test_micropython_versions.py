"""Which MicroPython a tile needs, told truly.

On MicroPython 1.24 and 1.25 no face ever received: the firmware set its PIO program's
STATUS_N bit in entry 4 of `rp2.asm_pio`'s result, EXECCTRL from 1.26 on but SHIFTCTRL before,
so the state machines never saw their TX FIFO empty and looped in their send branch for ever.
The firmware now finds EXECCTRL in either layout, and a tile older than 1.26 is refused anyway
(hal/requirements.py says why; docs/hardware.md has the table).
"""

import os

import pytest
from hal import requirements
from pio_dsl import FIRMWARE_PIO, LAYOUTS, load_pio_module


@pytest.mark.parametrize("release", ["1.24.1", "1.25.0", "1.25.0-preview"])
def test_a_tile_older_than_1_26_is_too_old(release):
    assert requirements.too_old(release)


@pytest.mark.parametrize("release", ["1.26.0", "1.26.1", "1.28.0", "1.29.0-preview"])
def test_a_tile_from_1_26_on_is_not(release):
    assert not requirements.too_old(release)


def test_the_boot_message_names_both_releases(monkeypatch):
    import main

    class Uname:
        release = "1.25.0"

    monkeypatch.setattr(os, "uname", lambda: Uname, raising=False)
    message = main.check_release()
    assert "1.25.0" in message and "1.26.0" in message


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_the_face_program_sets_status_n_in_execctrl_whatever_the_layout(layout):
    program = load_pio_module(FIRMWARE_PIO, layout=layout).ir_face
    assert program.status_n == 1, "mov(x, status) must read the TX FIFO's emptiness"
    assert program.word("shiftctrl") == 0, "SHIFTCTRL untouched (the stand-in starts it at 0)"
