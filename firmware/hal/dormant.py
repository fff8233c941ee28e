"""Deep sleep: the RP2040's DORMANT state, left on a falling edge of the button or of any face,
or a rising edge of VBUS.

`machine.lightsleep()` with no argument stops every clock (the crystal in its DORMANT state) and
comes back on a wake event, but MicroPython sets no wake source of its own (ports/rp2/
modmachine.c): the GPIO dormant-wake enables are set here by hand. A falling edge wakes the
chip: the button pulled to ground, or a face's detector output going low when a neighbour's
light reaches it. So a press anywhere wakes the whole cluster: the tile pressed wakes and
talks, its frames wake its neighbours, and theirs the next ones. A rising edge of GP24, the
Pico's VBUS sense, wakes it when USB is plugged in: GPIO24 is in IO_BANK0 like the others, and
DORMANT_WAKE_INTE3 has its four bits.

The edge latches are in IO_BANK0's raw interrupt registers (INTR0-3, write 1 to clear), which
the dormant-wake enables (DORMANT_WAKE_INTE0-3) read: a latch left set would wake the chip at
once, so they are cleared just before sleeping, and after waking (the pin IRQs the firmware
uses, the button's, have seen theirs by then). Which latches are set after waking says what
woke the chip (a pin with an IRQ, the button, has had its latch cleared by the IRQ handler
already: it is what woke the chip when no other latch is set). RP2040 datasheet 2.19.6.1
(IO_BANK0 registers). Each register holds 8 GPIOs, 4 bits each: level low, level high, edge
low, edge high.

Only for an RP2040: the RP2350's IO bank lays these registers out otherwise (`supported`).
"""

import os

import machine

IO_BANK0 = 0x40014000
INTR0 = 0x0F0
DORMANT_WAKE_INTE0 = 0x160
EDGE_LOW = 2  # event indices within a GPIO's 4 bits
EDGE_HIGH = 3


def supported() -> bool:
    return "RP2040" in os.uname().machine


def _bits(pins, event, masks):
    """Add the `event` bits of `pins` to `masks` ({register index: mask}); returns it."""
    for pin in pins:
        masks[pin >> 3] |= 1 << ((pin & 7) * 4 + event)
    return masks


def clear_edges(masks) -> None:
    for i in range(4):
        if masks[i]:
            machine.mem32[IO_BANK0 + INTR0 + 4 * i] = masks[i]


def sleep_until_edge(falling, rising=()):
    """DORMANT until a falling edge on one of `falling` or a rising one on `rising`; returns,
    once the clocks are back, the pins whose edge latched (see above: the button's is not)."""
    masks = _bits(rising, EDGE_HIGH, _bits(falling, EDGE_LOW, [0, 0, 0, 0]))
    clear_edges(masks)
    for i in range(4):
        machine.mem32[IO_BANK0 + DORMANT_WAKE_INTE0 + 4 * i] = masks[i]
    machine.lightsleep()
    for i in range(4):
        machine.mem32[IO_BANK0 + DORMANT_WAKE_INTE0 + 4 * i] = 0
    woke = []
    for pin in tuple(falling) + tuple(rising):
        reg = pin >> 3
        if machine.mem32[IO_BANK0 + INTR0 + 4 * reg] & masks[reg] & (0xF << ((pin & 7) * 4)):
            woke.append(pin)
    clear_edges(masks)
    return woke
