"""The emulator's fast way into rp2040js's CPU core (host_tools/emu/js/thumb_fast.mjs) does
what rp2040js does, for every opcode.

tests/emu/thumb_fast_check.mjs runs each of the 65,536 first halfwords from random states
(six: registers, flags, thread or handler mode, a BL's second halfword or any, an interrupt pending)
on two cores, one through the table and one through rp2040js alone, and compares the registers,
flags, cycles, the core's mode and stack state, and each memory access in order. In `bus` mode
both cores have the emulator's own bus in front of real SRAM and flash (which the fast path
reads and writes directly for its commonest instructions), and their SRAM is compared too. The
check needs Node and rp2040js, not the MicroPython image."""

import json
import os
import subprocess

import pytest

from host_tools.emu.node_env import EmuSetupError, harness_dir, node_command

HERE = os.path.dirname(os.path.abspath(__file__))


def run_check(seed, mode):
    try:
        folder = harness_dir()
    except EmuSetupError as exc:
        if os.environ.get("BLINKS_REQUIRE_EMU"):
            pytest.fail(f"emulated tiles required (BLINKS_REQUIRE_EMU) but unavailable: {exc}")
        pytest.skip(f"Node or rp2040js unavailable: {exc}")
    proc = subprocess.run(
        [node_command(), os.path.join(HERE, "thumb_fast_check.mjs"), folder, "6", str(seed), mode],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert proc.stdout, proc.stderr
    return proc.returncode, json.loads(proc.stdout.splitlines()[-1])


@pytest.mark.parametrize("seed, mode", [(1, "log"), (2026, "bus")])
def test_every_opcode_does_what_rp2040js_does(seed, mode):
    code, report = run_check(seed, mode)
    assert report["differences"] == [], report["differences"][:3]
    assert code == 0
    assert report["runs"] == 65536 * 6
    # the table takes the common kinds itself: loads, stores, moves, adds, compares, branches
    assert report["fast_runs"] > 0.6 * report["runs"]
