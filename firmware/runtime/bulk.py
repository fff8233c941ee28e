"""Bulk mode on the faces: large frames checked by a CRC-32, a window of them in flight, resume.

Datagrams (runtime/link.py) carry 16 bytes and wait for an acknowledgement each: a 60 kB build
would take minutes. Bulk mode moves a byte stream over one face at close to the link's rate:

- A bulk frame: kind (one of KINDS), the face's value byte (the link stays alive: no face
  expires during a transfer), a session id (2 bytes), the body, then a CRC-32 (4 bytes, little
  endian) of everything before it. At these lengths (at most MAX_FRAME, 268 bytes) CRC-32
  catches every error of up to 4 flipped bits and all but 2^-32 of the others; a frame that
  fails is dropped and counted (`bad`), and never changes anything.
- The receiver pulls: a REQ names an offset, a block size and a mask of up to WINDOW blocks it
  still lacks; the sender answers with those blocks as DATA frames (offset, bytes) sent back to
  back in one window (`hal.send_frames`), so the turnaround (0.7 ms each way,
  docs/hardware.md) and both tiles' pass latency are paid once a window, not once a frame. The
  REQ for the next window acknowledges this one.
- Lost frames: when no DATA came for a gap of two frame times (plus a pass), the receiver asks
  again for the blocks it lacks, and only those (selective repeat).
- Resume: the sender keeps nothing between REQs, so a receiver asks from wherever its own
  storage says it stopped (after a power cut, a pulled tile, a later share) and is served the
  same way.
- Bit flips: a window in which half the frames or more failed their CRC halves the block size
  (down to MIN_BLOCK: a short frame gets through a noisy link far more often); two clean
  windows in a row double it again, up to BLOCK.

Pure Python over the HAL's `send_frames`: the simulator and a tile run the same code.
"""

import binascii

from runtime import link

try:  # for mypy's type comments; MicroPython has no typing module
    from typing import Any  # noqa: F401
except ImportError:
    pass

try:
    from micropython import const
except ImportError:  # CPython: plain ints (runtime/native.py)
    from runtime.native import const


# Frame kinds. The transfer's own, then those of the sharing protocol (runtime/share.py), which
# rides on the same framing. None is a datagram kind (0xA5, 0x5A).
REQ = const(0xB1)
DATA = const(0xB2)
OFFER = const(0xB3)
ANSWER = const(0xB4)
DONE = const(0xB5)
ACK = const(0xB6)
FIRST_KIND = const(0xB1)
LAST_KIND = const(0xB6)

HEAD = 4  # kind, value byte, session (2 bytes)
CRC = 4
MIN_FRAME = HEAD + CRC
BLOCK = 256  # the largest block a DATA frame carries
MIN_BLOCK = 16
WINDOW = 8  # blocks a REQ may ask for at once: 2 kB in flight at most
DATA_HEAD = HEAD + 4  # ... and the block's offset in the stream
MAX_FRAME = DATA_HEAD + BLOCK + CRC  # 268: within hal/ir_frames.MAX_FRAME
REQ_LEN = HEAD + 7 + CRC  # offset (4), block size (2), mask (1)

# Timing (ms). A byte takes 0.087 ms on the air at 115.2 kbit/s, a frame its bytes plus BOF, EOF,
# a few escapes and 7 dark bytes: FRAME_US_PER_BYTE per byte, FRAME_US_FIXED for the rest.
FRAME_US_PER_BYTE = const(88)
FRAME_US_FIXED = const(1400)
GAP_SLACK_MS = const(40)  # a pass of the receiver, the sender's pass and its encoding
_LONG_AGO = const(-(1 << 20))


def is_kind(b) -> bool:
    return FIRST_KIND <= b <= LAST_KIND


def frame_ms(length: int) -> int:
    """Milliseconds a frame of `length` bytes keeps the face busy (dark bytes included)."""
    return (length * FRAME_US_PER_BYTE + FRAME_US_FIXED) // 1000 + 1


def start(buf, kind: int, value_byte: int, session: int) -> None:
    """Write a bulk frame's head into `buf` (a bytearray the frame's length or longer)."""
    buf[0] = kind
    buf[1] = value_byte
    buf[2] = session >> 8
    buf[3] = session & 0xFF


def seal(buf, n: int):
    """Put the CRC-32 of buf[:n - 4] into its last 4 bytes; returns the frame, buf[:n]."""
    c = binascii.crc32(memoryview(buf)[: n - CRC]) & 0xFFFFFFFF
    buf[n - 4] = c & 0xFF
    buf[n - 3] = c >> 8 & 0xFF
    buf[n - 2] = c >> 16 & 0xFF
    buf[n - 1] = c >> 24
    return memoryview(buf)[:n] if n < len(buf) else buf


