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

try:
    import micropython
except ImportError:  # CPython: plain Python (runtime/native.py)
    from runtime import native as micropython  # type: ignore[no-redef]

BOF = 0xC0
EOF = 0xC1
ESC = 0x7D
ESC_XOR = 0x20
MAX_FRAME = 272  # bytes inside a frame (a bulk frame: runtime/bulk.py); longer ones are noise
SEND_FRAME = 32  # the longest frame `send_frame` takes: a value, sleep or datagram frame
MAX_WIRE = 2 + 2 * SEND_FRAME  # BOF, every byte escaped, EOF
DARK_BYTES = 7  # byte times of darkness after EOF: 608 us of deafness at 115.2 kbit/s
MAX_WORDS = MAX_WIRE + DARK_BYTES  # the transmitter's halfwords of the longest such frame
# A window of bulk frames goes out back to back from one buffer of this many halfwords, a face's
# own, made when the tile starts (hal/ir_links.py): four 268-byte frames with their usual few
# escapes fit, so a window of eight goes out in two. Made later, six such blocks of 4.8 kB for
# eight did not fit: a tile's heap mid-game is free in pieces of 3.6 kB at most.
BULK_WORDS = 1200
BITS_PER_BYTE = 10  # start bit, 8 data bits, stop bit
# A knock (IrFaces.knock) is a frame, this many byte times of darkness (8 ms at 115.2 kbit/s),
# and the frame again: longer than a woken neighbour's crystal takes to start (about 6 ms), so
# the second copy finds it awake, listening (runtime/runner.py, LIGHT_LISTEN_MS).
KNOCK_DARK_BYTES = 93


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


def _build_tx_words():
    from array import array

    return array("H", [1 | (~b & 0xFF) << 1 for b in range(256)])


TX_WORD = _build_tx_words()  # TX_WORD[b] == tx_word(b): one lookup a byte when encoding


def check_fits(data, out, at: int) -> None:
    """Raise ValueError for an empty or oversized frame, or one whose words do not fit in `out`
    from `at` (every encoder checks the same way before it writes a word)."""
    n = len(data)
    if not 0 < n <= MAX_FRAME:
        raise ValueError(f"an IR frame holds 1 to {MAX_FRAME} bytes")
    if at + 2 * n + 2 + DARK_BYTES > len(out) and at + wire_length(data) + DARK_BYTES > len(out):
        raise ValueError("the frame does not fit in the transmit buffer")


def encode_words(data, out, at=0) -> int:
    """Put the frame's transmitter halfwords into `out` (an array('H')) from index `at`, the
    dark bytes included; returns the index after them. Raises ValueError for an empty or
    oversized frame, or one that does not fit in `out` (nothing past `at` is then promised)."""
    check_fits(data, out, at)
    words = TX_WORD
    special = SPECIAL
    out[at] = words[BOF]
    i = at + 1
    for b in data:
        if special[b]:
            out[i] = words[ESC]
            i += 1
            b ^= ESC_XOR
        out[i] = words[b]
        i += 1
    out[i] = words[EOF]
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

    @micropython.native
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
