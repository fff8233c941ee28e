"""Cluster layouts: lists of axial (q, r) cells forming one connected cluster.

Every shape is deterministic (the random one from the rng it is given) and starts at (0, 0) or
around it, so callers can offset it.
"""

import random

from simulator.world.grid import DIRECTIONS

NAMES = ("blob", "line", "ring", "random")  # what session scripts call them (`deal SHAPE`)


def _check(n: int) -> None:
    if not isinstance(n, int) or n < 1:
        raise ValueError(f"a shape needs at least 1 tile, got {n!r}")


def blob(n: int):
    """The most compact cluster: (0, 0) then ring after ring around it."""
    _check(n)
    cells = [(0, 0)]
    radius = 1
    while len(cells) < n:
        cells.extend(_ring_cells(radius))
        radius += 1
    return cells[:n]


def line(n: int):
    """A straight line going south-east: (0, 0), (1, 0), (2, 0) ..."""
    _check(n)
    return [(i, 0) for i in range(n)]


def ring(n: int):
    """A loop around an empty centre. Exact rings hold 6, 12, 18 ... tiles (radius n / 6); for
    other sizes the cells are the first n of the smallest ring that holds them (an open arc)."""
    _check(n)
    radius = (n + 5) // 6
    return _ring_cells(radius)[:n]


def random_shape(n: int, rng):
    """A random connected cluster grown cell by cell from (0, 0); `rng` is a random.Random."""
    _check(n)
    cells = [(0, 0)]
    taken = {(0, 0)}
    while len(cells) < n:
        frontier = set()
        for q, r in cells:
            for dq, dr in DIRECTIONS:
                c = (q + dq, r + dr)
                if c not in taken:
                    frontier.add(c)
        pick = rng.choice(sorted(frontier))
        cells.append(pick)
        taken.add(pick)
    return cells


def named(shape: str, n: int, seed: int = 0):
    """The cluster a session script's `deal SHAPE` asks for: one of NAMES (the random one drawn
    from `seed`); anything else is a blob."""
    if shape == "line":
        return line(n)
    if shape == "ring":
        return ring(n)
    if shape == "random":
        return random_shape(n, random.Random(seed))
    return blob(n)


def _ring_cells(radius: int):
    # Start at the cell `radius` steps along direction 4 (SW) and walk the six sides clockwise.
    q, r = DIRECTIONS[4][0] * radius, DIRECTIONS[4][1] * radius
    out = []
    for side in range(6):
        dq, dr = DIRECTIONS[side]
        for _ in range(radius):
            out.append((q, r))
            q, r = q + dq, r + dr
    return out
