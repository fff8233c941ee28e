"""The side panel of a bot game: tokens, score, turns left, the person's buttons, the transcript.

Buttons are rebuilt on every draw (like the token coins), so what is clickable is exactly what
is shown; a greyed button is a move the rules do not allow now (or not your turn).
"""

import pygame

from simulator.app import bot_panel
from simulator.app.bot_panel import BUTTON_FILL, BUTTON_OFF, EDGE
from simulator.app.panels import COIN_OFF, DIM, ERROR_ON, HINT_ON, WARN
from simulator.games.lostgems.moves import ALL_HINTS, DISCARDS, PLAYS
from simulator.games.lostgems.shards import COLOURS, MAX_ERRORS, MAX_HINTS, rating

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
