"""A sharing tile as a parent in the share's tree (runtime/share.py tells the whole protocol): it
OFFERs the build on its other faces, polls the children that answer, counts the DONEs of their
subtrees, and reports its own subtree up (a relay) or the outcome (the root). Share extends
Tree with the tile's own part: starting, answering its parent, receiving, and the pass.

Here too are the share's words, which both parts use: the answers, the failure reasons and
their text, the roles, a child face's states and the timings.
"""

from runtime import bulk, link

try:  # for mypy's type comments; MicroPython has no typing module
    from typing import Any  # noqa: F401
except ImportError:
    pass

try:
    from micropython import const
except ImportError:  # CPython: plain ints (runtime/native.py)
    from runtime.native import const


# answers
WANT = const(1)
HAVE = const(2)
REFUSE = const(3)
NOTCHILD = const(4)
GOT = const(5)  # received and switched: back after a restart

# why a tile did not get the build (REFUSE and DONE carry them)
R_SETTING = 1
R_MPY = 2
R_OLD = 3
R_ROOM = 4
R_BUSY = 5
R_MANIFEST = 6
R_HASH = 7
R_STORAGE = 8
R_LOST = 9
R_SILENT = 10
R_STALLED = 11

# roles
NONE = const(0)
ROOT = const(1)
RELAY = const(2)  # holds the build, offers it on its other faces
RECEIVE = const(3)
CONFIRM = const(4)  # restarted into the new build: waits for its parent to poll

# a child face's state, as its parent sees it
K_IDLE = const(0)  # not looked at yet
K_OFFER = const(1)  # offered, no answer yet
K_WANT = const(2)  # pulling
K_HAVE = const(3)  # holds it (or switched and restarting): its subtree is under way
K_DONE = const(4)  # its subtree reported
K_GONE = const(5)  # not ours: refused, failed, lost, or in the share through another face
K_EMPTY = const(6)  # nobody there

HEARD_MS = 200  # a face heard this recently has a neighbour
ABSENT_MS = 1200  # a face not heard this long after the share reached us is empty
OFFER_MS = 100  # between OFFERs to a face that has not answered (+ up to 63 ms of jitter)
POLL_MS = 400  # a child that said nothing this long is asked again
ANSWER_MS = 8000  # a heard face that never answers: a tile that does not share
BUSY_MS = 30000  # a tile busy with another share is offered ours this long (it may be ending)
LOST_MS = 20000  # a child silent this long is lost (a restart takes a few seconds)
STALL_MS = 15000  # a receiver that got no data this long while its parent talks gives up
CONFIRM_MS = 10000
DONE_MS = 150  # a DONE is sent again this often until its ACK
SEED_MS = 30000  # the gesture's root offers to any tile touched to it for this long
SWITCH_MS = 120  # after the switch, time for the GOT to leave before the restart
PROGRESS_LOG_MS = 1000
SHOW_MS = 100
MAX_REPORTED = 8  # failures a DONE names (more are counted)

_TEXT = {
    R_SETTING: "set to refuse shares",
    R_MPY: "loads other .mpy files",
    R_OLD: "its MicroPython is too old",
    R_ROOM: "no room for the build",
    R_BUSY: "busy with another share",
    R_MANIFEST: "the build's manifest came garbled",
    R_HASH: "a file failed its hash 3 times",
    R_STORAGE: "a storage error",
    R_LOST: "lost",
    R_SILENT: "no answer (a tile that does not share?)",
    R_STALLED: "the transfer stalled",
}


def reason_text(reason, detail):
    """Words for a failure, with its detail (runtime/share.py's codes)."""
    text = _TEXT.get(reason, f"failed ({reason})")
    if reason == R_MPY:
        text += f" (.mpy v{detail >> 8} here, the build's v{detail & 0xFF})"
    elif reason == R_OLD:
        text += f" ({detail >> 16}.{detail >> 8 & 0xFF}.{detail & 0xFF})"
    elif reason == R_ROOM:
        text += f" ({detail} bytes free)"
    elif reason == R_LOST:
        text += f" at {detail}%"
    elif reason == R_STORAGE and detail:
        text += f" (errno {detail})"
    return text


def hexs(data):
    return "".join(f"{b:02x}" for b in data)


