"""Tally's referee and its script grammar. A and B add 1, 2 or 3 in turn to a shared tally;
whoever brings it to GOAL wins. Pure rules: no world, no tiles, so a playtest plays thousands
of games a second.

Its session scripts (`.tly`), one statement a line, `#` comments:

    start A|B              who moves first (before any move; A by default)
    A add N  /  B add N    a move (N is 1, 2 or 3)
    expect tally N         an expect: fails (exit 1) if the tally is not N
    expect winner A|B|none

A malformed line is a ScriptError (exit 2); the play layer's runner (simulator.play.runner)
plays the statements, refuses a move out of turn or against the rules (exit 2), and checks the
expects with `actual`.
"""

from simulator.play import runner, scripts_out
from simulator.sessions import views
from simulator.sessions.script import ScriptError, Statement, script_lines, shown_word

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
        return f"adds {self.move.n}: the tally is {self.tally}"


class Observation(views.Observation):
    """What a player sees: everything (Tally hides nothing), read-only."""

    __slots__ = ()

    tally = views.shared("tally")


class GameState:
    players = 2

    def __init__(self, start=0):
        self.tally = 0
        self.current = start
        self.turns = 0
        self.history = []

    @property
    def over(self):
        return self.tally >= GOAL

    @property
    def ended(self):
        return "goal" if self.over else None

    @property
    def winner(self):
        """The player who reached GOAL (None while the game goes on)."""
        return self.history[-1].player if self.over else None

    def winners(self):
        return [] if self.winner is None else [self.winner]

    def score(self, player):
        return 1 if self.winner == player else 0

    @property
    def scores(self):
        return [self.score(0), self.score(1)]

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


def parse_script(text):
    statements = []
    for number, code in script_lines(text):
        words = code.split()
        if words[0] == "start" and len(words) == 2 and words[1] in PLAYERS:
            if statements:
                raise ScriptError(number, "`start` comes before the first move or expect")
            statements.append(Statement(number, "start", code, PLAYERS.index(words[1])))
        elif len(words) == 3 and words[0] in PLAYERS and words[1] == "add":
            if words[2] not in ("1", "2", "3"):
                raise ScriptError(number, f"expected 1, 2 or 3, got {shown_word(words[2])}")
            move = Move(int(words[2]))
            player = PLAYERS.index(words[0])
            statements.append(Statement(number, "move", code, player=player, move=move))
        elif len(words) == 3 and words[:2] == ["expect", "tally"] and words[2].isdigit():
            statements.append(Statement(number, "expect", code, int(words[2]), what="tally"))
        elif len(words) == 3 and words[:2] == ["expect", "winner"] and words[2] in ("A", "B", "none"):
            statements.append(Statement(number, "expect", code, words[2], what="winner"))
        else:
            raise ScriptError(
                number, "expected `start A|B`, `A add N`, `expect tally N` or `expect winner X`"
            )
    return statements


class Result(runner.ScoredResult):
    def outcome(self):
        winner = self.state.to_dict()["winner"] or "nobody yet"
        return f"tally {self.state.tally}, won by {winner}; {len(self.failures)} expect(s) failed"


class RulesRunner(runner.RulesRunner):
    """A `.tly` script on the referee (`blinks session run --rules-only`)."""

    NAME, TITLE = "tally", "Tally"
    IllegalMove = IllegalMove
    result_class = Result

    def deal(self, setup):
        return GameState(setup["start"])

    def actual(self, st):
        if st.what == "tally":
            return self.state.tally
        return self.state.to_dict()["winner"] or "none"


def game_script(state, title, seed=0):
    """A finished game as a `.tly` script that replays it."""
    ends = [f"expect tally {state.tally}", f"expect winner {state.to_dict()['winner'] or 'none'}"]
    return scripts_out.game_script(state, title, ["start A"], ends)