def frame(kind: int, value_byte: int, session: int, body=b""):
    """A whole bulk frame (bytearray), for the short frames that are built now and then."""
    n = HEAD + len(body) + CRC
    buf = bytearray(n)
    start(buf, kind, value_byte, session)
    buf[HEAD : HEAD + len(body)] = body
    seal(buf, n)
    return buf


def check(data, n: int) -> bool:
    """True when data[:n] is a well-formed bulk frame: a bulk kind, an odd value byte, its CRC."""
    if n < MIN_FRAME or n > MAX_FRAME or not is_kind(data[0]) or not link.ODD[data[1]]:
        return False
    c = binascii.crc32(memoryview(data)[: n - CRC]) & 0xFFFFFFFF
    return c == data[n - 4] | data[n - 3] << 8 | data[n - 2] << 16 | data[n - 1] << 24


def session_of(data) -> int:
    return data[2] << 8 | data[3]


def u32(data, i: int) -> int:
    return data[i] << 24 | data[i + 1] << 16 | data[i + 2] << 8 | data[i + 3]


def put32(buf, i: int, v: int) -> None:
    buf[i] = v >> 24 & 0xFF
    buf[i + 1] = v >> 16 & 0xFF
    buf[i + 2] = v >> 8 & 0xFF
    buf[i + 3] = v & 0xFF


class Server:
    """Serves REQs for one stream (`source.read(offset, view)` fills `view` from the stream)
    on any face. Stateless between REQs, so resuming costs nothing: what is asked is sent."""

    def __init__(self, hal, source, size: int, session: int):
        self.hal = hal
        self.source = source
        self.size = size
        self.session = session
        self.asked = [None] * 6  # type: list  # per face: the REQ (offset, size, mask) answered
        self.frames = [None] * 6  # type: list  # per face: WINDOW frame buffers, made on its first REQ
        # per face: the frames of its last REQ made and not yet taken by the HAL; made once a
        # REQ (a window goes out in parts as the face frees up, and reading its blocks again for
        # each part cost the sender more than the air)
        self.ready = [None] * 6  # type: list
        self.sent = [0] * 6  # DATA bytes sent, per face
        self.high = [0] * 6  # the furthest offset a face asked for: its receiver's progress

    def take_req(self, f: int, data, n: int) -> None:
        if n != REQ_LEN or session_of(data) != self.session:
            return
        offset = u32(data, HEAD)
        size = data[HEAD + 4] << 8 | data[HEAD + 5]
        mask = data[HEAD + 6]
        if offset >= self.size or size < MIN_BLOCK or size > BLOCK or not mask:
            return  # not a request this stream can answer: ignored
        self.asked[f] = (offset, size, mask)
        self.ready[f] = None  # made afresh for this REQ
        self.high[f] = max(self.high[f], offset)

    def busy(self) -> bool:
        return self.asked.count(None) != 6

    def pump(self, f: int, value_byte: int) -> None:
        """Send what face f was asked for, as much as the HAL takes now (the rest later)."""
        asked = self.asked[f]
        if asked is None:
            return
        out = self.ready[f]
        if out is None:
            out = self._make(f, asked, value_byte)
        if not out:
            self.asked[f] = None
            return
        sent = self.hal.send_frames(f, out)
        if not sent:
            return  # the face is busy: the same frames next time
        for k in range(sent):
            self.sent[f] += len(out[k]) - DATA_HEAD - CRC
        del out[:sent]
        if not out:
            self.asked[f] = None  # the whole REQ is on its way

    def _make(self, f: int, asked, value_byte: int) -> list:
        """The DATA frames face f's REQ asks for, read from the stream and sealed."""
        offset, size, mask = asked
        bufs = self.frames[f]
        if bufs is None:
            bufs = self.frames[f] = [bytearray(MAX_FRAME) for _ in range(WINDOW)]
        out = []  # type: list
        self.ready[f] = out
        for i in range(WINDOW):
            if not mask >> i & 1:
                continue
            at = offset + i * size
            if at >= self.size:
                continue  # past the end: nothing to send
            length = min(size, self.size - at)
            buf = bufs[len(out)]
            start(buf, DATA, value_byte, self.session)
            put32(buf, HEAD, at)
            self.source.read(at, memoryview(buf)[DATA_HEAD : DATA_HEAD + length])
            out.append(seal(buf, DATA_HEAD + length + CRC))
        return out


