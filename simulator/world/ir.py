"""The infrared link model between paired faces, built on the board's physical layer.

Time on air is the board's (hal/ir_phy.py): a frame goes on the air framed as the rp2 HAL frames
it (BOF, escapes, EOF: hal/ir_frames.py), 10 bits a byte, at the board's bit rate (115.2 kbit/s
IrDA SIR) unless `bit_rate` says otherwise, rounded up to whole ms. So a 16-byte datagram takes
3 ms and a face value 1 ms at the board's rate; at 4,000 bit/s (the rate the deal benchmarks
are stated at) 63 ms and 8 ms. The board's carrier-sense wait and its deaf time after sending
(about 40 us together) are inside that rounding. A face is half-duplex:
a frame arriving while the face transmits, at any moment of its time on air, is lost. A face
senses the carrier: it does not start a frame while one is arriving (`send_frame` returns False,
as when it is still transmitting), so the two ends of a link rarely talk over each other. A lost
frame is one that arrives garbled beyond recognition: the receiving face still sees its carrier. Each frame
is lost with probability `loss`, and each bit of a frame that gets through flips with probability
`bit_flip`. All randomness comes from one seeded generator, drawn in the world's fixed pass order,
so a run is reproducible bit for bit.
"""

import math

from hal.ir_frames import BITS_PER_BYTE, BOF, DARK_BYTES, EOF, ESC
from hal.ir_phy import BIT_RATE


class IrModel:
    def __init__(
        self, world, rng, loss: float = 0.0, bit_flip: float = 0.0, bit_rate: int = BIT_RATE
    ):
        if not 0.0 <= loss <= 1.0 or not 0.0 <= bit_flip <= 1.0:
            raise ValueError("loss and bit_flip are probabilities in 0..1")
        if bit_rate <= 0:
            raise ValueError("bit_rate must be positive")
        self.world = world
        self.rng = rng
        self.loss = loss
        self.bit_flip = bit_flip
        self.bit_rate = bit_rate
        self._air = [self.airtime(n) for n in range(80)]
        # a frame's time by its length alone, where its escapes cannot change the whole ms
        # (every frame of a face value or shorter at the board's rate): None where they can
        self._air_of_len = [
            self._air[2 + n] if self._air[2 + n] == self._air[2 + 2 * n] else None
            for n in range(len(self._air) // 2 - 1)  # every length whose escapes stay in _air
        ]
        self.sent = 0
        self.delivered = 0
        self.lost = 0  # random loss
        self.collided = 0  # half-duplex: the receiving face was transmitting
        self.flipped = 0  # frames that got at least one bit flipped
        self.trace = None  # a list to record (ms, tile, face, data, outcome) for inspection

    def airtime(self, wire_bytes: int) -> int:
        """Whole ms that `wire_bytes` bytes on the air take (framing included)."""
        return max(1, math.ceil(wire_bytes * BITS_PER_BYTE * 1000 / self.bit_rate))

    def frame_airtime(self, data) -> int:
        """Whole ms a frame takes on the air, as hal/ir_frames.wire_length counts its bytes."""
        if len(data) < len(self._air_of_len):
            ms = self._air_of_len[len(data)]
            if ms is not None:
                return ms
        n = 2 + len(data) + data.count(BOF) + data.count(EOF) + data.count(ESC)
        return self._air[n] if n < 80 else self.airtime(n)

    def transmit(self, hal, face: int, data) -> bool:
        """Start a frame on a face of `hal`; False if that face is busy (still transmitting, or
        receiving a frame)."""
        now = self.world.now
        if hal.tx_until[face] > now or hal.rx_until[face] > now:  # busy, or carrier sensed
            return False
        end = now + self.frame_airtime(data)
        hal.tx_until[face] = end
        self.sent += 1
        peer = hal.peers[face]
        if peer is None:
            outcome = "void"
        else:
            other, of = peer
            if other.rx_until[of] < end:  # noqa: PLR1730 -- plain compare is faster than max()
                other.rx_until[of] = end
            if other.tx_until[of] > now:
                self.collided += 1
                outcome = "collided"
            elif self.loss and self.rng.random() < self.loss:
                self.lost += 1
                outcome = "lost"
            else:
                if self.bit_flip:
                    data = self._flip(data)
                other.inbox[of].append((end, data))
                self.delivered += 1
                outcome = "delivered"
        if self.trace is not None:
            self.trace.append((now, hal.tile_id, face, bytes(data), outcome))
        return True

    def transmit_train(self, hal, face: int, frames) -> int:
        """Frames sent back to back on a face (`Hal.send_frames`: a window of bulk frames), each
        followed by its dark bytes as on the board; each arrives when its last byte does, and
        is lost or flipped on its own. Returns how many went (all, or 0 while the face is
        busy)."""
        now = self.world.now
        if hal.tx_until[face] > now or hal.rx_until[face] > now:
            return 0
        byte_ms = BITS_PER_BYTE * 1000 / self.bit_rate
        peer = hal.peers[face]
        t = float(now)
        for data in frames:
            data = bytes(data)
            light_end = t + (2 + len(data) + sum(data.count(b) for b in (BOF, EOF, ESC))) * byte_ms
            arrives = math.ceil(light_end)
            self.sent += 1
            if peer is None:
                outcome = "void"
            else:
                other, of = peer
                if other.tx_until[of] > t:
                    self.collided += 1
                    outcome = "collided"
                elif self.loss and self.rng.random() < self.loss:
                    self.lost += 1
                    outcome = "lost"
                else:
                    if self.bit_flip:
                        data = self._flip(data)
                    other.inbox[of].append((arrives, data))
                    self.delivered += 1
                    outcome = "delivered"
            if self.trace is not None:
                self.trace.append((now, hal.tile_id, face, data, outcome))
            t = light_end + DARK_BYTES * byte_ms
        end = math.ceil(t)
        hal.tx_until[face] = end
        if peer is not None:
            other, of = peer
            other.rx_until[of] = max(other.rx_until[of], end)
        return len(frames)

    def _flip(self, data):
        p = self.bit_flip
        nbits = len(data) * 8
        if p >= 1.0:
            return bytes(b ^ 0xFF for b in data)
        rng = self.rng
        log1p = math.log(1.0 - p)
        pos = int(math.log(1.0 - rng.random()) / log1p)
        if pos >= nbits:
            return data
        out = bytearray(data)
        while pos < nbits:
            out[pos >> 3] ^= 1 << (pos & 7)
            pos += 1 + int(math.log(1.0 - rng.random()) / log1p)
        self.flipped += 1
        return bytes(out)
