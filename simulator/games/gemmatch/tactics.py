"""What a placement would make, found fast, for the bots: on a settled field (no group of 3 or
more), a token placed on an open cell can only make groups through its own gems. Each gem of
the new token joins at most the one group across its face, and (on an improved side) its
neighbouring twin's; those groups hold 1 or 2 gems and never reach another face of the same
cell, so the new groups are each run of the token's gems plus the groups facing it. This is
exact (tests check it against the referee's search of the whole field), and it costs a few
lookups a rotation instead of a search of the field.
"""

from simulator.games.gemmatch import rules
from simulator.games.gemmatch.field import Group, merged
from simulator.games.gemmatch.rules import neighbour

_twins = {}


def twin_face(gems):
    """The face f of a side whose gem equals the gem on face f + 1 (an improved side's pair),
    or None."""
    key = tuple(gems)
    if key not in _twins:
        _twins[key] = next((f for f in range(6) if gems[f] == gems[(f + 1) % 6]), None)
    return _twins[key]


class Outlook:
    """The open cells of a settled field, and for each the gems its neighbours turn to it, with
    the group each belongs to."""

    __slots__ = ("cells", "colours", "facing", "signature")

    def __init__(self, field, only=None):
        """`only`: a set of cells to look at (of the open ones), when the rest are known."""
        if only is None:
            self.cells = field.open_cells()
        else:  # open_cells() restricted to `only`, without a walk round the whole field
            taken = field.cells
            self.cells = sorted(
                c
                for c in only
                if c in field.board
                and c not in taken
                and any(neighbour(c, d) in taken for d in range(6))
            )
        self.facing = {}
        self.colours = {}  # cell -> the colours facing it: a token of none of them makes nothing
        # cell -> (colour, size) of the group facing it each way: all a placement's groups
        # depend on, so placements over the same signature make the same groups
        self.signature = {}
        groups = {}
        for cell in self.cells:
            row = []
            for d in range(6):
                n = neighbour(cell, d)
                placed = field.cells.get(n)
                if placed is None:
                    row.append(None)
                    continue
                gem = (n, (d + 3) % 6)
                group = groups.get(gem)
                if group is None:
                    group = field.group_of(*gem)
                    for g in group.gems:
                        groups[g] = group
                row.append(group)
            self.facing[cell] = row
            self.colours[cell] = {g.colour for g in row if g is not None}
            self.signature[cell] = tuple(None if g is None else (g.colour, g.size) for g in row)

    def may_make(self, cell, gems):
        """False when a token showing `gems` cannot make a group on `cell` in any rotation (none
        of its colours faces the cell): most cells, so the bots skip them without a search."""
        return not self.colours[cell].isdisjoint(gems)

    def groups_made(self, cell, gems, rotation):
        """The groups of 3 or more that a token showing `gems`, placed on `cell` with this
        rotation, would make at once (as Groups, before the document's merging)."""
        facing = self.facing[cell]
        twin = twin_face(gems)
        twin_at = None if twin is None else (twin + rotation) % 6
        out = []
        for d in range(6):
            if twin_at is not None and d == (twin_at + 1) % 6:
                continue  # counted with its twin
            run = (d, (d + 1) % 6) if d == twin_at else (d,)
            colour = gems[(d - rotation) % 6]
            size = len(run)
            joined = []
            for e in run:
                g = facing[e]
                if g is not None and g.colour == colour:
                    size += g.size
                    joined.append(g)
            if joined and size >= rules.TIER_SIZES[0]:
                gem_set = {(cell, e) for e in run}
                for g in joined:
                    gem_set |= g.gems
                out.append(Group(colour, gem_set))
        return out

    def outcome(self, cell, gems, rotation):
        """[(tier, Group)] a placement makes, merged as the document counts, largest first."""
        made = self.groups_made(cell, gems, rotation)
        return merged(made) if made else []


__all__ = ["Outlook", "twin_face"]
