"""`blinks sim --bot NAME`: a person plays A against a bot playing B, on the simulated tiles.

The referee (`simulator.games.lostgems.referee.GameState`) keeps the rules; the tiles show the game.
The bot sees only its `Observation` (never its own shards); the person sees the table as A
(A's own revealed shards show their backs, and the view cannot be switched).

The person moves with the panel's buttons (see bot_panel): a hint to B (red, yellow, blue, 1,
2, 3), or play / discard slot 1 or 2. Buttons rather than gestures on the tiles because A
cannot see their own shards and a misplaced tile would put the referee and the tiles out of
step; the move is then made on the tiles the way the session runner makes it (see
table_moves), through the app's table operations, so it is visible and recorded. The bot's
turn comes after a short pause, its hints are written in the panel ("B hints you: red ->
slot 2"), and after every move the tiles are checked against the referee.

With a `scripts` folder (`--scripts DIR`) every game is also saved as a session script once it
ends, stops, or is left unfinished when the window closes, so that a game worth a second look
can be replayed (`blinks session run`), edited, or handed to whoever designs the game.
"""

import os

from simulator.app.world_setup import starting_layout
from simulator.games.lostgems.bots import bot_class
from simulator.games.lostgems.bots.base import bot_seed
from simulator.games.lostgems.game_scripts import game_script, save_new_script
from simulator.games.lostgems.moves import HINT
from simulator.games.lostgems.observation import describe_knowledge
from simulator.games.lostgems.physical import Mismatch
from simulator.games.lostgems.referee import GameState, IllegalMove
from simulator.games.lostgems.shards import COLOUR_NAMES
from simulator.games.lostgems.table_moves import AppTable, Steps

BOT_TILES = 18
HUMAN, BOT = 0, 1
START_MS = 500  # let the faces find each other before the deal
BOT_PAUSE_MS = 1000  # the bot "thinks" this long (simulated) so the person can follow
POINT_MS = 4000  # how long the tiles a hint pointed at stay marked
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


def check_bot_name(name):
    """None if `name` is a known bot, else the error text listing the known ones."""
    try:
        bot_class(name)
    except KeyError as exc:
        return f"--bot: {exc.args[0]}"
    return None


def rating(score: int) -> str:
    """LOSTGEMS.md part 1's words for a final score."""
    if score >= 9:
        return "praised by the tribe"
    if score >= 6:
        return "nicely done"
    if score >= 4:
        return "a mediocre explorer"
    return "the tribes are let down"


def hint_words(move) -> str:
    return COLOUR_NAMES[move.hint] if move.hint_kind == "colour" else f"value {move.hint}"


def pointed_words(touched) -> str:
    if not touched:
        return "no shard"
    return ("slot " if len(touched) == 1 else "slots ") + " and ".join(str(s) for s in touched)


