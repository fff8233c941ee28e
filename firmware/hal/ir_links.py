"""The six infrared face links of an rp2 tile: one PIO state machine and two DMA channels a face.

Receiving never stalls: a DMA channel paced by the state machine's RX FIFO moves every byte
into a 512-byte ring the moment it is pushed, whatever the CPU is doing (a long pass, a garbage
collection, the LEDs being written with interrupts off). At 115.2 kbit/s a face hears at most
11.5 kB/s, so the ring holds 44 ms of non-stop traffic; the CPU reads it once a pass.

Sending never blocks: a frame is encoded into the face's own buffer of halfwords and a second
DMA channel, paced by the TX FIFO, feeds it to the state machine, which sends it once the line
is quiet (hal/ir_pio.py).

This module builds that hardware, a FaceLink a face; hal/ir_faces.py reads and drives it (the
runtime's receive_frame and send_frame) and sets the rings' size and the RX channel's count,
which the caller (hal/rp2_hal.py) passes in: this module imports nothing of ir_faces, whose
type hints import it. Nothing allocates after the links are built.
"""

from array import array

import machine
import rp2
import uctypes

from hal.ir_frames import BULK_WORDS, MAX_WORDS, FrameReader
from hal.ir_pio import CLOCKS_PER_BIT, ir_face


def _dreq_tx(sm_id: int) -> int:
    """DREQ number of a state machine's TX FIFO: PIO0 TX0-3 are 0-3, PIO1 TX0-3 are 8-11; the
    RX FIFOs follow each block's TX ones (4-7, 12-15). Same on the RP2040 and RP2350."""
    return (sm_id >> 2) * 8 + (sm_id & 3)


def aligned_rings(count: int, ring_bits: int):
    """`count` ring buffers of 2**ring_bits bytes, each aligned to its size as DMA ring
    wrapping needs."""
    size = 1 << ring_bits
    block = bytearray(size * (count + 1))
    start = -uctypes.addressof(block) & (size - 1)
    view = memoryview(block)
    return [view[start + i * size : start + (i + 1) * size] for i in range(count)]


class FaceLink:
    """One face's hardware and state: bytes on the air both ways, half-duplex. IrFaces
    (hal/ir_faces.py) reads and writes these fields itself: one Python call a frame."""

    def __init__(
        self,
        sm_id: int,
        tx_pin: int,
        rx_pin: int,
        bit_rate: int,
        ring,
        ring_bits: int,
        rx_count: int,
    ):
        tx = machine.Pin(tx_pin, machine.Pin.OUT, value=0)
        rx = machine.Pin(rx_pin, machine.Pin.IN, machine.Pin.PULL_UP)
        self.sm = rp2.StateMachine(
            sm_id,
            ir_face,
            freq=bit_rate * CLOCKS_PER_BIT,
            out_base=tx,
            set_base=tx,
            jmp_pin=rx,
        )
        self.sm_id = sm_id
        self.ring = ring
        self.rx_count = rx_count  # transfers before the RX channel must be re-armed
        self.reader = FrameReader()
        self.overruns = 0
        self.words = array("H", bytes(2 * MAX_WORDS))
        self.words_at = uctypes.addressof(self.words)
        # the buffer of a window of bulk frames (ir_faces.send_frames), made while the heap is
        # young: from a range, so the array is made at its size with no bytes object first
        self.bulk = array("H", range(BULK_WORDS))  # type: array | None
        self.sent = None  # type: bytes | None  # the frame last encoded into words, and its count
        self.count = 0
        dreq = _dreq_tx(sm_id)
        self.rx = rp2.DMA()
        self._rx_ctrl = self.rx.pack_ctrl(
            size=0,
            inc_read=False,
            inc_write=True,
            ring_sel=True,
            ring_size=ring_bits,
            treq_sel=dreq + 4,
            irq_quiet=True,
        )
        self.tx = rp2.DMA()
        tx_ctrl = self.tx.pack_ctrl(
            size=1, inc_read=True, inc_write=False, treq_sel=dreq, irq_quiet=True
        )
        self.arm_rx()
        self.tx.config(write=self.sm, ctrl=tx_ctrl)  # fixed; each frame sets read, count
        # made once: each read of .registers allocates a view (the stubs omit DMA.registers)
        self.tx_regs = self.tx.registers  # type: ignore[attr-defined]
        self.sm.active(1)

    def arm_rx(self):
        self.rx.config(
            read=self.sm, write=self.ring, count=self.rx_count, ctrl=self._rx_ctrl, trigger=True
        )  # the ring is read from its start again (IrFaces.reads)


def make_links(board, ring_bits: int, rx_count: int) -> list:
    """The six face links the board file describes, face 0..5 on state machines 0..5, each
    with a ring of 2**ring_bits bytes and an RX channel that counts down from rx_count."""
    rings = aligned_rings(6, ring_bits)
    return [
        FaceLink(
            face,
            board.IR_TX_PINS[face],
            board.IR_RX_PINS[face],
            board.IR_BIT_RATE,
            rings[face],
            ring_bits,
            rx_count,
        )
        for face in range(6)
    ]
