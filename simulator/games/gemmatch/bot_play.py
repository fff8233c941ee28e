"""`blinks sim --game gemmatch --bot NAME`: a person plays A against a bot playing B, on the 27
simulated tiles.

The referee (`referee.GameState`) keeps the rules; the tiles show the game. The bot sees only
its `Observation`. Everything in Gem Match lies face up but the pile, so the panel (bot_panel)
shows both hands and heaps.

The person moves with the panel's buttons, which offer the referee's legal moves (place a hand
token: which token, turned how, on which cell; take a group's token to the heap or the hand;
pass; skip); the move is then made on the tiles the way the session runner makes it (see
table_moves), through the app's table operations, so it is visible and recorded. A bot's move
comes after a short pause, and after every move the tiles are checked against the referee; a
disagreement stops the game with the reason in the panel (New game deals again).

With a `scripts` folder (`--scripts DIR`) the game is saved as a `.gm` session script once it
ends, stops, or is left unfinished when the window closes: `blinks session run` replays it.
"""

import os

from simulator.games.gemmatch.bots import bot_class, bot_seed
from simulator.games.gemmatch.referee import GameState
from simulator.games.gemmatch.rules import IMPROVED, PLAYERS, cell_name
from simulator.games.gemmatch.scripts_out import game_script
from simulator.games.gemmatch.table_moves import PERSON, AppTable, Mismatch, Steps

START_MS = 500  # let the faces find each other before the deal
BOT_PAUSE_MS = 1000  # a bot "thinks" this long (simulated) so the person can follow
MESSAGES = 7

NEW_GAME = "new game"  # the panel button that is not a move
SETUP, TURN, MOVING, THINKING, OVER, BROKEN = (
    "setup",
    "person",
    "moving",
    "thinking",
    "over",
    "broken",
)


def save_new_script(text, folder, stem):
    """Write `text` as FOLDER/STEM.gm, or STEM-2.gm, ... : never over an earlier game."""
    n = 1
    while True:
        path = os.path.join(folder, f"{stem}{'' if n == 1 else f'-{n}'}.gm")
        try:
            with open(path, "x") as f:
                f.write(text)
            return path
        except FileExistsError:
            n += 1


