"""Gembatan moves: one small decision each, so legal_moves() stays short.

tile N at X,Y turn T     lay hand tile N (1-based) on cell (X, Y), turned T quarter turns
                         clockwise (0-3); a gem must go into one of its new sockets next
gem N at X,Y SIDE        put hand gem N in the socket on that side (north, east, south, west)
                         of cell (X, Y)
done                     end the turn (after at least one tile)
trade TILES GEMS         in place of a turn: turn in the hand tiles and gems listed by slot,
                         e.g. `trade tiles 1 3 gems 2` (`trade` alone: pass)
"""

from simulator.games.gembatan.rules import DIRECTION_NAMES, edge_name

TILE, GEM, DONE, TRADE = "tile", "gem", "done", "trade"


class Move:
    __slots__ = ("cell", "edge", "gems", "kind", "rotation", "slot", "tiles")

    def __init__(self, kind, slot=0, cell=None, rotation=0, edge=None, tiles=(), gems=()):
        self.kind = kind
        self.slot = slot
        self.cell = cell
        self.rotation = rotation
        self.edge = edge
        self.tiles = tuple(sorted(tiles))
        self.gems = tuple(sorted(gems))

    def _key(self):
        return (self.kind, self.slot, self.cell, self.rotation, self.edge, self.tiles, self.gems)

    def __eq__(self, other):
        return isinstance(other, Move) and self._key() == other._key()

    def __hash__(self):
        return hash(self._key())

    def __repr__(self):
        return f"Move({self})"

    def __str__(self):
        if self.kind == TILE:
            return f"tile {self.slot} at {self.cell[0]},{self.cell[1]} turn {self.rotation}"
        if self.kind == GEM:
            return f"gem {self.slot} at {edge_name(self.edge)}"
        if self.kind == TRADE:
            text = "trade"
            if self.tiles:
                text += " tiles " + " ".join(map(str, self.tiles))
            if self.gems:
                text += " gems " + " ".join(map(str, self.gems))
            return text
        return self.kind


def tile(slot, cell, rotation):
    return Move(TILE, slot, tuple(cell), rotation % 4)


def gem(slot, e):
    return Move(GEM, slot, edge=(tuple(e[0]), e[1]))


def done():
    return Move(DONE)


def trade(tiles=(), gems=()):
    return Move(TRADE, tiles=tiles, gems=gems)


__all__ = ["DIRECTION_NAMES", "Move", "done", "gem", "tile", "trade"]
