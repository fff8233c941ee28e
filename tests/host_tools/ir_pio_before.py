"""The face's PIO program as it was before the transceiver model (kept for comparison only).

16 clocks a bit, a look at the detector every 2 clocks (1.085 us), deaf for 1.5 bit times after
sending and answering after 3 bit times of dark line (26 us): the turnaround that the emulated
wire's 8 us a way hid. tests/host_tools/test_ir_turnaround.py shows it fails against a receiver
that needs more than about 50 us to recover from its own light, where the firmware's program
(firmware/hal/ir_pio.py) does not. Nothing here runs on a tile.

What follows is that program's own docstring.
The PIO program of an infrared face: one state machine both sends and listens (half-duplex).

The physical layer is IrDA SIR (docs/hardware.md): asynchronous bytes (start bit, 8 data bits
LSB first, stop bit) where a 0 bit is a short pulse of light and a 1 bit is no light. The state
machine runs at CLOCKS_PER_BIT clocks a bit (16, as IrDA encoders do); hal/ir_phy.py has the figures.

Pins: the emitter (transceiver TXD, high = light) is the SET and OUT pin; the detector output
(transceiver RXD, low while light is seen) is the JMP pin. EXECCTRL.STATUS_N = 1 makes
`mov(x, status)` read all ones while the TX FIFO is empty (STATUS_TX_EMPTY below).

- Listening: the line is sampled every 2 clocks, so a pulse of 3/16 of a bit (3 clocks) is
  always seen. A pulse starts a byte. Each data bit is looked for in a window of 12 clocks
  around where its pulse is due; a pulse found re-times the next window, so the clock error
  does not add up over the byte. The byte is pushed in bits 7..0 of the RX FIFO word (a DMA
  channel moves it to a ring buffer at once).
- Sending: each TX FIFO entry is one byte as a halfword (hal/ir_frames.py): bit 0 is the start
  pulse, bits 1-8 the data bits inverted (1 = pulse). The machine sends only after the line has
  been dark for QUIET_CLOCKS (3 bit times), which is longer than the gap between two bytes of a
  frame: so it never starts in the middle of a neighbour's frame (carrier sense). While it
  sends, and for DEAF_CLOCKS after its last byte, it does not listen: a transceiver sees its own
  light (the echo), and a face must never receive its own frames.
"""

import rp2

CLOCKS_PER_BIT = 16  # the clock, quiet and deaf times of the program before the transceiver model
QUIET_BITS = 3
DEAF_BITS = 1.5

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rp2.asm_pio import *

# The loops below are counted for these (hal/ir_phy.py); tests/host_tools/test_ir_pio.py
# measures them on the emulated state machine.
QUIET_CLOCKS = QUIET_BITS * CLOCKS_PER_BIT  # the quiet loop: 24 samples, 2 clocks each
DEAF_CLOCKS = int(DEAF_BITS * CLOCKS_PER_BIT)  # set(y, 11), then 12 turns of 2 clocks
EXECCTRL = 4  # index of the EXECCTRL word in an asm_pio program (ports/rp2/modules/rp2.py)
STATUS_TX_EMPTY = 1  # EXECCTRL.STATUS_N = 1, STATUS_SEL = TX: status is all ones when empty


@rp2.asm_pio(
    set_init=rp2.PIO.OUT_LOW,
    out_init=rp2.PIO.OUT_LOW,
    out_shiftdir=rp2.PIO.SHIFT_RIGHT,
    in_shiftdir=rp2.PIO.SHIFT_RIGHT,
)
def ir_face():
    # ---- listen: the line must stay dark for QUIET_CLOCKS before we may send ----
    label("quiet_start")
    set(y, 23)
    label("quiet")
    jmp(pin, "quiet_dark")
    jmp("rx_byte")
    label("quiet_dark")
    jmp(y_dec, "quiet")
    wrap_target()
    jmp(pin, "idle_dark")
    jmp("rx_byte")
    label("idle_dark")
    mov(x, status)
    jmp(pin, "idle_check")
    jmp("rx_byte")
    label("idle_check")
    jmp(not_x, "send")
    wrap()
    # ---- a byte: entered 1 clock after a sample saw its start pulse (clock 0) ----
    label("rx_byte")
    set(x, 7)[6]  # bit 1's window opens at clock 9; its pulse is due around 15
    label("rx_bit")
    set(y, 5)  # six samples, 2 clocks apart
    label("rx_sample")
    jmp(pin, "rx_dark")
    in_(null, 1)[5]  # a pulse: a 0 bit; the next window opens 9 clocks after this sample
    jmp("rx_next")
    label("rx_dark")
    jmp(y_dec, "rx_sample")
    in_(y, 1)[1]  # no pulse in the window: a 1 bit (y ran out to all ones)
    label("rx_next")
    jmp(x_dec, "rx_bit")
    in_(null, 24)  # the byte to bits 7..0, where the DMA reads it
    push(noblock)
    jmp("quiet_start")
    # ---- send every byte in the TX FIFO, then go deaf for a moment ----
    label("send")
    pull(noblock)
    set(x, 8)  # the start pulse, then 8 data bits
    label("tx_bit")
    out(pins, 1)[2]  # light for PULSE_CLOCKS when the bit is 1
    set(pins, 0)[11]
    jmp(x_dec, "tx_bit")
    mov(x, status)[12]  # the stop bit; all ones when the TX FIFO is empty
    jmp(not_x, "send")
    set(y, 11)
    label("deaf")
    jmp(y_dec, "deaf")[1]
    jmp("quiet_start")


ir_face[EXECCTRL] |= STATUS_TX_EMPTY  # type: ignore[index]  # asm_pio gives a list
