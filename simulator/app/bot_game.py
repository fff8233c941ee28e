"""A person against bots on the window's tiles (`blinks sim --bot NAME`), for any game: the turns,
the pauses, the panel's messages and buttons, the hands-off rule and the saved scripts.

The referee keeps the rules; the tiles show the game. The person (seat 0, A) moves with the
panel's buttons, never by hand, so the referee and the tiles stay in step; each move is then
made on the tiles a few frames at a time (`steps`), through the app's table operations, so it
is visible and recorded. A bot moves after a short pause and sees only its seat's observation.
After every move the tiles are checked against the referee; a disagreement (the game's
`Mismatch`), a move the rules refuse or a bot of your own that raises stops the game with the
reason in the panel, and **New game** deals again.

With a `scripts` folder (`--scripts DIR`) every game is saved as a session script when it ends,
stops, or is left when the window closes (a game closed before the first move is saved as
dealt, so its deal can be replayed), and the terminal says where at exit.

A game's bot game subclasses `BotGame` and gives it the game's own parts:
- `begin(seed)`: a fresh table (`self.table`) for a game dealt from `seed`;
- `set_up()`: move steps after the deal that build the referee (`self.state`) and lay out
  the hands; `perform(event)`: the move steps that show a referee event on the tiles;
- `BOTS`, its bots module (`bot_class(name)`, `bot_seed(seed, seat)`), and `seen_by(event,
  seat)` (the event as that seat may see it); `refusal(move)`: None, or why the person may
  not make `move` now;
- `tell(event)` (the transcript line), `game_over()` (the last words: by default
  `scores_over(state)`, for a game won on points), and `game_script(state, title, seed)`
  (the game's script writer) or `script_text(title)`;
- `place_words(ref)` (the caption of a referee piece on the board, None off it: `marks(tid)`
  adds the person's hand slots, as SLOT_CAPTION words them) or `marks(tid)` of its own, and
  `panel`, the game's `draw_game_panel(surface, panel, game, x, y)` that draws the side panel;
- choices a panel offers before a move (which hand slot: `slot`, kept within the hand), as
  buttons keyed (attribute, value), which `press_button` sets;
- words: `DEALING` and `DEALT` (said as the deal starts and once dealt), `HANDS_OFF` (said
  when someone touches a tile), `SUFFIX` (the scripts'), and `free_gesture(tid, action)` for
  a gesture the game allows.
"""

import os

from simulator.app import steps
from simulator.app.world_setup import starting_layout
from simulator.play.physical import Mismatch
from simulator.sessions.script import save_new_script
from simulator.sessions.user_code import wrap

HUMAN = 0  # the person's seat: A
START_MS = 500  # let the faces find each other before the deal
BOT_PAUSE_MS = 1000  # a bot "thinks" this long (simulated) so the person can follow
HANDS_OFF_MS = 3000  # the "use the buttons" note is said again after this long
MESSAGES = 7

NEW_GAME = "new game"  # the panel button that is not a move
SETUP, PERSON, MOVING, THINKING, OVER, BROKEN = (
    "setup",
    "person",
    "moving",
    "thinking",
    "over",
    "broken",
)
SEATS = "ABCD"


def scores_over(state):
    """`game_over()` for a game won on points (a referee with `players`, `score(p)`,
    `winners()` and `ended`): every seat's score, and whether the person won, lost or tied."""
    scores = ", ".join(f"{SEATS[p]} {state.score(p)}" for p in range(state.players))
    won = "You win" if HUMAN in state.winners() else "You lose"
    if HUMAN in state.winners() and len(state.winners()) > 1:
        won = "A tie"
    return f"Game over ({state.ended}): {scores}. {won}.", f"{scores} ({state.ended})"


