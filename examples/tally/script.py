"""Tally's session scripts (`.tly`), one statement a line, `#` comments:

    start A|B              who moves first (before any move; A by default)
    A add N  /  B add N    a move (N is 1, 2 or 3)
    expect tally N         an expect: fails (exit 1) if the tally is not N
    expect winner A|B|none

A malformed line or an illegal move is a ScriptError (exit 2); the framework
(simulator.sessions) reads the files, batches them and words the exit codes.
"""

from simulator.sessions.runner import EXIT_EXPECT_FAILED, EXIT_OK, SessionResult
from simulator.sessions.script import ScriptError, Statement, script_lines, shown_word
from tally.rules import PLAYERS, GameState, IllegalMove, Move


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
            statements.append(
                Statement(number, "move", code, player=PLAYERS.index(words[0]), move=move)
            )
        elif len(words) == 3 and words[:2] == ["expect", "tally"] and words[2].isdigit():
            statements.append(Statement(number, "expect", code, int(words[2]), what="tally"))
        elif (
            len(words) == 3 and words[:2] == ["expect", "winner"] and words[2] in ("A", "B", "none")
        ):
            statements.append(Statement(number, "expect", code, words[2], what="winner"))
        else:
            raise ScriptError(
                number, "expected `start A|B`, `A add N`, `expect tally N` or `expect winner X`"
            )
    return statements


class Result(SessionResult):
    def outcome(self):
        winner = self.state.to_dict()["winner"] or "nobody yet"
        return f"tally {self.state.tally}, won by {winner}; {len(self.failures)} expect(s) failed"


class RulesRunner:
    """Plays a script's statements on the referee alone (`blinks session run --rules-only`)."""

    result_class = Result

    def __init__(self, statements, seed=None, say=print, failed=None, **options):
        self.statements = statements
        self.say = say
        self.failed = failed or (lambda line, message: None)
        start = next((st.value for st in statements if st.kind == "start"), 0)
        self.state = GameState(start)
        self.failures = []
        self.line = 0
        self.deal_ms = None  # no deal: nothing to time

    def tiles_json(self):
        return []

    def run(self):
        for st in self.statements:
            self.line = st.line
            if st.kind == "move":
                if st.player != self.state.current:
                    raise ScriptError(st.line, f"it is {PLAYERS[self.state.current]}'s turn")
                try:
                    event = self.state.apply(st.move)
                except IllegalMove as exc:
                    raise ScriptError(st.line, str(exc)) from None
                self.say(event.describe())
            elif st.kind == "expect":
                got = self.state.to_dict()[st.what]
                got = "none" if got is None else got
                if got != st.value:
                    self.failures.append((st.line, f"{st.what} is {got}"))
                    self.failed(st.line, f"expected {st.what} {st.value}, got {got}")
        code = EXIT_EXPECT_FAILED if self.failures else EXIT_OK
        return Result(code, self.state, self.failures, self)
