"""Run a parsed session script against the referee (`--rules-only`).

The runner owns the order of play: setup statements, an implicit `deal blob` before the first
move or expect, turn order, and expects. Illegal or out-of-turn moves stop the session with a
`ScriptError` (exit 2). A failed expect is recorded and the session goes on, so a designer sees
every failure in one run; the exit code is then 1. The physical runner subclasses this one and
overrides the `deal`, `after_move` and `expect_tile` hooks to drive the simulated tiles.
"""

from simulator.games.lostgems.deal_ceiling import ceiling
from simulator.games.lostgems.referee import PLAYERS, GameState, IllegalMove
from simulator.games.lostgems.script import parse_script
from simulator.games.lostgems.shards import DECK_SIZE, MAX_ERRORS, MAX_HINTS, shard_name
from simulator.sessions import runner as framework
from simulator.sessions.runner import EXIT_EXPECT_FAILED, EXIT_OK
from simulator.sessions.script import ScriptError


class SessionResult(framework.SessionResult):
    """How a Lost Gems session ended: the framework's result, with Lost Gems' words."""

    def undealt(self):
        return undealt_dict()

    def outcome(self):
        """The last line of a session run without --json."""
        if self.state is None:
            return "the deal failed, no game was played"
        over = "over" if self.state.over else "not over"
        return f"score {self.state.score}, {over}; {len(self.failures)} expect(s) failed"


def undealt_dict():
    """The game part of the JSON when the deal failed: nothing drawn, nothing played."""
    return {
        "score": 0,
        "hints": MAX_HINTS,
        "errors": 0,
        "over": False,
        "turns": 0,
        "jungle": DECK_SIZE,
        "gems": {"R": 0, "Y": 0, "B": 0},
        "discards": [],
        "hands": {"A": [], "B": []},
    }


class RulesRunner:
    """Plays a script on the referee alone. `say(text)` receives the transcript lines and
    `failed(line, message)` each failed expect as it happens (by default it goes to the
    transcript as `line N: ...`; the command line prints it once, as `SCRIPT:LINE: ...`). With
    `ceiling`, the transcript also says what the deal allows at best (deal_ceiling.py) and
    each move that lowers it: the moves that cost the game its points."""

    mode = "rules only"
    result_class = SessionResult

    def __init__(self, statements, seed=None, say=None, ceiling=False, failed=None):
        self.statements = statements
        self.seed_override = seed
        self.say = say or (lambda text: None)
        self.failed = failed or (lambda line, message: self.say(f"line {line}: {message}"))
        self.line = 0  # the statement the session has reached (0: none yet)
        self.state = None
        self.failures = []
        self.deal_ms = None
        self.track_ceiling = ceiling
        self.ceiling = None  # with `ceiling`: the best score still reachable

    # --- hooks the physical runner overrides -----------------------------------------------
    def validate(self):
        for st in self.statements:
            if st.kind == "expect_tile":
                raise ScriptError(
                    st.line,
                    "`expect tile` needs the simulator; it cannot be checked with --rules-only",
                )

    def deal(self, seed, deck, start, shape, line):
        self.state = GameState(seed=seed, deck=deck, start=start)

    def after_move(self, st, event):
        pass

    def expect_tile(self, st):
        raise ScriptError(st.line, "`expect tile` needs the simulator")

    def tiles_json(self):
        return []

    # --- the session ------------------------------------------------------------------------
    def run(self):
        """Run every statement; return a SessionResult. Raises ScriptError (exit 2)."""
        self.validate()
        # Setup comes before the first move (the parser sees to it), so a `start` written
        # after `deal` is known when the deal is made: its line says who starts, once.
        starts = [st.value for st in self.statements if st.kind == "start"]
        setup = {"seed": 0, "deck": None, "start": starts[-1] if starts else 0}
        for st in self.statements:
            self.line = st.line
            if st.kind in ("seed", "deck"):
                setup[st.kind] = st.value
            elif st.kind == "start":
                pass
            elif st.kind == "deal":
                self._deal(setup, st.value, st.line)
            else:
                if self.state is None:
                    self._deal(setup, "blob", st.line)
                if st.kind == "move":
                    self._move(st)
                elif st.kind == "expect":
                    self._expect(st)
                else:
                    self.expect_tile(st)
        if self.state is None:
            self._deal(setup, "blob", 0)
        code = EXIT_EXPECT_FAILED if self.failures else EXIT_OK
        return self.result_class(code, self.state, self.failures, self)

    def _deal(self, setup, shape, line):
        seed = self.seed_override if self.seed_override is not None else setup["seed"]
        self.deal(seed, setup["deck"], setup["start"], shape, line)
        s = self.state
        how = "the deck as written" if setup["deck"] else f"seed {seed}"
        a, b = (" ".join(shard_name(x) for x in hand) for hand in s.hands)
        self.say(
            f"deal {shape} ({self.mode}, {how}): A holds {a}, B holds {b}; "
            f"{PLAYERS[s.current]} starts"
        )
        self._say_ceiling()

    def _say_ceiling(self):
        if self.track_ceiling:
            self.ceiling = ceiling(self.state)
            self.say(f"the deal can make {self.ceiling} at best (every shard known)")

    def _move(self, st):
        s = self.state
        if s.over:
            raise ScriptError(st.line, f"the game is over: no more moves ({st.text})")
        if st.player != s.current:
            raise ScriptError(
                st.line,
                f"out of turn: it is {PLAYERS[s.current]}'s turn, not {PLAYERS[st.player]}'s",
            )
        try:
            event = s.apply(st.move)
        except IllegalMove as exc:
            raise ScriptError(st.line, f"illegal move `{st.text}`: {exc}")
        end = f" | game over, score {s.score}" if s.over else ""
        self.say(
            f"turn {event.turn:<2} {PLAYERS[event.player]} {event.describe()} | hints "
            f"{s.hints}/{MAX_HINTS} errors {s.errors}/{MAX_ERRORS} jungle {s.jungle}{end}"
        )
        if self.track_ceiling:
            now = ceiling(s)
            if now < self.ceiling:
                self.say(f"        the game can now make {now} at best, not {self.ceiling}")
            self.ceiling = now
        self.after_move(st, event)

    def _expect(self, st):
        s = self.state
        actual = s.over if st.what == "over" else getattr(s, st.what)
        if actual == st.value:
            return
        show = (lambda v: "yes" if v else "no") if st.what == "over" else str
        self.fail(st.line, f"expect {st.what} {show(st.value)} failed: it is {show(actual)}")

    def fail(self, line, message):
        """Record a failed check (the session goes on, and exits 1) and report it."""
        self.failures.append((line, message))
        self.failed(line, message)


def run_script_text(text, seed=None, say=None, runner_class=RulesRunner):
    """Parse and run a script; returns a SessionResult, raises ScriptError (exit 2)."""
    return runner_class(parse_script(text), seed=seed, say=say).run()