class BotGame:
    """The controller (see app.py's hooks): deals, runs the turns, draws the game panel."""

    HELP = (  # the panel's key help while the bot game owns it
        "Your move: the buttons above",
        "The tiles move themselves; you see",
        "  your own shards as backs",
        "Triple-click the board: count it",
        "Space pause  N step  S speed  D links",
        "Esc quit",
    )

    def __init__(self, app, bot_name: str, seed: int, scripts=None):
        self.app = app
        self.bot_name = bot_name
        self.scripts = scripts  # the folder each game is saved into as a session script
        self.saved_scripts: list = []  # their paths, in the order the games were saved
        self.unsaved: list = []  # why a game could not be saved (told at exit too)
        if scripts is not None:  # an unusable folder is refused before play, not after
            if os.path.exists(scripts) and not os.path.isdir(scripts):
                raise NotADirectoryError(f"{scripts} is not a folder")
            os.makedirs(scripts, exist_ok=True)
        self.messages: list = []  # (text, kind) newest last; kind "info", "bot", "you", "bad"
        self.buttons: list = []  # (rect, move or NEW_GAME, enabled), filled while drawing
        self.hands_off_said = None  # when the "use the buttons" note was last given
        self._start(seed, gather=False)

    def _start(self, seed, gather):
        """A fresh referee, bot and table bookkeeping; the deal (after gathering the tiles of
        a finished game back into the jungle) runs over the next frames."""
        self.seed = seed
        self.bot = bot_class(self.bot_name)(BOT, bot_seed(seed, BOT))
        self.table = AppTable(self.app)
        self.state: GameState | None = None  # the referee, once the deal is done
        self.phase = SETUP
        self.steps = Steps(self.app, self._setup(gather))
        self.after = self._setup_done
        self.think_until = None
        self.pointed = ((), "", 0)  # (tiles, word, until ms): what the last hint pointed at
        self.saved = False  # this game is in the scripts folder
        self.app.view_as = "A"
        self.app.view_locked = True
        self.say(f"Game seed {seed}. Dealing: the bot holds a jungle tile for 6 s.")

    def attach(self):
        self.app.controllers.append(self)
        return self

    def new_game(self):
        """Another game on the same tiles (also the way out after a disagreement)."""
        if self.phase in (OVER, BROKEN):
            self._start(self.seed + 1, gather=True)

    def say(self, text, kind="info"):
        self.messages.append((text, kind))
        del self.messages[:-MESSAGES]

    # --- what the person may do ---------------------------------------------------------------
    def your_turn(self) -> bool:
        return self.phase == PERSON

    def legal(self, move) -> bool:
        return self.state is not None and self.your_turn() and move in self.state.legal_moves()

    def choose(self, move) -> bool:
        """The person's move (from a button). False, with a message, if it is not allowed now."""
        if self.state is None or not self.your_turn():
            return False
        try:
            self.state.check(move)
        except IllegalMove as exc:
            self.say(f"Not allowed: {exc}", "bad")
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
                move = self.bot.act(self.state.observation(BOT))
                try:
                    self.state.check(move)
                except IllegalMove as exc:  # a bot of your own broke a rule
                    self._stop(f"The bot's move {move} is not allowed: {exc}")
                    return
                self._apply(move)
        except Mismatch as exc:
            self._stop(f"The tiles disagree with the referee: {exc}")

    def _stop(self, why):
        """The game cannot go on: say why; New game deals again."""
        self.phase = BROKEN
        self.steps = None
        self.say(why, "bad")
        if self.state is not None:
            self.save_script(f"stopped after {self.state.turns} turns: {' '.join(why.split())}")

    def on_close(self, app):
        """The window closes: keep a game left unfinished (one with a move at least)."""
        if self.state is not None and not self.state.over:
            self.save_script(f"left unfinished after {self.state.turns} turns")

    def save_script(self, how):
        """Save the game so far into the scripts folder (once a game; nothing without a folder
        or a move), saying where in the panel; a failure is said there too, not raised."""
        state = self.state
        if self.scripts is None or self.saved or state is None or not state.history:
            return
        title = f"You (A) with {self.bot_name} (B), game seed {self.seed}: {how}"
        try:
            path = save_new_script(
                game_script(state, title), self.scripts, f"you-{self.bot_name}", self.seed
            )
        except OSError as exc:
            self.unsaved.append(f"could not save game seed {self.seed} in {self.scripts}: {exc}")
            self.say(f"Could not save the game as a script: {exc}", "bad")
            return
        self.saved = True
        self.saved_scripts.append(path)
        self.say(f"Saved as {path}; replay it with blinks session run.")

    def click(self, pos) -> bool:
        for rect, move, enabled in self.buttons:
            if rect.collidepoint(pos):
                if enabled and move == NEW_GAME:
                    self.new_game()
                elif enabled:
                    self.choose(move)
                return True
        return False

    def locks(self, tid, action) -> bool:
        """Until the game is over the tiles are the game's: they move only through the buttons,
        so the referee and the tiles stay in step. Pressing a board tile (a triple-click counts
        the score) is harmless and allowed."""
        if self.phase == OVER:
            return False
        if action == "press" and tid in self.table.board:
            return False
        if self.hands_off_said is None or self.app.world.now - self.hands_off_said > 3000:
            self.say(
                "Bot game: the tiles move by the buttons (triple-click the board to count).", "bad"
            )
            self.hands_off_said = self.app.world.now
        return True

    def marks(self, tid) -> list:
        out = []
        in_hand = False
        for player in (HUMAN, BOT):
            hand = self.table.hands[player]
            if tid in hand:
                in_hand = True
                slot = hand.index(tid) + 1
                out.append(f"slot {slot}")
                if player == HUMAN and self.state is not None:
                    known = describe_knowledge(self.state.knowledge[HUMAN][slot - 1])
                    if known != "RYB/123":  # something learnt from hints
                        out.append(known)
        tiles, word, until = self.pointed
        if tid in tiles and self.app.world.now < until and in_hand:
            out.append(word + "!")  # only while it is in the hand the hint pointed at
        return out

    def draw_panel(self, surface, panel, x, y):
        from simulator.games.lostgems.bot_panel import draw_game_panel

        return draw_game_panel(surface, panel, self, x, y)

    # --- turns --------------------------------------------------------------------------------
    def _setup(self, gather):
        if gather:
            self.table.gather(starting_layout(self.app.table, len(self.app.world.tiles)))
        yield START_MS
        yield from self.table.deal(self._held_tile())
        deck = self.table.choose_order(None, self.seed)
        self.state = GameState(deck=deck, start=HUMAN)
        for player in (HUMAN, HUMAN, BOT, BOT):
            yield from self.table.draw(player)

    def _held_tile(self):
        """The jungle tile the bot holds to deal: the lowest id (any tile of the cluster works)."""
        return min(self.app.world.tiles)

    def _setup_done(self):
        self.table.check(self.state)
        self.say("Dealt. You are A (bottom): your own shards show their backs.")
        self._next_turn()

    def _apply(self, move):
        player = self.state.current
        event = self.state.apply(move)
        self.bot.observe(self.state.observation(BOT), self.state.observation(BOT).last_event)
        self._tell(player, event)
        if self.bot.remark:  # e.g. the convention bot drops its code words for plain hints
            self.say(f"B: {self.bot.remark}", "bot")
            self.bot.remark = None
        self.phase = MOVING
        self.steps = Steps(self.app, self.table.perform(event))
        self.after = self._move_done

    def _tell(self, player, event):
        """The transcript line, as A may read it (A's own draw stays hidden)."""
        move = event.move
        if move.kind == HINT:
            words = hint_words(move)
            target = self.table.hands[1 - player]
            tiles = tuple(target[s - 1] for s in event.touched)
            self.pointed = (tiles, words, self.app.world.now + POINT_MS)
            if player == BOT:
                self.say(f"B hints you: {words} -> {pointed_words(event.touched)}", "bot")
            else:
                self.say(f"You hint B: {words} -> {pointed_words(event.touched)}", "you")
            return
        seen = self.state.observation(HUMAN).last_event
        who = "You" if player == HUMAN else "B"
        self.say(f"{who}: {seen.describe()}", "you" if player == HUMAN else "bot")

    def _move_done(self):
        self.table.check(self.state)
        self._next_turn()

    def _next_turn(self):
        state = self.state
        if state.over:
            self.phase = OVER
            self.say(f"Game over: score {state.score}, {rating(state.score)}.", "info")
            self.save_script(f"score {state.score}, {rating(state.score)}")
            self.app.view_as = None  # the game is over: see your own shards at last
            self.app.view_locked = False
        elif state.current == BOT:
            self.phase = THINKING
            self.think_until = self.app.world.now + BOT_PAUSE_MS
        else:
            self.phase = PERSON
