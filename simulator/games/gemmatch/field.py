"""Gem Match's field: hex tokens on cells, their gems, and the groups the gems make (pure rules:
no world, no tiles).

A cell is axial (q, r), flat-top, direction 0 north and clockwise, as the world's grid. A
token on the field lies on a cell with a side up and a rotation: its face f points to direction
(f + rotation) % 6, so the gem facing direction d is side[(d - rotation) % 6].

Gems touch within a token (neighbouring faces, d and d +- 1) and across two touching faces
(d on one cell, d + 3 on the neighbour that way). A group is a set of touching gems of one
colour. Each gem has two neighbours within its token and at most one across, and a token's side
has at most one pair of neighbouring faces alike, so a group is a path or a ring of gems; a
settled field (every group of 3 or more resolved) holds groups of 1 and 2 gems only.
"""

from simulator.games.gemmatch import rules
from simulator.games.gemmatch.rules import BIG, CENTRE, DIRECTIONS, HUGE, SMALL, neighbour, tier_of


class Placed:
    """A token on the field: its id (index in the deck), the gems of its up side by face, its
    rotation."""

    __slots__ = ("gems", "rotation", "token")

    def __init__(self, token, gems, rotation):
        self.token = token
        self.gems = gems
        self.rotation = rotation

    def gem_toward(self, direction):
        return self.gems[(direction - self.rotation) % 6]


class Group:
    """Touching gems of one colour: `gems` as (cell, direction), the `cells` of the tokens they
    lie on, and the colour."""

    __slots__ = ("cells", "colour", "gems")

    def __init__(self, colour, gems):
        self.colour = colour
        self.gems = gems
        self.cells = sorted({cell for cell, _ in gems})

    @property
    def size(self):
        return len(self.gems)

    def __repr__(self):
        return f"Group({self.colour}, {self.size} gems on {self.cells})"


class Field:
    def __init__(self, board):
        self.board = board  # the cells a token may lie on (a frozenset)
        self.cells = {}  # cell -> Placed

    def __len__(self):
        return len(self.cells)

    def copy(self):
        other = Field(self.board)
        other.cells = dict(self.cells)
        return other

    def gem(self, cell, direction):
        """The colour of the gem on `cell` facing `direction`, or None (no token there)."""
        placed = self.cells.get(cell)
        return None if placed is None else placed.gem_toward(direction)

    def open_cells(self):
        """Empty board cells a token may be placed on: touching the field, or the centre while
        the field is empty (sorted, so every reader sees one order)."""
        if not self.cells:
            return [CENTRE]
        out = set()
        for cell in self.cells:
            for d in range(6):
                n = neighbour(cell, d)
                if n in self.board and n not in self.cells:
                    out.add(n)
        return sorted(out)

    def put(self, cell, placed):
        self.cells[cell] = placed

    def remove(self, cell):
        return self.cells.pop(cell)

    def touching(self, cell, direction):
        """The gems touching gem (cell, direction): its two neighbours on the token, and the
        gem across the face if a token lies there."""
        out = [(cell, (direction + 1) % 6), (cell, (direction - 1) % 6)]
        n = neighbour(cell, direction)
        if n in self.cells:
            out.append((n, (direction + 3) % 6))
        return out

    def group_of(self, cell, direction):
        """The group gem (cell, direction) belongs to (a Group, possibly of one gem)."""
        colour = self.gem(cell, direction)
        seen = {(cell, direction)}
        todo = [(cell, direction)]
        while todo:
            c, d = todo.pop()
            for other in self.touching(c, d):
                if other not in seen and self.gem(*other) == colour:
                    seen.add(other)
                    todo.append(other)
        return Group(colour, seen)

    def groups(self, minimum=None, around=None):
        """Every group of at least `minimum` gems (the smallest tier's size by default) that
        joins two tokens or more (a token alone never makes a group), of the tokens on the
        `around` cells only if given; sorted by size, largest first, then by cells."""
        if minimum is None:
            minimum = rules.TIER_SIZES[0]
        out = []
        seen = set()
        cells = self.cells if around is None else [c for c in around if c in self.cells]
        for cell in sorted(cells):
            for d in range(6):
                if (cell, d) in seen:
                    continue
                group = self.group_of(cell, d)
                seen |= group.gems
                if group.size >= minimum and len(group.cells) > 1:
                    out.append(group)
        out.sort(key=lambda g: (-g.size, g.cells, g.colour))
        return out


def merged(groups):
    """The groups one placement made, as the document counts them: several of one tier are one
    group of the next tier (two 3s a 4, two 4s a 5+), until no two share a tier. Returns
    [(tier, Group)], largest tier first."""
    by_tier = {}
    for g in groups:
        by_tier.setdefault(tier_of(g.size), []).append(g)
    for tier in (SMALL, BIG, HUGE):
        found = by_tier.get(tier, [])
        if len(found) > 1:
            gems = set()
            for g in found:
                gems |= g.gems
            union = Group(found[0].colour, gems)
            by_tier[tier] = []
            by_tier.setdefault(min(tier + 1, HUGE), []).append(union)
    out = [(t, gs[0]) for t, gs in by_tier.items() if gs]
    out.sort(key=lambda tg: -tg[0])
    return out


def ring_cells(radius):
    """The hexagon of cells within `radius` steps of (0, 0)."""
    out = set()
    for q in range(-radius, radius + 1):
        for r in range(-radius, radius + 1):
            if abs(q) <= radius and abs(r) <= radius and abs(q + r) <= radius:
                out.add((q, r))
    return frozenset(out)


__all__ = ["DIRECTIONS", "Field", "Group", "Placed", "merged", "ring_cells"]
