"""The reply-gap sweep of `blinks diag` on the PIO emulator, with the datasheet transceiver.

hal/diag.py sets the answering face's quiet time by rewriting the immediate of the face
program's first instruction, `set(x, 25)`, and the asking face sends with no dark bytes after
its frame, so the sweep finds how soon after its own light the asker's receiver hears again.
Here the firmware's own program (assembled by tests/host_tools/pio_dsl.py) runs on both faces,
the answering one with its first word rewritten as the tile's instruction memory is, and light
crosses through host_tools/emu/transceiver.py's model:

- the answer lights `gap_us(x)` after the asker's last light (to within the receiver's own
  timing, a fraction of a bit), x = 25 being the firmware's turnaround_us();
- with the datasheet's worst receiver (blind 300 us after its own light) the answers at x = 9
  (286 us) are lost and those at x = 10 (313 us) arrive: what the sweep reports on a tile with
  that receiver; with a receiver that recovers at once, even x = 0 (44 us) works.
"""

import copy
import types

import pytest
from hal.diag import PATTERN, gap_us
from hal.ir_phy import bit_us, turnaround_us
from pio_link import DATASHEET_WORST, IDEAL, PIO, TICKS_PER_BIT, US_PER_TICK, Air, Face


def answering_program(x):
    """The face program with its first word's immediate rewritten, as hal/diag.py does."""
    program = copy.copy(PIO.ir_face)
    program.opcodes = list(program.opcodes)
    assert program.opcodes[0] & 31 == 25  # set(x, 25)
    program.opcodes[0] = (program.opcodes[0] & ~31) | x
    return types.SimpleNamespace(ir_face=program, CLOCKS_PER_BIT=PIO.CLOCKS_PER_BIT)


def ask(x, model, frames=2):
    """(answers heard whole, the gaps in us from the asker's last light to the answer's first)."""
    a = Face("a", model=model, seed=3, dark=False)  # the sweep's frames: no dark bytes after
    b = Face("b", model=model, seed=4, pio=answering_program(x), phase=0.37 * TICKS_PER_BIT)
    b.hears(a)
    a.hears(b)
    a.hears(a)  # the echo
    b.hears(b)
    air = Air([a, b], int(1000 / US_PER_TICK))
    answer = b"R" + bytes((x,)) + PATTERN
    heard, gaps = 0, []
    for _ in range(frames):
        a.send(b"S" + bytes((x, x)) + PATTERN)
        lit = len(a.tx_edges)
        air.run_while(lambda lit=lit: len(a.tx_edges) == lit, 100_000)
        air.run_until(a.now + 5 * TICKS_PER_BIT)  # b queues its answer while a's frame is on
        answered_from = len(b.tx_edges)
        b.send(answer)
        air.run_while(lambda: a.sending or b.sending, 400_000)
        air.run_until(max(a.now, b.now) + 3000)
        air.drain_all()
        a_off = [t for t, level in a.tx_edges[1:] if not level][-1]
        b_on = next(t for t, level in b.tx_edges[answered_from:] if level)
        gaps.append((b_on - a_off) * US_PER_TICK)
        heard += a.frames.count(answer)
        a.frames.clear()
        air.run_until(max(a.now, b.now) + 6000)
    return heard, gaps


def test_the_firmwares_immediate_gives_the_firmwares_turnaround():
    assert gap_us(25) == pytest.approx(turnaround_us())
    assert gap_us(31) - gap_us(30) == pytest.approx(99 / 32 * bit_us())  # a turn: 99 clocks


@pytest.mark.parametrize("x", [0, 25])
def test_the_answer_lights_the_gap_the_immediate_sets(x):
    heard, gaps = ask(x, IDEAL)
    assert heard == 2
    for gap in gaps:
        assert gap_us(x) <= gap < gap_us(x) + bit_us()


def test_a_receiver_blind_300_us_hears_answers_from_313_us_not_286():
    assert DATASHEET_WORST.recovery_us == 300 and DATASHEET_WORST.recovery_mode == "blind"
    assert ask(9, DATASHEET_WORST)[0] == 0
    assert ask(10, DATASHEET_WORST)[0] == 2
    assert round(gap_us(10), 1) == 313.0
