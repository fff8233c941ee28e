"""A game's session script played on its referee alone (`blinks session run --rules-only`),
written once: the setup lines, the deal, each move in turn and each expect checked. A game's
script grammar subclasses RulesRunner and gives its parts:

- `NAME` and `TITLE`, and SETUP: the setup statements' kinds and their defaults, in pairs;
- `headline(setup)`: the first line said ("Waterfall, 2 players, seed 3 (rules only)"; the
  title, the players where the setup has them, and the seed, unless the game says otherwise);
- `GameState`, the referee's class, which `deal(setup)` makes from the setup statements but
  `deal` (the shape of the deal on the tiles), or `deal(setup)` of its own: the referee for the
  setup, or None if the deal failed (a tiles runner deals the tiles first);
- `opening()`: what is said once dealt (the hands, the first card);
- COUNTED: (expect word, the referee's attribute) pairs, for the expects that count pieces, a
  seat's (`expect hand A 3`: len(state.hands[0])) or the table's (`expect pile 5`);
- `read(st)`: what an `expect` statement reads from the referee, for the game's other words
  (`actual` reads score, over, ended, turn and the COUNTED for every game);
- `IllegalMove`: what its referee raises for a move the rules refuse;
- BOARD_PICTURE: the module that draws the board for --board-png (optional; DEAL_WORDS
  titles the first picture).

The tiles runner (simulator.play.physical) subclasses the game's RulesRunner and overrides
`validate`, `deal`, `after_move`, `expect_tile` and `tiles_json`. Exit codes are the session
framework's (simulator.sessions.runner): 0 every expect held, 1 an expect failed (the session
goes on), 2 an illegal or out-of-turn move (ScriptError).
"""

import importlib

from simulator.sessions import runner as framework
from simulator.sessions.runner import EXIT_EXPECT_FAILED, EXIT_OK
from simulator.sessions.script import ScriptError

SEATS = "ABCD"


class ScoredResult(framework.SessionResult):
    """How a session of a game won on points ended: each seat's score, and how it ended."""

    def undealt(self):
        return {"game": self.runner.NAME, "over": False}

    def outcome(self):
        """The last line of a session run without --json."""
        if self.state is None:
            return "the deal failed, no game was played"
        s = self.state
        scores = ", ".join(f"{SEATS[p]} {s.score(p)}" for p in range(s.players))
        over = f"over ({s.ended})" if s.over else "not over"
        return f"scores {scores}, {over}; {len(self.failures)} expect(s) failed"


