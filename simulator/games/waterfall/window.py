"""`blinks sim --game waterfall --bot NAME`: a person plays A against bots playing the other
seats (B; 2 players), on the 27 simulated tiles. Waterfall's parts of the bot game
(simulator.app.bot_game keeps the turns, pauses, messages, hands-off rule and saved `.wf`
scripts) and its side panel.

The referee (`referee.GameState`) keeps the rules; the tiles show the game. Each bot sees only
its `Observation` and hears moves as its seat may (`event_seen_by`). The person sees the table
and, in the panel, their own hand; of the others only how many tiles they hold and have
scored, until the game ends (their scores once it is over).

The person moves with the panel's buttons, which offer the referee's legal moves in the turn's
groups: PLAY (a hand tile, or fall), FALL (step left / right, or done), ADD (which hand tile,
then where) and SCORE (a hand tile, or done). Buttons are rebuilt on every draw, so what is
clickable is exactly what is shown; a greyed one is a move the rules do not allow now (or not
your turn). The move is then made on the tiles the way the session runner makes it (see
tiles), through the app's table operations, so it is visible and recorded. A bot's move comes
after a short pause, and after every move the tiles are checked against the referee; a
disagreement stops the game with the reason in the panel (New game deals again).
"""

from games.waterfall import cards

from simulator.app import bot_game, bot_panel
from simulator.app.bot_game import BROKEN, NEW_GAME, OVER
from simulator.app.bot_game import PERSON as TURN
from simulator.app.bot_panel import BUTTON_FILL, CHOSEN_FILL
from simulator.app.panels import DIM, WARN, wrap
from simulator.games.waterfall import bots, rules
from simulator.games.waterfall.referee import GameState, game_script
from simulator.games.waterfall.rules import LEFT, PLAYERS, RIGHT, event_seen_by, place_name
from simulator.games.waterfall.tiles import PERSON, AppTable

PHASE_WORDS = {
    "play": "PLAY tiles for steps, then fall",
    "fall": "FALL: step down-left or down-right, or done: fall no further",
    "add": "ADD: a hand tile joins the waterfall",
    "score": "SCORE: a tile of a visited gem",
}


def _hand_words(state, p):
    return ", ".join(f"{i + 1} {cards.name(state.kinds[t])}" for i, t in enumerate(state.hands[p]))


def draw_game_panel(surface, panel, game, x, y):
    """Draw the game as A may see it; returns the y below it."""
    t, px = panel.text, panel.px
    state = game.state
    game.buttons = []
    others = ", ".join(PLAYERS[1 : game.players])
    y = t.blit(surface, f"You (A) vs bot {game.bot_name} ({others})", (x, y), 20, WARN).bottom
    y = t.blit(surface, bot_panel.status(game, PHASE_WORDS), (x, y + px(2)), 19).bottom + px(4)
    if state is not None:
        for p in range(state.players):
            who = "A (you)" if p == 0 else PLAYERS[p]
            score = f"{state.score(p)} points" if p == 0 or state.over else "points hidden"
            mark = ">" if p == state.current and not state.over else "  "
            line = f"{mark} {who}: hand {len(state.hands[p])}, scored {len(state.score_piles[p])}, {score}"
            y = t.blit(surface, line, (x, y), 17).bottom
        y = t.blit(
            surface,
            f"Draw pile {len(state.pile)}  discards {len(state.discards)}  "
            f"waterfall {len(state.waterfall)}/20",
            (x, y),
            17,
            DIM,
        ).bottom
        pawns = ", ".join(
            f"{PLAYERS[p]} {'above' if at is None else place_name(at)}"
            for p, at in enumerate(state.pawns)
        )
        y = t.blit(surface, f"Turn {state.turns + 1}  pawns: {pawns}", (x, y), 17, DIM).bottom
        if state.current == 0 and not state.over and state.steps:
            y = t.blit(surface, f"Steps left: {state.steps}", (x, y), 17).bottom
        y += px(4)
        for line in wrap("Your hand: " + (_hand_words(state, 0) or "empty"), 40):
            y = t.blit(surface, line, (x, y), 17, (170, 230, 170)).bottom
        y = _buttons(surface, game, x, y + px(6))
    y = bot_panel.transcript(surface, panel, game, x, y, 40, 16)
    return bot_panel.new_game_button(surface, panel, game, x, y, 8, 28, 20)


