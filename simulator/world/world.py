"""The headless world: tiles on a hex grid, a virtual clock, scripted hands.

Each tile has a `SimHal` and a runner (by default the runtime's `Tile`) that the world steps at
the tile's pass cadence: every `loop_ms` (default 20 ms) with a per-tile phase and a small
per-pass jitter drawn from the tile's seed, so tiles are never in lockstep. Passes run in time
order (ties by tile id); that order, and every random draw, is fixed by the seed, so the same
seed and the same inputs give the same run, bit for bit.
"""

import heapq
import random

from hal.ir_phy import BIT_RATE
from runtime.button import CLICK_WINDOW_MS
from runtime.tile import Tile

from simulator.world import grid
from simulator.world.ir import IrModel
from simulator.world.tile_hal import SimHal

CLICK_DOWN_MS = 60  # how long a person holds the button for a click
CLICK_GAP_MS = 140  # button up between the clicks of a double or triple click
SETTLE_MS = 400  # after the last press, long enough for the 330 ms click window to run out


class OccupiedError(ValueError):
    """A tile was placed on a cell that another tile occupies."""


class World:
    """Tiles on a table. `seed` fixes every random draw; `ir_loss` is the probability that a frame
    is lost, `bit_flip` that a bit of a delivered frame flips; `loop_ms` is each tile's pass
    period; `bit_rate` sets the infrared time on air (see ir.py: the board's 115.2 kbit/s by
    default; the deal benchmarks use 4000)."""

    def __init__(
        self,
        seed: int = 0,
        ir_loss: float = 0.0,
        bit_flip: float = 0.0,
        loop_ms: int = 20,
        bit_rate: int = BIT_RATE,
    ):
        if loop_ms < 2:
            raise ValueError("loop_ms must be at least 2")
        self.seed = seed
        self.loop_ms = loop_ms
        self.now = 0
        self.ir = IrModel(self, random.Random(_mix(seed, 0x1F)), ir_loss, bit_flip, bit_rate)
        self._hals: list[SimHal] = []
        self._runners: list = []
        self._jitter: list[random.Random] = []  # per-tile generators for pass jitter
        self._position: list[tuple[int, int, int] | None] = []  # None when lifted
        self._cells: dict[tuple[int, int], int] = {}  # (q, r) -> tile id
        self._down: list[bool] = []
        self._queue: list[tuple[int, int]] = []  # (next pass ms, tile id)

    # ---- tiles ----

    @property
    def tiles(self):
        return list(range(len(self._hals)))

    def add_tile(self, game_class, q=0, r=0, rotation=0, runner=None) -> int:
        """Add a tile running `game_class` at (q, r), or off the table when q is None.

        `runner(hal, game_class)` builds the object the world steps (`step()`, `inspect()`,
        `reset()`); default `runtime.tile.Tile`. Raises OccupiedError (nothing added) when the
        cell is taken."""
        if q is not None and (q, r) in self._cells:
            raise OccupiedError(f"cell ({q}, {r}) holds tile {self._cells[(q, r)]}")
        tid = len(self._hals)
        tile_seed = _mix(self.seed, tid + 1)
        hal = SimHal(self, tid, tile_seed)
        self._hals.append(hal)
        self._position.append(None)
        self._down.append(False)
        jitter = random.Random(tile_seed ^ 0x5EED)
        self._jitter.append(jitter)
        self._runners.append((runner or Tile)(hal, game_class))
        heapq.heappush(self._queue, (self.now + jitter.randrange(self.loop_ms), tid))
        if q is not None:
            self.place(tid, q, r, rotation)
        return tid

    def place(self, tid: int, q: int, r: int, rotation=None) -> None:
        """Put a tile on a cell (moving it if it is elsewhere). OccupiedError if another tile
        is there; the tile then stays where it was."""
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
        self._pair()

    def lift(self, tid: int) -> None:
        """Take a tile off the table: it keeps running but has no neighbours."""
        self._check(tid)
        old = self._position[tid]
        if old:
            del self._cells[(old[0], old[1])]
            self._position[tid] = None
            self._pair()

    def rotate(self, tid: int, steps: int = 1) -> None:
        """Turn a tile in place by steps of 60 degrees clockwise (it must be on the table)."""
        pos = self._position[self._check(tid)]
        if pos is None:
            raise ValueError(f"tile {tid} is not on the table")
        self._position[tid] = (pos[0], pos[1], (pos[2] + steps) % 6)
        self._pair()

    def tile_at(self, q: int, r: int):
        return self._cells.get((q, r))

    def position(self, tid: int):
        return self._position[self._check(tid)]

    def neighbours(self, tid: int) -> dict:
        """{face: (other tile id, other face)} for each face that touches a tile."""
        hal = self._hals[self._check(tid)]
        return {f: (p[0].tile_id, p[1]) for f, p in enumerate(hal.peers) if p is not None}

    def reset_tile(self, tid: int) -> None:
        """Power cycle: a fresh game instance; storage is kept, inputs in flight are lost."""
        hal = self._hals[self._check(tid)]
        hal.clear_queues()
        self._down[tid] = False
        self._runners[tid].reset()

    def runner(self, tid: int):
        return self._runners[self._check(tid)]

    def hal(self, tid: int) -> SimHal:
        return self._hals[self._check(tid)]

    # ---- hands ----

    def press(self, tid: int) -> None:
        """Button down now (no effect if it is already down)."""
        if not self._down[self._check(tid)]:
            self._down[tid] = True
            self._hals[tid].edges.append((self.now, True))

    def release(self, tid: int) -> None:
        """Button up now (no effect if it is already up)."""
        if self._down[self._check(tid)]:
            self._down[tid] = False
            self._hals[tid].edges.append((self.now, False))

    def click(self, tid: int) -> None:
        """A click as a person makes it; returns once the click event has fired."""
        self._clicks(tid, 1)

    def double_click(self, tid: int) -> None:
        self._clicks(tid, 2)

    def triple_click(self, tid: int) -> None:
        self._clicks(tid, 3)

    def hold(self, tid: int, ms: int) -> None:
        """Press, keep the button down for ms, release (returns right after the release)."""
        self.press(tid)
        self.advance(ms)
        self.release(tid)

    def _clicks(self, tid: int, n: int) -> None:
        for i in range(n):
            if i:
                self.advance(CLICK_GAP_MS)
            self.press(tid)
            self.advance(CLICK_DOWN_MS)
            self.release(tid)
        # wait until the click window has run out and a pass has seen it, however slow the loop
        self.advance(max(SETTLE_MS, CLICK_WINDOW_MS + self.loop_ms + 3) - CLICK_DOWN_MS)

    # ---- time ----

    def advance(self, ms: int) -> None:
        """Run every tile pass due in the next ms milliseconds. An exception from a game stops
        the advance at that pass (the clock stays there) and propagates; advancing again goes
        on from the next pass, the failing tile included."""
        if ms < 0:
            raise ValueError("cannot advance by a negative time")
        target = self.now + ms
        queue = self._queue
        steps = [r.step for r in self._runners]
        jitter = self._jitter
        period = self.loop_ms - 1
        pop = heapq.heappop
        push = heapq.heappush
        while queue and queue[0][0] <= target:
            t, tid = pop(queue)
            self.now = t
            # schedule the next pass first: a game that raises stops this advance, not its tile
            push(queue, (t + period + jitter[tid].getrandbits(2), tid))
            steps[tid]()
        self.now = target

    def run_until(self, predicate, timeout_ms: int, every_ms: int | None = None) -> bool:
        """Advance until predicate() is true, looking after every pass, or every `every_ms` of
        simulated time for a predicate dearer than a pass (reading a whole log, say); False if
        timeout_ms ran out first."""
        end = self.now + timeout_ms
        if predicate():
            return True
        while self.now < end:
            if every_ms is None:
                nxt = self._queue[0][0] if self._queue else end
                step = min(max(nxt, self.now), end) - self.now
            else:
                step = min(every_ms, end - self.now)
            self.advance(step)
            if predicate():
                return True
        return False

    # ---- outputs ----

    def leds(self, tid: int):
        """The six colours a tile shows now (15-bit ints, face 0..5)."""
        return list(self._hals[self._check(tid)].leds)

    def inspect(self, tid: int) -> dict:
        return self._runners[self._check(tid)].inspect()

    def logs(self, tid: int):
        """Recent log lines of a tile (text only, oldest first)."""
        return [line for _, line in self._hals[self._check(tid)].log_lines]

    # ---- internals ----

    def _check(self, tid) -> int:
        if not isinstance(tid, int) or not 0 <= tid < len(self._hals):
            raise ValueError(f"no tile {tid!r}")
        return tid

    def _pair(self) -> None:
        """Recompute which faces touch; frames in flight on a changed link are lost."""
        now = self.now
        for tid, hal in enumerate(self._hals):
            pos = self._position[tid]
            for f in range(6):
                peer = None
                if pos is not None:
                    d = grid.face_direction(f, pos[2])
                    other = self._cells.get(grid.neighbour_cell(pos[0], pos[1], d))
                    other_pos = self._position[other] if other is not None else None
                    if other is not None and other_pos is not None:
                        peer = (self._hals[other], grid.face_toward((d + 3) % 6, other_pos[2]))
                old = hal.peers[f]
                if old != peer:
                    hal.peers[f] = peer
                    hal.rx_until[f] = now
                    box = hal.inbox[f]
                    if box and box[-1][0] > now:
                        hal.inbox[f] = [fr for fr in box if fr[0] <= now]


def _mix(seed: int, salt: int) -> int:
    """A per-purpose seed from the world seed (stable across Python versions)."""
    x = (seed * 0x9E3779B97F4A7C15 + salt * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    x ^= x >> 31
    return x