class RulesRunner:
    mode = "rules only"
    result_class = ScoredResult
    NAME = TITLE = None
    SETUP = (("seed", 0), ("start", 0))
    IllegalMove = Exception
    GameState = None
    COUNTED = ()  # (expect word, the referee's attribute whose pieces it counts) pairs
    DEAL_WORDS = "the deal"  # the first board picture's title
    BOARD_PICTURE = None  # the module whose save_board(state, folder, n, title) draws it

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

    # --- the game's parts (see the module docstring) -----------------------------------------
    def headline(self, setup):
        players = f", {setup['players']} players" if "players" in setup else ""
        return f"{self.TITLE}{players}, seed {setup['seed']} ({self.mode})"

    def deal(self, setup):
        """The game's state from the script's setup (`deal` is how tiles lie; `variant`
        picked the script's language)."""
        return self.GameState(
            **{kind: value for kind, value in setup.items() if kind not in ("deal", "variant")}
        )

    def opening(self):
        pass

    def actual(self, st):
        """What an `expect` reads: a seat's score, whether the game is over and why, whose turn
        it is, how many pieces it holds (COUNTED), or what the game's `read(st)` says for its
        other words."""
        s = self.state
        if st.what == "score":
            return s.score(st.player)
        if st.what == "over":
            return s.over
        if st.what == "ended":
            return s.ended or "no"
        if st.what == "turn":
            return s.current
        held = dict(self.COUNTED).get(st.what)
        if held is not None:
            pieces = getattr(s, held)
            return len(pieces if st.player is None else pieces[st.player])
        return self.read(st)

    def read(self, st):
        raise ValueError(f"no expect reads {st.what!r}")

    def save_board(self, folder, number, title):
        """--board-png: the game's BOARD_PICTURE module draws the board (save_board)."""
        if self.BOARD_PICTURE:
            module = importlib.import_module(self.BOARD_PICTURE)
            module.save_board(self.state, folder, number, title)

    # --- the tiles runner's hooks ------------------------------------------------------------
    def validate(self):
        for st in self.statements:
            if st.kind == "expect_tile":
                raise ScriptError(
                    st.line, "`expect tile` needs the simulated tiles: run without --rules-only"
                )

    def after_move(self, st, event):
        """Called after each legal move (the tiles runner makes it on the tiles)."""

    def expect_tile(self, st):
        return None

    def tiles_json(self):
        return []

    # --- the session -------------------------------------------------------------------------
    def run(self):
        self.validate()
        setup = dict(self.SETUP)
        for st in self.statements:
            if st.kind in setup:
                setup[st.kind] = st.value
        if self.seed_override is not None:
            setup["seed"] = self.seed_override
        self.say(self.headline(setup))
        for st in self.statements:
            self.line = st.line
            if st.kind in setup:
                continue
            if self.state is None and not self._begin(setup):
                return self.result_class(EXIT_EXPECT_FAILED, None, self.failures, self)
            if st.kind == "move":
                self._move(st)
            elif st.kind == "expect":
                self._check(st, self.actual(st))
            else:
                self._check(st, self.expect_tile(st))
        if self.state is None and not self._begin(setup):
            return self.result_class(EXIT_EXPECT_FAILED, None, self.failures, self)
        code = EXIT_EXPECT_FAILED if self.failures else EXIT_OK
        return self.result_class(code, self.state, self.failures, self)

    def _begin(self, setup):
        self.state = self.deal(setup)
        if self.state is None:
            return False
        self.opening()
        self._picture(None)
        return True

    def _move(self, st):
        s = self.state
        if s.over:
            raise ScriptError(st.line, "the game is over: no more moves")
        if st.player != s.current:
            raise ScriptError(st.line, f"it is {SEATS[s.current]}'s turn, not {SEATS[st.player]}'s")
        try:
            ev = s.apply(st.move)
        except self.IllegalMove as exc:
            raise ScriptError(st.line, f"{st.move}: {exc}") from None
        self.say(f"{SEATS[st.player]} {ev.describe()}")
        self.after_move(st, ev)
        self._picture(st)

    def _picture(self, st):
        """--board-png: the board after each move, as a PNG in the folder."""
        if not self.board_png:
            return
        self.pictures += 1
        title = self.DEAL_WORDS if st is None else f"line {st.line}: {st.text}"
        self.save_board(self.board_png, self.pictures, title)

    def _check(self, st, actual):
        expected = st.value
        if actual != expected:
            message = f"{st.text}: expected {shown(st, expected)}, got {shown(st, actual)}"
            self.failures.append((st.line, message))
            self.failed(st.line, message)


class RefereeOnly(RulesRunner):
    """The runner of a game with no tiles (Gembatan, the printed Gem Match): it serves `blinks
    session run` with or without --rules-only and says which, and refuses the tiles' options.
    CALLED names the game in that refusal; NO_TILES says why it is on the referee."""

    CALLED = NO_TILES = None

    def __init__(self, statements, seed=None, say=None, failed=None, board_png=None, **options):
        RulesRunner.__init__(self, statements, seed, say, failed, board_png)
        if options.get("mpy") or options.get("ir_loss") or options.get("bit_flip"):
            raise ScriptError(
                0,
                f"{self.CALLED} is played on the referee only: --mpy, --ir-loss and "
                "--ir-bit-flip need tiles",
            )
        if not options.get("rules_only", True) or "ir_loss" in options:  # the tiles' runner
            self.mode = f"on the referee: {self.NO_TILES}"


def shown(st, value):
    """An expected or actual value as a script writes it: a seat's letter for `turn`, yes/no."""
    if st.what == "turn":
        return SEATS[value]
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)
