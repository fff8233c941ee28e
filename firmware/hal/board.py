"""Pin map of a tile: edit this file to match your build (nothing else names a pin).

Reference build: a Raspberry Pi Pico 2 (RP2350, 12 PIO state machines). Face f's infrared
emitter is driven by IR_TX_PINS[f] (high = LED on) and its receiver is read on IR_RX_PINS[f]
(high = light seen; put an inverting transistor stage after an active-low detector).

RP2040 variant (8 state machines): faces 0-3 use PIO state machines as below, faces 4 and 5 use
the hardware UARTs (UART0 TX GP12 / RX GP13, UART1 TX GP8 / RX GP9) with TX inverted through
the same transistor stage; set IR_UART_FACES = {4: 0, 5: 1} and wire those pins instead.
"""

from micropython import const

PIXEL_PIN = const(22)  # one WS2812 chain, pixel f sits on face f (clockwise)
PIXEL_COUNT = const(6)
BUTTON_PIN = const(21)  # push button to ground; the internal pull-up holds it high

IR_TX_PINS = (0, 2, 4, 6, 10, 14)
IR_RX_PINS = (1, 3, 5, 7, 11, 15)
IR_BAUD = const(19200)  # a 16-byte datagram frame takes ~10 ms on the air

# Face -> hardware UART id for the RP2040 variant; empty on RP2350 (every face on PIO).
IR_UART_FACES = {}  # type: dict

# Pixel brightness cap (0-255): six WS2812 at full white draw 360 mA from a small cell.
PIXEL_MAX = const(96)
