"""Per-face link state: values with expiry, ping-pong and probes, acknowledged datagrams.

Timing (the reference platform's): a face replies to a valid frame at the end of the next pass
(ping-pong) and otherwise probes when 150 ms + face index ms passed since its last send. A face
is expired 200 ms after its last valid frame. While a datagram waits for its acknowledgement the
face also resends when 60-187 ms (random each time) passed without anything to reply to, so a
lossy link keeps trying well inside the expiry time; the randomness keeps two faces that both
have data to send from colliding round after round.

Datagrams: one pending outgoing datagram and one unread incoming datagram per face. A new
datagram is delivered (and acknowledged) only when the face's inbox is free, so a slow reader
makes the sender wait instead of losing data. A duplicate (same sender id and seq as the last
delivered) is acknowledged again but not delivered. A pending datagram is dropped when its face
has had no valid frame for 1000 ms (expired for 800 ms): on a lossy link a face can flicker
expired for a moment, and dropping it on the first flicker would lose data the neighbour is still
there to take. The price: a tile put in the place of another within that second may receive a
datagram meant for the one it replaced.

Who is a repeat of whom: each face is its own sender (id = the tile's random id + face index),
since each face numbers its own datagrams; and a face that heard nothing for 5 s forgets the
last (id, seq) it delivered, since the sender gave up on anything unacknowledged after 1 s (a
shorter wait, 1 s, let a link losing 60 % of its frames deliver a resend twice, and a
re-deal was left unsettled). Without either, a neighbour that came back, or turned another face to us, could send the
id and seq we last delivered from it: we acknowledged that new datagram as a repeat without
delivering it, and the sender, acknowledged, forgot it (a Waterfall PULL lost so, seed 15).

Knocks: a face that hears nobody (expired) probes with `hal.knock`, which a tile that sleeps deep
sends twice, the second 9 ms after the first began: a neighbour in DORMANT is woken by the first
and hears the second (runtime/runner.py, LIGHT_LISTEN_MS). Other HALs send it once.

Sleep: a tile falling asleep sends the sleep frame SLEEP_REPEAT times on every face, SLEEP_REPEAT_MS
apart, and then stays silent. A received sleep frame is noted (`sleep_rx_ms`) for the tile to act
on; it is not a sign of life, so it neither refreshes the face nor asks for a reply.

State lives in flat per-face lists, preallocated, so a pass allocates nothing unless a datagram
moves.
"""

try:
    import micropython
except ImportError:  # CPython: plain Python (runtime/native.py)
    from runtime import native as micropython  # type: ignore[no-redef]

from runtime import link

try:  # for mypy's type comments; MicroPython has no typing module
    from typing import Any  # noqa: F401
except ImportError:
    pass

try:
    from micropython import const
except ImportError:  # CPython: plain ints (runtime/native.py)
    from runtime.native import const


# const(): a tile's compiler puts the number where the name is used (a global lookup less)
FACE_COUNT = const(6)
EXPIRE_MS = const(200)
DATAGRAM_DROP_MS = const(1000)
# A face silent this long forgets the datagram it last delivered (see the module's docstring):
# far longer than DATAGRAM_DROP_MS, since on a link that loses 60 % of its frames a second of
# silence comes often enough to deliver a resent datagram twice and upset a deal.
FORGET_DELIVERED_MS = const(5000)
PROBE_MS = const(150)
DATAGRAM_RETRY_MS = const(60)
RETRY_JITTER_MASK = const(127)
SLEEP_REPEAT = const(3)
SLEEP_REPEAT_MS = const(40)
_LONG_AGO = const(-(1 << 20))

_ODD = link.ODD
_CHECK = link.VALUE_CHECK
_VALUE_FRAME = link.VALUE_FRAME
_DATA = link.KIND_DATA
_ACK = link.KIND_ACK
_SLEEP = link.SLEEP_FRAME


