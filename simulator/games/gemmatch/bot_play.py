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

The turns, pauses, messages, the hands-off rule and the saved `.gm` scripts (`--scripts DIR`)
are every bot game's (simulator.app.bot_game); this module gives it Gem Match's parts.
"""

from simulator.app import bot_game
from simulator.app.bot_game import BROKEN, NEW_GAME, OVER
from simulator.app.bot_game import PERSON as TURN
from simulator.games.gemmatch import bots
from simulator.games.gemmatch.bot_panel import draw_game_panel
from simulator.games.gemmatch.referee import GameState
from simulator.games.gemmatch.rules import IMPROVED, PLAYERS, cell_name
from simulator.games.gemmatch.script import SUFFIX, game_script
from simulator.games.gemmatch.table_moves import PERSON, AppTable


class BotGame(bot_game.BotGame):
    """Gem Match's parts of the bot game: the set-up, the placements, the cell captions, the
    panel's three choices for a placement (which hand token, turned how, on which cell) and
    the side a token taken to the hand shows (bot_panel)."""

    HELP = (
        "Your move: the buttons above",
        "The tiles move themselves; captions",
        "  name field cells (q,r) and your slots",
        "Space pause  N step  S speed  D links",
        "Esc quit",
    )
    SUFFIX = SUFFIX
    DEALING = "Dealing: a bot holds a pile tile for 6 s."
    DEALT = "Dealt. You are A (bottom): place a token on the field's centre."
    panel = staticmethod(draw_game_panel)
    game_script = staticmethod(game_script)
    BOTS = bots

    def begin(self, seed):
        self.table = AppTable(self.app, seed)
        self.slot = 1  # the panel's chosen hand token, turn and side
        self.turn = 0
        self.side = IMPROVED
        self.field_before = set()  # the field's cells before the move (a lone one starts it)

    def set_up(self):
        deck = self.table.choose_order(self.seed)
        self.state = GameState(seed=self.seed, deck=deck, start=PERSON)
        yield from self.table.set_up(self.state)

    def seen_by(self, event, seat):
        """Everything but the pile lies face up: each seat sees every move as it is."""
        return event

    def _apply(self, move):
        self.field_before = set(self.state.field.cells)
        bot_game.BotGame._apply(self, move)

    def perform(self, event):
        return self.table.perform(self.state, event, self.field_before)

    def place_words(self, ref):
        """A field token's cell (q,r)."""
        for cell, placed in self.state.field.cells.items():
            if placed.token == ref:
                return cell_name(cell)
        return None

    def tell(self, event):
        who = "You" if event.player == PERSON else PLAYERS[event.player]
        self.say(f"{who}: {event.describe()}", "you" if event.player == PERSON else "bot")


# the bot game's phases and its New game button, as a test or a panel names them
__all__ = ["BROKEN", "NEW_GAME", "OVER", "TURN", "BotGame"]
