"""Run a parsed Waterfall script on the referee alone (`--rules-only`); the tiles runner
(physical.py) subclasses it and overrides the `deal`, `after_move` and `expect_tile` hooks.

Exit codes are the session framework's (simulator.games.lostgems.runner): 0 every expect held, 1 an
expect failed (the session goes on), 2 an illegal or out-of-turn move (ScriptError).
"""

from simulator.games.waterfall.referee import GameState, IllegalMove
from simulator.games.waterfall.rules import PLAYERS, place_name
from simulator.sessions import runner as framework
from simulator.sessions.runner import EXIT_EXPECT_FAILED, EXIT_OK
from simulator.sessions.script import ScriptError


class SessionResult(framework.SessionResult):
    """How a Waterfall session ended: the framework's result, with Waterfall's words."""

    def undealt(self):
        return {"game": "waterfall", "over": False}

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

    def __init__(self, statements, seed=None, say=None, failed=None, **_options):
        self.statements = statements
        self.seed_override = seed
        self.say = say or (lambda text: None)
        self.failed = failed or (lambda line, message: self.say(f"line {line}: {message}"))
        self.line = 0
        self.state = None
        self.failures = []
        self.deal_ms = None

    # --- hooks -----------------------------------------------------------------------------
    def validate(self):
        for st in self.statements:
            if st.kind == "expect_tile":
                raise ScriptError(
                    st.line, "`expect tile` needs the simulated tiles: run without --rules-only"
                )

    def deal(self, shape, seed, deck, players, start):
        """Start the game (on the tiles: deal them first); return the GameState or None."""
        return GameState(players=players, seed=seed, deck=deck, start=start)

    def after_move(self, st, event):
        """Called after each legal move (the tiles runner makes it on the tiles)."""

    def expect_tile(self, st):
        return None

    def tiles_json(self):
        return []

    # --- the session -----------------------------------------------------------------------
    def run(self):
        self.validate()
        setup = {"players": 2, "seed": 0, "deck": None, "deal": "blob", "start": 0}
        for st in self.statements:
            if st.kind in setup:
                setup[st.kind] = st.value
        if self.seed_override is not None:
            setup["seed"] = self.seed_override
        self.say(f"Waterfall, {setup['players']} players, seed {setup['seed']} ({self.mode})")
        for st in self.statements:
            self.line = st.line
            if st.kind in setup:
                continue
            if self.state is None:
                self.state = self.deal(
                    setup["deal"], setup["seed"], setup["deck"], setup["players"], setup["start"]
                )
                if self.state is None:
                    return self.result_class(EXIT_EXPECT_FAILED, None, self.failures, self)
                self.say("waterfall starts with " + self._top_name())
            if st.kind == "move":
                self._move(st)
            elif st.kind == "expect":
                self._check(st, self._actual(st))
            else:
                self._check(st, self.expect_tile(st))
        if self.state is None:
            self.state = self.deal(
                setup["deal"], setup["seed"], setup["deck"], setup["players"], setup["start"]
            )
            if self.state is None:
                return self.result_class(EXIT_EXPECT_FAILED, None, self.failures, self)
        code = EXIT_EXPECT_FAILED if self.failures else EXIT_OK
        return self.result_class(code, self.state, self.failures, self)

    def _top_name(self):
        from games.waterfall import cards

        s = self.state
        return cards.name(s.kinds[s.waterfall[(0, 0)]])

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

    def _actual(self, st):
        s = self.state
        what = st.what
        if what == "score":
            return s.score(st.player)
        if what == "hand":
            return len(s.hands[st.player])
        if what == "pawn":
            pawn = s.pawns[st.player]
            return "above" if pawn is None else place_name(pawn)
        if what == "waterfall":
            return len(s.waterfall)
        if what == "draw":
            return len(s.pile)
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
