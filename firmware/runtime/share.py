"""Sharing a build with the cluster: what `blinks flash` put on one tile spreads to every tile it
touches, hop by hop, over the faces' bulk mode (runtime/bulk.py).

Who starts it: the root, a tile that holds a build, after the reserved gesture (SHARE_CLICKS
clicks, runtime/button.py; the tile then seeds for SEED_MS, so tiles can be touched to it one
after another) or after `blinks share` asked over USB (the store's saved state says so at boot).

The tree, as the deal's (runtime/deal.py): the root OFFERs the build on every face it hears; the
first OFFER a tile takes makes the sender its parent. A tile ANSWERs every OFFER:
- HAVE: it runs that build already; nothing is sent, and it offers the build on its own faces;
- WANT: it pulls the build (runtime/receive.py), checks every file, switches, restarts into the
  new build, and carries the share on from there (the saved state tells the new build);
- REFUSE with a reason: set to refuse shares, a .mpy version or MicroPython release it cannot
  load, no room, busy with another share; or a receive that failed (a file's hash, storage);
- NOTCHILD: it is in this share already, through another face.
A tile whose faces are all settled sends DONE to its parent: how many tiles of its subtree hold
the build and which failed, and why; the parent ACKs. The root logs the outcome, which is what
`blinks share` waits for. A parent polls a child that went quiet (an OFFER again): the child
answers as it stands, so a lost frame only delays; a child silent for LOST_MS (pulled away, or
it never came back from its restart) is a failure ("lost at N%"). The parent's part, and the
words both parts use, are runtime/share_tree.py's: Share extends its Tree.

A share lasts while it runs: a tile restarted by its parent's share comes back carrying it only
if that parent still polls it within CONFIRM_MS, so a build never spreads from a stale state.
While a tile shares, its game waits (its loop is not called), its pixels show the share (a
receiver: the faces fill as the bytes arrive), and the tile runs its passes more often
(`Tile.sharing`). Log lines start `BLINKS share`.

The store (`hal.build_store()`) is the tile's builds, file by file: `running()`, `files(build)`,
`recorded_digests(build)`, `build_mpy(build, files=None)`, `digest(path)`, `size(path)`, `read(path,
offset, view)`, `append(path, data)`, `commit()`, `copy(src, dst)`, `remove(path)`,
`rename(src, dst)`, `prune(keep)`, `free()`, `mpy()`, `release()`, `min_release()`,
`refuses()`, `load_state()`, `save_state(state)`, `restart()`. hal/build_store.py keeps them in
files on a tile; the simulator keeps a stand-in in memory.
"""

from runtime import bulk, colors
from runtime import faces as faces_mod
from runtime.bundle import Source
from runtime.share_tree import (
    CONFIRM,
    CONFIRM_MS,
    GOT,
    HAVE,
    K_IDLE,
    K_OFFER,
    K_WANT,
    LOST_MS,
    NONE,
    NOTCHILD,
    R_BUSY,
    R_MPY,
    R_OLD,
    R_SETTING,
    R_STALLED,
    R_STORAGE,
    RECEIVE,
    REFUSE,
    RELAY,
    ROOT,
    SEED_MS,
    SHOW_MS,
    STALL_MS,
    SWITCH_MS,
    WANT,
    Tree,
    reason_text,
)

try:  # for mypy's type comments; MicroPython has no typing module
    from typing import Any  # noqa: F401
except ImportError:
    pass

# runtime/receive.py's phases (it is imported only by a tile that receives)
_PULLING = 3
_READY = 5
_FAILED = 6

try:
    from micropython import const
except ImportError:  # CPython: plain ints (runtime/native.py)
    from runtime.native import const


SHARE_CLICKS = 7  # the reserved gesture: this many clicks or more (no game sees them)

_LONG_AGO = const(-(1 << 20))


def _release_code(release):
    return release[0] << 16 | release[1] << 8 | release[2]


