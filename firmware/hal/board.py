"""Pin map and infrared link of a tile: edit this file to match your build (nothing else names a
pin). docs/hardware.md has the parts list and the wiring; this file must agree with it.

Reference build: a Raspberry Pi Pico (RP2040); not a Pico 2 (RP2350), which does not sleep in
DORMANT the way this firmware asks (the tools refuse it). Each face has an IrDA SIR transceiver
(Vishay TFBS4711 or a pin-compatible part): its TXD input on IR_TX_PINS[face] (high = emitter
on), its RXD output on IR_RX_PINS[face] (low while light is seen; the pin's pull-up holds it
high otherwise), its SD pin tied to ground. One PIO state machine drives each face
(hal/ir_pio.py): faces 0-3 on PIO0, faces 4-5 on PIO1, so no face needs a hardware UART. Two DMA channels a face move the bytes (hal/ir_links.py):
all 12 of an RP2040's. The pixels have a 5 V rail of their own that the firmware switches off
while the tile sleeps (docs/hardware.md, "Power").
"""

# one WS2812B-2020 chain, pixel f on face f; its data input reads high from 2.7 V: no buffer
PIXEL_PIN = 22
PIXEL_COUNT = 6
PIXEL_POWER_PIN = 20  # the pixel rail's boost EN: high = 5 V on the pixels, low = off
BUTTON_PIN = 21  # push button to ground; the internal pull-up holds it high
# the Pico's own: high while USB power is there (its datasheet, section 2.1); its rising edge
# wakes a tile from DORMANT (hal/dormant.py), so plugging USB in wakes a sleeping tile
VBUS_SENSE_PIN = 24

IR_TX_PINS = (0, 2, 4, 6, 8, 10)
IR_RX_PINS = (1, 3, 5, 7, 9, 11)
IR_BIT_RATE = 115200  # IrDA SIR's fastest rate; a 16-byte datagram is ~2.3 ms on the air

# Pixel brightness cap (0-255): six WS2812 at full white draw 360 mA from a small cell. 62 is
# the brightness budget that keeps a tile in play 10 hours on 500 mAh (bench_power's
# pixel_cap_for_10_hours, docs/hardware.md); twice 31, it shows each 5-bit level exactly.
PIXEL_MAX = 62
