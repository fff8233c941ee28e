"""The emulator's fast way into rp2040js's CPU core (host_tools/emu/js/thumb_fast.mjs) does
what rp2040js does, for every opcode.

tests/emu/thumb_fast_check.mjs runs each of the 65,536 first halfwords from random states
(six: registers, flags, thread or handler mode, a BL's second halfword or any, an interrupt pending)
on two cores, one through the table and one through rp2040js alone, and compares the registers,
flags, cycles, the core's mode and stack state, and each memory access in order. In `bus` mode
both cores have the emulator's own bus in front of real SRAM and flash (which the fast path
reads and writes directly for its commonest instructions), and their SRAM is compared too. The
check needs Node and rp2040js, not the MicroPython image."""

import pytest
from emu_helpers import node_check


@pytest.mark.parametrize("seed, mode", [(1, "log"), (2026, "bus")])
def test_every_opcode_does_what_rp2040js_does(seed, mode):
    code, report = node_check("thumb_fast_check.mjs", 6, seed, mode)
    assert report["differences"] == [], report["differences"][:3]
    assert code == 0
    assert report["runs"] == 65536 * 6
    # the table takes the common kinds itself: loads, stores, moves, adds, compares, branches
    assert report["fast_runs"] > 0.6 * report["runs"]
