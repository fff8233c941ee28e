"""Gembatan's board (pure rules): square tiles on cells, the sockets two facing cutouts make,
the gems in them, and the diagonal chains gems make.

A socket lies on the edge between two cells, where both tiles show a cutout; its colours are
the two cutouts' (west or north tile first). A gem fits a socket when its two colours are the
socket's, each half against the cutout of its colour. Gems sit at the edges' middles, which
form a lattice turned 45 degrees: a chain runs along its diagonals, never across a row or a
column of tiles.
"""

from simulator.games.gembatan.rules import (
    CHAIN,
    PLAIN,
    edge,
    edge_cells,
    edge_point,
    neighbour,
    point_edge,
    side_toward,
)


class Board:
    def __init__(self):
        self.tiles = {}  # cell -> (sides, rotation)
        self.gems = {}  # edge -> (colour on the west/north half, colour on the east/south half)

    def copy(self):
        other = Board()
        other.tiles = dict(self.tiles)
        other.gems = dict(self.gems)
        return other

    def side(self, cell, direction):
        """The side the tile on `cell` shows toward `direction` (None: no tile there)."""
        placed = self.tiles.get(cell)
        return None if placed is None else side_toward(placed[0], placed[1], direction)

    def socket_colours(self, e):
        """(west/north colour, east/south colour) of the socket on edge `e`, or None if the
        edge is no socket (a cell without a tile, or a plain side)."""
        a, b = edge_cells(e)
        from_a = self.side(a, e[1])
        from_b = self.side(b, (e[1] + 2) % 4)
        if from_a in (None, PLAIN) or from_b in (None, PLAIN):
            return None
        return (from_a, from_b)

    def open_sockets(self):
        """Every socket with no gem, sorted."""
        out = []
        for cell in self.tiles:
            for d in range(4):
                e = edge(cell, d)
                if e not in self.gems and e not in out and self.socket_colours(e):
                    out.append(e)
        return sorted(out)

    def open_cells(self):
        """Empty cells beside a tile, sorted."""
        out = set()
        for cell in self.tiles:
            for d in range(4):
                n = neighbour(cell, d)
                if n not in self.tiles:
                    out.add(n)
        return sorted(out)

    def fits(self, cell, sides, rotation):
        """The sockets a tile would make on `cell` (its edges facing a cutout with a cutout),
        or None if it may not lie there: beside no tile, or cutting a socket off (a cutout
        against a plain side, either way round)."""
        made = self.sockets_made(cell, sides, rotation)
        return None if made is None else [e for e, _ in made]

    def sockets_made(self, cell, sides, rotation):
        """fits(), each socket with its colours (west/north first): [(edge, colours)]."""
        made = []
        touches = False
        for d in range(4):
            other = self.side(neighbour(cell, d), (d + 2) % 4)
            if other is None:
                continue
            touches = True
            mine = side_toward(sides, rotation, d)
            if (mine == PLAIN) != (other == PLAIN):
                return None
            if mine != PLAIN:
                colours = (mine, other) if d in (1, 2) else (other, mine)
                made.append((edge(cell, d), colours))
        return sorted(made) if touches else None

    def gem_fits(self, gem, e):
        """The gem's colours as they would lie in socket `e` (west/north half first), or None."""
        if e in self.gems:
            return None
        colours = self.socket_colours(e)
        return colours if colours is not None and gem_matches(gem, colours) else None

    def chains_through(self, e):
        """The chains of CHAIN or more gems through the gem on edge `e`, one a diagonal and a
        colour of that gem: [(colour, [edges])]."""
        gem = self.gems[e]
        px, py = edge_point(e)
        out = []
        for dx, dy in ((1, 1), (1, -1)):
            for colour in sorted(set(gem)):
                line = [e]
                for sign in (1, -1):
                    x, y = px + sign * dx, py + sign * dy
                    while True:
                        other = point_edge((x, y))
                        found = self.gems.get(other)
                        if found is None or colour not in found:
                            break
                        line.append(other)
                        x, y = x + sign * dx, y + sign * dy
                if len(line) >= CHAIN:
                    out.append((colour, sorted(line)))
        return out

    def gem_points(self, e):
        """What the gem on edge `e` scores as it is placed: one for the gem, and one for each gem
        of each chain through it."""
        return 1 + sum(len(line) for _, line in self.chains_through(e))


def gem_matches(gem, colours):
    """Whether a gem's two colours are a socket's (either way round)."""
    return (gem[0] == colours[0] and gem[1] == colours[1]) or (
        gem[1] == colours[0] and gem[0] == colours[1]
    )


__all__ = ["Board", "gem_matches"]
