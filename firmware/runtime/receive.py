"""Receiving a shared build: the files written the way `blinks flash` writes them, then the switch.

The same rules as host_tools/bridge/deploy.py, run by the tile itself:

1. the manifest comes first (runtime/bundle.py) and is checked against the offer's CRC;
2. the plan, a file a pass: a file of the new build already complete (its hash checked) is
   kept; a file the running build holds with the same hash is copied on the tile instead of
   sent; a file left half received (after a power cut or a pulled tile) is resumed from what the
   store committed; the rest is pulled over the face;
3. every file is written under its own name in the new build's directory, which nothing runs
   until the switch (so, unlike `blinks flash`, no NAME.tmp and rename a file: 61 renames cost a
   tile 1.5 s of a 140 kB share), committed every COMMIT_BYTES and when complete; main.py is
   written as main.py.tmp;
4. once all are there, every file's hash is checked, main.py.tmp's too (a mismatch pulls that
   file again, 3 times at most). The checks wait for the end because the pull waits on each
   pass that writes: hashing each file as it completed cost the transfer 0.6 s of a 140 kB
   build, and the check at the end had to read it all again anyway;
5. the share's state is saved (so the new build carries the share on after the restart), then
   main.py.tmp is renamed over main.py: this one rename is the switch;
6. other builds' directories are removed, and the tile restarts into the new build.

A power cut at any moment leaves the old main.py (naming the old, complete build) or the new one
(naming a complete, checked build): never a mix, never a half-written build that runs.
"""

from runtime import bulk
from runtime.bundle import MAIN, BadManifest, decode

COMMIT_BYTES = 8192  # a file written this far is committed: a cut resumes from there
RETRIES = 3  # a file that fails its hash this often fails the share
PASS_BYTES = 12288  # planned, copied or checked in one pass at most (and at least a file)

# phases
MANIFEST = 0
PLAN = 1
COPY = 2
PULL = 3
VERIFY = 4
READY = 5  # checked: the switch may come
FAILED = 6

# why a receive failed (runtime/share.py turns them into words)
BAD_MANIFEST = 6
BAD_HASH = 7
STORAGE = 8
NO_ROOM = 4


def tmp_of(path):
    return path + ".tmp"


def _crc(data):
    import binascii

    return binascii.crc32(data) & 0xFFFFFFFF


