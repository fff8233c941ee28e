"""Deep sleep: the RP2040's DORMANT state, left on a falling edge of the button or of any face.

`machine.lightsleep()` with no argument stops every clock (the crystal in its DORMANT state) and
comes back on a wake event, but MicroPython sets no wake source of its own (ports/rp2/
modmachine.c): the GPIO dormant-wake enables are set here by hand. A falling edge wakes the
chip: the button pulled to ground, or a face's detector output going low when a neighbour's
light reaches it. So a press anywhere wakes the whole cluster: the tile pressed wakes and
talks, its frames wake its neighbours, and theirs the next ones.

The edge latches are in IO_BANK0's raw interrupt registers (INTR0-3, write 1 to clear), which
the dormant-wake enables (DORMANT_WAKE_INTE0-3) read: a latch left set would wake the chip at
once, so they are cleared just before sleeping, and after waking (the pin IRQs the firmware
uses, the button's, have seen theirs by then). RP2040 datasheet 2.19.6.1 (IO_BANK0 registers).
Each register holds 8 GPIOs, 4 bits each: level low, level high, edge low, edge high.

Only for an RP2040: the RP2350's IO bank lays these registers out otherwise (`supported`).
"""

import os

import machine

IO_BANK0 = 0x40014000
INTR0 = 0x0F0
DORMANT_WAKE_INTE0 = 0x160
EDGE_LOW = 2  # event index within a GPIO's 4 bits


def supported() -> bool:
    return "RP2040" in os.uname().machine


def _bits(pins):
    """{register index: mask} of the falling-edge bits of `pins`."""
    masks = [0, 0, 0, 0]
    for pin in pins:
        masks[pin >> 3] |= 1 << ((pin & 7) * 4 + EDGE_LOW)
    return masks


def clear_edges(pins) -> None:
    masks = _bits(pins)
    for i in range(4):
        if masks[i]:
            machine.mem32[IO_BANK0 + INTR0 + 4 * i] = masks[i]


def sleep_until_edge(pins) -> None:
    """DORMANT until a falling edge on one of `pins`; returns once the clocks are back."""
    masks = _bits(pins)
    clear_edges(pins)
    for i in range(4):
        machine.mem32[IO_BANK0 + DORMANT_WAKE_INTE0 + 4 * i] = masks[i]
    machine.lightsleep()
    for i in range(4):
        machine.mem32[IO_BANK0 + DORMANT_WAKE_INTE0 + 4 * i] = 0
    clear_edges(pins)
