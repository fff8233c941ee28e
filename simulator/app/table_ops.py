"""Everything a person can do to the tiles on the table, applied to the world and recorded.

This is the only module that changes the world. Every change goes through `apply()`-able ops
(press, release, lift, place, rotate), each written to the recorder at the current simulated
time, so a replay performs exactly the same calls in the same order at the same times.
Geometry helpers (clusters, snapping a dragged group, splitting along a knife line) work on the
tiles' axial cells and never depend on dict or set order.
"""

import math

from simulator.app.layout import DIRECTIONS, direction_angle, hex_distance


def _ring(radius: int) -> list:
    """Axial offsets at exactly `radius` steps, in a fixed order (the guide's ring walk)."""
    if radius == 0:
        return [(0, 0)]
    q, r = DIRECTIONS[4][0] * radius, DIRECTIONS[4][1] * radius
    out = []
    for d in range(6):
        for _ in range(radius):
            out.append((q, r))
            q, r = q + DIRECTIONS[d][0], r + DIRECTIONS[d][1]
    return out


class TableOps:
    def __init__(self, world, recorder=None, on_table=None):
        self.world = world
        self.recorder = recorder
        self.on_table = on_table or (lambda q, r: True)
        self.last_touched = None  # the tile a hand last acted on (the inspector falls back to it)

    # -- the recorded primitives ---------------------------------------------------------
    def _record(self, op, **fields):
        if "tile" in fields:
            self.last_touched = fields["tile"]
        if self.recorder is not None:
            self.recorder.record(self.world.now, op, **fields)

    def press(self, tid: int):
        self.world.press(tid)
        self._record("press", tile=tid)

    def release(self, tid: int):
        self.world.release(tid)
        self._record("release", tile=tid)

    def rotate(self, tid: int, steps: int):
        self.world.rotate(tid, steps)
        self._record("rotate", tile=tid, steps=steps)

    def lift(self, tid: int):
        self.world.lift(tid)
        self._record("lift", tile=tid)

    def place(self, tid: int, q: int, r: int, rot: int):
        self.world.place(tid, q, r, rot)
        self._record("place", tile=tid, q=q, r=r, rot=rot)

    def apply(self, event: dict):
        """Perform one recorded event (used by replay); tokens and end are the app's business."""
        op = event["op"]
        if op == "press":
            self.press(event["tile"])
        elif op == "release":
            self.release(event["tile"])
        elif op == "rotate":
            self.rotate(event["tile"], event["steps"])
        elif op == "lift":
            self.lift(event["tile"])
        elif op == "place":
            self.place(event["tile"], event["q"], event["r"], event["rot"])

    # -- geometry ------------------------------------------------------------------------
    def cell(self, tid: int):
        pos = self.world.position(tid)
        return None if pos is None else (pos[0], pos[1])

    def cluster_of(self, tid: int) -> list:
        """Tiles connected to tid through occupied neighbouring cells, sorted by id."""
        start = self.cell(tid)
        if start is None:
            return [tid]
        seen = {start}
        todo = [start]
        found = []
        while todo:
            q, r = todo.pop()
            t = self.world.tile_at(q, r)
            if t is None:
                continue
            found.append(t)
            for dq, dr in DIRECTIONS:
                n = (q + dq, r + dr)
                if n not in seen and self.world.tile_at(*n) is not None:
                    seen.add(n)
                    todo.append(n)
        return sorted(found)

    def clusters(self) -> list:
        done = set()
        out = []
        for tid in sorted(self.world.tiles):
            if tid in done or self.cell(tid) is None:
                continue
            c = self.cluster_of(tid)
            done.update(c)
            out.append(c)
        return out

    def _free(self, cells: list, ignore=()) -> bool:
        for q, r in cells:
            if not self.on_table(q, r):
                return False
            t = self.world.tile_at(q, r)
            if t is not None and t not in ignore:
                return False
        return True

    def nearest_free_offset(self, cells: list, ignore=(), max_radius: int = 8):
        """The smallest shift (axial dq, dr) that puts every cell on a free table cell."""
        for radius in range(max_radius + 1):
            for dq, dr in _ring(radius):
                if self._free([(q + dq, r + dr) for q, r in cells], ignore):
                    return dq, dr
        return None

    def move_group(self, placements: list):
        """Place lifted tiles [(tid, q, r, rot)], shifted to the nearest free cells as a whole.

        Returns the placements actually used, or None (and places nothing) if no room was found.
        """
        offset = self.nearest_free_offset([(q, r) for _, q, r, _ in placements])
        if offset is None:
            return None
        done = []
        for tid, q, r, rot in placements:
            self.place(tid, q + offset[0], r + offset[1], rot)
            done.append((tid, q + offset[0], r + offset[1], rot))
        return done

    def split(self, layout, p0: tuple, p1: tuple) -> list:
        """Cut every cluster the knife line p0 -> p1 crosses; move the smaller side away.

        A cluster is cut when the segment passes within one hex of one of its tiles and tiles lie
        on both sides of the line. The smaller side (ties: the side the line's left normal points
        at) slides along the axial direction closest to the normal until it touches nothing.
        Returns the list of moved tile ids.
        """
        (x0, y0), (x1, y1) = p0, p1
        length = math.hypot(x1 - x0, y1 - y0)
        if length < layout.size:
            return []
        nx, ny = (y0 - y1) / length, (x1 - x0) / length  # unit normal (left side)
        moved = []
        for cluster in self.clusters():
            sides = {True: [], False: []}
            near = False
            for tid in cluster:
                cx, cy = layout.to_pixel(*self.cell(tid))
                side = (cx - x0) * nx + (cy - y0) * ny
                sides[side > 0].append(tid)
                t = ((cx - x0) * (x1 - x0) + (cy - y0) * (y1 - y0)) / (length * length)
                t = min(1.0, max(0.0, t))
                if math.hypot(x0 + t * (x1 - x0) - cx, y0 + t * (y1 - y0) - cy) < layout.size:
                    near = True
            if not near or not sides[True] or not sides[False]:
                continue
            go_left = len(sides[True]) <= len(sides[False])
            part = sides[go_left]
            stay = sides[not go_left]
            sign = 1.0 if go_left else -1.0
            d = max(
                range(6),
                key=lambda i: (
                    sign * (math.cos(direction_angle(i)) * nx + math.sin(direction_angle(i)) * ny)
                ),
            )
            if self._slide(part, stay, DIRECTIONS[d]):
                moved.extend(part)
        return sorted(moved)

    def _slide(self, part: list, stay: list, step: tuple) -> bool:
        cells = [(tid,) + tuple(self.world.position(tid)) for tid in part]
        stay_cells = [self.cell(t) for t in stay]
        for k in range(1, 10):
            target = [(q + step[0] * k, r + step[1] * k) for _, q, r, _ in cells]
            if not self._free(target, ignore=part):
                continue
            if any(hex_distance(a, b) <= 1 for a in target for b in stay_cells):
                continue
            for tid, _, _, _ in cells:
                self.lift(tid)
            for (tid, _, _, rot), (q, r) in zip(cells, target):
                self.place(tid, q, r, rot)
            return True
        return False
