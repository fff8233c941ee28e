"""Pin map of a tile: edit this file to match your build (nothing else names a pin).

Reference build: a Raspberry Pi Pico 2 (RP2350, 12 PIO state machines). Face f's infrared
emitter is driven by IR_TX_PINS[f] (high = LED on) and its receiver is read on IR_RX_PINS[f]
(high = light seen; put an inverting transistor stage after an active-low detector).

RP2040 variant (8 state machines): faces 0-3 keep their PIO transmitter and receiver; faces 4
and 5 go on the two hardware UARTs, inverted so the line idles dark (hal/ir_links.py). Set
    IR_UART_FACES = ((4, 0, 12, 13), (5, 1, 8, 9))  # (face, UART id, TX pin, RX pin)
and wire face 4 to GP12/GP13 and face 5 to GP8/GP9 (pins a UART can use).
"""

PIXEL_PIN = 22  # one WS2812 chain, pixel f sits on face f (clockwise)
PIXEL_COUNT = 6
BUTTON_PIN = 21  # push button to ground; the internal pull-up holds it high

IR_TX_PINS = (0, 2, 4, 6, 10, 14)
IR_RX_PINS = (1, 3, 5, 7, 11, 15)
IR_BAUD = 19200  # a 16-byte datagram frame takes ~10 ms on the air

# (face, UART id, TX pin, RX pin) for faces on a hardware UART; empty on RP2350 (all on PIO).
IR_UART_FACES = ()

# Pixel brightness cap (0-255): six WS2812 at full white draw 360 mA from a small cell.
PIXEL_MAX = 96
