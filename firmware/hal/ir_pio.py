"""The PIO program of an infrared face: one state machine both sends and listens (half-duplex).

The physical layer is IrDA SIR (docs/hardware.md): asynchronous bytes (start bit, 8 data bits
LSB first, stop bit) where a 0 bit is a short pulse of light and a 1 bit is no light. The state
machine runs at CLOCKS_PER_BIT (32) clocks a bit; hal/ir_phy.py has the figures and why.

Pins: the emitter (transceiver TXD, high = light) is the SET and OUT pin; the detector output
(transceiver RXD, low while it signals light) is the JMP pin. EXECCTRL.STATUS_N = 1 makes
`mov(x, status)` read all ones while the TX FIFO is empty.

- Listening, the detector is looked at every 2 or 3 clocks (0.81 us at most): a SIR detector
  answers each pulse of light with a pulse of its own, 1.0 to 4.0 us long, so none is missed.
  A pulse starts a byte. Each data bit is looked for in a window of 28 clocks around where its
  pulse is due; a pulse found re-times the next window, so the clock error does not add up over
  the byte, and the next window opens only after the longest pulse has ended. The byte is
  pushed in bits 7..0 of the RX FIFO word (a DMA channel moves it to a ring buffer at once).
- Sending: each TX FIFO entry is one byte as a halfword (hal/ir_frames.py): bit 0 is the start
  pulse, bits 1-8 the data bits inverted (1 = pulse). A frame ends with dark bytes (all zero),
  so the machine stays in its sending loop, deaf, while the transceiver's receiver recovers
  from its own light, and a face never receives its own frames.
- Turnaround: after every byte it heard, the machine sends only once the line has been dark
  for QUIET_CLOCKS (80 bit times). That is longer than the gap inside a frame (so it never
  starts in the middle of a neighbour's frame: carrier sense) and longer than the neighbour's
  deaf time and its receiver's recovery (so the answer is heard).

The numbers in the program are literals (asm_pio runs the body with its own names in scope,
not this module's); hal/ir_phy.py names them and tests/host_tools/test_ir_pio.py measures them
on an emulated state machine.
"""

import rp2

from hal.ir_phy import CLOCKS_PER_BIT, QUIET_CLOCKS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rp2.asm_pio import *

STATUS_TX_EMPTY = 1  # EXECCTRL.STATUS_N = 1, STATUS_SEL = TX: status is all ones when empty
PROGRAM_TAIL = 5  # entries after EXECCTRL in an asm_pio program: SHIFTCTRL and three pin inits


@rp2.asm_pio(
    set_init=rp2.PIO.OUT_LOW,
    out_init=rp2.PIO.OUT_LOW,
    out_shiftdir=rp2.PIO.SHIFT_RIGHT,
    in_shiftdir=rp2.PIO.SHIFT_RIGHT,
)
def ir_face():
    # ---- the line must stay dark for QUIET_CLOCKS before we may send (a look every 3) ----
    label("quiet_start")
    set(x, 25)  # 26 turns of the outer loop, 99 clocks each
    label("quiet_outer")
    set(y, 31)
    label("quiet")
    jmp(pin, "quiet_dark")
    jmp("rx_byte")
    label("quiet_dark")
    jmp(y_dec, "quiet")[1]
    jmp(pin, "quiet_more")  # a look between the inner loops too
    jmp("rx_byte")
    label("quiet_more")
    jmp(x_dec, "quiet_outer")
    # ---- idle: a look every 3 clocks, and send as soon as there is something ----
    wrap_target()
    jmp(pin, "idle_dark")
    jmp("rx_byte")
    label("idle_dark")
    mov(x, status)
    jmp(not_x, "send")
    wrap()
    # ---- a byte: entered 2 clocks after a look saw its start pulse ----
    label("rx_byte")
    set(x, 7)[14]  # bit 1's window opens 18 to 21 clocks after the start pulse; due at 32
    label("rx_bit")
    set(y, 13)  # fourteen looks, 2 clocks apart
    label("rx_sample")
    jmp(pin, "rx_dark")
    in_(null, 1)[12]  # a pulse: a 0 bit; the next window opens 17 clocks after this look
    jmp("rx_next")
    label("rx_dark")
    jmp(y_dec, "rx_sample")
    in_(y, 1)[1]  # no pulse in the window: a 1 bit (y ran out to all ones)
    label("rx_next")
    jmp(x_dec, "rx_bit")
    in_(null, 24)  # the byte to bits 7..0, where the DMA reads it
    push(noblock)
    jmp("quiet_start")
    # ---- send every byte in the TX FIFO (the frame's dark bytes included) ----
    label("send")
    pull(noblock)
    set(x, 8)  # the start pulse, then 8 data bits
    label("tx_bit")
    out(pins, 1)[5]  # light for 6 clocks when the bit is 1
    set(pins, 0)[24]
    jmp(x_dec, "tx_bit")
    mov(x, status)[28]  # the stop bit; all ones when the TX FIFO is empty
    jmp(not_x, "send")
    jmp("quiet_start")


def execctrl_index(program) -> int:
    """Where asm_pio keeps the EXECCTRL word. MicroPython 1.26 put PIO2's program offset into
    the list (9 entries, EXECCTRL at 4, ports/rp2/modules/rp2.py); up to 1.25 it had 8 (EXECCTRL
    at 3, where 4 is SHIFTCTRL). Both end with SHIFTCTRL and the three pin inits."""
    return len(program) - PROGRAM_TAIL


ir_face[execctrl_index(ir_face)] |= STATUS_TX_EMPTY  # type: ignore[index]  # a list

assert QUIET_CLOCKS == 1 + 26 * 99 and CLOCKS_PER_BIT == 32  # the literals above