def _buttons(surface, game, x, y):
    """The move buttons of the phase the referee is in (greyed unless it is your turn)."""
    state = game.state
    slots = range(1, len(state.hands[0]) + 1)
    phase = state.phase if state.current == 0 else "play"

    def item(text, move, fill=BUTTON_FILL):
        return (text, move, game.legal(move) and game.fits(move), fill)

    if phase == "play":
        items = [item(str(n), rules.play(n)) for n in slots]
        y = bot_panel.row(surface, game, x, y, "Play", items)
        y = bot_panel.row(surface, game, x, y, "", [item("fall", rules.fall())])
    elif phase == "fall":
        y = bot_panel.row(
            surface,
            game,
            x,
            y,
            "Step",
            [item("left", rules.step(LEFT))] + [item("right", rules.step(RIGHT))],
        )
        y = bot_panel.row(surface, game, x, y, "", [item("done", rules.done())])
    elif phase == "add":
        mine = game.your_turn()
        chosen = [
            (str(n), ("slot", n), mine, CHOSEN_FILL if n == game.slot else BUTTON_FILL)
            for n in slots
        ]
        y = bot_panel.row(surface, game, x, y, "Add tile", chosen)
        places = state.open_places()
        items = [item(place_name(p), rules.add(game.slot, p)) for p in places]
        y = bot_panel.row(surface, game, x, y, "at", items)
    elif phase == "score":
        items = [item(str(n), rules.score(n)) for n in slots]
        y = bot_panel.row(surface, game, x, y, "Score", items)
        y = bot_panel.row(surface, game, x, y, "", [item("done", rules.done())])
    return y + game.app.panel.px(4)


BOT_TILES = cards.DECK_SIZE
PLAYERS_IN_GAME = 2


class BotGame(bot_game.BotGame):
    """Waterfall's parts of the bot game: the set-up, the pawn's moves, the place captions, the
    ADD's two-step choice (which hand tile, then where) and the panel."""

    HELP = (
        "Your move: the buttons above",
        "The tiles move themselves; captions name",
        "  waterfall places (row.index) and slots",
        "Space pause  N step  S speed  D links",
        "Esc quit",
    )
    SUFFIX = ".wf"
    SLOT_CAPTION = "{}"  # a slot's number alone fits the gap under a hand that zigzags
    DEALING = "Dealing: a bot holds a draw pile tile for 6 s."
    DEALT = "Dealt. You are A (bottom left): your hand shows its cards."
    panel = staticmethod(draw_game_panel)
    game_script = staticmethod(game_script)
    BOTS = bots
    seen_by = staticmethod(event_seen_by)

    def __init__(self, app, bot_name, seed, scripts=None, players=PLAYERS_IN_GAME):
        bot_game.BotGame.__init__(self, app, bot_name, seed, scripts, players)

    def begin(self, seed):
        self.table = AppTable(self.app, seed, self.players)
        self.pawn_tile = None  # where the mover's pawn stood before the move

    def set_up(self):
        deck = self.table.choose_order(self.seed)
        self.state = GameState(players=self.players, seed=self.seed, deck=deck, start=PERSON)
        yield from self.table.set_up(self.state)

    def fits(self, move):
        """An ADD the table has room for (a very deep or wide waterfall leaves its area)."""
        return move.kind != rules.ADD or self.table.fits(move.place)

    def refusal(self, move):
        why = bot_game.BotGame.refusal(self, move)
        if why is None and not self.fits(move):
            return f"No room on the table at {place_name(move.place)}: choose another"
        return why

    def _apply(self, move):
        here = self.state.pawns[self.state.current]
        self.pawn_tile = None if here is None else self.table.tile_of[self.state.waterfall[here]]
        bot_game.BotGame._apply(self, move)

    def perform(self, event):
        return self.table.perform(self.state, event, self.pawn_tile)

    def place_words(self, ref):
        """A waterfall tile's place (row.index)."""
        for place, r in self.state.waterfall.items():
            if r == ref:
                return place_name(place)
        return None

    def tell(self, event):
        """The transcript line, as A may read it (the others' draws stay hidden)."""
        seen = event_seen_by(event, PERSON)
        text = seen.describe(hide_draws=event.player != PERSON)
        if event.move.kind == rules.PLAY:  # the discard pile is face up
            text += f" ({cards.name(self.state.kinds[self.state.discards[-1]])})"
        if event.reshuffled:
            text += "; the discards are shuffled into a new draw pile"
        who = "You" if event.player == PERSON else PLAYERS[event.player]
        self.say(f"{who}: {text}", "you" if event.player == PERSON else "bot")


# the bot game's phases and its New game button, as a test or a panel names them
__all__ = ["BROKEN", "NEW_GAME", "OVER", "TURN", "BotGame"]