class Share(Tree):
    """One tile's part in shares, made by the tile when the first share frame, the gesture or a
    saved state needs it. `step(now)` runs a pass; True while the game must wait."""

    def __init__(self, tile, hal, faces, store):
        super().__init__(tile, hal, faces, store)
        self.server = None  # type: Any
        self.receiver = None  # type: Any
        self.received_at = 0
        self.switch_at = 0
        self.last = (0, None, -1)  # (session, answer frame, parent face) of the last share
        self.shown = -1
        self.show_at = 0
        self.hurry = False  # a transfer runs: the tile's passes come closer together

    # ---- starting ----

    def start_root(self, now, seed):
        """This tile shares its build: `seed` (the gesture) keeps offering for SEED_MS."""
        if self.role != NONE:
            return
        try:
            self._source()
        except OSError as exc:
            self.tile.log(f"BLINKS share failed: {_words(exc)}")
            self.tile.log("BLINKS share done session=0 build=- tiles=0 failed=1 ms=0")
            return
        session = 0
        while session == 0 or session == self.last[0]:
            session = self.tile.random(0xFFFF)
        self._begin(ROOT, session, self.source.build, -1, now)
        self.seed = seed
        self.tile._button.presses = 0  # the gesture's own presses do not end the seeding
        src = self.source
        self.tile.log(
            "BLINKS share start session={} build={} bytes={} files={}{}".format(
                session, src.build, src.size, len(src.entries), " seed" if seed else ""
            )
        )

    def resume(self, state, now):
        """At boot: a saved state. `root` (from `blinks share`): share the running build. Else
        the build this tile just received: carry its share on, once its parent confirms."""
        if state.get("root"):
            self.start_root(now, False)
            return
        if state.get("build") != self.store.running():
            return  # a switch that did not happen: the share will offer it again
        self._begin(
            CONFIRM,
            state.get("session", 0),
            state["build"],
            state.get("parent", -1),
            now,
        )
        self.held = 1
        # the build's manifest, while the heap is young: it is one block of ~5 kB, which a heap
        # the game has fragmented may not have when this tile comes to offer it on (MemoryError)
        self._source()

    def _begin(self, role, session, build, parent, now):
        self.role = role
        self.session = session
        self.build = build
        self.parent = parent
        self.started = now
        self.activity = now
        self.held = 1
        self.failed = 0
        self.failures = []
        self.counted = []  # the children whose DONE was counted (by serial)
        self.done_frame = None
        for f in range(6):
            self.kid[f] = K_IDLE
            self.kid_said[f] = _LONG_AGO
            self.kid_serial[f] = b""
            self.kid_done[f] = 0
            self.next_offer[f] = now
        self.shown = -1
        self.tile._share_began(now)

    def _source(self):
        if self.source is None or self.source.build != self.store.running():
            self.source = Source(self.store)
        return self.source

    def _serve(self, now):
        src = self._source()
        self.server = bulk.Server(self.hal, src, src.size, self.session)

    # ---- frames (called by the tile as the faces take them) ----

    def bad_frame(self, f):
        r = self.receiver
        if r is not None and f == self.parent:
            r.puller.bad += 1

    def frame(self, f, ms, data, n):
        kind = data[0]
        session = bulk.session_of(data)
        if kind == bulk.DATA:
            r = self.receiver
            if r is not None and f == self.parent and session == self.session:
                r.puller.take(data, n, ms)
        elif kind == bulk.REQ:
            if self.server is not None and session == self.session and f != self.parent:
                if self.kid[f] == K_OFFER or self.kid[f] == K_IDLE:
                    self._kid_state(f, K_WANT, ms)
                self.kid_said[f] = ms
                self.server.take_req(f, data, n)
                self.kid_done[f] = max(self.kid_done[f], self.server.high[f])  # its progress
        elif kind == bulk.OFFER:
            self._on_offer(f, ms, data, n, session)
        elif kind == bulk.ANSWER:
            self._on_answer(f, ms, data, n, session)
        elif kind == bulk.DONE:
            self._on_done(f, ms, data, n, session)
        elif (
            kind == bulk.ACK
            and session == self.session
            and f == self.parent
            and self.done_frame is not None
        ):
            self._end(ms)
        self.tile._sharing = True

    def _on_offer(self, f, ms, data, n, session):
        if n != bulk.HEAD + 31 + bulk.CRC:
            return
        if session == self.session and self.role != NONE:
            if f != self.parent:
                self._answer(f, NOTCHILD)
                return
            if self.role == CONFIRM:
                self._confirmed(ms)
            self._answer_parent()
            return
        if session == self.last[0]:
            frame = self.last[1] if f == self.last[2] else None
            if frame is None:
                self._answer(f, NOTCHILD, 0, session)
            else:
                self.ctl[f] = frame
            return
        if self.role != NONE:
            if self.switch_at:
                return  # switched: the restart into the new build comes first, whatever else
            if f != self.parent or self.role == ROOT:
                self._answer(f, REFUSE, R_BUSY << 24, session)
                return
            # our parent offers another share: it has left ours (it restarted, or its share
            # ended without us), so ours is over; what we received stays for this one to resume
            self.tile.log(f"BLINKS share dropped: the parent moved on to share {session}")
            self._end(ms, False)
            self.ctl[f] = None
        store = self.store
        if store.refuses():
            self._answer(f, REFUSE, R_SETTING << 24, session)
            return
        i = bulk.HEAD
        build = bytes(data[i : i + 16]).rstrip(b"\0").decode()
        size = bulk.u32(data, i + 16)
        mlen = data[i + 20] << 8 | data[i + 21]
        mcrc = bulk.u32(data, i + 22)
        mpy_version = data[i + 26]
        mpy_flags = data[i + 27]
        need = (data[i + 28], data[i + 29], data[i + 30])
        if build == store.running():
            self._begin(RELAY, session, build, f, ms)
            self._answer_parent()
            return
        problem = self._cannot_load(mpy_version, mpy_flags, need)
        if problem:
            self._answer(f, REFUSE, problem, session)
            return
        self._begin(RECEIVE, session, build, f, ms)
        self.held = 0
        from runtime.receive import Receiver

        self.receiver = Receiver(self.hal, store, f, session, build, size, mlen, mcrc)
        self.received_at = ms
        self.tile.log(f"BLINKS share receive session={session} build={build} face={f}")
        self._answer_parent()

    def _cannot_load(self, version, flags, need):
        """0, or the REFUSE detail (reason << 24 | detail) for a build this tile cannot run."""
        store = self.store
        release = store.release()
        if release is not None and release < need:
            return R_OLD << 24 | _release_code(need)
        if version:
            mpy = store.mpy()
            if mpy is None:
                return R_MPY << 24
            if mpy & 0xFF != version or (flags >> 2 and (mpy >> 8) & 0xFF != flags):
                return R_MPY << 24 | (mpy & 0xFF) << 8 | version
        return 0

    def _answer(self, f, code, info=0, session=-1):
        """An ANSWER to an OFFER of `session` (ours when -1)."""
        body = bytearray(13)
        body[0] = code
        bulk.put32(body, 1, info)
        body[5:13] = self.tile.serial_number()[:8]
        session = self.session if session < 0 else session
        self.ctl[f] = bulk.frame(bulk.ANSWER, self._value(f), session, body)
        self.tile._sharing = True

    def _answer_parent(self):
        """Answer our parent's OFFER with where we stand."""
        f = self.parent
        if f < 0:
            return
        if self.done_frame is not None:
            self.ctl[f] = self.done_frame
            return
        role = self.role
        if role == RECEIVE:
            r = self.receiver
            if r.phase == _FAILED:
                self._answer(f, REFUSE, r.reason << 24 | (r.info & 0xFFFFFF))
            elif self.switch_at:
                self._answer(f, GOT)
            else:
                self._answer(f, WANT, r.progress()[0])
        elif role == RELAY or role == CONFIRM:
            self._answer(f, HAVE)

    def _confirmed(self, now):
        """Back after the restart, and the parent still polls: carry the share on."""
        self.role = RELAY
        self.activity = now
        self.started = now  # its faces have ABSENT_MS from now to be heard
        self.tile.log(f"BLINKS share relay session={self.session} build={self.build}")

    # ---- the pass ----

    def step(self, now):
        role = self.role
        if role == NONE:
            self._send(now)
            if self.ctl.count(None) == 6:
                self.tile._sharing = False
            return False
        if role == RECEIVE:
            if self._receive(now):
                return True  # restarted: this object is the old tile's, nothing more to do
        elif role == CONFIRM:
            if now - self.started > CONFIRM_MS:
                self.tile.log("BLINKS share dropped: the parent did not come back")
                self._end(now, False)
        else:
            self._relay(now)
        parent = self.parent
        gone = parent >= 0 and now - self.faces.last_rx[parent] > LOST_MS
        if gone and self.role not in (NONE, CONFIRM):
            self.tile.log("BLINKS share dropped: the parent went away")
            self._end(now, False)
        self._send(now)
        if self.role != NONE:
            self._show(now)
            server = self.server
            self.hurry = self.role == RECEIVE or (
                server is not None and (server.busy() or K_WANT in self.kid)
            )
        faces = self.faces
        busy = self._transfer_faces()
        for f in range(6):
            faces.reply_due[f] = False  # no ping-pong while sharing: probes keep links alive
            if busy >> f & 1:
                # nor probes where a build's bytes flow (their frames keep the link alive): a
                # probe sent as the other side's REQ or DATA begins costs that frame (the faces
                # are half duplex), and each one lost cost a window its 90 ms gap
                faces.next_probe[f] = now + faces_mod.PROBE_MS
                faces.retry_at[f] = now + faces_mod.PROBE_MS  # a game's datagram waits too
        faces.emit(self.hal, now, False)
        return True

    def _transfer_faces(self):
        """A mask of the faces a build's bytes flow on: the parent's until our pull is over,
        the children's that pull from us."""
        if self.role == RECEIVE:
            return 1 << self.parent if self.receiver.phase <= _PULLING else 0
        mask = 0
        if self.server is not None:
            for f in range(6):
                if self.kid[f] == K_WANT:
                    mask |= 1 << f
        return mask

    def _relay(self, now):
        if self.server is None:
            try:
                self._serve(now)
            except OSError as exc:
                self.tile.log(f"BLINKS share failed: {_words(exc)}")
                if self.role == ROOT:
                    self.tile.log(
                        f"BLINKS share done session={self.session} build={self.build} tiles=0 failed=1 ms=0"
                    )
                self._end(now, False)
                return
        settled = self._kids(now)
        if self.seed:
            button = self.tile._button
            if button.presses:
                button.presses = 0
                self.seed = False  # a press ends the seeding: the share ends once settled
            elif settled and now - self.activity < SEED_MS:
                return  # the gesture's root: any tile touched to it now is offered too
        if settled:
            self._done(now)

    def _receive(self, now):
        """A pass of receiving; True once the tile restarted into the new build."""
        r = self.receiver
        if self.switch_at:
            sent = self.ctl[self.parent] is None  # the GOT is out (or gave up: 10 x longer)
            if now - self.switch_at >= (SWITCH_MS if sent else 10 * SWITCH_MS):
                try:
                    self.store.prune((self.build,))  # litter if cut: the next share tidies
                except OSError:
                    pass
                self.tile.log(f"BLINKS share restart build={self.build}")
                self.store.restart()
                return True
            return False
        r.step(now, self._value(self.parent))
        if r.phase == _FAILED:
            self.tile.log("BLINKS share failed: " + reason_text(r.reason, r.info))
            self._answer_parent()
            self._end(now, False)
            return False
        if now - max(r.puller.heard_at, self.received_at) > STALL_MS and r.phase <= _PULLING:
            r.reason = R_STALLED
            r.phase = _FAILED
            return False
        if r.phase == _READY:
            try:
                r.switch(
                    {
                        "session": self.session,
                        "build": self.build,
                        "parent": self.parent,
                    }
                )
            except OSError as exc:
                r.reason = R_STORAGE
                r.info = 0
                r.phase = _FAILED
                self.tile.log(f"BLINKS share failed: switch: {_words(exc)}")
                return False
            done = r.progress()[1]
            self.tile.log(
                f"BLINKS share received build={self.build} bytes={done} pulled={r.puller.received} copied={r.copied} ms={now - self.received_at} phases={'/'.join(str(t) for t in r.spent)}"
            )
            self.switch_at = now
            self._answer_parent()  # GOT: the parent waits through our restart
        return False

    def _send(self, now):
        ctl = self.ctl
        server = self.server
        for f in range(6):
            if server is not None and server.asked[f] is not None:
                try:
                    server.pump(f, self._value(f))
                except OSError as exc:  # our own build cannot be read: nothing to share
                    self.tile.log(f"BLINKS share failed: {_words(exc)}")
                    server.asked[f] = None
                    self._kid_failed(f, self.kid_serial[f], R_STORAGE, 0, now)
            frame = ctl[f]
            if frame is not None and self.hal.send_frames(f, (frame,)):
                ctl[f] = None

    def _end(self, now, ok=True):
        session = self.session
        answer = self.done_frame
        if answer is None and self.role == RECEIVE:
            self._answer_parent()
            answer = self.ctl[self.parent] if self.parent >= 0 else None
        self.last = (session, answer, self.parent)
        try:
            self.store.commit()  # the files the share kept open (a sender keeps one to read)
        except OSError:
            pass
        self.role = NONE
        self.session = 0
        self.receiver = None
        self.server = None
        self.seed = False
        self.done_frame = None
        self.tile._share_ended(now)

    # ---- display ----

    def _show(self, now):
        if now - self.show_at < SHOW_MS:
            return
        self.show_at = now
        tick = now // 150
        out = [0] * 6
        if self.role == RECEIVE:
            done, total = self.receiver.progress()
            lit = done * 6 // max(1, total)
            for f in range(6):
                if f < lit:
                    out[f] = colors.CYAN
                elif f == lit:
                    out[f] = colors.CYAN if tick & 1 else colors.dim(colors.BLUE, 64)
                else:
                    out[f] = colors.dim(colors.BLUE, 64)
            key = lit * 2 + (tick & 1)
        elif self.role == CONFIRM:
            out = [colors.dim(colors.GREEN, 96)] * 6
            key = 100
        else:
            spot = tick % 6
            base = (
                colors.dim(colors.GREEN, 96) if self.role == RELAY else colors.dim(colors.CYAN, 64)
            )
            for f in range(6):
                out[f] = colors.WHITE if f == spot else base
            key = 200 + spot + (10 if self.role == RELAY else 0)
        if key != self.shown:
            self.shown = key
            self.hal.show(out)


def _words(exc):
    args = getattr(exc, "args", ())
    return str(args[0]) if args else type(exc).__name__
