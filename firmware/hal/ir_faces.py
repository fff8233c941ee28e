"""The faces' half of the rp2 HAL: frames out of each face's DMA ring, frames into its TX DMA.

hal/ir_links.py builds each face's hardware (a PIO state machine, two DMA channels, a ring) as
a FaceLink; IrFaces reads and drives those fields itself, and Rp2Hal adds pixels, button and
storage. Why one class and no call per face object: on an RP2040 a Python call costs ~10 us
and an attribute lookup 3-5 us, and a pass with six talking faces takes and sends 12 frames.
So each frame costs one call (`receive_frame`, `send_frame`), and face values, most of the
traffic, are taken from the ring here without the FrameReader's byte loop (hal/ir_frames.py),
which reads every other frame. Pure Python, so the host tests run it on stand-in links.

The RX channel counts down from RX_COUNT: how far it got tells how many bytes arrived, so a
ring the CPU fell behind on is noticed (`overruns`) and skipped, never misread.

`receive_values` takes the face values of all six faces in one call (the runtime's common case:
every neighbour's value frame, a pass). The rp2 HAL replaces it with the same thing in viper
(hal/ir_values.py), which reads the DMA counts and the rings straight from memory: the read
positions (`reads`) and whether a frame is half read (`receiving`) live in arrays for it.
Sending is the same in reverse: the rp2 HAL's `send_values` (hal/ir_send.py) starts every face's
plain value in one viper call, on the words `send_frame` encoded; `tx_value` says which value
each face's words hold.
"""

from array import array

try:
    import micropython
except ImportError:  # CPython: plain Python (runtime/native.py)
    from runtime import native as micropython  # type: ignore[no-redef]

from runtime.hal_contract import Hal

from hal.ir_frames import BOF, BULK_WORDS, EOF, KNOCK_DARK_BYTES, SPECIAL, encode_words

try:
    from uctypes import addressof
except ImportError:  # CPython (host tests): stand-in links hand out fake addresses

    def addressof(obj):  # type: ignore[misc]
        return id(obj) & 0xFFFFFFFF


try:
    from micropython import const
except ImportError:  # CPython: plain ints (runtime/native.py)
    from runtime.native import const


TYPE_CHECKING = False
if TYPE_CHECKING:
    from hal.ir_links import FaceLink

RING_BITS = const(9)
RING_BYTES = const(1 << RING_BITS)
RING_MASK = const(RING_BYTES - 1)
RX_COUNT = const(0x0FFFFFFF)  # transfers before the RX channel must be re-armed (days of traffic);
# below 2**28 so it is a small int on every port, and a plain count on the RP2350 (whose
# TRANS_COUNT keeps its top 4 bits for a mode)
NO_VALUE = const(0xFF)  # tx_value of a face whose words hold no face value
_NONE_RECEIVING = bytes(6)
READ_ADDR = const(0)  # a DMA channel's registers, by word (RP2040 datasheet 2.5.7)
TRANS_COUNT_TRIG = const(7)  # AL1_TRANS_COUNT_TRIG: writing the count starts the channel


