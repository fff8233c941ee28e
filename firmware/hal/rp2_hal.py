"""The HAL of a real tile: an rp2 board (see hal/board.py for the pins, docs/hardware.md for parts).

- Faces: one PIO state machine and two DMA channels a face (hal/ir_links.py), read and driven
  by hal/ir_faces.py; frames are delimited on the air by hal/ir_frames.py. Receiving cannot
  overflow and sending never blocks.
- Pixels: one WS2812 chain written with machine.bitstream from a buffer of our own, only when a
  colour changed (a write holds interrupts off for ~180 us).
- Button: a pulled-up pin with an IRQ on both edges; the handler only timestamps the level, the
  runtime debounces from the timestamps (so a slow loop pass loses no edge).
- Storage: one file written as a temporary file then renamed over (littlefs renames atomically).
- Identity and entropy: machine.unique_id() and os.urandom.
- Log: lines are queued and written in the idle time between passes, never waiting for a host
  that does not read (hal/serial_log.py).

A steady pass allocates nothing here: frames are read into each face's own buffer and handed to
the runtime one at a time (`receive_frame`), a face value is encoded once, the pixel buffer and
the empty edge list are made once. What still allocates is rare: a button edge, a datagram's
frame (the runtime builds it), a saved state, a log line.
"""

import os
import time

import machine

from hal import board
from hal.ir_faces import IrFaces
from hal.ir_links import make_links
from hal.serial_log import SerialLog
from hal.storage import STATE_FILE, read_file, write_atomic

FACE_COUNT = 6
EDGE_QUEUE = 32  # edges kept between loop passes; older ones are dropped first
WS2812_TIMING = (400, 850, 800, 450)  # ns high/low for a 0 bit, then for a 1 bit (800 kHz)
_NO_EDGES = ()


class Rp2Hal(IrFaces):
    """Hardware access for one tile; create it once at boot."""

    pass_ms = 20  # a loop pass every 20 ms, as the simulator's tiles run
    sleep_pass_ms = 100  # asleep: a slower loop (the DMA keeps every frame meanwhile)

    def __init__(self):
        super().__init__(make_links(board))
        self._last_ticks = time.ticks_ms()
        self._ms = 0
        self._pixel_power = machine.Pin(board.PIXEL_POWER_PIN, machine.Pin.OUT, value=1)
        self._pixel_pin = machine.Pin(board.PIXEL_PIN, machine.Pin.OUT, value=0)
        self._pixel_buf = bytearray(3 * board.PIXEL_COUNT)  # GRB, pixel f on face f
        self._shown = [-1] * FACE_COUNT
        self._edges = []  # type: list
        self._button = machine.Pin(board.BUTTON_PIN, machine.Pin.IN, machine.Pin.PULL_UP)
        self._button.irq(
            handler=self._on_edge, trigger=machine.Pin.IRQ_FALLING | machine.Pin.IRQ_RISING
        )
        self.serial_log = SerialLog()

    def _on_edge(self, pin):
        # Soft IRQ: record (raw ticks, down); the pin reads 0 while the button is held.
        if len(self._edges) >= EDGE_QUEUE:
            self._edges.pop(0)
        self._edges.append((time.ticks_ms(), pin.value() == 0))

    def millis(self) -> int:
        # ticks_ms wraps after 2**30 ms (12.4 days); the runtime wants a clock that never wraps
        # frames read from now on arrived in this pass: the DMA keeps no arrival times (rx_ms)
        now = time.ticks_ms()
        ms = self._ms + time.ticks_diff(now, self._last_ticks)
        self._last_ticks = now
        self._ms = self.rx_ms = ms
        return ms

    def button_edges(self):
        # No comprehension here: locals a comprehension reads become cells, and MicroPython
        # allocates a function's cells on every call, even one that returns at its first line.
        if not self._edges:
            return _NO_EDGES
        state = machine.disable_irq()
        edges, self._edges = self._edges, []
        machine.enable_irq(state)
        now_ms, now_ticks = self.millis(), self._last_ticks
        for i in range(len(edges)):
            t, down = edges[i]
            edges[i] = (now_ms - time.ticks_diff(now_ticks, t), down)
        return edges

    def show(self, colors) -> None:
        cap = board.PIXEL_MAX
        buf = self._pixel_buf
        shown = self._shown
        changed = False
        for face in range(FACE_COUNT):
            c = colors[face]
            if c != shown[face]:
                shown[face] = c
                changed = True
                i = 3 * face
                buf[i] = ((c >> 5) & 31) * cap // 31
                buf[i + 1] = ((c >> 10) & 31) * cap // 31
                buf[i + 2] = (c & 31) * cap // 31
        if changed:
            machine.bitstream(self._pixel_pin, 0, WS2812_TIMING, buf)

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
        self.serial_log.line(text)

    def idle(self, ms: int) -> None:
        """Between passes: write queued log lines while the host takes them, then sleep (after
        a slow pass, `ms` 0: a millisecond of log lines, so they never starve)."""
        start = time.ticks_ms()
        self.serial_log.pump(max(ms, 1))
        left = ms - time.ticks_diff(time.ticks_ms(), start)
        if left > 0:
            time.sleep_ms(left)
