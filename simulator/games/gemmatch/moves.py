"""Gem Match moves: one small decision each, so legal_moves() stays short.

place N at Q,R turn T   put hand token N (1-based) on cell (Q, R), its face 0 turned to
                        direction T (0 north, clockwise), the side it shows in the hand up
heap Q,R                a group being resolved: the token on cell (Q, R) to your victory heap
hand Q,R basic|improved ... to your hand, that side up
pass                    after a group of 3 or more: end the turn instead of placing again
skip                    no hand token can be placed anywhere: the turn is skipped
"""

from simulator.games.gemmatch.rules import SIDES, cell_name
from simulator.sessions import views

PLACE, HEAP, HAND, PASS, SKIP = "place", "heap", "hand", "pass", "skip"


class Move(views.Move):
    __slots__ = ("cell", "kind", "rotation", "side", "slot")

    def __init__(self, kind, slot=0, cell=None, rotation=0, side=None):
        self.kind = kind
        self.slot = slot
        self.cell = cell
        self.rotation = rotation
        self.side = side

    def _key(self):
        return (self.kind, self.slot, self.cell, self.rotation, self.side)

    def __str__(self):
        if self.kind == PLACE:
            return f"place {self.slot} at {cell_name(self.cell)} turn {self.rotation}"
        if self.kind == HEAP:
            return f"heap {cell_name(self.cell)}"
        if self.kind == HAND:
            return f"hand {cell_name(self.cell)} {SIDES[self.side]}"
        return self.kind


def place(slot, cell, rotation):
    return Move(PLACE, slot, tuple(cell), rotation % 6)


def heap(cell):
    return Move(HEAP, cell=tuple(cell))


def hand(cell, side):
    return Move(HAND, cell=tuple(cell), side=side)


def pass_():
    return Move(PASS)


def skip():
    return Move(SKIP)
