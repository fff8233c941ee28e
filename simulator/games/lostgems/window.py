"""`blinks sim --bot NAME`: a person plays A against a bot playing B, on the simulated tiles:
Lost Gems' parts of the bot game (simulator.app.bot_game keeps the turns, pauses, messages,
hands-off rule and saved scripts) and its side panel.

The referee (`simulator.games.lostgems.referee.GameState`) keeps the rules; the tiles show the game.
The bot sees only its `Observation` (never its own shards); the person sees the table as A
(A's own revealed shards show their backs, and the view cannot be switched).

The person moves with the panel's buttons: a hint to B (red, yellow, blue, 1, 2, 3), or play /
discard slot 1 or 2. Buttons rather than gestures on the tiles because A cannot see their own
shards and a misplaced tile would put the referee and the tiles out of step. They are rebuilt
on every draw (like the token coins), so what is clickable is exactly what is shown; a greyed
one is a move the rules do not allow now (or not your turn). The move is then made on the
tiles the way the session runner makes it (table_moves), through the app's table
operations, so it is visible and recorded. The bot's turn comes after a short pause, its hints
are written in the panel ("B hints you: red -> slot 2"), and after every move the tiles are
checked against the referee.
"""

import pygame

from simulator.app import bot_game, bot_panel
from simulator.app.bot_game import BROKEN, NEW_GAME, OVER, PERSON
from simulator.app.bot_panel import BUTTON_FILL, BUTTON_OFF, EDGE
from simulator.app.panels import COIN_OFF, DIM, ERROR_ON, HINT_ON, WARN
from simulator.games.lostgems import bots
from simulator.games.lostgems.game_scripts import SUFFIX, game_script
from simulator.games.lostgems.moves import ALL_HINTS, DISCARDS, HINT, PLAYS
from simulator.games.lostgems.observation import describe_knowledge, event_seen_by
from simulator.games.lostgems.referee import GameState, IllegalMove
from simulator.games.lostgems.shards import COLOUR_NAMES, COLOURS, MAX_ERRORS, MAX_HINTS, rating
from simulator.games.lostgems.table_moves import AppTable

HINT_FILL = (
    (200, 50, 45),
    (215, 185, 40),
    (50, 90, 210),
    (90, 90, 100),
    (90, 90, 100),
    (90, 90, 100),
)
STATUS = {
    **bot_panel.STATUS,
    "person": "Your turn: hint B, or play / discard",
    "thinking": "B is thinking...",
}