class Faces:
    """Link state of the six faces. The tile reads and writes the public lists directly."""

    def __init__(self, my_id: int, seed: int):
        self.my_id = my_id & 0xFF
        self._rng = (seed & 0xFFFF) or 0xACE1
        self.retry_at = [0] * FACE_COUNT  # when a pending datagram is resent if nothing came
        self.value_out = [0] * FACE_COUNT
        self.value_in = [0] * FACE_COUNT
        self.change_seen = [0] * FACE_COUNT  # value last reported by did_value_on_face_change
        self.last_rx = [_LONG_AGO] * FACE_COUNT  # ms of the last valid frame
        self.reply_due = [False] * FACE_COUNT
        self.next_probe = [0] * FACE_COUNT  # when the face probes if nothing else made it send
        # outgoing datagram: seq of the pending one (0: none) and its payload
        self.tx_seq = [0] * FACE_COUNT
        self.tx_payload = [b""] * FACE_COUNT
        self.next_seq = [1] * FACE_COUNT
        # incoming: last delivered (sender id, seq), an ack owed, the unread datagram
        self.rx_id = [-1] * FACE_COUNT
        self.rx_seq = [0] * FACE_COUNT
        self.ack_due = [False] * FACE_COUNT
        self.inbox: list = [None] * FACE_COUNT
        self.flag_rx_ms = _LONG_AGO  # latest arrival of a frame carrying the press flag
        self.sleep_rx_ms = _LONG_AGO  # latest arrival of a sleep frame
        self.noise_rx_ms = _LONG_AGO  # latest arrival of a frame that failed its checks
        self.sleep_left = [0] * FACE_COUNT  # sleep frames still to send on each face
        self.frames_dropped = 0
        self._pairs = bytearray(2 * FACE_COUNT)  # the faces' values, as hal.receive_values gives
        self._pair = bytearray(2)
        self._values = bytearray(FACE_COUNT)  # the plain values a pass sends (hal.send_values)
        # the tile's taker of bulk frames (runtime/bulk.py; None: a tile that cannot share):
        # bulk(face, ms, data, n) -> True when the frame was good
        self.bulk = None  # type: Any

    def expired(self, f: int, now: int) -> bool:
        return now - self.last_rx[f] > EXPIRE_MS

    def last_heard(self) -> int:
        """When the latest valid frame arrived, on any face."""
        return max(self.last_rx)

    def all_expired(self, now: int) -> bool:
        limit = now - EXPIRE_MS
        for t in self.last_rx:
            if t >= limit:
                return False
        return True

    def queue_datagram(self, f: int, payload: bytes) -> None:
        seq = self.next_seq[f]
        self.next_seq[f] = 1 if seq == 15 else seq + 1
        self.tx_seq[f] = seq
        self.tx_payload[f] = payload

    @micropython.native
    def ingest(self, hal, now: int) -> None:
        """Take every frame that arrived since the last pass, in order, face by face. The HAL
        hands the faces' plain values over at once (hal.receive_values), then anything else one
        frame at a time in a buffer of its own (hal.receive_frame): nothing is allocated unless
        a datagram is delivered."""
        tx_seq = self.tx_seq
        last_rx = self.last_rx
        reply_due = self.reply_due
        value_in = self.value_in
        rx_id = self.rx_id
        pairs = self._pairs
        got = hal.receive_values(pairs)  # called, not bound to a local: a bound method allocates
        for f in range(FACE_COUNT):
            if rx_id[f] >= 0 and now - last_rx[f] > FORGET_DELIVERED_MS:
                self._forget_delivered(f)  # before the frames of a new link are taken
            if got >> f & 1:
                b = pairs[2 * f]
                if _CHECK[b & 127] == pairs[2 * f + 1] and _ODD[b] and not tx_seq[f]:
                    # the common case, a plain value frame, inline (see _take)
                    ms = hal.rx_ms
                    last_rx[f] = ms
                    reply_due[f] = True
                    value_in[f] = b & 63
                    if b & 64:
                        self.flag_rx_ms = ms
                else:
                    pair = self._pair
                    pair[0] = b
                    pair[1] = pairs[2 * f + 1]
                    self._take(f, hal.rx_ms, pair, 2)
            if got >> (f + 8) & 1:
                n = hal.receive_frame(f)
                while n:
                    data = hal.rx_frame
                    b = data[0]
                    if n == 2 and _CHECK[b & 127] == data[1] and _ODD[b] and not tx_seq[f]:
                        ms = hal.rx_ms  # as above
                        last_rx[f] = ms
                        reply_due[f] = True
                        value_in[f] = b & 63
                        if b & 64:
                            self.flag_rx_ms = ms
                    else:
                        self._take(f, hal.rx_ms, data, n)
                    n = hal.receive_frame(f) if hal.rx_more else 0
            if tx_seq[f] and now - last_rx[f] > DATAGRAM_DROP_MS:
                self._drop_pending(f)

    @micropython.native
    def _take(self, f: int, ms: int, data, n: int) -> None:
        """One frame of `n` bytes (data[:n]) that is not a plain value frame."""
        if n == 2 and data[0] == _SLEEP[0] and data[1] == _SLEEP[1]:
            self.sleep_rx_ms = max(self.sleep_rx_ms, ms)
            return
        if n == 2 and link.is_value_frame(data, n):
            b = data[0]
        elif n > 2 and link.check_datagram(data, n):
            b = data[1]
        elif n > 2 and self.bulk is not None and self.bulk(f, ms, data, n):
            self.last_rx[f] = ms  # a bulk frame: alive, its value byte taken, no reply owed
            self.value_in[f] = data[1] & 63
            return
        else:
            self.frames_dropped += 1
            self.noise_rx_ms = ms  # no message, but a neighbour's light all the same
            return
        if self.tx_seq[f] and ms - self.last_rx[f] > DATAGRAM_DROP_MS:
            self._drop_pending(f)
        self.last_rx[f] = ms
        self.reply_due[f] = True
        self.value_in[f] = b & 63
        if b & 64:
            self.flag_rx_ms = ms
        if n > 2:
            self._take_datagram(f, data, n)

    def _take_datagram(self, f: int, data, n: int) -> None:
        seqack = data[4]
        pending = self.tx_seq[f]
        if pending and data[3] == (self.my_id + f) & 0xFF and seqack & 15 == pending:
            self.tx_seq[f] = 0
            self.tx_payload[f] = b""
        if data[0] != _DATA:
            return
        sender = data[2]
        seq = seqack >> 4
        if sender == self.rx_id[f] and seq == self.rx_seq[f]:
            self.ack_due[f] = True  # a resend of what we already delivered: ack it again
        elif self.inbox[f] is None:
            self.inbox[f] = bytes(data[link.HEADER : n - link.TRAILER])
            self.rx_id[f] = sender
            self.rx_seq[f] = seq
            self.ack_due[f] = True

    def _forget_delivered(self, f: int) -> None:
        """The face heard nothing for FORGET_DELIVERED_MS: whatever touches it next starts a new
        link, whose datagrams are not repeats of the old one's (the old sender dropped its
        pending datagram by now), and the old one's ack must not clear a new datagram."""
        self.rx_id[f] = -1
        self.rx_seq[f] = 0
        self.ack_due[f] = False

    def _drop_pending(self, f: int) -> None:
        self.tx_seq[f] = 0
        self.tx_payload[f] = b""
        self.ack_due[f] = False

    @micropython.native
    def emit(self, hal, now: int, flag: bool) -> None:
        """End of pass: send on each face that owes a reply, a probe or a datagram resend. The
        faces' plain values go to the HAL in one call (hal.send_values), what it leaves and
        datagrams one frame a call, face by face."""
        fl = 64 if flag else 0
        reply_due = self.reply_due
        next_probe = self.next_probe
        tx_seq = self.tx_seq
        ack_due = self.ack_due
        value_out = self.value_out
        values = self._values
        last_rx = self.last_rx
        due = 0  # the faces owing a frame
        plain = 0  # those of them whose frame is their plain value
        knock = 0  # those of them that hear nobody: their probe is a knock (hal.knock)
        for f in range(FACE_COUNT):
            pending = tx_seq[f]
            if reply_due[f] or now >= next_probe[f] or (pending and now >= self.retry_at[f]):
                due |= 1 << f
                if not (pending or ack_due[f]):
                    values[f] = value_out[f] | fl
                    if now - last_rx[f] > EXPIRE_MS:
                        knock |= 1 << f
                    else:
                        plain |= 1 << f
        if not due:
            return
        sent = hal.send_values(values, plain) if plain else 0
        for f in range(FACE_COUNT):
            if not due >> f & 1:
                continue
            pending = tx_seq[f]
            if knock >> f & 1:
                if not hal.knock(f, _VALUE_FRAME[values[f]]):
                    continue
            elif not sent >> f & 1:
                if plain >> f & 1:
                    frame = _VALUE_FRAME[values[f]]
                else:
                    frame = self._datagram_frame(f, pending, fl)
                if not hal.send_frame(f, frame):
                    continue
            next_probe[f] = now + PROBE_MS + f
            reply_due[f] = False
            ack_due[f] = False
            if pending:
                self.retry_at[f] = now + DATAGRAM_RETRY_MS + (self._jitter() & RETRY_JITTER_MASK)

    def start_sleep(self, now: int) -> None:
        """Falling asleep: the sleep frame goes out on every face, from this pass on."""
        for f in range(FACE_COUNT):
            self.sleep_left[f] = SLEEP_REPEAT
            self.next_probe[f] = now

    def emit_sleep(self, hal, now: int) -> None:
        """A pass while asleep: send the sleep frames still due, and nothing else."""
        left = self.sleep_left
        for f in range(FACE_COUNT):
            if left[f] and now >= self.next_probe[f] and hal.send_frame(f, _SLEEP):
                left[f] -= 1
                self.next_probe[f] = now + SLEEP_REPEAT_MS

    def sleep_sent(self) -> bool:
        """Every face has sent its sleep frames."""
        return self.sleep_left.count(0) == FACE_COUNT

    def wake(self, now: int) -> None:
        """Awake again: stop the sleep frames and probe every face at once."""
        for f in range(FACE_COUNT):
            self.sleep_left[f] = 0
            self.next_probe[f] = now

    def _datagram_frame(self, f: int, pending: int, fl: int):
        return link.encode_datagram(
            _DATA if pending else _ACK,
            link.VALUE_BYTE[self.value_out[f] | fl],
            (self.my_id + f) & 0xFF,  # each face its own sender: each numbers its own datagrams
            max(self.rx_id[f], 0),
            pending,
            self.rx_seq[f],
            self.tx_payload[f],
        )

    def _jitter(self) -> int:
        x = self._rng  # 16-bit xorshift: small ints on every port
        x ^= (x << 7) & 0xFFFF
        x ^= x >> 9
        x ^= (x << 8) & 0xFFFF
        self._rng = x
        return x


def opposite(f: int) -> int:
    """The face on the other side of the tile."""
    return (f + 3) % FACE_COUNT
