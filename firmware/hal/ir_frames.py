"""Frames on an infrared face link: a length byte, then the frame's bytes.

The PIO machines move bytes; this groups them back into frames. A byte that arrives more than
`gap_ms` after the previous one starts over (the rest of the old frame was lost); a length of 0
is not a frame. Corrupted frames still come out whole: the runtime checks their parity and sums.
Pure Python, so the host tests run it against the PIO emulator's output.
"""

MAX_FRAME = 32


def encode(data) -> bytes:
    if not 0 < len(data) <= MAX_FRAME:
        raise ValueError(f"an IR frame holds 1 to {MAX_FRAME} bytes")
    return bytes((len(data),)) + bytes(data)


def complement(data) -> bytes:
    """An inverted UART inverts the data bits too; PIO links send a 1 as light: flip them back."""
    return bytes(b ^ 0xFF for b in data)


class FrameAssembler:
    def __init__(self, gap_ms: int):
        self.gap_ms = gap_ms
        self._partial = b""
        self._last_ms = 0

    def feed(self, byte: int, now: int):
        """Take one received byte at time `now` (ms); returns a whole frame or None."""
        if self._partial and now - self._last_ms > self.gap_ms:
            self._partial = b""
        self._last_ms = now
        if not self._partial and not 0 < byte <= MAX_FRAME:
            return None  # not a length: noise between frames
        self._partial += bytes((byte,))
        if len(self._partial) == self._partial[0] + 1:
            frame, self._partial = self._partial[1:], b""
            return frame
        return None
