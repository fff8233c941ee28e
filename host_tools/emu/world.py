"""Emulated tiles standing in for the simulator's world, so its window shows and moves them.

`blinks emu --window` draws an EmuCluster's tiles with the simulator's own app (SimApp: its
table, tile art, panel and gestures). The app reads a world only through `tiles`, `position`,
`leds`, `inspect`, `logs`, `tile_at` and `now`, and changes it through `press`, `release`,
`lift`, `place`, `rotate` (simulator/app/table_ops.py) and `advance`; EmuWorld answers them
from the cluster (no pygame here):

- where the tiles lie is kept here (the emulator knows wires, not cells): they start as the
  cluster's shape, wired as it was started; a tile lifted is taken from every neighbour, and a
  tile placed (or turned) is wired face to face to every tile it then touches (`rewire`);
- what they show is the colours decoded from their WS2812 pins; their log is their USB serial
  output, complete lines, from which `inspect` takes the state and piece of `LG` lines and the
  heap of `BLINKS heap free=N used=N` lines (firmware/main.py logs one a minute while awake);
- time is the emulator's (driven mode): `now` is where emulated time has got to.

Two ways to run time. In lockstep (headless windows and tests) `advance(ms)` returns once the
emulator is there, as the simulator's world does. Paced (a window someone watches), `advance`
only asks for more and returns at once, so the window stays responsive however slowly the
emulator runs: emulated time keeps up with the window's clock while the emulator can, and
otherwise runs as fast as it can, never catching up later (no debt: like the simulator's
clock, a lagging window slows the game instead of jumping). `lag_note()` says so.

A person's hand keeps its timing. A press lasts on the tile as long as the window's clock ran
while the mouse button was held, and a press that follows the last input within GESTURE_GAP_MS
keeps its gap (the clicks of a double or triple click), even while the emulator lags: the
button edges are then scheduled that far into emulated time. So a 6 s hold deals, and a
double-click is a double-click, on a slow emulator too; the tile just shows them later. Every
input (moves too) lands in emulated time in the order it was made, never before one made
earlier, and never in the emulator's past.
"""

import collections
import math
import time

from host_tools.bridge.monitor import parse_line
from simulator.world import grid
from simulator.world.world import OccupiedError

LEAD_MS = 100  # how far past where it is the paced emulator is let run at a time
GESTURE_GAP_MS = 1000  # an input this soon after the last one keeps its gap (clicks)
LOG_KEEP = 200  # lines kept per tile
RATE_WINDOW_S = 3.0  # the speed shown is measured over this much wall-clock time
LAGGING = 0.9  # emulated time at less than this share of what the window asked is lag
FRAMES_KEEP = 256  # decoded LED frames the cluster keeps per tile while a window runs


class TileLog:
    """One tile's serial output as lines, and what they say: state, piece, heap, game."""

    def __init__(self):
        self.lines = collections.deque(maxlen=LOG_KEEP)
        self.offset = 0  # bytes of the cluster's output buffer taken
        self.tail = b""  # the last bytes taken, to find the place again if the buffer is cut
        self.partial = b""
        self.state = None
        self.piece = None
        self.heap = None  # (free, used, emulated ms when it came)
        self.game = None  # from the tile's `BLINKS boot ... game=` line

    def take(self, buffer, now_ms):
        """Read what arrived in the cluster's output buffer since the last call."""
        start, tail = self.offset, self.tail
        if start > len(buffer) or buffer[start - len(tail) : start] != tail:
            found = bytes(buffer).rfind(tail)  # the cluster cut the buffer's start (1 MB kept)
            start = found + len(tail) if found >= 0 else 0
        fresh = bytes(buffer[start:])
        if not fresh:
            return
        self.offset = start + len(fresh)
        self.tail = (tail + fresh)[-32:]
        *complete, self.partial = (self.partial + fresh).split(b"\n")
        for raw in complete:
            line = raw.decode(errors="replace").replace("\r", "")
            self.lines.append(line)
            self._read(line, now_ms)

    def _read(self, line, now_ms):
        event = parse_line(line) or {}
        kind = event.get("kind")
        if kind == "boot":
            self.state = self.piece = self.heap = None
            self.game = event.get("game")
        elif kind == "state":
            self.state, self.piece = event["new"], event.get("shard")
        elif kind == "restore" and "state" in event:
            self.state, self.piece = event["state"], event.get("shard")
        elif kind == "heap":
            fields = dict(
                part.split("=", 1) for part in event.get("text", "").split() if "=" in part
            )
            try:
                self.heap = (int(fields["free"]), int(fields["used"]), now_ms)
            except (KeyError, ValueError):
                pass


