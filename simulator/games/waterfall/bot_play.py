"""`blinks sim --game waterfall --bot NAME`: a person plays A against bots playing the other
seats (B; 2 players), on the 27 simulated tiles.

The referee (`referee.GameState`) keeps the rules; the tiles show the game. Each bot sees only
its `Observation` and hears moves as its seat may (`event_seen_by`). The person sees the table
and, in the panel (bot_panel), their own hand; of the others only how many tiles they hold and
have scored, until the game ends.

The person moves with the panel's buttons, which offer the referee's legal moves (play a hand
tile, fall, step left / right, add a hand tile at a place, score, done); the move is then made
on the tiles the way the session runner makes it (see table_moves), through the app's table
operations, so it is visible and recorded. A bot's move comes after a short pause, and after
every move the tiles are checked against the referee; a disagreement stops the game with the
reason in the panel (New game deals again).

With a `scripts` folder (`--scripts DIR`) the game is saved as a `.wf` session script once it
ends, stops, or is left unfinished when the window closes: `blinks session run` replays it.
"""

import os

from games.waterfall import cards

from simulator.games.waterfall import moves as mv
from simulator.games.waterfall.bots import bot_class, bot_seed
from simulator.games.waterfall.observation import event_seen_by
from simulator.games.waterfall.referee import GameState
from simulator.games.waterfall.rules import PLAYERS, place_name
from simulator.games.waterfall.scripts_out import game_script
from simulator.games.waterfall.table_moves import PERSON, AppTable, Mismatch, Steps

BOT_TILES = cards.DECK_SIZE
PLAYERS_IN_GAME = 2
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
    """Write `text` as FOLDER/STEM.wf, or STEM-2.wf, ... : never over an earlier game."""
    n = 1
    while True:
        path = os.path.join(folder, f"{stem}{'' if n == 1 else f'-{n}'}.wf")
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
        "  name waterfall places (row.index)",
        "Space pause  N step  S speed  D links",
        "Esc quit",
    )

    def __init__(self, app, bot_name, seed, scripts=None, players=PLAYERS_IN_GAME):
        self.app = app
        self.bot_name = bot_name
        self.players = players
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
        self.bots = {
            p: bot_class(self.bot_name)(p, bot_seed(seed, p)) for p in range(1, self.players)
        }
        self.state = None
        self.table = AppTable(self.app, seed, self.players)
        self.phase = SETUP
        self.steps = Steps(self.app, self._setup(not first))
        self.after = self._setup_done
        self.think_until = None
        self.add_slot = 1  # the hand tile an ADD places (the panel's first choice)
        self.saved = False
        self.say(f"Game seed {seed}. Dealing: a bot holds a draw pile tile for 6 s.")

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

    def fits(self, move):
        """An ADD the table has room for (a very deep or wide waterfall leaves its area)."""
        return move.kind != mv.ADD or self.table.fits(move.place)

    def choose(self, move):
        """The person's move (from a button). False, with a message, if it is not allowed now."""
        if self.state is None or not self.your_turn():
            return False
        if move not in self.state.legal_moves():
            self.say(f"Not allowed: {move}", "bad")
            return False
        if not self.fits(move):
            self.say(f"No room on the table at {place_name(move.place)}: choose another", "bad")
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
                p = self.state.current
                move = self.bots[p].act(self.state.observation(p))
                if move not in self.state.legal_moves():
                    self._stop(f"{PLAYERS[p]}'s move {move} is not allowed")
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
        others = ", ".join(f"{PLAYERS[p]}" for p in range(1, self.players))
        title = f"You (A) with {self.bot_name} ({others}), game seed {self.seed}: {how}"
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
                elif enabled and isinstance(key, tuple):  # ("slot", n): the tile to ADD
                    self.add_slot = key[1]
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
        """Waterfall tiles get their place (row.index); A's hand tiles their slot."""
        state, ref = self.state, self.table.ref_of.get(tid)
        if state is None or ref is None:
            return []
        for place, r in state.waterfall.items():
            if r == ref:
                return [place_name(place)]
        if ref in state.hands[PERSON]:
            return [f"slot {state.hands[PERSON].index(ref) + 1}"]
        return []

    def draw_panel(self, surface, panel, x, y):
        from simulator.games.waterfall.bot_panel import draw_game_panel

        return draw_game_panel(surface, panel, self, x, y)

    # --- turns --------------------------------------------------------------------------------
    def _setup(self, again):
        if again:
            yield from self._gather()
        yield START_MS
        yield from self.table.deal(min(self.app.world.tiles))
        deck = self.table.choose_order(self.seed)
        self.state = GameState(players=self.players, seed=self.seed, deck=deck, start=PERSON)
        yield from self.table.set_up(self.state)

    def _gather(self):
        """Every tile back into the draw pile as one cluster, for a new deal."""
        from simulator.app.world_setup import starting_layout

        tiles = sorted(self.app.world.tiles)
        for t in tiles:
            if self.app.world.position(t) is not None:
                self.app.ops.lift(t)
        for t, (q, r, rot) in zip(tiles, starting_layout(self.app.table, len(tiles))):
            self.app.ops.place(t, q, r, rot)
        yield 0

    def _setup_done(self):
        self.say("Dealt. You are A (bottom left): your hand shows its cards.")
        self._next_turn()

    def _apply(self, move):
        state = self.state
        player = state.current
        here = state.pawns[player]
        pawn_tile = None if here is None else self.table.tile_of[state.waterfall[here]]
        event = state.apply(move)
        for p, bot in self.bots.items():
            bot.observe(state.observation(p), event_seen_by(event, p))
        self._tell(event)
        self.phase = MOVING
        self.steps = Steps(self.app, self.table.perform(state, event, pawn_tile))
        self.after = self._next_turn

    def _tell(self, event):
        """The transcript line, as A may read it (the others' draws stay hidden)."""
        seen = event_seen_by(event, PERSON)
        text = seen.describe(hide_draws=event.player != PERSON)
        if event.move.kind == mv.PLAY:  # the discard pile is face up
            text += f" ({cards.name(self.state.kinds[self.state.discards[-1]])})"
        if event.reshuffled:
            text += "; the discards are shuffled into a new draw pile"
        who = "You" if event.player == PERSON else PLAYERS[event.player]
        self.say(f"{who}: {text}", "you" if event.player == PERSON else "bot")

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
            hand = len(state.hands[PERSON])
            self.add_slot = min(max(self.add_slot, 1), max(hand, 1))
