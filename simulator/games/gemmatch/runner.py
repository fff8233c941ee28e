"""Run a parsed Gem Match script on the referee alone (`--rules-only`); the tiles runner
(physical.py) subclasses it and overrides the `deal`, `after_move`, `expect_tile` and
`tiles_json` hooks.

Exit codes are the session framework's: 0 every expect held, 1 an expect failed (the session
goes on), 2 an illegal or out-of-turn move (ScriptError).
"""

from games.gemmatch import tokens

from simulator.games.gemmatch.referee import GameState, IllegalMove
from simulator.games.gemmatch.rules import PLAYERS, SIDES, TIER_NAMES
from simulator.sessions import runner as framework
from simulator.sessions.runner import EXIT_EXPECT_FAILED, EXIT_OK
from simulator.sessions.script import ScriptError


class SessionResult(framework.SessionResult):
    """How a Gem Match session ended: the framework's result, with Gem Match's words."""

    def undealt(self):
        return {"game": "gemmatch", "over": False}

    def outcome(self):
        """The last line of a session run without --json."""
        if self.state is None:
            return "the deal failed, no game was played"
        s = self.state
        scores = ", ".join(f"{PLAYERS[p]} {s.score(p)}" for p in range(s.players))
        over = f"over ({s.ended})" if s.over else "not over"
        return f"scores {scores}, {over}; {len(self.failures)} expect(s) failed"


class RulesRunner:
    mode = "rules only"
    result_class = SessionResult

    def __init__(self, statements, seed=None, say=None, failed=None, board_png=None, **_options):
        self.statements = statements
        self.seed_override = seed
        self.say = say or (lambda text: None)
        self.failed = failed or (lambda line, message: self.say(f"line {line}: {message}"))
        self.line = 0
        self.state = None
        self.failures = []
        self.deal_ms = None
        self.board_png = board_png
        self.pictures = 0

    # --- hooks -----------------------------------------------------------------------------
    def validate(self):
        for st in self.statements:
            if st.kind == "expect_tile":
                raise ScriptError(
                    st.line, "`expect tile` needs the simulated tiles: run without --rules-only"
                )

    def deal(self, shape, seed, deck, start):
        """Start the game (on the tiles: deal them first); return the GameState or None."""
        return GameState(seed=seed, deck=deck, start=start)

    def after_move(self, st, event):
        """Called after each legal move (the tiles runner makes it on the tiles)."""

    def expect_tile(self, st):
        return None

    def tiles_json(self):
        return []

    # --- the session -----------------------------------------------------------------------
    def run(self):
        self.validate()
        setup = {"seed": 0, "deck": None, "deal": "blob", "start": 0}
        for st in self.statements:
            if st.kind in setup:
                setup[st.kind] = st.value
        if self.seed_override is not None:
            setup["seed"] = self.seed_override
        self.say(f"Gem Match, seed {setup['seed']} ({self.mode})")
        for st in self.statements:
            self.line = st.line
            if st.kind in setup:
                continue
            if self.state is None and not self._begin(setup):
                return self.result_class(EXIT_EXPECT_FAILED, None, self.failures, self)
            if st.kind == "move":
                self._move(st)
            elif st.kind == "expect":
                self._check(st, self._actual(st))
            else:
                self._check(st, self.expect_tile(st))
        if self.state is None and not self._begin(setup):
            return self.result_class(EXIT_EXPECT_FAILED, None, self.failures, self)
        code = EXIT_EXPECT_FAILED if self.failures else EXIT_OK
        return self.result_class(code, self.state, self.failures, self)

    def _begin(self, setup):
        self.state = self.deal(setup["deal"], setup["seed"], setup["deck"], setup["start"])
        if self.state is None:
            return False
        s = self.state
        for p in range(s.players):
            shown = " ".join(self._token_words(t) for t in s.hands[p])
            self.say(f"{PLAYERS[p]} holds {shown}")
        self._picture(None)
        return True

    def _token_words(self, t):
        s = self.state
        return f"{tokens.name(s.kinds[t])}/{tokens.side_name(s.gems_of(t))}"

    def _move(self, st):
        s = self.state
        if s.over:
            raise ScriptError(st.line, "the game is over: no more moves")
        if st.player != s.current:
            raise ScriptError(
                st.line, f"it is {PLAYERS[s.current]}'s turn, not {PLAYERS[st.player]}'s"
            )
        try:
            ev = s.apply(st.move)
        except IllegalMove as exc:
            raise ScriptError(st.line, f"{st.move}: {exc}") from None
        self.say(f"{PLAYERS[st.player]} {ev.describe()}")
        self.after_move(st, ev)
        self._picture(st)

    def _picture(self, st):
        """--board-png: the field after each move, as a PNG in the folder."""
        if not self.board_png:
            return
        from simulator.games.gemmatch.board_png import save_board

        self.pictures += 1
        title = "the deal" if st is None else f"line {st.line}: {st.text}"
        save_board(self.state, self.board_png, self.pictures, title)

    def _actual(self, st):
        s = self.state
        what = st.what
        if what == "score":
            return s.score(st.player)
        if what == "heap":
            return len(s.heaps[st.player])
        if what == "hand":
            return len(s.hands[st.player])
        if what == "improved":
            return sum(1 for t in s.hands[st.player] if s.sides[t])
        if what == "field":
            return len(s.field)
        if what == "pile":
            return len(s.pile)
        if what == "resolving":
            return "none" if s.pending is None else TIER_NAMES[s.pending.tier]
        if what == "cell":
            t = s.token_at(st.cell)
            return "empty" if t is None else f"{tokens.name(s.kinds[t])} {SIDES[s.sides[t]]}"
        if what == "over":
            return s.over
        if what == "ended":
            return s.ended or "no"
        return s.current  # turn

    def _check(self, st, actual):
        expected = st.value
        if actual != expected:

            def show(v):
                if st.what == "turn":
                    return PLAYERS[v]
                if isinstance(v, bool):
                    return "yes" if v else "no"
                return str(v)

            message = f"{st.text}: expected {show(expected)}, got {show(actual)}"
            self.failures.append((st.line, message))
            self.failed(st.line, message)
