"""The infrared physical layer's figures, in one place for the board and the simulator.

The board's PIO program (hal/ir_pio.py) is built on these numbers and the simulator's link model
(simulator/world/ir.py) takes a frame's time on the air from them, so what works in the
simulator works on a tile. docs/hardware.md explains the choice of IrDA SIR.

- BIT_RATE: IrDA SIR's fastest rate, set per build in hal/board.py.
- A byte on the air is BITS_PER_BYTE bits (start, 8 data, stop); a frame is its bytes framed by
  hal/ir_frames.py (BOF, escapes, EOF).
- A face sends only after QUIET_BITS of dark line (carrier sense) and ignores its detector for
  DEAF_BITS after its last byte (its own echo, and the detector recovering).
"""

from hal.board import IR_BIT_RATE as BIT_RATE
from hal.ir_frames import BITS_PER_BYTE, wire_length

CLOCKS_PER_BIT = 16  # the state machine's clock: 16 ticks a bit, as IrDA encoders use
PULSE_CLOCKS = 3  # a 0 bit is light for 3/16 of the bit time
QUIET_BITS = 3  # dark line needed before sending: longer than the gap inside a frame
DEAF_BITS = 1.5  # after sending, the detector is ignored this long
DATAGRAM_BYTES = 24  # the longest datagram frame: 16 bytes of payload (runtime/link.DATAGRAM_MAX)


def frame_us(data, bit_rate=BIT_RATE) -> float:
    """Microseconds `data` takes on the air as one frame."""
    return wire_length(data) * BITS_PER_BYTE * 1e6 / bit_rate


def turnaround_us(bit_rate=BIT_RATE) -> float:
    """From the end of a neighbour's frame to the earliest a face may answer it."""
    return QUIET_BITS * 1e6 / bit_rate
