"""The six infrared face links of an rp2 tile: one PIO state machine and two DMA channels a face.

Receiving never stalls: a DMA channel paced by the state machine's RX FIFO moves every byte
into a 512-byte ring the moment it is pushed, whatever the CPU is doing (a long pass, a garbage
collection, the LEDs being written with interrupts off). At 115.2 kbit/s a face hears at most
11.5 kB/s, so the ring holds 44 ms of non-stop traffic; the CPU reads it once a pass with the
FrameReader (hal/ir_frames.py). The channel counts down from RX_COUNT: how far it got tells how
many bytes arrived, so a ring the CPU fell behind on is noticed (`overruns`) and skipped, never
misread.

Sending never blocks: a frame is encoded into the face's own buffer of halfwords and a second
DMA channel, paced by the TX FIFO, feeds it to the state machine, which sends it once the line
is quiet (hal/ir_pio.py). `send` refuses (returns False) while the previous frame is still
going out or a frame is arriving: the runtime tries again on a later pass.

Nothing here allocates after the links are built.
"""

from array import array

import machine
import rp2
import uctypes

from hal.ir_frames import MAX_WIRE, FrameReader, encode_words
from hal.ir_pio import CLOCKS_PER_BIT, ir_face

RING_BITS = 9
RING_BYTES = 1 << RING_BITS
RING_MASK = RING_BYTES - 1
RX_COUNT = 0x0FFFFFFF  # transfers before the RX channel must be re-armed (days of traffic);
# below 2**28 so it is a small int on every port, and a plain count on the RP2350 (whose
# TRANS_COUNT keeps its top 4 bits for a mode)


def _dreq_tx(sm_id: int) -> int:
    """DREQ number of a state machine's TX FIFO: PIO0 TX0-3 are 0-3, PIO1 TX0-3 are 8-11; the
    RX FIFOs follow each block's TX ones (4-7, 12-15). Same on the RP2040 and RP2350."""
    return (sm_id >> 2) * 8 + (sm_id & 3)


def aligned_rings(count: int):
    """`count` ring buffers of RING_BYTES, each aligned to its size as DMA ring wrapping needs."""
    block = bytearray(RING_BYTES * (count + 1))
    start = -uctypes.addressof(block) & RING_MASK
    view = memoryview(block)
    return [view[start + i * RING_BYTES : start + (i + 1) * RING_BYTES] for i in range(count)]


class FaceLink:
    """One face: bytes on the air both ways, half-duplex."""

    def __init__(self, sm_id: int, tx_pin: int, rx_pin: int, bit_rate: int, ring):
        tx = machine.Pin(tx_pin, machine.Pin.OUT, value=0)
        rx = machine.Pin(rx_pin, machine.Pin.IN, machine.Pin.PULL_UP)
        self._sm = rp2.StateMachine(
            sm_id,
            ir_face,
            freq=bit_rate * CLOCKS_PER_BIT,
            out_base=tx,
            set_base=tx,
            jmp_pin=rx,
        )
        self._ring = ring
        self._read = 0  # bytes of the ring read so far (a running count, like `_written`)
        self.reader = FrameReader()
        self.overruns = 0
        self._words = array("H", bytes(2 * MAX_WIRE))
        self._sent = None  # type: bytes | None  # the frame last encoded into _words, and its count
        self._count = 0
        dreq = _dreq_tx(sm_id)
        self._rx = rp2.DMA()
        self._rx_ctrl = self._rx.pack_ctrl(
            size=0,
            inc_read=False,
            inc_write=True,
            ring_sel=True,
            ring_size=RING_BITS,
            treq_sel=dreq + 4,
            irq_quiet=True,
        )
        self._tx = rp2.DMA()
        self._tx_ctrl = self._tx.pack_ctrl(
            size=1, inc_read=True, inc_write=False, treq_sel=dreq, irq_quiet=True
        )
        self._arm_rx()
        self._tx.config(write=self._sm, ctrl=self._tx_ctrl)  # fixed; each frame sets read, count
        self._sm.active(1)

    def _arm_rx(self):
        self._rx.config(
            read=self._sm, write=self._ring, count=RX_COUNT, ctrl=self._rx_ctrl, trigger=True
        )
        self._read = 0

    def received(self) -> int:
        """Read what arrived since the last call, up to the end of the next whole frame; returns
        that frame's length (it is in reader.frame), or 0 when no whole frame is left."""
        written = RX_COUNT - self._rx.count  # type: ignore[attr-defined]  # stubs omit DMA.count
        read = self._read
        if written == read:
            return 0
        if written - read > RING_BYTES:
            self.overruns += 1  # the DMA lapped us: what is left in the ring is mixed up
            self._read = written
            self.reader.reset()
            return 0
        reader = self.reader
        self._read = reader.read(self._ring, read, written, RING_MASK)
        if not reader.length and written >= RX_COUNT:
            self._arm_rx()  # the channel ran its count out (after days of traffic): go on
        return reader.length

    def send(self, data) -> bool:
        """Start sending one frame; False while one is still going out or one is arriving."""
        if self._sm.tx_fifo() or self._tx.active() or self.reader.receiving:
            return False
        if data is not self._sent:  # a face value goes out again and again: encoded once
            self._count = encode_words(data, self._words)
            self._sent = data if isinstance(data, bytes) else None  # only bytes cannot change
        self._tx.config(read=self._words, count=self._count, trigger=True)
        return True


def make_links(board) -> list:
    """The six face links the board file describes, face 0..5 on state machines 0..5."""
    rings = aligned_rings(6)
    return [
        FaceLink(
            face, board.IR_TX_PINS[face], board.IR_RX_PINS[face], board.IR_BIT_RATE, rings[face]
        )
        for face in range(6)
    ]
