"""Moves a player can make on their turn (HLE's `HanabiMove`): play, discard or hint.

Moves are immutable and compared by value. Slots are 1-based, as in scripts ("play 1").
A hint names a colour (index 0..2) or a value (1..3); the hinted player is always the partner.
"""

from simulator.games.lostgems.shards import COLOUR_NAMES
from simulator.sessions import views

PLAY = "play"
DISCARD = "discard"
HINT = "hint"
COLOUR = "colour"
VALUE = "value"


class Move(views.Move):
    """One turn's action. Build with `Move.play(1)`, `Move.discard(2)`,
    `Move.hint_colour(0)` or `Move.hint_value(3)`."""

    __slots__ = ("code", "hint", "hint_kind", "kind", "points_at", "slot")

    def __init__(self, kind, slot=0, hint_kind=None, hint=None):
        self.kind = kind
        self.slot = slot
        self.hint_kind = hint_kind
        self.hint = hint
        # The shards a hint points at, as a 9-bit set (bit s: shard s), worked out once:
        # the referee asks at every hint. 0 for a play or a discard.
        self.points_at = 0
        # A hint's index in ALL_HINTS (red, yellow, blue, 1, 2, 3), which the bots use as a
        # code; -1 for a play, a discard or a hint naming no colour or value of the game.
        self.code = -1
        if kind == HINT:
            if hint_kind == COLOUR and hint in (0, 1, 2):
                self.code = hint
            elif hint_kind == VALUE and hint in (1, 2, 3):
                self.code = hint + 2
            for s in range(9):
                if (s // 3 if hint_kind == COLOUR else s % 3 + 1) == hint:
                    self.points_at |= 1 << s

    @staticmethod
    def play(slot):
        return Move(PLAY, slot)

    @staticmethod
    def discard(slot):
        return Move(DISCARD, slot)

    @staticmethod
    def hint_colour(colour):
        return Move(HINT, 0, COLOUR, colour)

    @staticmethod
    def hint_value(value):
        return Move(HINT, 0, VALUE, value)

    def matches(self, s):
        """Whether a hint points at shard `s`."""
        return self.points_at >> s & 1 == 1

    def _key(self):
        return (self.kind, self.slot, self.hint_kind, self.hint)

    def __str__(self):
        if self.kind == HINT:
            if self.hint_kind == COLOUR:
                return "hint colour " + COLOUR_NAMES[self.hint]
            return f"hint value {self.hint}"
        return f"{self.kind} {self.slot}"


# The six hints, in a fixed order the bots use as a code: red, yellow, blue, 1, 2, 3.
ALL_HINTS = tuple([Move.hint_colour(c) for c in range(3)] + [Move.hint_value(v) for v in (1, 2, 3)])
PLAYS = (Move.play(1), Move.play(2))
DISCARDS = (Move.discard(1), Move.discard(2))