def _button(surface, game, text, rect, move, fill):
    off = BUTTON_OFF if fill in (BUTTON_FILL, HINT_FILL[3]) else tuple(v // 3 for v in fill)
    bot_panel.button(surface, game, text, rect, move, game.legal(move), fill, off, 20)


def _coins(surface, panel, x, y, count, total, on):
    radius = panel.px(11)
    for i in range(total):
        centre = (x + panel.px(i * 30), y)
        pygame.draw.circle(surface, on if i < count else COIN_OFF, centre, radius)
        pygame.draw.circle(surface, EDGE, centre, radius, 2)


def draw_game_panel(surface, panel, game, x, y):
    """Draw the game from A's side; returns the y below it. Lengths are those of the 1280x800
    window, scaled with it (panel.px)."""
    t, px = panel.text, panel.px
    state = game.state
    game.buttons = []
    y = t.blit(surface, f"You (A) vs bot {game.bot_name} (B)", (x, y), 20, WARN).bottom + px(4)
    y = t.blit(surface, STATUS[game.phase], (x, y), 21).bottom + px(6)
    if state is not None:
        t.blit(surface, f"Hints {state.hints}/{MAX_HINTS}", (x, y), 21)
        _coins(surface, panel, x + px(150), y + px(9), state.hints, MAX_HINTS, HINT_ON)
        y += px(26)
        left = MAX_ERRORS - state.errors
        t.blit(surface, f"Errors left {left}/{MAX_ERRORS}", (x, y), 21)
        _coins(surface, panel, x + px(150), y + px(9), left, MAX_ERRORS, ERROR_ON)
        y += px(26)
        gems = "  ".join(f"{COLOURS[c]} {state.gems[c]}" for c in range(3))
        y = t.blit(surface, f"Score {state.score}    gems {gems}", (x, y), 21).bottom + px(2)
        if state.final_turns is not None and not state.over:
            left_words = (
                f"Last round: {state.final_turns} turn{'s' if state.final_turns != 1 else ''} left"
            )
        else:
            left_words = f"Jungle: {state.jungle} shards to draw"
        y = t.blit(
            surface, f"{left_words}   {state.turns} turns played", (x, y), 19, DIM
        ).bottom + px(8)
        y = _buttons(surface, game, x, y)
    y = bot_panel.transcript(surface, panel, game, x, y, 38, 18)
    if state is not None and state.over:
        y = t.blit(
            surface, f"Final score {state.score}: {rating(state.score)}", (x, y + px(6)), 22, WARN
        ).bottom
    return bot_panel.new_game_button(surface, panel, game, x, y)


def _buttons(surface, game, x, y):
    """The move buttons; their rects are given in 1280x800 lengths from the panel's left."""
    t, px = game.app.text, game.app.panel.px
    t.blit(surface, "Hint B:", (x, y + px(6)), 19)
    left, top = x / game.app.panel.scale, y / game.app.panel.scale
    for i, move in enumerate(ALL_HINTS):
        label = COLOURS[i] if i < 3 else str(move.hint)  # letters too, for colour blindness
        _button(surface, game, label, (left + 62 + i * 36, top, 32, 28), move, HINT_FILL[i])
    top += 36
    for slot in (1, 2):
        t.blit(surface, f"Slot {slot}:", (x, px(top + 6)), 19)
        play, discard = PLAYS[slot - 1], DISCARDS[slot - 1]
        _button(surface, game, f"play {slot}", (left + 62, top, 96, 28), play, BUTTON_FILL)
        _button(surface, game, f"discard {slot}", (left + 166, top, 106, 28), discard, BUTTON_FILL)
        top += 34
    return px(top + 6)


BOT_TILES = 18
HUMAN, BOT = 0, 1
POINT_MS = 4000  # how long the tiles a hint pointed at stay marked


def check_bot_name(name):
    """None if `name` is a known bot, else the error text listing the known ones. A bot module
    of your own that fails to load raises UserCodeError."""
    try:
        bots.bot_class(name)
    except KeyError as exc:
        return f"--bot: {exc.args[0]}"
    return None


def hint_words(move) -> str:
    return COLOUR_NAMES[move.hint] if move.hint_kind == "colour" else f"value {move.hint}"


def pointed_words(touched) -> str:
    if not touched:
        return "no shard"
    return ("slot " if len(touched) == 1 else "slots ") + " and ".join(str(s) for s in touched)


class BotGame(bot_game.BotGame):
    """Lost Gems' parts of the bot game: the deal and draws, hints pointed at, the shards'
    captions and the panel."""

    HELP = (  # the panel's key help while the bot game owns it
        "Your move: the buttons above",
        "The tiles move themselves; you see",
        "  your own shards as backs",
        "Triple-click the board: count it",
        "Space pause  N step  S speed  D links",
        "Esc quit",
    )
    SUFFIX = SUFFIX
    DEALING = "Dealing: the bot holds a jungle tile for 6 s."
    DEALT = "Dealt. You are A (bottom): your own shards show their backs."
    HANDS_OFF = "Bot game: the tiles move by the buttons (triple-click the board to count)."
    panel = staticmethod(draw_game_panel)
    BOTS = bots
    seen_by = staticmethod(event_seen_by)

    def begin(self, seed):
        self.table = AppTable(self.app)
        self.pointed = ((), "", 0)  # (tiles, word, until ms): what the last hint pointed at
        self.app.view_as = "A"
        self.app.view_locked = True

    def set_up(self):
        deck = self.table.choose_order(None, self.seed)
        self.state = GameState(deck=deck, start=HUMAN)
        for player in (HUMAN, HUMAN, BOT, BOT):
            yield from self.table.draw(player)
        self.table.check(self.state)

    def perform(self, event):
        yield from self.table.perform(event)
        self.table.check(self.state)

    def refusal(self, move):
        try:
            self.state.check(move)
        except IllegalMove as exc:
            return f"Not allowed: {exc}"
        return None

    def free_gesture(self, tid, action):
        """Pressing a board tile (a triple-click counts the score) is harmless."""
        return action == "press" and tid in self.table.board

    def script_text(self, title):
        return game_script(self.state, title)

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

    def tell(self, event):
        """The transcript line, as A may read it (A's own draw stays hidden)."""
        player, move = event.player, event.move
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
        seen = event_seen_by(event, HUMAN)
        who = "You" if player == HUMAN else "B"
        self.say(f"{who}: {seen.describe()}", "you" if player == HUMAN else "bot")

    def game_over(self):
        self.app.view_as = None  # the game is over: see your own shards at last
        self.app.view_locked = False
        score = self.state.score
        return (
            f"Game over: score {score}, {rating(score)}.",
            f"score {score}, {rating(score)}",
        )


# the bot game's phases and its New game button, as a test or a panel names them
__all__ = ["BROKEN", "NEW_GAME", "OVER", "PERSON", "BotGame", "check_bot_name", "rating"]
