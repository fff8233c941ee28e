"""Frames on an infrared face link: how the runtime's frames are delimited on the air.

A frame goes on the air as BOF, its bytes, EOF (IrDA SIR's asynchronous framing, IrLAP 10.1):
a byte equal to BOF, EOF or ESC is sent as ESC then the byte XOR 0x20, so BOF and EOF only
ever mark the ends. A receiver that loses or garbles a byte loses that frame only: the next
BOF starts the next frame whatever came before. The bytes inside are checked by the runtime
(parity, CRC), not here.

After its EOF the transmitter is fed DARK_BYTES byte times of no light at all (not even a start
pulse): the face stays in its sending loop meanwhile, not listening, while its receiver recovers
from its own light (hal/ir_phy.py sizes it). They carry nothing and no receiver sees them.

Pure Python with no hardware import: the rp2 HAL encodes and reads frames with it, the
simulator's link model takes a frame's time on the air from `wire_length`, and the host tests
run it against the PIO emulators. Nothing here allocates once built, so a tile's loop pass
stays allocation-free.
"""

BOF = 0xC0
EOF = 0xC1
ESC = 0x7D
ESC_XOR = 0x20
MAX_FRAME = 32  # bytes inside a frame; longer ones are dropped as noise
MAX_WIRE = 2 + 2 * MAX_FRAME  # BOF, every byte escaped, EOF
DARK_BYTES = 7  # byte times of darkness after EOF: 608 us of deafness at 115.2 kbit/s
MAX_WORDS = MAX_WIRE + DARK_BYTES  # the transmitter's halfwords of the longest frame
BITS_PER_BYTE = 10  # start bit, 8 data bits, stop bit


def _build_special():
    table = bytearray(256)
    table[BOF] = table[EOF] = table[ESC] = 1
    return bytes(table)


SPECIAL = _build_special()  # SPECIAL[b] == 1 when b must be escaped


def wire_length(data) -> int:
    """Bytes the frame takes on the air (BOF, escapes and EOF included)."""
    n = 2 + len(data)
    for b in data:
        n += SPECIAL[b]
    return n


def wire_bytes(data) -> bytes:
    """The frame as it goes on the air."""
    if not 0 < len(data) <= MAX_FRAME:
        raise ValueError(f"an IR frame holds 1 to {MAX_FRAME} bytes")
    out = bytearray((BOF,))
    for b in data:
        if SPECIAL[b]:
            out.append(ESC)
            b ^= ESC_XOR
        out.append(b)
    out.append(EOF)
    return bytes(out)


def tx_word(b: int) -> int:
    """The PIO transmitter's halfword for one byte on the air: bit 0 the start pulse, bits 1-8
    the data bits inverted (an IrDA 0 bit is the one with a pulse)."""
    return 1 | (~b & 0xFF) << 1


def encode_words(data, out) -> int:
    """Put the frame's transmitter halfwords into `out` (an array('H') of MAX_WORDS entries),
    the dark bytes included; returns how many. Raises ValueError for an empty or oversized
    frame."""
    n = len(data)
    if not 0 < n <= MAX_FRAME:
        raise ValueError(f"an IR frame holds 1 to {MAX_FRAME} bytes")
    out[0] = 1 | (~BOF & 0xFF) << 1
    i = 1
    for b in data:
        if SPECIAL[b]:
            out[i] = 1 | (~ESC & 0xFF) << 1
            i += 1
            b ^= ESC_XOR
        out[i] = 1 | (~b & 0xFF) << 1
        i += 1
    out[i] = 1 | (~EOF & 0xFF) << 1
    for k in range(i + 1, i + 1 + DARK_BYTES):
        out[k] = 0  # no start pulse, no data pulse: a byte time of darkness
    return i + 1 + DARK_BYTES


class FrameReader:
    """Turns the bytes heard on one face back into frames.

    `read` takes bytes from a ring buffer and stops after each whole frame, leaving it in
    `frame[:length]`; `length` is 0 while no frame is complete. `receiving` is True while a
    frame has begun and not yet ended (the face is busy). `dropped` counts frames cut short
    (a new BOF before EOF) or too long."""

    def __init__(self):
        self.frame = bytearray(MAX_FRAME)
        self.dropped = 0
        self.reset()

    def reset(self):
        """Forget any frame under way: wait for the next BOF."""
        self.length = 0
        self.receiving = False
        self._n = -1  # bytes of the frame so far; -1 while waiting for a BOF
        self._escaped = False

    def read(self, ring, pos: int, end: int, mask: int) -> int:
        """Read ring[pos & mask] onwards up to `end` (exclusive); returns the next position."""
        self.length = 0
        frame = self.frame
        n = self._n
        escaped = self._escaped
        while pos != end:
            b = ring[pos & mask]
            pos += 1
            if b == BOF:
                if n > 0:
                    self.dropped += 1
                n = 0
                escaped = False
            elif n < 0:
                continue  # noise between frames
            elif b == EOF:
                if n:
                    self.length = n
                    n = -1
                    break
                n = -1
            elif b == ESC:
                escaped = True
            elif n == MAX_FRAME:
                self.dropped += 1
                n = -1
            else:
                if escaped:
                    b ^= ESC_XOR
                    escaped = False
                frame[n] = b
                n += 1
        self._n = n
        self._escaped = escaped
        self.receiving = n >= 0
        return pos