class Puller:
    """Pulls ranges of a stream from the neighbour on one face, window by window, and hands each
    whole window, in order, to `sink.write(offset, view)` when the owner calls `flush` (after
    `poll`, so the next window's REQ is out first). `pull(start, end)` sets the range; `poll(now,
    value_byte)` asks for what is missing when it is due; `take(data, n, now)` takes a DATA
    frame. `bad` is bumped by the owner for each frame on the face that failed its CRC."""

    def __init__(self, hal, face: int, session: int, sink):
        self.hal = hal
        self.face = face
        self.session = session
        self.sink = sink
        self.block = BLOCK
        self.buf = bytearray(WINDOW * BLOCK)
        self.spare = bytearray(WINDOW * BLOCK)  # the last window, until `flush` writes it
        self.pending = None  # type: Any  # (offset, length) of what waits in `spare`
        self.pos = 0  # the current window starts here
        self.end = 0  # the range ends here
        self.count = 0  # blocks in the current window
        self.have = 0  # mask of the window's blocks that arrived
        self.asked_at = _LONG_AGO  # last REQ sent
        self.heard_at = _LONG_AGO  # last DATA frame taken
        self.bad = 0  # CRC failures on the face (the owner counts them)
        self._bad_seen = 0
        self._clean = 0
        self.received = 0  # payload bytes taken off the air (duplicates included)
        self.requests = 0
        self.req = bytearray(REQ_LEN)

    def pull(self, start: int, end: int) -> None:
        self.pos = start
        self.end = end
        self._window()

    def done(self) -> bool:
        return self.pos >= self.end and self.pending is None

    def _window(self) -> None:
        span = self.end - self.pos
        size = self.block
        self.count = min(WINDOW, (span + size - 1) // size) if span > 0 else 0
        self.have = 0
        self.asked_at = _LONG_AGO
        self._bad_seen = self.bad

    def take(self, data, n: int, now: int) -> None:
        if self.count == 0 or session_of(data) != self.session:
            return
        # any DATA of ours says the sender is busy with us: an earlier window's repeat still
        # going out holds our REQ back (the faces wait for a quiet line), so no gap is counted
        self.heard_at = now
        at = u32(data, HEAD)
        length = n - DATA_HEAD - CRC
        rel = at - self.pos
        size = self.block
        if rel < 0 or rel % size:
            return  # from another window, or another block size: not ours any more
        i = rel // size
        want = min(size, self.end - at)  # a range's last block may be the stream's longer one
        if i >= self.count or length < want or length > size or self.have >> i & 1:
            return
        length = want
        self.buf[rel : rel + length] = memoryview(data)[DATA_HEAD : DATA_HEAD + length]
        self.have |= 1 << i
        self.received += length
        if self.have == (1 << self.count) - 1:
            self._complete()

    def _complete(self) -> None:
        size = self.block
        total = min(self.count * size, self.end - self.pos)
        pos = self.pos
        # how clean the link was over this window sets the next one's block size
        if (self.bad - self._bad_seen) * 2 >= self.count and size > MIN_BLOCK:
            self.block = size // 2
            self._clean = 0
        elif self.bad == self._bad_seen:
            self._clean += 1
            if self._clean >= 2 and size < BLOCK:
                self.block = size * 2
                self._clean = 0
        self.pos = pos + total
        # the window waits in the spare buffer for `flush`, after the next REQ went out: the
        # sender answers while this tile writes (an erase of the flash takes ~45 ms)
        self.flush()  # (the one before, if the owner did not flush it yet)
        self.buf, self.spare = self.spare, self.buf
        self.pending = (pos, total)
        self._window()

    def flush(self) -> None:
        """Hand the window that completed (if one did) to the sink."""
        pending = self.pending
        if pending is not None:
            self.pending = None
            pos, total = pending
            self.sink.write(pos, memoryview(self.spare)[:total])

    def missing(self) -> int:
        return ((1 << self.count) - 1) & ~self.have

    def poll(self, now: int, value_byte: int) -> bool:
        """Send a REQ for the blocks still missing when one is due; True when one went out."""
        if self.count == 0:
            return False
        quiet = now - max(self.asked_at, self.heard_at)
        if (
            self.asked_at > _LONG_AGO
            and quiet <= 2 * frame_ms(DATA_HEAD + self.block + CRC) + GAP_SLACK_MS
        ):
            return False
        if (
            (self.bad - self._bad_seen) * 2 >= self.count
            and self.block > MIN_BLOCK
            and not self.have
        ):
            self.block //= 2  # nothing got through clean: smaller blocks from here
            self._window()
        req = self.req
        start(req, REQ, value_byte, self.session)
        put32(req, HEAD, self.pos)
        req[HEAD + 4] = self.block >> 8
        req[HEAD + 5] = self.block & 0xFF
        req[HEAD + 6] = self.missing()
        seal(req, REQ_LEN)
        if self.hal.send_frames(self.face, (req,)):
            # the gap counts from now, not from the pass's start: the pass may have spent tens
            # of ms writing the last window to flash (an erase), and a gap counted from before
            # that would ask again at once, and the sender would start the window over
            self.asked_at = self.hal.millis()
            self.requests += 1
            return True
        return False
