"""Tally's referee (HLE's state, move and observation, as Lost Gems and Waterfall have them):
A and B add 1, 2 or 3 in turn to a shared tally; whoever brings it to GOAL wins. Pure rules: no
world, no tiles, so a playtest plays thousands of games a second."""

from simulator.sessions import views

GOAL = 10
STEPS = (1, 2, 3)
PLAYERS = "AB"


class IllegalMove(Exception):
    """A move the rules forbid; the message names the rule."""


class Move(views.Move):
    """Add `n` to the tally (compared and hashed by value: `move in legal_moves()`)."""

    __slots__ = ("n",)

    def __init__(self, n):
        self.n = n

    def _key(self):
        return (self.n,)

    def __str__(self):
        return f"add {self.n}"


class Event:
    """What one turn did."""

    __slots__ = ("move", "player", "tally")

    def __init__(self, player, move, tally):
        self.player = player
        self.move = move
        self.tally = tally

    def describe(self):
        return f"{PLAYERS[self.player]} adds {self.move.n}: the tally is {self.tally}"


class Observation(views.Observation):
    """What a player sees: everything (Tally hides nothing), read-only."""

    __slots__ = ()

    tally = views.shared("tally")


class GameState:
    def __init__(self, start=0):
        self.tally = 0
        self.current = start
        self.turns = 0
        self.history = []

    @property
    def over(self):
        return self.tally >= GOAL

    @property
    def winner(self):
        """The player who reached GOAL (None while the game goes on)."""
        return self.history[-1].player if self.over else None

    def legal_moves(self):
        if self.over:
            return []
        return [Move(n) for n in STEPS if self.tally + n <= GOAL]

    def apply(self, move):
        if self.over:
            raise IllegalMove("the game is over")
        if move not in self.legal_moves():
            raise IllegalMove(f"{move} would pass {GOAL} or is not 1, 2 or 3")
        self.tally += move.n
        event = Event(self.current, move, self.tally)
        self.history.append(event)
        self.turns += 1
        self.current = 1 - self.current
        return event

    def observation(self, player):
        return Observation(self, player)

    def to_dict(self):
        winner = self.winner
        return {
            "tally": self.tally,
            "turns": self.turns,
            "over": self.over,
            "winner": None if winner is None else PLAYERS[winner],
        }
