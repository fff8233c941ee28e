"""One infrared face link: bytes out and in, on two PIO state machines or on a hardware UART.

The RP2350 has 12 state machines: every face gets a PIO transmitter and receiver. The RP2040
has 8: four faces on PIO, two on the hardware UARTs (board.IR_UART_FACES), inverted so the
line idles dark like the PIO links, with the data bits flipped back (complement()). Either way a frame is the same bytes on the air
(hal/ir_frames.py), so tiles of both kinds talk to each other.
"""

import machine
import rp2

from hal.ir_frames import complement, encode
from hal.ir_pio import CLOCKS_PER_BIT, ir_rx, ir_tx


class PioLink:
    def __init__(self, first_sm: int, tx_pin: int, rx_pin: int, baud: int):
        tx = machine.Pin(tx_pin, machine.Pin.OUT, value=0)
        rx = machine.Pin(rx_pin, machine.Pin.IN)
        freq = baud * CLOCKS_PER_BIT
        self._tx = rp2.StateMachine(first_sm, ir_tx, freq=freq, out_base=tx, set_base=tx)
        self._rx = rp2.StateMachine(first_sm + 1, ir_rx, freq=freq, in_base=rx)
        self._tx.active(1)
        self._rx.active(1)

    def send(self, data) -> bool:
        if self._tx.tx_fifo():
            return False  # still sending the previous frame
        for b in encode(data):
            self._tx.put(b)  # put blocks while the 4-word FIFO is full: ~0.5 ms a byte
        return True

    def received(self) -> bytes:
        out = b""
        while self._rx.rx_fifo():
            out += bytes((self._rx.get() >> 24,))
        return out


class UartLink:
    def __init__(self, uart_id: int, tx_pin: int, rx_pin: int, baud: int):
        inv = machine.UART.INV_TX | machine.UART.INV_RX  # idle dark, light = start bit
        self._uart = machine.UART(
            uart_id, baud, tx=machine.Pin(tx_pin), rx=machine.Pin(rx_pin), invert=inv
        )

    def send(self, data) -> bool:
        if not self._uart.txdone():
            return False
        self._uart.write(complement(encode(data)))
        return True

    def received(self) -> bytes:
        return complement(self._uart.read() or b"") if self._uart.any() else b""


def make_links(board) -> list:
    """The six face links the board file describes, face 0..5."""
    uart_faces = {}
    for face, uart_id, tx_pin, rx_pin in board.IR_UART_FACES:
        uart_faces[face] = (uart_id, tx_pin, rx_pin)
    links = []  # type: list
    sm = 0
    for face in range(6):
        if face in uart_faces:
            uart_id, tx_pin, rx_pin = uart_faces[face]
            links.append(UartLink(uart_id, tx_pin, rx_pin, board.IR_BAUD))
        else:
            links.append(PioLink(sm, board.IR_TX_PINS[face], board.IR_RX_PINS[face], board.IR_BAUD))
            sm += 2
    return links
