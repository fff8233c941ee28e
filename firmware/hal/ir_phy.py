"""The infrared physical layer's figures, in one place for the board and the simulator.

The board's PIO program (hal/ir_pio.py) is built on these numbers and the simulator's link model
(simulator/world/ir.py) takes a frame's time on the air from them, so what works in the
simulator works on a tile. docs/hardware.md explains the choice of IrDA SIR and sizes the
turnaround below from the transceiver's datasheet.

- BIT_RATE: IrDA SIR's fastest rate, set per build in hal/board.py.
- A byte on the air is BITS_PER_BYTE bits (start, 8 data, stop); a frame is its bytes framed by
  hal/ir_frames.py (BOF, escapes, EOF).
- The state machine runs CLOCKS_PER_BIT clocks a bit and samples the detector at least every
  SAMPLE_CLOCKS: 0.81 us at 115.2 kbit/s, under the shortest pulse a SIR detector may give
  (1.0 us), so no pulse slips between two samples.
- Turnaround: a transceiver's receiver is saturated by its own light and needs up to
  RECOVERY_US_MAX (the datasheets' receiver latency) to hear again; it may stay silent or
  ring meanwhile. So after its last byte a face keeps "sending" DARK_BYTES of darkness (it does
  not listen), and a face answers only after QUIET_CLOCKS of dark line: the answer reaches the
  other face after its receiver has recovered and after it listens again. Both are sized for
  twice RECOVERY_US_MAX (tolerance_us below).
"""

from hal.board import IR_BIT_RATE as BIT_RATE
from hal.ir_frames import BITS_PER_BYTE, DARK_BYTES, wire_length

CLOCKS_PER_BIT = 32  # the state machine's clock: 3.6864 MHz at 115.2 kbit/s
PULSE_CLOCKS = 6  # a 0 bit is light for 6/32 = 3/16 of the bit time (1.63 us)
SAMPLE_CLOCKS = 3  # the longest gap between two looks at the detector while listening
QUIET_OUTER = 26  # turns of the quiet loop's outer counter (hal/ir_pio.py: set(x, 25))
QUIET_CLOCKS = 1 + QUIET_OUTER * 99  # dark line needed before sending: 2575 clocks, 80.5 bits
RECOVERY_US_MAX = 300  # the worst receiver latency of comparable SIR parts (docs/hardware.md)
DATAGRAM_BYTES = 24  # the longest datagram frame: 16 bytes of payload (runtime/link.DATAGRAM_MAX)


def bit_us(bit_rate=BIT_RATE) -> float:
    return 1e6 / bit_rate


def frame_us(data, bit_rate=BIT_RATE) -> float:
    """Microseconds `data` takes on the air as one frame (light only, not the dark bytes)."""
    return wire_length(data) * BITS_PER_BYTE * bit_us(bit_rate)


def deaf_us(bit_rate=BIT_RATE) -> float:
    """From a face's last pulse of light to when it listens again: the EOF byte's last three
    bit times (EOF 0xC1 ends in two 1 bits and the stop bit) and the dark bytes."""
    return (3 + DARK_BYTES * BITS_PER_BYTE) * bit_us(bit_rate)


def quiet_us(bit_rate=BIT_RATE) -> float:
    """How long the line must stay dark after a byte before a face may send."""
    return QUIET_CLOCKS / CLOCKS_PER_BIT * bit_us(bit_rate)


def turnaround_us(bit_rate=BIT_RATE) -> float:
    """From a neighbour's last pulse of light to the earliest a face's answer lights: the last
    two bits of the EOF byte the face waits out in its receive loop, then the quiet time."""
    return 2 * bit_us(bit_rate) + quiet_us(bit_rate)


def tolerance_us(bit_rate=BIT_RATE) -> float:
    """The longest receiver recovery the turnaround allows: a receiver that stays silent must
    have recovered when the answer arrives, one that rings must be over before the face listens
    again. The smaller of the two."""
    return min(turnaround_us(bit_rate), deaf_us(bit_rate))