class Receiver:
    """Pulls one build from the neighbour on `face` into the store; `step(now)` does one pass's
    share of the work. `phase` says where it is; `reason`/`info` why it FAILED."""

    def __init__(self, hal, store, face, session, build, size, manifest_len, manifest_crc):
        self.store = store
        self.build = build
        self.size = size
        self.manifest_len = manifest_len
        self.manifest_crc = manifest_crc
        self.puller = bulk.Puller(hal, face, session, self)
        self.manifest = bytearray(manifest_len)
        self.phase = MANIFEST
        self.reason = 0
        self.info = 0
        self.entries = []
        self.starts = []
        self.todo = []  # per file: "have", "copy", or the offset to pull it from
        self.copies = {}  # digest -> a running build's file with it
        self.ranges = []  # (start, end) of the stream still to pull, in order
        self.written = [0] * 0  # per file: bytes written
        self.committed = [0] * 0
        self.tries = [0] * 0
        self.cursor = 0  # plan, copy and verify go a file a pass
        self.file = 0  # the file the stream is being written into
        self.need = 0  # bytes to pull over the face (for the progress display)
        self.got = 0
        self.copied = 0
        self.spent = [0] * 6  # ms in each phase (the log line says where the time went)
        self._phase_at = -1
        self.puller.pull(0, manifest_len)

    # ---- progress ----

    def progress(self):
        """(done, total) in bytes of this build's files and manifest, for the display."""
        if self.phase >= VERIFY:
            return self.size, self.size
        if self.phase == MANIFEST:
            return 0, self.size
        return max(0, min(self.size, self.size - self.need + self.got)), self.size

    def _fail(self, reason, info=0):
        self.phase = FAILED
        self.reason = reason
        self.info = info
        try:
            self.store.commit()
        except OSError:
            pass

    # ---- the sink of the puller ----

    def write(self, offset, view) -> None:
        if self.phase != MANIFEST and self.phase != PULL:
            return  # a window that completed after the receive failed (a stall): dropped
        if self.phase == MANIFEST:
            self.manifest[offset : offset + len(view)] = view
            if offset + len(view) >= self.manifest_len:
                self._manifest_done()
            return
        try:
            self._write_files(offset, view)
        except OSError as exc:
            self._fail(STORAGE, _errno(exc))

    def _manifest_done(self):
        if _crc(self.manifest) != self.manifest_crc:
            self._fail(BAD_MANIFEST)
            return
        try:
            build, entries = decode(self.manifest)
        except BadManifest:
            self._fail(BAD_MANIFEST)
            return
        at = self.manifest_len
        for _p, size, _d in entries:
            self.starts.append(at)
            at += size
        if build != self.build or at != self.size:
            self._fail(BAD_MANIFEST)
            return
        self.entries = entries
        count = len(entries)
        self.written = [0] * count
        self.committed = [0] * count
        self.tries = [0] * count
        self.todo = [None] * count
        self.got = 0
        self.need = self.size - self.manifest_len
        try:
            self.store.prune((self.store.running(), build))  # earlier shares' leftovers
            self.copies = self._running_digests()
        except OSError as exc:
            self._fail(STORAGE, _errno(exc))
            return
        self.phase = PLAN
        self.cursor = 0

    def _running_digests(self):
        """digest -> path of the running build's files, from what it recorded (version.json):
        candidates to copy; each copy is hashed before it counts."""
        running = self.store.running()
        if running is None:
            return {}
        recorded = self.store.recorded_digests(running) or {}
        out = {}
        for path, digest in recorded.items():
            out[digest] = path
        return out

    def _target(self, i):
        """Where file i goes when complete (main.py waits as main.py.tmp for the switch)."""
        path = self.entries[i][0]
        return tmp_of(path) if path == MAIN else path

    # ---- a pass ----

    def step(self, now: int, value_byte: int) -> None:
        phase = self.phase
        if phase >= READY:
            return  # checked, or failed: the share takes it from here
        if self._phase_at >= 0 and phase < len(self.spent):
            self.spent[phase] += now - self._phase_at
        self._phase_at = now
        try:
            if phase == MANIFEST or phase == PULL:
                puller = self.puller
                puller.poll(now, value_byte)  # the next window's REQ first, then the writing
                puller.flush()
                if self.phase == PULL and puller.done() and not self._next_range():
                    self.phase = VERIFY
                    self.cursor = 0
            else:
                # files a pass, until PASS_BYTES of them were read (a pass stays short: the
                # rings are read between passes, and a tile's watchdog waits 2 s)
                work = self._plan_one if phase == PLAN else self._copy_one
                if phase == VERIFY:
                    work = self._verify_one
                budget = PASS_BYTES
                while self.phase == phase and budget > 0:
                    i = self.cursor
                    work()
                    if i < len(self.entries):
                        budget -= self.entries[i][1] + 256
        except OSError as exc:
            self._fail(STORAGE, _errno(exc))

    def _plan_one(self):
        i = self.cursor
        if i == len(self.entries):
            self._plan_done()
            return
        self.cursor += 1
        path, size, digest = self.entries[i]
        store = self.store
        target = self._target(i)
        partial = store.size(target)
        if partial == size and store.digest(target) == digest:
            self.todo[i] = "have"
            self.need -= size
            return
        if 0 < partial < size and path != MAIN:
            self.written[i] = self.committed[i] = partial  # resume from what was committed
            self.todo[i] = partial
            self.need -= partial
            return
        if partial >= 0:
            store.remove(target)  # damaged, or a main.py.tmp of some other flash or share
        if digest in self.copies:
            self.todo[i] = "copy"
            return
        self.todo[i] = 0

    def _plan_done(self):
        need = 0
        for i in range(len(self.entries)):
            t = self.todo[i]
            size = self.entries[i][1]
            if t == "copy":
                need += size
            elif t != "have":
                need += size - t
        room = self.store.free()
        if room >= 0 and room < need + 16384:
            self._fail(NO_ROOM, room)
            return
        self.phase = COPY
        self.cursor = 0

    def _copy_one(self):
        while self.cursor < len(self.entries) and self.todo[self.cursor] != "copy":
            self.cursor += 1
        i = self.cursor
        if i == len(self.entries):
            self.phase = PULL
            self.ranges = []
            self._add_ranges()
            self._next_range()
            return
        self.cursor += 1
        _path, size, digest = self.entries[i]
        target = self._target(i)
        self.store.copy(self.copies[digest], target)
        if self.store.digest(target) == digest:
            self.todo[i] = "done"
            self.need -= size
            self.copied += size
        else:
            self.store.remove(target)
            self.todo[i] = 0  # the copy was not what its record said: pull it instead

    def _add_ranges(self):
        """The stream's byte ranges still to pull, runs of neighbouring files merged."""
        ranges = self.ranges
        for i in range(len(self.entries)):
            t = self.todo[i]
            if t == "have" or t == "copy" or t == "done":
                continue
            start = self.starts[i] + t
            end = self.starts[i] + self.entries[i][1]
            if start == end:  # an empty file: made here, nothing to pull
                self.store.append(self._target(i), b"")
                self._file_complete(i)
                continue
            if ranges and ranges[-1][1] == start:
                ranges[-1] = (ranges[-1][0], end)
            else:
                ranges.append((start, end))

    def _next_range(self) -> bool:
        while self.ranges:
            start, end = self.ranges.pop(0)
            if start < end:
                self.file = 0
                self.puller.pull(start, end)
                return True
        return False

    def _write_files(self, offset, view):
        starts = self.starts
        done = 0
        n = len(view)
        i = self.file
        while done < n:
            at = offset + done
            while i + 1 < len(starts) and starts[i + 1] <= at:
                i += 1
            while starts[i] > at:
                i -= 1
            size = self.entries[i][1]
            take = min(n - done, starts[i] + size - at)
            if at - starts[i] != self.written[i]:
                raise OSError(5)  # the stream and the file disagree: never write a hole
            self.store.append(self._target(i), view[done : done + take])
            self.written[i] += take
            self.got += take
            done += take
            if self.written[i] == size:
                self._file_complete(i)
            elif self.written[i] - self.committed[i] >= COMMIT_BYTES:
                self.store.commit()
                self.committed[i] = self.written[i]
        self.file = i

    def _file_complete(self, i):
        """All of file i is written: committed; its hash is checked at VERIFY."""
        size = self.entries[i][1]
        self.store.commit()
        self.committed[i] = self.written[i] = size
        self.todo[i] = "done"

    def _verify_one(self):
        """Every file's hash before the switch, a file a pass."""
        i = self.cursor
        if i == len(self.entries):
            self.phase = READY
            return
        self.cursor += 1
        digest = self.entries[i][2]
        target = self._target(i)
        if self.store.digest(target) != digest:
            self.store.remove(target)  # corrupted in storage: that file again
            self.tries[i] += 1
            if self.tries[i] >= RETRIES:
                self._fail(BAD_HASH, i)
                return
            self.todo[i] = 0
            self.written[i] = self.committed[i] = 0
            self.got -= self.entries[i][1]
            self.ranges = [(self.starts[i], self.starts[i] + self.entries[i][1])]
            self.phase = PULL
            self._next_range()

    def switch(self, state) -> None:
        """Save the share's state for the new build, then main.py.tmp over main.py: the switch."""
        store = self.store
        store.save_state(state)
        store.rename(tmp_of(MAIN), MAIN)
        if store.running() != self.build:
            raise OSError(5)


def _errno(exc):
    args = getattr(exc, "args", ())
    return args[0] if args and isinstance(args[0], int) else 0
