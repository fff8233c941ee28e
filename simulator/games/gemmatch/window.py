"""`blinks sim --game gemmatch --bot NAME`: a person plays A against a bot playing B, on the 27
simulated tiles. Gem Match's parts of the bot game (simulator.app.bot_game keeps the turns,
pauses, messages, hands-off rule and saved `.gm` scripts) and its side panel.

The referee (`referee.GameState`) keeps the rules; the tiles show the game. The bot sees only
its `Observation`. Everything in Gem Match lies face up but the pile, so the panel shows both
hands and heaps, the scores and who is to move.

The person moves with the panel's buttons, which offer the referee's legal moves; they are
rebuilt on every draw, so what is clickable is exactly what is shown, and a greyed one is a
move the rules do not allow now (or not your turn). Placing takes three choices: the hand
token (slot), its turn (0-5: the direction its face 0 points, 0 north, clockwise) and the cell
(the captions on the field's tokens name theirs); a line says what that placement would make.
Resolving a group: a token to the heap, or to the hand with the side chosen. The move is then
made on the tiles the way the session runner makes it (see tiles), through the app's table
operations, so it is visible and recorded. A bot's move comes after a short pause, and after
every move the tiles are checked against the referee; a disagreement stops the game with the
reason in the panel (New game deals again).
"""

from games.gemmatch import tokens

from simulator.app import bot_game, bot_panel
from simulator.app.bot_game import BROKEN, NEW_GAME, OVER
from simulator.app.bot_game import PERSON as TURN
from simulator.app.bot_panel import BUTTON_FILL, CHOSEN_FILL
from simulator.app.panels import DIM, TEXT_COLOR, WARN, wrap
from simulator.games.gemmatch import bots
from simulator.games.gemmatch import moves as mv
from simulator.games.gemmatch.referee import GameState
from simulator.games.gemmatch.rules import BASIC, IMPROVED, PLAYERS, SIDES, cell_name
from simulator.games.gemmatch.script import SUFFIX, game_script
from simulator.games.gemmatch.tactics import Outlook
from simulator.games.gemmatch.tiles import PERSON, AppTable

PHASE_WORDS = {
    "place": "place a token on the field",
    "extra": "place another token, or pass",
    "resolve": "take the group's tokens",
}


def _row(surface, game, x, y, label, items, width=42):
    """A label and buttons [(text, key, enabled, fill)]; returns the y below them."""
    return bot_panel.row(surface, game, x, y, label, items, width, size=17, button_size=16)


def _hand_words(state, p):
    return " ".join(
        f"{i + 1}:{tokens.side_name(state.gems_of(t))}" for i, t in enumerate(state.hands[p])
    )


def draw_game_panel(surface, panel, game, x, y):
    """Draw the game as A sees it (everything but the pile is face up); returns the y below."""
    t, px = panel.text, panel.px
    state = game.state
    game.buttons = []
    y = t.blit(surface, f"You (A) vs bot {game.bot_name} (B)", (x, y), 20, WARN).bottom
    y = t.blit(surface, bot_panel.status(game, PHASE_WORDS), (x, y + px(2)), 18).bottom + px(4)
    if state is not None:
        for p in range(state.players):
            who = "A (you)" if p == 0 else "B"
            mark = ">" if p == state.current and not state.over else "  "
            line = f"{mark} {who}: {state.score(p)} points, heap {len(state.heaps[p])}"
            y = t.blit(surface, line, (x, y), 17).bottom
            for line in wrap(f"   hand {_hand_words(state, p) or '-'}", 34):
                y = t.blit(surface, line, (x, y), 17, TEXT_COLOR).bottom
        y = t.blit(
            surface,
            f"Pile {len(state.pile)}  field {len(state.field)}  turn {state.turns + 1}",
            (x, y),
            16,
            DIM,
        ).bottom
        if state.pending is not None:
            for line in wrap("Resolving " + state.pending.describe(), 40):
                y = t.blit(surface, line, (x, y), 15, WARN).bottom
        y = _buttons(surface, game, x, y + px(6))
    y = bot_panel.transcript(surface, panel, game, x, y, 40, 15)
    return bot_panel.new_game_button(surface, panel, game, x, y, 8, 28, 20)


def _buttons(surface, game, x, y):
    """The move buttons of the phase the referee is in (greyed unless it is your turn)."""
    state = game.state
    mine = game.your_turn()
    phase = state.phase if state.current == 0 else "place"

    def item(text, move):
        return (text, move, game.legal(move), BUTTON_FILL)

    def choice(text, key, value):
        return (
            text,
            (key, value),
            mine,
            CHOSEN_FILL if getattr(game, key) == value else BUTTON_FILL,
        )

    if phase in ("place", "extra"):
        slots = range(1, len(state.hands[0]) + 1)
        y = _row(surface, game, x, y, "Token", [choice(str(n), "slot", n) for n in slots])
        y = _row(surface, game, x, y, "Turn", [choice(str(r), "turn", r) for r in range(6)], 30)
        cells = state.field.open_cells()
        items = [item(cell_name(c), mv.place(game.slot, c, game.turn)) for c in cells]
        y = _row(surface, game, x, y, "on", items)
        if mine and state.hands[0] and game.slot <= len(state.hands[0]):
            y = _preview(surface, game, x, y)
        extra = [item("pass", mv.pass_())] if phase == "extra" else []
        y = _row(surface, game, x, y, "", extra + [item("skip", mv.skip())], 60)
    elif phase == "resolve":
        cells = state.pending.cells
        y = _row(surface, game, x, y, "Heap", [item(cell_name(c), mv.heap(c)) for c in cells])
        sides = [choice(SIDES[s][:5], "side", s) for s in (BASIC, IMPROVED)]
        y = _row(surface, game, x, y, "Side", sides, 70)
        items = [item(cell_name(c), mv.hand(c, game.side)) for c in cells]
        y = _row(surface, game, x, y, "Hand", items)
    return y + game.app.panel.px(4)


def _preview(surface, game, x, y):
    """What the chosen token, turned as chosen, would make on each open cell that makes a
    group (as a person could work out from the table)."""
    state = game.state
    gems = state.gems_of(state.hands[0][game.slot - 1])
    outlook = Outlook(state.field)
    found = []
    for cell in outlook.cells:
        made = outlook.outcome(cell, gems, game.turn)
        if made:
            group = made[0][1]
            found.append(f"{cell_name(cell)}: {group.size} {tokens.GEM_NAMES[group.colour]}")
    text = "Groups this turn makes: " + (", ".join(found) if found else "none")
    for line in wrap(text, 40):
        y = game.app.text.blit(surface, line, (x, y), 15, DIM).bottom
    return y + game.app.panel.px(4)


class BotGame(bot_game.BotGame):
    """Gem Match's parts of the bot game: the set-up, the placements, the cell captions, the
    panel's three choices for a placement (which hand token, turned how, on which cell) and
    the side a token taken to the hand shows."""

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
