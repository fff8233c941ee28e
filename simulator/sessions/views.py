"""What every game's referee hands a player: an observation (HLE's `HanabiObservation`) and the
moves and events it reads, so a bot sees only its seat's share of the truth.

A game's `Observation` subclasses this one and adds what its seat may know; state fields that
are plain numbers or flags are passed through with `shared("name")` (a C-level attrgetter, as
fast as a hand-written property), a list as a copy with `copied("name")`, and a pile whose
order is hidden as its size with `counted("name")`. `Move` gives a game's moves equality and hashing by their
`_key()`. `copy_event(ev, **changes)` is an event with some fields changed (a draw hidden), the
referee's own left alone.
"""

from operator import attrgetter


def shared(name, doc=None):
    """A read-only property handing out the state's `name` as it is (a number or a flag, never
    a list a bot could change)."""
    return property(attrgetter("_state." + name), doc=doc)


def copied(name, doc=None):
    """A read-only property handing out a copy of the state's list `name`."""
    get = attrgetter("_state." + name)
    return property(lambda self: list(get(self)), doc=doc)


def counted(name, doc=None):
    """A read-only property handing out how many items the state's `name` holds."""
    get = attrgetter("_state." + name)
    return property(lambda self: len(get(self)), doc=doc)


class Observation:
    """Player `player`'s view of the referee's `state`: read-only."""

    __slots__ = ("_state", "player")

    def __init__(self, state, player):
        self._state = state
        self.player = player

    current = shared("current", "The player to move.")
    over = shared("over")
    turns = shared("turns")

    def legal_moves(self):
        """The moves the rules allow this player now (none while another is to move)."""
        return self._state.legal_moves() if self._state.current == self.player else []


class Move:
    """A move that compares and hashes by `_key()` (a tuple of its fields), so `move in
    legal_moves()` and sets of moves work; a subclass sets `__slots__` and `_key`."""

    __slots__ = ()

    def _key(self):
        raise NotImplementedError

    def __eq__(self, other):
        return isinstance(other, self.__class__) and self._key() == other._key()

    def __hash__(self):
        return hash(self._key())

    def __repr__(self):
        return f"{type(self).__name__}({self})"


def copy_event(ev, **changes):
    """A copy of the event `ev` (a class with __slots__) with `changes` made to it."""
    other = object.__new__(ev.__class__)
    for slot in ev.__slots__:
        setattr(other, slot, changes[slot] if slot in changes else getattr(ev, slot))
    return other