class EmuWorld:
    def __init__(self, cluster, lockstep=True, wall=time.monotonic):
        self.cluster = cluster
        self.lockstep = lockstep
        self.wall = wall
        n = cluster.n
        self._position = [None] * n
        self._cells = {}
        self._down = [None] * n  # (emulated ms, window clock ms) of a press held now
        self._logs = [TileLog() for _ in range(n)]
        self._sent = cluster.now_ms  # the emulator is never past this: inputs go at or after it
        self._target = self._sent  # where the paced emulator is to get to next
        self._clock = 0.0  # the window's clock: every ms it asked for, lag or not
        self._last = (-math.inf, -math.inf)  # (emulated ms, window clock ms) of the last input
        self._actions = collections.deque()  # (emulated ms, rewire) not yet made
        self._samples = collections.deque()  # (wall s, emulated ms, window clock ms)
        self._offset = (0, 0)  # a table cell less this is the cluster's cell (EmuCluster.cells)
        self.lay_out(cluster.cells)

    # ---- the world's reads -------------------------------------------------------------------
    @property
    def tiles(self):
        return list(range(self.cluster.n))

    @property
    def now(self):
        return int(self.cluster.now_ms)

    def position(self, tid):
        return self._position[self._check(tid)]

    def tile_at(self, q, r):
        return self._cells.get((q, r))

    def leds(self, tid):
        """The six colours the tile shows (15-bit, as the game set them); dark before its pixels
        were first written (MicroPython alone, no game yet)."""
        return self.cluster.colours(self._check(tid)) or [0] * 6

    def logs(self, tid):
        return list(self._log(tid).lines)

    def inspect(self, tid):
        """What the window knows of a tile: the state and piece its last `LG` line said, its heap
        as last logged, the game it booted, and which faces are wired to a neighbour (the
        overlay's dots: "expired" is a face wired to nobody; the values on the air are unknown
        here)."""
        log = self._log(tid)
        wired = {face for face, _, _ in self.wires(tid)}
        info = {
            "micropython": True,
            "expired": [face not in wired for face in range(6)],
            "face_in": ["-"] * 6,
            "face_out": ["-"] * 6,
            "game": log.game,
            "heap": None if log.heap is None else {"free": log.heap[0], "used": log.heap[1]},
            "heap_ms": None if log.heap is None else log.heap[2],
        }
        if log.state is not None:
            info["state"] = log.state
        if log.piece is not None:
            info["shard"] = log.piece
        return info

    def wires(self, tid):
        """[(face, other tile, its face)] for each face of `tid` that touches a tile now."""
        pos = self._position[self._check(tid)]
        out = []
        if pos is None:
            return out
        q, r, rot = pos
        for face in range(6):
            d = grid.face_direction(face, rot)
            other = self._cells.get(grid.neighbour_cell(q, r, d))
            if other is not None:
                out.append((face, other, grid.face_toward((d + 3) % 6, self._position[other][2])))
        return out

    # ---- a person's hand ---------------------------------------------------------------------
    def press(self, tid):
        if self._down[self._check(tid)] is not None:
            return
        at = self._input_time(gap=True)
        self._down[tid] = (at, self._clock)
        self.cluster.button(tid, True, at)

    def release(self, tid):
        down = self._down[self._check(tid)]
        if down is None:
            return
        self._down[tid] = None
        at = max(self._input_time(gap=False), down[0] + (self._clock - down[1]))
        self._last = (at, self._clock)
        self.cluster.button(tid, False, at)

    def lift(self, tid):
        self._check(tid)
        old = self._position[tid]
        if old is not None:
            del self._cells[(old[0], old[1])]
            self._position[tid] = None
            self._act(lambda: self.cluster.lift(tid))

    def place(self, tid, q, r, rotation=None):
        self._check(tid)
        other = self._cells.get((q, r))
        if other is not None and other != tid:
            raise OccupiedError(f"cell ({q}, {r}) holds tile {other}")
        old = self._position[tid]
        if rotation is None:
            rotation = old[2] if old else 0
        if old:
            del self._cells[(old[0], old[1])]
        self._position[tid] = (q, r, rotation % 6)
        self._cells[(q, r)] = tid
        wires = self.wires(tid)
        cell = (q - self._offset[0], r - self._offset[1])  # the cluster's own cells: its shape's
        self._act(lambda: self.cluster.rewire(tid, wires, cell))

    def rotate(self, tid, steps=1):
        pos = self._position[self._check(tid)]
        if pos is None:
            raise ValueError(f"tile {tid} is not on the table")
        self.place(tid, pos[0], pos[1], pos[2] + steps)

    def lay_out(self, cells):
        """Put the tiles on `cells` [(q, r) or (q, r, rotation)] as they are wired now (the
        cluster's shape, moved as a whole: the same tiles touch by the same faces), with no
        rewiring."""
        start = self.cluster.cells[0]
        self._offset = (cells[0][0] - start[0], cells[0][1] - start[1])
        self._position = [None] * self.cluster.n
        self._cells = {}
        for tid, cell in enumerate(cells):
            q, r = cell[0], cell[1]
            self._position[tid] = (q, r, cell[2] if len(cell) > 2 else 0)
            self._cells[(q, r)] = tid

    def _input_time(self, gap):
        """When an input made now lands in emulated time: never in the emulator's past, never
        before the last input, and (a press) the last input's gap kept if it was a short one."""
        at = max(self._floor(), self._last[0])
        since = self._clock - self._last[1]
        if gap and since < GESTURE_GAP_MS:
            at = max(at, self._last[0] + since)
        self._last = (at, self._clock)
        return at

    def _floor(self):
        return max(self._sent, self.cluster.now_ms)

    def _act(self, rewire):
        """A change of wires, made once emulated time reaches the last input (in order)."""
        at = math.ceil(max(self._floor(), self._last[0]))
        self._last = (at, self._clock)
        self._actions.append((at, rewire))
        self._run_due()

    def _run_due(self):
        now = self.cluster.now_ms
        while self._actions and self._actions[0][0] <= now + 1e-6:
            self._actions.popleft()[1]()

    # ---- time ------------------------------------------------------------------------------
    def advance(self, ms):
        """Run `ms` more of the window's clock: lockstep, emulated time gets there before this
        returns; paced, the emulator is asked to (see the module's docstring)."""
        if ms < 0:
            raise ValueError("cannot advance by a negative time")
        self._clock += ms
        if self.lockstep:
            goal = self._sent + ms
            while self._actions and self._actions[0][0] <= goal:
                at, rewire = self._actions.popleft()
                if at > self.cluster.now_ms:
                    self.cluster.advance(at - self.cluster.now_ms)
                rewire()
            if goal > self.cluster.now_ms:
                self.cluster.advance(goal - self.cluster.now_ms)
            self._sent = self._target = max(goal, self.cluster.now_ms)
        else:
            self._target = max(self._sent, min(self._target + ms, self.cluster.now_ms + LEAD_MS))
            self.pump()

    def pump(self):
        """Paced: make the changes emulated time has reached and ask the emulator on to the
        window's clock (never past the next change, which waits for it; never more than LEAD_MS
        past where it was last seen: it says where it is only once it gets there). Lockstep:
        only the changes due. Call it every frame."""
        self._run_due()
        self._sample()
        if self.lockstep:
            return
        goal = math.floor(min(self._target, self.cluster.now_ms + LEAD_MS))
        if self._actions:
            goal = min(goal, self._actions[0][0])
        if goal > self._sent:
            self._sent = goal
            self.cluster.run_to(goal)

    def _sample(self):
        wall = self.wall()
        samples = self._samples
        if not samples or wall - samples[-1][0] >= 0.1:
            samples.append((wall, self.cluster.now_ms, self._clock))
        while len(samples) > 2 and wall - samples[1][0] > RATE_WINDOW_S:
            samples.popleft()
        for frames in self.cluster.led_frames:  # a long window must not keep every frame
            if len(frames) > 2 * FRAMES_KEEP:
                del frames[:-FRAMES_KEEP]

    def speed(self):
        """(emulated ms per wall ms, window clock ms per wall ms) over the last few seconds, or
        None while there is too little to tell."""
        samples = self._samples
        if len(samples) < 2 or samples[-1][0] - samples[0][0] < 1.0:
            return None
        (w0, e0, c0), (w1, e1, c1) = samples[0], samples[-1]
        wall_ms = (w1 - w0) * 1000
        return (e1 - e0) / wall_ms, (c1 - c0) / wall_ms

    def lag_note(self):
        """ "emulator at 0.4x real time" while emulated time runs slower than the window's clock
        (paced), else None."""
        if self.lockstep:
            return None
        speed = self.speed()
        if speed is None or speed[1] <= 0 or speed[0] >= LAGGING * speed[1]:
            return None
        return f"emulator at {speed[0]:.2g}x real time"

    def ahead_ms(self):
        """How far past where emulated time is the last input lies (a press held while the
        emulator lags is played that much later on its tile)."""
        return max(0.0, self._last[0] - self.cluster.now_ms)

    # ---- internals ----------------------------------------------------------------------------
    def _log(self, tid):
        log = self._logs[self._check(tid)]
        log.take(self.cluster.output[tid], self.cluster.now_ms)
        return log

    def _check(self, tid):
        if not isinstance(tid, int) or not 0 <= tid < self.cluster.n:
            raise ValueError(f"no tile {tid!r}")
        return tid
