"""Run a parsed Gembatan script on the referee: Gembatan is not played on the tiles
(docs/gembatan.md, "why not on the tiles"), so this runner serves `blinks session run` with or
without --rules-only, and says so. With --board-png DIR it draws the board after every move.

Exit codes are the session framework's: 0 every expect held, 1 an expect failed (the session
goes on), 2 an illegal or out-of-turn move (ScriptError).
"""

from simulator.games.gembatan.referee import GameState, IllegalMove
from simulator.games.gembatan.rules import PLAYERS, parse_gem
from simulator.sessions import runner as framework
from simulator.sessions.runner import EXIT_EXPECT_FAILED, EXIT_OK
from simulator.sessions.script import ScriptError


class SessionResult(framework.SessionResult):
    """How a Gembatan session ended: the framework's result, with Gembatan's words."""

    def undealt(self):
        return {"game": "gembatan", "over": False}

    def outcome(self):
        s = self.state
        scores = ", ".join(f"{PLAYERS[p]} {s.score(p)}" for p in range(s.players))
        over = f"over ({s.ended})" if s.over else "not over"
        return f"scores {scores}, {over}; {len(self.failures)} expect(s) failed"


class RulesRunner:
    mode = "rules only"
    result_class = SessionResult

    def __init__(self, statements, seed=None, say=None, failed=None, board_png=None, **options):
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
        if options.get("mpy") or options.get("ir_loss") or options.get("bit_flip"):
            raise ScriptError(
                0,
                "Gembatan is played on the referee only: --mpy, --ir-loss and "
                "--ir-bit-flip need tiles",
            )
        if not options.get("rules_only", True) or "ir_loss" in options:
            self.mode = "on the referee: Gembatan is not played on the tiles"

    def tiles_json(self):
        return []

    def run(self):
        setup = {"players": 2, "seed": 0, "tiles": None, "gems": None, "start": 0}
        for st in self.statements:
            if st.kind in setup:
                setup[st.kind] = st.value
        if self.seed_override is not None:
            setup["seed"] = self.seed_override
        self.say(f"Gembatan, {setup['players']} players, seed {setup['seed']} ({self.mode})")
        self.state = GameState(
            players=setup["players"],
            seed=setup["seed"],
            tiles=setup["tiles"],
            gems=setup["gems"],
            start=setup["start"],
        )
        s = self.state
        self.say(f"the board starts with {s.board.tiles[(0, 0)][0]} on 0,0")
        for p in range(s.players):
            self.say(
                f"{PLAYERS[p]} holds tiles {' '.join(s.hand_tiles[p])}, gems "
                f"{' '.join(s.hand_gems[p])}"
            )
        self._picture(None)
        for st in self.statements:
            self.line = st.line
            if st.kind in setup:
                continue
            if st.kind == "move":
                self._move(st)
            else:
                self._check(st, self._actual(st))
        code = EXIT_EXPECT_FAILED if self.failures else EXIT_OK
        return self.result_class(code, self.state, self.failures, self)

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
        self._picture(st)

    def _picture(self, st):
        """--board-png: the board after each move, as a PNG in the folder."""
        if not self.board_png:
            return
        from simulator.games.gembatan.board_png import save_board

        self.pictures += 1
        title = "the start" if st is None else f"line {st.line}: {st.text}"
        save_board(self.state, self.board_png, self.pictures, title)

    def _actual(self, st):
        s = self.state
        what = st.what
        if what == "score":
            return s.score(st.player)
        if what == "gems":
            return len(s.hand_gems[st.player])
        if what == "tiles":
            return len(s.hand_tiles[st.player])
        if what == "board":
            return len(s.board.tiles)
        if what == "sockets":
            return len(s.board.open_sockets())
        if what == "tray":
            return len(s.tray)
        if what == "pile":
            return len(s.pile)
        if what == "socket":
            gem = s.board.gems.get(st.edge)
            return "empty" if gem is None else parse_gem("".join(gem))
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
