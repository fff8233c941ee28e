"""PIO programs for the infrared face links: one transmitter and one receiver state machine a face.

The line is asynchronous serial with the light as the mark: idle = LED off, start bit = LED on
for one bit time, 8 data bits LSB first (1 = LED on), stop bit = LED off. Both machines run at
8 clocks per bit (freq = 8 * baud). The receiver waits for light, samples each bit in its
middle and waits for the line to go dark again, so a frame of bytes arrives as bytes; the HAL
puts a length byte in front of each frame. These functions are the rp2 assembler DSL; the host
tests run the same bodies through an assembler and the rp2040-pio-emulator.
"""

import rp2

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rp2.asm_pio import *

CLOCKS_PER_BIT = 8


@rp2.asm_pio(set_init=rp2.PIO.OUT_LOW, out_init=rp2.PIO.OUT_LOW, out_shiftdir=rp2.PIO.SHIFT_RIGHT)
def ir_tx():
    # set_base and out_base are both the emitter pin
    pull(block)  # wait for a byte; the line stays dark meanwhile
    set(pins, 1)[6]  # start bit: light for 7 clocks ...
    set(x, 7)  # ... plus this one: 8; then 8 data bits
    label("bit")
    out(pins, 1)  # next bit, LSB first, 1 = light
    jmp(x_dec, "bit")[6]  # 8 clocks a bit
    set(pins, 0)[7]  # stop bit: dark for 8 clocks (the next pull adds one)


@rp2.asm_pio(in_shiftdir=rp2.PIO.SHIFT_RIGHT)
def ir_rx():
    wait(1, pin, 0)  # start bit: light
    set(x, 7)[10]  # to the middle of bit 0: 8 + 4 clocks after the edge
    label("bit")
    in_(pins, 1)
    jmp(x_dec, "bit")[6]
    push(block)  # byte in bits 31..24 of the word
    wait(0, pin, 0)  # stop bit: wait for dark before the next start bit
