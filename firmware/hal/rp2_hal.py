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
- Deep sleep (hal/dormant.py): once the cluster has fallen asleep, a tile on battery switches
  its pixel rail off and stops every clock until its button or any face sees a falling edge,
  or USB is plugged in (GP24 rises).
  On USB power it stays in warm sleep, so its serial port stays up (DORMANT stops USB).

A steady pass allocates nothing here: frames are read into each face's own buffer and handed to
the runtime one at a time (`receive_frame`), a face value is encoded once, the pixel buffer and
the empty edge list are made once. What still allocates is rare: a button edge, a datagram's
frame (the runtime builds it), a saved state, a log line.
"""

try:
    import micropython
except ImportError:  # CPython: plain Python (runtime/native.py)
    from runtime import native as micropython  # type: ignore[no-redef]

import os
import time
from array import array

import machine
import rp2
import uctypes
from runtime.link import VALUE_FRAME

from hal import board, dormant
from hal.ir_faces import RING_BITS, RX_COUNT, IrFaces
from hal.ir_frames import encode_words
from hal.ir_links import make_links
from hal.ir_send import send_values
from hal.ir_values import take_values
from hal.serial_log import SerialLog
from hal.sleep_log import SleepLog
from hal.storage import STATE_FILE, read_file, write_atomic

FACE_COUNT = 6
EDGE_QUEUE = 32  # edges kept between loop passes; older ones are dropped first
DMA_CHANNEL = 0x50000000  # channel 0's register block; each channel's is 0x40 on (2.5.7)
DMA_TRANS_COUNT = DMA_CHANNEL + 0x08  # channel 0's TRANS_COUNT
PIO_FSTAT = (0x50200004, 0x50300004, 0x50400004)  # each PIO block's FSTAT (3.7; PIO2: RP2350)
FSTAT_TXEMPTY = 24  # FSTAT bit 24 + n: state machine n's TX FIFO is empty
WS2812_TIMING = (400, 850, 800, 450)  # ns high/low for a 0 bit, then for a 1 bit (800 kHz)
_NO_EDGES = ()


def _busy_bit() -> int:
    """The BUSY bit of a DMA channel's CTRL register, as the port's own unpack_ctrl reads it
    (bit 24 on the RP2040, 26 on the RP2350)."""
    for bit in range(20, 31):
        if rp2.DMA.unpack_ctrl(1 << bit)["busy"]:
            return 1 << bit
    raise RuntimeError("this port's DMA has no busy bit")


class Rp2Hal(IrFaces):
    """Hardware access for one tile; create it once at boot."""

    pass_ms = 20  # a loop pass every 20 ms, as the simulator's tiles run
    share_pass_ms = 4  # while sharing: the RX rings (44 ms of traffic each) read far sooner
    sleep_pass_ms = 100  # asleep: a slower loop (the DMA keeps every frame meanwhile)
    listen_pass_ms = 2  # woken from deep sleep, listening: a knock is taken within 2 ms

    def __init__(self):
        links = make_links(board, RING_BITS, RX_COUNT)
        super().__init__(links)
        self._counts = array("I", [DMA_TRANS_COUNT + 0x40 * link.rx.channel for link in links])
        self._rings = array("I", [uctypes.addressof(link.ring) for link in links])
        rows = []  # hal/ir_send.py's table; each face's count is set when its value is encoded
        for link in links:
            rows += [
                DMA_CHANNEL + 0x40 * link.tx.channel,
                PIO_FSTAT[link.sm_id >> 2],
                1 << (FSTAT_TXEMPTY + (link.sm_id & 3)),
                link.words_at,
                0,
            ]
        self._tx_table = array("I", rows + [_busy_bit()])
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
        self._vbus = machine.Pin(board.VBUS_SENSE_PIN, machine.Pin.IN)
        self._wake_pins = (board.BUTTON_PIN,) + tuple(board.IR_RX_PINS)
        self.deep_sleeps = 0
        self.sleep_log = SleepLog()  # each wake from DORMANT, for `blinks diag --sleep-log`
        self._store = None

    def receive_values(self, pairs) -> int:
        """IrFaces.receive_values in viper (hal/ir_values.py): the pass's common case."""
        self.forget_cut_frames()
        # viper takes any buffer where a pointer type is declared; the stubs see only ptr types
        return take_values(self._counts, self._rings, self.reads, self.receiving, pairs)  # type: ignore[arg-type]

    def send_frames(self, face: int, frames) -> int:
        """IrFaces.send_frames with the viper encoder (hal/ir_encode.py), loaded with the first
        window of bulk frames: only a tile that shares a build pays its heap."""
        if self.encode_words is encode_words:
            from hal.ir_encode import encode_words as encode_in_viper

            self.encode_words = encode_in_viper
        return super().send_frames(face, frames)

    def send_values(self, values, mask: int) -> int:
        """Hal.send_values in viper (hal/ir_send.py). A face whose buffer holds another frame
        is sent its value the Python way, which encodes it once for the passes after."""
        sent = send_values(self._tx_table, values, self.tx_value, self.receiving, mask)  # type: ignore[arg-type]
        if sent >> 8:
            for face in range(FACE_COUNT):
                if sent >> (8 + face) & 1 and self.send_frame(face, VALUE_FRAME[values[face]]):
                    self.tx_value[face] = values[face]
                    self._tx_table[5 * face + 4] = self._links[face].count
                    sent |= 1 << face
        return sent & 0x3F

    def _on_edge(self, pin):
        # Soft IRQ: record (raw ticks, down); the pin reads 0 while the button is held.
        if len(self._edges) >= EDGE_QUEUE:
            self._edges.pop(0)
        self._edges.append((time.ticks_ms(), pin.value() == 0))

    @micropython.native
    def millis(self) -> int:
        # ticks_ms wraps after 2**30 ms (12.4 days); the runtime wants a clock that never wraps
        # frames read from now on arrived in this pass: the DMA keeps no arrival times (rx_ms)
        now = time.ticks_ms()
        ms = self._ms + time.ticks_diff(now, self._last_ticks)
        self._last_ticks = now
        self._ms = self.rx_ms = ms
        return ms

    @micropython.native
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

    @micropython.native
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

    def can_deep_sleep(self) -> bool:
        """On battery (no USB power) and on an RP2040 (hal/dormant.py)."""
        return not self._vbus.value() and dormant.supported()

    def deep_sleep(self) -> str:
        """Pixels off, then DORMANT until the button or a face sees a falling edge, or USB is
        plugged in. Returns what woke it: "usb", "light" (a face: the runtime listens for a
        neighbour's knock, the frame whose light woke it being lost) or "button" (the pin IRQ
        has recorded the edge for the runtime)."""
        self._pixel_pin.value(0)  # nothing drives the first pixel's input while its rail is off
        self._pixel_power.value(0)
        self.serial_log.flush(100)
        self.sleep_log.slept(self.millis())
        woke = dormant.sleep_until_edge(self._wake_pins, (board.VBUS_SENSE_PIN,))
        self.deep_sleeps += 1
        if board.VBUS_SENSE_PIN in woke:
            source = "usb"
        elif woke and board.BUTTON_PIN not in woke:
            source = "light"
        else:
            source = "button"
        self._pixel_power.value(1)
        for face in range(FACE_COUNT):
            self._shown[face] = -1  # the pixels lost their colours with their rail: send all
        self.sleep_log.woke(source, self.millis())
        return source

    def woke_for_good(self, now: int) -> None:
        """After a deep sleep, the tile is up: its game woke, or USB power keeps it out of
        DORMANT. The sleep log's records go to flash now (hal/sleep_log.py)."""
        self.sleep_log.up(now)

    def entropy(self) -> int:
        return int.from_bytes(os.urandom(4), "little")

    def serial_number(self) -> bytes:
        uid = machine.unique_id()
        return bytes(uid[:8]) + bytes(8 - len(uid[:8]))

    def load(self):
        return read_file(STATE_FILE)

    def save(self, data) -> None:
        write_atomic(STATE_FILE, data)

    def build_store(self):
        """The builds in this tile's flash files (hal/build_store.py), for sharing."""
        store = self._store
        if store is None:
            from hal.build_store import FileStore

            store = self._store = FileStore(before_restart=self._flush_log)
        return store

    def _flush_log(self):
        """The share's last lines out before a restart cuts them: the queue, then 50 ms for
        the USB to send what it holds (a reset dropped half a line, glued to the next boot's)."""
        self.serial_log.flush(300)
        time.sleep_ms(50)

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
