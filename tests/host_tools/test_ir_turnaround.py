"""The turnaround has margin: a face answers only once the other face's receiver has recovered.

A transceiver's receiver is saturated by its own light and needs time to hear again (the
datasheets' receiver latency: up to 50 us on the HSDL-3220, 300 us on the ROHM RPM871-H14; the
TFBS4711's own figure was not available, so the worst is the design case, docs/hardware.md).
Meanwhile it may stay silent ("blind") or ring. Face b queues its answer while a's datagram is
on the air, so its state machine answers as early as the program allows: the hardest case.
"""

import os
from dataclasses import replace

import pytest
from hal import ir_phy
from pio_dsl import load_pio_module
from pio_link import DATASHEET_WORST, IDEAL, ping_pong

BEFORE = load_pio_module(os.path.join(os.path.dirname(__file__), "ir_pio_before.py"))


def model(recovery_us, mode="blind", base=DATASHEET_WORST):
    return replace(base, recovery_us=recovery_us, recovery_mode=mode)


def test_the_turnaround_before_failed_against_a_slow_receiver():
    """The program before the transceiver model answered 26 us after the other face's frame.
    With clean pulses it works while the receiver recovers in 40 us, and loses answers to one
    that needs 100 us (twice a comparable part's maximum)."""
    assert ping_pong(20, model(40, base=IDEAL), pio=BEFORE, dark=False) == 20
    assert ping_pong(20, model(100, base=IDEAL), pio=BEFORE, dark=False) < 20


def test_the_program_before_also_missed_short_detector_pulses():
    """It looked at the detector every 1.085 us: a datasheet detector's 1.0 us pulses slipped
    between two looks, even with a receiver that recovers at once."""
    assert ping_pong(20, model(0), pio=BEFORE, dark=False) < 20


@pytest.mark.parametrize("mode", ["blind", "ring"])
def test_the_turnaround_tolerates_twice_the_datasheets_worst_recovery(mode):
    recovery = 2 * ir_phy.RECOVERY_US_MAX
    assert ping_pong(40, model(recovery, mode), seed=3) == 40


def test_the_margin_is_real_a_receiver_slower_still_loses_answers():
    """The model is not lenient: past what the turnaround allows, answers are lost."""
    assert ping_pong(20, model(ir_phy.tolerance_us() + 100), seed=4) < 20


def test_the_figures_say_what_the_program_does():
    assert ir_phy.tolerance_us() >= 2 * ir_phy.RECOVERY_US_MAX
    assert ir_phy.tolerance_us() >= 100
    assert ir_phy.quiet_us() > ir_phy.deaf_us()  # an answer never falls in the deaf time