class BotGame:
    """The controller (see app.py's hooks): deals, runs the turns, draws the game panel."""

    HELP = (
        "Your move: the buttons above",
        "The tiles move themselves; captions",
        "  name field cells (q,r) and your slots",
        "Space pause  N step  S speed  D links",
        "Esc quit",
    )

    def __init__(self, app, bot_name, seed, scripts=None):
        self.app = app
        self.bot_name = bot_name
        self.scripts = scripts
        self.saved_scripts = []
        self.unsaved = []
        if scripts is not None:  # an unusable folder is refused before play, not after
            if os.path.exists(scripts) and not os.path.isdir(scripts):
                raise NotADirectoryError(f"{scripts} is not a folder")
            os.makedirs(scripts, exist_ok=True)
        self.messages = []  # (text, kind) newest last; kind "info", "bot", "you", "bad"
        self.buttons = []  # (rect, key, enabled), filled while drawing
        self.hands_off_said = None
        self._start(seed, first=True)

    def _start(self, seed, first=False):
        self.seed = seed
        self.bot = bot_class(self.bot_name)(1, bot_seed(seed, 1))
        self.state = None
        self.table = AppTable(self.app, seed)
        self.phase = SETUP
        self.steps = Steps(self.app, self._setup(not first))
        self.after = self._setup_done
        self.think_until = None
        self.slot = 1  # the panel's chosen hand token, turn and side
        self.turn = 0
        self.side = IMPROVED
        self.saved = False
        self.say(f"Game seed {seed}. Dealing: a bot holds a pile tile for 6 s.")

    def attach(self):
        self.app.controllers.append(self)
        return self

    def new_game(self):
        if self.phase in (OVER, BROKEN):
            self._start(self.seed + 1)

    def say(self, text, kind="info"):
        self.messages.append((text, kind))
        del self.messages[:-MESSAGES]

    # --- what the person may do ---------------------------------------------------------------
    def your_turn(self):
        return self.phase == TURN

    def legal(self, move):
        return self.state is not None and self.your_turn() and move in self.state.legal_moves()

    def choose(self, move):
        """The person's move (from a button). False, with a message, if it is not allowed now."""
        if self.state is None or not self.your_turn():
            return False
        if move not in self.state.legal_moves():
            self.say(f"Not allowed: {move}", "bad")
            return False
        self._apply(move)
        return True

    # --- the app's hooks ----------------------------------------------------------------------
    def on_frame(self, app):
        if self.phase in (OVER, BROKEN):
            return
        try:
            if self.steps is not None:
                if not self.steps.poll():
                    return
                self.steps = None
                after, self.after = self.after, None
                after()
            if self.phase == THINKING and app.world.now >= self.think_until:
                move = self.bot.act(self.state.observation(1))
                if move not in self.state.legal_moves():
                    self._stop(f"B's move {move} is not allowed")
                    return
                self._apply(move)
        except Mismatch as exc:
            self._stop(f"The tiles disagree with the referee: {exc}")

    def _stop(self, why):
        self.phase = BROKEN
        self.steps = None
        self.say(why, "bad")
        if self.state is not None:
            self.save_script(f"stopped after {self.state.turns} turns: {' '.join(why.split())}")

    def on_close(self, app):
        if self.state is not None and not self.state.over:
            self.save_script(f"left unfinished after {self.state.turns} turns")

    def save_script(self, how):
        state = self.state
        if self.scripts is None or self.saved or state is None or not state.history:
            return
        title = f"You (A) against {self.bot_name} (B), game seed {self.seed}: {how}"
        try:
            path = save_new_script(
                game_script(state, title, self.seed),
                self.scripts,
                f"you-{self.bot_name}-seed{self.seed}",
            )
        except OSError as exc:
            self.unsaved.append(f"could not save game seed {self.seed} in {self.scripts}: {exc}")
            self.say(f"Could not save the game as a script: {exc}", "bad")
            return
        self.saved = True
        self.saved_scripts.append(path)
        self.say(f"Saved as {path}; replay it with blinks session run.")

    def click(self, pos):
        for rect, key, enabled in self.buttons:
            if rect.collidepoint(pos):
                if enabled and key == NEW_GAME:
                    self.new_game()
                elif enabled and isinstance(key, tuple):  # ("slot"|"turn"|"side", n)
                    setattr(self, key[0], key[1])
                elif enabled:
                    self.choose(key)
                return True
        return False

    def locks(self, tid, action):
        """Until the game is over the tiles are the game's: they move only through the
        buttons, so the referee and the tiles stay in step."""
        if self.phase == OVER:
            return False
        if self.hands_off_said is None or self.app.world.now - self.hands_off_said > 3000:
            self.say("Bot game: the tiles move by the buttons.", "bad")
            self.hands_off_said = self.app.world.now
        return True

    def marks(self, tid):
        """Field tokens get their cell (q,r); A's hand tokens their slot."""
        state, ref = self.state, self.table.ref_of.get(tid)
        if state is None or ref is None:
            return []
        for cell, placed in state.field.cells.items():
            if placed.token == ref:
                return [cell_name(cell)]
        if ref in state.hands[PERSON]:
            return [f"slot {state.hands[PERSON].index(ref) + 1}"]
        return []

    def draw_panel(self, surface, panel, x, y):
        from simulator.games.gemmatch.bot_panel import draw_game_panel

        return draw_game_panel(surface, panel, self, x, y)

    # --- turns --------------------------------------------------------------------------------
    def _setup(self, again):
        if again:
            yield from self._gather()
        yield START_MS
        yield from self.table.deal(min(self.app.world.tiles))
        deck = self.table.choose_order(self.seed)
        self.state = GameState(seed=self.seed, deck=deck, start=PERSON)
        yield from self.table.set_up(self.state)

    def _gather(self):
        """Every tile back into the pile as one cluster, for a new deal."""
        from simulator.app.world_setup import starting_layout

        tiles = sorted(self.app.world.tiles)
        for t in tiles:
            if self.app.world.position(t) is not None:
                self.app.ops.lift(t)
        for t, (q, r, rot) in zip(tiles, starting_layout(self.app.table, len(tiles))):
            self.app.ops.place(t, q, r, rot)
        yield 0

    def _setup_done(self):
        self.say("Dealt. You are A (bottom): place a token on the field's centre.")
        self._next_turn()

    def _apply(self, move):
        state = self.state
        before = set(state.field.cells)
        event = state.apply(move)
        self.bot.observe(state.observation(1), event)
        who = "You" if event.player == PERSON else PLAYERS[event.player]
        self.say(f"{who}: {event.describe()}", "you" if event.player == PERSON else "bot")
        self.phase = MOVING
        self.steps = Steps(self.app, self.table.perform(state, event, before))
        self.after = self._next_turn

    def _next_turn(self):
        state = self.state
        if state.over:
            self.phase = OVER
            scores = ", ".join(f"{PLAYERS[p]} {state.score(p)}" for p in range(state.players))
            won = "You win" if PERSON in state.winners() else "You lose"
            if PERSON in state.winners() and len(state.winners()) > 1:
                won = "A tie"
            self.say(f"Game over ({state.ended}): {scores}. {won}.")
            self.save_script(f"{scores} ({state.ended})")
        elif state.current != PERSON:
            self.phase = THINKING
            self.think_until = self.app.world.now + BOT_PAUSE_MS
        else:
            self.phase = TURN
            self.slot = min(max(self.slot, 1), max(len(state.hands[PERSON]), 1))