class IrFaces(Hal):
    """receive_frame and send_frame over six FaceLinks (hal/ir_links.py has their fields)."""

    def __init__(self, links):
        self._links: list[FaceLink] = links
        self.reads = array("i", [0] * 6)  # bytes of each ring read so far (like the DMA's count)
        self.receiving = bytearray(6)  # 1 while a face's reader is inside a frame
        self._heard = array("i", [0] * 6)  # a receiving face's DMA count at the last pass
        # which face value (runtime/link.VALUE_FRAME's index) each face's words hold, NO_VALUE
        # for another frame: what lets a HAL resend a value without Python (Rp2Hal.send_values)
        self.tx_value = bytearray([NO_VALUE] * 6)
        self.rx_frame = links[0].reader.frame
        self.rx_ms = 0  # the board's clock (Rp2Hal.millis) keeps it: a frame's time is its pass's
        self.rx_more = False
        # a frame's halfwords: ir_frames' Python encoder here, the viper one on a tile (Rp2Hal)
        self.encode_words = encode_words

    def forget_cut_frames(self) -> None:
        """Forget a frame begun on a face whose ring took no byte since the last pass: its tail
        never came (a burst of light lost, a tile pulled away). Inside a frame bytes follow each
        other every 87 us, and passes are milliseconds apart. A face inside a frame does not
        send, so two faces each left inside the other's cut frame waited for ever: a share at
        30 % loss stalled so. Called at the start of receive_values, once a pass."""
        receiving = self.receiving
        if receiving == _NONE_RECEIVING:  # the common case, and no allocation
            return
        for face in range(6):
            if receiving[face]:
                link = self._links[face]
                written = RX_COUNT - link.rx.count  # type: ignore[attr-defined]
                if written == self._heard[face] and written == self.reads[face]:
                    link.reader.dropped += 1
                    link.reader.reset()
                    receiving[face] = 0
                self._heard[face] = written

    def receive_values(self, pairs) -> int:
        """Take each face's next frame when it is a whole plain face value (BOF, 2 bytes, EOF):
        its two bytes go to pairs[2 * face], pairs[2 * face + 1]. Returns bit f for a face whose
        value was taken, bit 8 + f for a face with bytes left for receive_frame."""
        self.forget_cut_frames()
        got = 0
        reads = self.reads
        for face in range(6):
            link = self._links[face]
            written = RX_COUNT - link.rx.count  # type: ignore[attr-defined]
            read = reads[face]
            if written == read:
                continue
            if 4 <= written - read <= RING_BYTES and not self.receiving[face]:
                ring = link.ring
                a = ring[(read + 1) & RING_MASK]
                b = ring[(read + 2) & RING_MASK]
                if (
                    ring[read & RING_MASK] == BOF
                    and ring[(read + 3) & RING_MASK] == EOF
                    and not (SPECIAL[a] or SPECIAL[b])
                ):
                    pairs[2 * face] = a
                    pairs[2 * face + 1] = b
                    read += 4
                    reads[face] = read
                    got |= 1 << face
                    if read != written:
                        got |= 0x100 << face
                    continue
            got |= 0x100 << face
        return got

    @micropython.native
    def receive_frame(self, face: int) -> int:
        """Read what arrived on `face` up to the end of the next whole frame: its length (0: no
        whole frame left), its bytes in rx_frame; rx_more says whether bytes are left after it."""
        link = self._links[face]
        written = RX_COUNT - link.rx.count  # type: ignore[attr-defined]  # stubs omit DMA.count
        reads = self.reads
        read = reads[face]
        if written == read:
            return 0
        reader = link.reader
        if written - read > RING_BYTES:
            link.overruns += 1  # the DMA lapped us: what is left in the ring is mixed up
            reads[face] = written
            reader.reset()
            self.receiving[face] = 0
            return 0
        ring = link.ring
        if (
            written - read >= 4
            and not reader.receiving
            and ring[read & RING_MASK] == BOF
            and ring[(read + 3) & RING_MASK] == EOF
        ):
            # a whole face value of two plain bytes: taken as the reader would take it
            a = ring[(read + 1) & RING_MASK]
            b = ring[(read + 2) & RING_MASK]
            if not (SPECIAL[a] or SPECIAL[b]):
                frame = reader.frame
                frame[0] = a
                frame[1] = b
                reads[face] = read = read + 4
                self.rx_frame = frame
                self.rx_more = read != written
                return 2
        reads[face] = read = reader.read(ring, read, written, RING_MASK)
        self.receiving[face] = reader.receiving
        n = reader.length
        if n:
            self.rx_frame = reader.frame
            self.rx_more = read != written
        elif written >= RX_COUNT:
            link.arm_rx()  # the channel ran its count out (after days of traffic): go on
            reads[face] = 0
        return n

    @micropython.native
    def send_frame(self, face: int, data) -> bool:
        """Start sending one frame; False while one is still going out or one is arriving (the
        state machine waits for a quiet line anyway; the runtime tries again next pass)."""
        link = self._links[face]
        if link.sm.tx_fifo() or link.tx.active() or self.receiving[face]:
            return False
        if data is not link.sent:  # a face value goes out again and again: encoded once
            link.count = self.encode_words(data, link.words)
            link.sent = data if isinstance(data, bytes) else None  # only bytes cannot change
            self.tx_value[face] = NO_VALUE  # the words hold no known face value now
        # what tx.config(read=, count=, trigger=True) does, in a third of the time: the read
        # address back to the frame's start, then the count through the alias that starts it
        regs = link.tx_regs
        regs[READ_ADDR] = link.words_at
        regs[TRANS_COUNT_TRIG] = link.count
        return True

    def send_frames(self, face: int, frames) -> int:
        """A window of frames back to back in one DMA transfer, so the neighbour hears them
        without a turnaround between them (each keeps its dark bytes, shorter than the quiet
        time the neighbour's face waits for before it may answer). Queues as many of `frames`
        as fit in the face's bulk buffer (made on the face's first window) and returns how
        many; 0 while the face is busy, as send_frame."""
        link = self._links[face]
        if link.sm.tx_fifo() or link.tx.active() or link.reader.receiving:
            return 0
        words = link.bulk
        if words is None:
            words = link.bulk = array("H", range(BULK_WORDS))  # (the rp2 links come with one)
        encode = self.encode_words
        end = 0
        queued = 0
        for frame in frames:
            try:
                end = encode(frame, words, end)
            except ValueError:
                if not queued:
                    raise
                break  # the rest goes in the next window
            queued += 1
        if queued:
            regs = link.tx_regs
            regs[READ_ADDR] = addressof(words)
            regs[TRANS_COUNT_TRIG] = end
        return queued

    def knock(self, face: int, data) -> bool:
        """Hal.knock: the frame, KNOCK_DARK_BYTES of darkness, the frame again, in one DMA
        transfer from the face's bulk buffer (a face that hears nobody shares nothing)."""
        link = self._links[face]
        if link.sm.tx_fifo() or link.tx.active() or self.receiving[face]:
            return False
        words = link.bulk
        if words is None:
            words = link.bulk = array("H", range(BULK_WORDS))
        end = self.encode_words(data, words, 0)
        for i in range(end, end + KNOCK_DARK_BYTES):
            words[i] = 0  # a byte time of darkness
        end = self.encode_words(data, words, end + KNOCK_DARK_BYTES)
        regs = link.tx_regs
        regs[READ_ADDR] = addressof(words)
        regs[TRANS_COUNT_TRIG] = end
        return True

    def link_stats(self) -> dict:
        """Frames lost on the air as each face's reader saw them, and ring overruns."""
        return {
            "dropped": [link.reader.dropped for link in self._links],
            "overruns": [link.overruns for link in self._links],
        }
