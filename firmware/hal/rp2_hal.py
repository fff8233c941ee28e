"""The HAL of a real tile: an rp2 board (see hal/board.py for the pins).

- Pixels: `neopixel` on one WS2812 chain; 15-bit colours scaled to 8 bits, capped by PIXEL_MAX.
- Button: a pulled-up pin with an IRQ on both edges; the handler only timestamps the level, the
  runtime debounces from the timestamps (so a slow loop pass loses no edge).
- Faces: per face a transmit and a receive PIO state machine (hal/ir_pio.py), or on an RP2040
  a hardware UART for two of the faces (hal/ir_links.py). A frame goes on the air as a length
  byte then the data (hal/ir_frames.py); a gap longer than FRAME_GAP_MS between bytes drops a
  partial frame (the runtime checks the rest).
- Storage: one file written as a temporary file then renamed over (littlefs renames atomically).
- Identity and entropy: machine.unique_id() and os.urandom (the ROSC-fed TRNG on rp2).
"""

import os
import time

import machine
import neopixel
from runtime.hal import Hal

from hal import board
from hal.ir_frames import FrameAssembler
from hal.ir_links import make_links
from hal.storage import STATE_FILE, read_file, write_atomic

FACE_COUNT = 6
FRAME_GAP_MS = 3  # 5 byte times at 19200 baud
EDGE_QUEUE = 32  # edges kept between loop passes; older ones are dropped first


class Rp2Hal(Hal):
    """Hardware access for one tile; create it once at boot."""

    loop_pause_ms = 1  # ~1 kHz loop: LEDs and links need no more

    def __init__(self):
        self._last_ticks = time.ticks_ms()
        self._ms = 0
        self._pixels = neopixel.NeoPixel(machine.Pin(board.PIXEL_PIN), board.PIXEL_COUNT)
        self._edges = []  # type: list
        self._button = machine.Pin(board.BUTTON_PIN, machine.Pin.IN, machine.Pin.PULL_UP)
        self._button.irq(
            handler=self._on_edge, trigger=machine.Pin.IRQ_FALLING | machine.Pin.IRQ_RISING
        )
        self._links = make_links(board)
        self._assemblers = [FrameAssembler(FRAME_GAP_MS) for _ in range(FACE_COUNT)]
        self._frames = [[] for _ in range(FACE_COUNT)]  # type: list

    def _on_edge(self, pin):
        # Soft IRQ: record (raw ticks, down); the pin reads 0 while the button is held.
        if len(self._edges) >= EDGE_QUEUE:
            self._edges.pop(0)
        self._edges.append((time.ticks_ms(), pin.value() == 0))

    def millis(self) -> int:
        # ticks_ms wraps after 2**30 ms (12.4 days); the runtime wants a clock that never wraps
        now = time.ticks_ms()
        self._ms += time.ticks_diff(now, self._last_ticks)
        self._last_ticks = now
        return self._ms

    def button_edges(self) -> list:
        state = machine.disable_irq()
        edges, self._edges = self._edges, []
        machine.enable_irq(state)
        now_ms, now_ticks = self.millis(), self._last_ticks
        return [(now_ms - time.ticks_diff(now_ticks, t), down) for t, down in edges]

    def send_frame(self, face: int, data) -> bool:
        return self._links[face].send(data)

    def receive_frames(self, face: int) -> list:
        assembler = self._assemblers[face]
        now = self.millis()
        for b in self._links[face].received():
            frame = assembler.feed(b, now)
            if frame is not None:
                self._frames[face].append((now, frame))
        frames, self._frames[face] = self._frames[face], []
        return frames

    def show(self, colors) -> None:
        cap = board.PIXEL_MAX
        for face in range(FACE_COUNT):
            c = colors[face]
            self._pixels[face] = (
                ((c >> 10) & 31) * cap // 31,
                ((c >> 5) & 31) * cap // 31,
                (c & 31) * cap // 31,
            )
        self._pixels.write()

    def entropy(self) -> int:
        return int.from_bytes(os.urandom(4), "little")

    def serial_number(self) -> bytes:
        uid = machine.unique_id()
        return bytes(uid[:8]) + bytes(8 - len(uid[:8]))

    def load(self):
        return read_file(STATE_FILE)

    def save(self, data) -> None:
        write_atomic(STATE_FILE, data)

    def log(self, text: str) -> None:
        print(text)
