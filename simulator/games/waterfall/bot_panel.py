"""The side panel of a Waterfall bot game: who is to move, scores, piles, A's hand, the
person's buttons and the transcript.

Buttons are rebuilt on every draw, so what is clickable is exactly what is shown; a greyed
button is a move the rules do not allow now (or not your turn). They come in the turn's groups:
PLAY (a hand tile, or fall), FALL (step left / right, or done), ADD (which hand tile, then where) and
SCORE (a hand tile, or done). Of the other players the panel says only what A could see on a
table: how many tiles they hold and have scored; their scores once the game is over.
"""

from games.waterfall import cards

from simulator.app import bot_panel
from simulator.app.bot_panel import BUTTON_FILL, CHOSEN_FILL
from simulator.app.panels import DIM, WARN, wrap
from simulator.games.waterfall import moves as mv
from simulator.games.waterfall.rules import LEFT, PLAYERS, RIGHT, place_name

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
        items = [item(str(n), mv.play(n)) for n in slots]
        y = bot_panel.row(surface, game, x, y, "Play", items)
        y = bot_panel.row(surface, game, x, y, "", [item("fall", mv.fall())])
    elif phase == "fall":
        y = bot_panel.row(
            surface,
            game,
            x,
            y,
            "Step",
            [item("left", mv.step(LEFT))] + [item("right", mv.step(RIGHT))],
        )
        y = bot_panel.row(surface, game, x, y, "", [item("done", mv.done())])
    elif phase == "add":
        mine = game.your_turn()
        chosen = [
            (str(n), ("slot", n), mine, CHOSEN_FILL if n == game.slot else BUTTON_FILL)
            for n in slots
        ]
        y = bot_panel.row(surface, game, x, y, "Add tile", chosen)
        places = state.open_places()
        items = [item(place_name(p), mv.add(game.slot, p)) for p in places]
        y = bot_panel.row(surface, game, x, y, "at", items)
    elif phase == "score":
        items = [item(str(n), mv.score(n)) for n in slots]
        y = bot_panel.row(surface, game, x, y, "Score", items)
        y = bot_panel.row(surface, game, x, y, "", [item("done", mv.done())])
    return y + game.app.panel.px(4)
