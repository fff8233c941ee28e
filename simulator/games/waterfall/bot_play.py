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

The turns, pauses, messages, the hands-off rule and the saved `.wf` scripts (`--scripts DIR`)
are every bot game's (simulator.app.bot_game); this module gives it Waterfall's parts.
"""

from games.waterfall import cards

from simulator.app import bot_game
from simulator.app.bot_game import BROKEN, NEW_GAME, OVER
from simulator.app.bot_game import PERSON as TURN
from simulator.games.waterfall import bots
from simulator.games.waterfall import moves as mv
from simulator.games.waterfall.bot_panel import draw_game_panel
from simulator.games.waterfall.observation import event_seen_by
from simulator.games.waterfall.referee import GameState
from simulator.games.waterfall.rules import PLAYERS, place_name
from simulator.games.waterfall.script import game_script
from simulator.games.waterfall.table_moves import PERSON, AppTable

BOT_TILES = cards.DECK_SIZE
PLAYERS_IN_GAME = 2


class BotGame(bot_game.BotGame):
    """Waterfall's parts of the bot game: the set-up, the pawn's moves, the place captions, the
    ADD's two-step choice (which hand tile, then where) and the panel (bot_panel)."""

    HELP = (
        "Your move: the buttons above",
        "The tiles move themselves; captions",
        "  name waterfall places (row.index)",
        "Space pause  N step  S speed  D links",
        "Esc quit",
    )
    SUFFIX = ".wf"
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
        return move.kind != mv.ADD or self.table.fits(move.place)

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
        if event.move.kind == mv.PLAY:  # the discard pile is face up
            text += f" ({cards.name(self.state.kinds[self.state.discards[-1]])})"
        if event.reshuffled:
            text += "; the discards are shuffled into a new draw pile"
        who = "You" if event.player == PERSON else PLAYERS[event.player]
        self.say(f"{who}: {text}", "you" if event.player == PERSON else "bot")


# the bot game's phases and its New game button, as a test or a panel names them
__all__ = ["BROKEN", "NEW_GAME", "OVER", "TURN", "BotGame"]