class Tree:
    """The parent's part of a Share, and the state both parts read: the share this tile is in
    (`role`, `session`, `build`, `parent`), its child faces (`kid`, `kid_since`, `kid_said`,
    `kid_serial`, `kid_done`, `next_offer`, `logged`), what their subtrees hold (`held`,
    `failed`, `failures`, `counted`) and the control frames waiting to go out (`ctl`)."""

    def __init__(self, tile, hal, faces, store):
        self.tile = tile
        self.hal = hal
        self.faces = faces
        self.store = store
        self.role = NONE
        self.session = 0
        self.build = None  # type: Any
        self.parent = -1
        self.started = 0
        self.seed = False
        self.source = None  # type: Any
        self.kid = [K_IDLE] * 6
        self.kid_since = [0] * 6
        self.kid_said = [0] * 6  # when the child last answered
        self.kid_serial = [b""] * 6
        self.kid_done = [0] * 6  # bytes the child holds, as it last said
        self.next_offer = [0] * 6
        self.logged = [0] * 6
        self.held = 0  # tiles of this subtree holding the build (this one included)
        self.failed = 0
        self.failures = []  # (serial, reason, detail), MAX_REPORTED at most
        self.counted = []
        self.ctl = [None] * 6  # a control frame waiting to go out on each face
        self.done_frame = None
        self.done_sent = 0
        self.activity = 0
        self._rng = (tile.random(0xFFFF) << 16 | tile.random(0xFFFF)) or 1

    def _end(self, now, ok=True):
        """The share is over for this tile (Share's)."""
        raise NotImplementedError

    def _kid_state(self, f, state, now):
        self.kid[f] = state
        self.kid_since[f] = now
        self.activity = now

    def _on_answer(self, f, ms, data, n, session):
        if session != self.session or f == self.parent or n != bulk.HEAD + 13 + bulk.CRC:
            return
        if self.role != ROOT and self.role != RELAY:
            return
        state = self.kid[f]
        if state == K_DONE or state == K_GONE:
            return
        i = bulk.HEAD
        code = data[i]
        info = bulk.u32(data, i + 1)
        serial = bytes(data[i + 5 : i + 13])
        self.kid_serial[f] = serial
        self.kid_said[f] = ms
        who = f"BLINKS share face={f} tile={hexs(serial)}"
        if code == WANT:
            self.kid_done[f] = info
            if state != K_WANT:
                self._kid_state(f, K_WANT, ms)
                self.tile.log(who + " receiving")
        elif code == HAVE or code == GOT:
            if state != K_HAVE:
                self._kid_state(f, K_HAVE, ms)
                self.tile.log(who + (" switched" if code == GOT else " has it"))
        elif code == NOTCHILD:
            self._kid_state(f, K_GONE, ms)
        elif code == REFUSE:
            if info >> 24 == R_BUSY and ms - self.kid_since[f] < BUSY_MS:
                return  # still winding down another share: offer again until BUSY_MS
            self._kid_failed(f, serial, info >> 24, info & 0xFFFFFF, ms)

    def _kid_failed(self, f, serial, reason, detail, now):
        self._kid_state(f, K_GONE, now)
        self.failed += 1
        if len(self.failures) < MAX_REPORTED:
            self.failures.append((serial, reason, detail))
        self.tile.log(
            "BLINKS share face={} tile={} failed: {}".format(
                f, hexs(serial) if serial else "?", reason_text(reason, detail)
            )
        )

    def _on_done(self, f, ms, data, n, session):
        if session != self.session or f == self.parent:
            return
        ack = bulk.frame(bulk.ACK, self._value(f), session)
        if self.kid[f] == K_DONE:
            self.ctl[f] = ack  # our ACK was lost: again
            return
        i = bulk.HEAD
        if n < i + 13 + bulk.CRC or (self.role != ROOT and self.role != RELAY):
            return
        serial = bytes(data[i : i + 8])
        held = data[i + 8] << 8 | data[i + 9]
        failed = data[i + 10] << 8 | data[i + 11]
        k = data[i + 12]
        if n != i + 13 + 13 * k + bulk.CRC:
            return
        self.kid_serial[f] = serial
        self._kid_state(f, K_DONE, ms)
        self.ctl[f] = ack
        if serial in self.counted:
            return  # a tile the seed counted already, touched to it again
        self.counted.append(serial)
        for j in range(k):
            at = i + 13 + 13 * j
            if len(self.failures) < MAX_REPORTED:
                self.failures.append(
                    (bytes(data[at : at + 8]), data[at + 8], bulk.u32(data, at + 9))
                )
        self.held += held
        self.failed += failed
        self.tile.log(
            "BLINKS share face={} tile={} done tiles={} failed={}".format(
                f, hexs(serial) if serial else "?", held, failed
            )
        )

    def _kids(self, now):
        """A pass over the child faces: offer, poll, and settle the faces that went quiet.
        True when every face is settled."""
        last_rx = self.faces.last_rx
        settled = True
        for f in range(6):
            if f == self.parent:
                continue
            state = self.kid[f]
            quiet = now - last_rx[f]
            if state == K_IDLE:
                if quiet <= HEARD_MS:
                    self._kid_state(f, K_OFFER, now)
                    self.next_offer[f] = now
                elif now - self.started >= ABSENT_MS:
                    self._kid_state(f, K_EMPTY, now)
                    continue
                else:
                    settled = False
                    continue
                state = K_OFFER
            if state == K_OFFER:
                settled = False
                if quiet > ABSENT_MS:
                    self._kid_state(f, K_EMPTY, now)
                elif now - self.kid_since[f] > ANSWER_MS and now - self.kid_said[f] > ANSWER_MS:
                    self._kid_failed(f, self.kid_serial[f], R_SILENT, 0, now)
                elif now >= self.next_offer[f]:
                    self._offer(f, now)
            elif state == K_WANT or state == K_HAVE:
                settled = False
                if quiet > LOST_MS:
                    total = self.source.size if self.source else 1
                    pct = 100 if state == K_HAVE else self.kid_done[f] * 100 // max(1, total)
                    self._kid_failed(f, self.kid_serial[f], R_LOST, pct, now)
                elif now - self.kid_said[f] > POLL_MS and now >= self.next_offer[f]:
                    self._offer(f, now)
                if state == K_WANT and now - self.logged[f] >= PROGRESS_LOG_MS:
                    self.logged[f] = now
                    self.tile.log(
                        f"BLINKS share progress face={f} tile={hexs(self.kid_serial[f])} bytes={self.kid_done[f]}/{self.source.size}"
                    )
            elif self.seed and quiet > ABSENT_MS and state != K_EMPTY:
                self._kid_state(f, K_EMPTY, now)  # the seed: whoever comes next is offered
            elif self.seed and state == K_EMPTY and quiet <= HEARD_MS:
                self._kid_state(f, K_OFFER, now)
                self.next_offer[f] = now
                settled = False
        return settled

    def _offer(self, f, now):
        src = self.source
        body = bytearray(31)
        name = src.build.encode()[:16]
        body[: len(name)] = name
        bulk.put32(body, 16, src.size)
        body[20] = src.manifest_len >> 8
        body[21] = src.manifest_len & 0xFF
        bulk.put32(body, 22, src.manifest_crc)
        body[26] = src.mpy[0]
        body[27] = src.mpy[1]
        need = self.store.min_release()
        body[28] = need[0]
        body[29] = need[1]
        body[30] = need[2]
        self.ctl[f] = bulk.frame(bulk.OFFER, self._value(f), self.session, body)
        self.next_offer[f] = now + OFFER_MS + (self._jitter() & 63)

    def _done(self, now):
        """Every child face settled: report up (a relay), or the outcome (the root)."""
        if self.role == ROOT:
            for serial, reason, detail in self.failures:
                self.tile.log(
                    "BLINKS share failed tile={} reason={}".format(
                        hexs(serial) if serial else "?", reason_text(reason, detail)
                    )
                )
            if self.failed > len(self.failures):
                self.tile.log(f"BLINKS share failed tiles={self.failed - len(self.failures)} more")
            self.tile.log(
                f"BLINKS share done session={self.session} build={self.build} tiles={self.held} failed={self.failed} ms={now - self.started}"
            )
            self._end(now)
            return
        if self.done_frame is None:
            k = len(self.failures)
            body = bytearray(13 + 13 * k)
            body[0:8] = self.tile.serial_number()[:8]
            body[8] = self.held >> 8
            body[9] = self.held & 0xFF
            body[10] = self.failed >> 8
            body[11] = self.failed & 0xFF
            body[12] = k
            for j in range(k):
                serial, reason, detail = self.failures[j]
                at = 13 + 13 * j
                body[at : at + len(serial)] = serial
                body[at + 8] = reason
                bulk.put32(body, at + 9, detail)
            self.done_frame = bulk.frame(bulk.DONE, self._value(self.parent), self.session, body)
            self.done_sent = now - DONE_MS
            self.tile.log(f"BLINKS share subtree done tiles={self.held} failed={self.failed}")
        if now - self.done_sent >= DONE_MS:
            self.done_sent = now
            self.ctl[self.parent] = self.done_frame

    def _value(self, f):
        return link.VALUE_BYTE[self.faces.value_out[f]] if f >= 0 else link.VALUE_BYTE[0]

    def _jitter(self):
        x = self._rng
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        self._rng = x
        return x