class BotGame:
    """The controller (see app.py's hooks): deals, runs the turns, keeps the transcript."""

    HELP = ()  # the panel's key help while the bot game owns it
    SUFFIX = ".txt"  # a saved game's script suffix
    DEALING = "Dealing: a bot holds a tile of the cluster for 6 s."
    DEALT = "Dealt."
    HANDS_OFF = "Bot game: the tiles move by the buttons."
    SLOT_CAPTION = "slot {}"  # the caption under the person's hand tile in slot N
    panel = None  # the game's draw_game_panel(surface, panel, game, x, y)
    BOTS = None  # the game's bots module: bot_class(name), bot_seed(seed, seat)
    failure = Mismatch  # what the game's table raises when the tiles disagree
    game_script = None  # the game's writer of a finished game as a script
    slot = 1  # the hand slot the panel's choice buttons chose

    def __init__(self, app, bot_name, seed, scripts=None, players=2):
        self.app = app
        self.bot_name = bot_name
        self.players = players
        self.scripts = scripts  # the folder each game is saved into as a session script
        self.saved_scripts = []  # their paths, in the order the games were saved
        self.unsaved = []  # why a game could not be saved (told at exit too; exit 1)
        self.notes = []  # what else the terminal is told at exit (nothing saved, and why)
        self.failures = []  # UserCodeErrors: a bot of your own raised (told at exit; exit 1)
        if scripts is not None:  # an unusable folder is refused before play, not after
            if os.path.exists(scripts) and not os.path.isdir(scripts):
                raise NotADirectoryError(f"{scripts} is not a folder")
            os.makedirs(scripts, exist_ok=True)
        self.messages = []  # (text, kind) newest last; kind "info", "bot", "you", "bad"
        self.buttons = []  # (rect, key, enabled), filled while drawing
        self.hands_off_said = None  # when the "use the buttons" note was last given
        self._start(seed, gather=False)

    # --- the game's parts (see the module docstring) -------------------------------------------
    def begin(self, seed):
        raise NotImplementedError

    def set_up(self):
        raise NotImplementedError

    def perform(self, event):
        raise NotImplementedError

    def refusal(self, move):
        return None if move in self.state.legal_moves() else f"Not allowed: {move}"

    def tell(self, event):
        pass

    def game_over(self):
        """(what the panel says, how the saved script's title says it ended)."""
        return scores_over(self.state)

    def script_text(self, title):
        return self.game_script(self.state, title, self.seed)

    def place_words(self, ref):
        return None

    def marks(self, tid):
        """A tile's captions: its place on the board (`place_words`), or its slot in the
        person's hand."""
        state, ref = self.state, self.table.ref_of.get(tid)
        if state is None or ref is None:
            return []
        place = self.place_words(ref)
        if place is not None:
            return [place]
        if ref in state.hands[HUMAN]:
            return [self.SLOT_CAPTION.format(state.hands[HUMAN].index(ref) + 1)]
        return []

    def draw_panel(self, surface, panel, x, y):
        return self.panel(surface, panel, self, x, y)

    def free_gesture(self, tid, action):
        return False

    @property
    def bot(self):
        """The bot in seat B (a two-player game's only one)."""
        return self.bots.get(1)

    def seat_words(self, seat):
        """Who a seat is, in the transcript."""
        return "You" if seat == HUMAN else SEATS[seat]

    # --- a game's life ------------------------------------------------------------------------
    def _start(self, seed, gather):
        """A fresh referee, bots and table bookkeeping; the deal (after gathering the tiles of a
        finished game back into one cluster) runs over the next frames."""
        self.seed = seed
        self.state = None  # the referee, once the deal is done
        self.phase = SETUP
        self.think_until = None
        self.saved = False  # this game is in the scripts folder
        self.bots = {}
        self.begin(seed)
        try:
            for seat in range(1, self.players):
                self.bots[seat] = self.BOTS.bot_class(self.bot_name)(
                    seat, self.BOTS.bot_seed(seed, seat)
                )
        except Exception as exc:  # noqa: BLE001 - a bot of your own may raise anything
            self._broken_bot(exc, "was made")
            return
        self.steps = self._steps(self._setup(gather))
        self.after = self._setup_done
        self.say(f"Game seed {seed}. {self.DEALING}")

    def _steps(self, gen):
        s = steps.Steps(self.app, gen)
        s.failure = self.failure
        return s

    def attach(self):
        self.app.controllers.append(self)
        return self

    def new_game(self):
        """Another game on the same tiles (also the way out after a stop)."""
        if self.phase in (OVER, BROKEN):
            self._start(self.seed + 1, gather=True)

    def say(self, text, kind="info"):
        self.messages.append((text, kind))
        del self.messages[:-MESSAGES]

    def _setup(self, gather):
        if gather:
            self.table.gather(starting_layout(self.app.table, len(self.app.world.tiles)))
        yield START_MS
        yield from self.table.deal(min(self.app.world.tiles))  # the bot holds the lowest id
        yield from self.set_up()

    def _setup_done(self):
        self.say(self.DEALT)
        self._next_turn()

    # --- what the person may do ---------------------------------------------------------------
    def your_turn(self):
        return self.phase == PERSON

    def legal(self, move):
        return self.state is not None and self.your_turn() and move in self.state.legal_moves()

    def choose(self, move):
        """The person's move (from a button). False, with a message, if it is not allowed now."""
        if self.state is None or not self.your_turn():
            return False
        why = self.refusal(move)
        if why is not None:
            self.say(why, "bad")
            return False
        self._apply(move)
        return True

    def press_button(self, key):
        """A panel button of the game's other than New game: a choice (attribute, value) made
        before a move, or a move."""
        if isinstance(key, tuple):
            setattr(self, key[0], key[1])
        else:
            self.choose(key)

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
                self._bot_turn()
        except self.failure as exc:
            self._stop(f"The tiles disagree with the referee: {exc}")

    def _bot_turn(self):
        seat = self.state.current
        try:
            move = self.bots[seat].act(self.state.observation(seat))
        except Exception as exc:  # noqa: BLE001 - a bot of your own may raise anything
            self._broken_bot(exc, "chose its move")
            return
        why = self.refusal(move)
        if why is not None:  # a bot of your own broke a rule
            who = "The bot" if self.players == 2 else SEATS[seat]
            self._stop(f"{who}'s move {move} is not allowed: {why.removeprefix('Not allowed: ')}")
            return
        self._apply(move)

    def _broken_bot(self, exc, doing):
        """A bot raised: stop the game, naming the line of the bot's own code."""
        turn = f", turn {self.state.turns + 1}" if self.state is not None else ", the deal"
        error = wrap(exc, f"bot {self.bot_name}", f"game seed {self.seed}{turn}")
        error.message = f"the bot failed as it {doing}: {error.message}"
        self.phase = BROKEN
        self.steps = None
        self.say(error.message[0].upper() + error.message[1:], "bad")
        self.failures.append(error)

    def _stop(self, why):
        """The game cannot go on: say why; New game deals again."""
        self.phase = BROKEN
        self.steps = None
        self.say(why, "bad")
        if self.state is not None:
            self.save_script(f"stopped after {self.state.turns} turns: {' '.join(why.split())}")

    def on_close(self, app):
        """The window closes: keep a game left unfinished, or say why there is nothing to keep."""
        if self.state is not None and not self.state.over:
            self.save_script(f"left unfinished after {self.state.turns} turns")
        elif self.state is None and self.scripts is not None and not self.saved:
            why = "the window closed before the deal was done"
            if self.phase == BROKEN:
                why = "the game stopped before the deal was done"
            self.notes.append(f"nothing saved in {self.scripts} for game seed {self.seed}: {why}")

    def save_script(self, how):
        """Save the game so far into the scripts folder (once a game; nothing without a folder or
        a deal), saying where in the panel; a failure is said there too, not raised."""
        state = self.state
        if self.scripts is None or self.saved or state is None:
            return
        others = ", ".join(SEATS[1 : self.players])
        title = f"You (A) with {self.bot_name} ({others}), game seed {self.seed}: {how}"
        stem = f"you-{self.bot_name}-seed{self.seed}"
        try:
            path = save_new_script(self.script_text(title), self.scripts, stem, self.SUFFIX)
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
                elif enabled:
                    self.press_button(key)
                return True
        return False

    def locks(self, tid, action):
        """Until the game is over the tiles are the game's: they move only through the buttons,
        so the referee and the tiles stay in step (but for the gestures the game allows)."""
        if self.phase == OVER or self.free_gesture(tid, action):
            return False
        now = self.app.world.now
        if self.hands_off_said is None or now - self.hands_off_said > HANDS_OFF_MS:
            self.say(self.HANDS_OFF, "bad")
            self.hands_off_said = now
        return True

    # --- turns --------------------------------------------------------------------------------
    def _apply(self, move):
        state = self.state
        event = state.apply(move)
        try:
            for seat, bot in self.bots.items():
                bot.observe(state.observation(seat), self.seen_by(event, seat))
        except Exception as exc:  # noqa: BLE001 - a bot of your own may raise anything
            self._broken_bot(exc, "watched the move")
            return
        self.tell(event)
        for seat, bot in self.bots.items():
            remark = getattr(bot, "remark", None)
            if remark:  # e.g. the convention bot drops its code words for plain hints
                self.say(f"{SEATS[seat]}: {remark}", "bot")
                bot.remark = None
        self.phase = MOVING
        self.steps = self._steps(self.perform(event))
        self.after = self._next_turn

    def _next_turn(self):
        state = self.state
        if state.over:
            self.phase = OVER
            said, how = self.game_over()
            self.say(said)
            self.save_script(how)
        elif state.current != HUMAN:
            self.phase = THINKING
            self.think_until = self.app.world.now + BOT_PAUSE_MS
        else:
            self.phase = PERSON
            self.slot = min(max(self.slot, 1), max(len(state.hands[HUMAN]), 1))
