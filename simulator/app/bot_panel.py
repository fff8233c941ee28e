"""The side panel's pieces every bot game draws with: move buttons (rebuilt on every draw, so
what is clickable is exactly what is shown, and a greyed one is a move not allowed now), the
transcript in the colours of who said it, and the New game button. Lengths are those of the
1280x800 window, scaled with it (panel.px)."""

import pygame

from simulator.app.bot_game import NEW_GAME
from simulator.app.panels import DIM, TEXT_COLOR

BUTTON_OFF = (55, 55, 62)
BUTTON_FILL = (70, 110, 90)
CHOSEN_FILL = (150, 120, 50)  # a choice button (which hand tile, which turn) now chosen
EDGE = (20, 20, 24)
KIND_COLOR = {
    "info": TEXT_COLOR,
    "bot": (150, 200, 255),
    "you": (170, 230, 170),
    "bad": (255, 120, 110),
}
STATUS = {
    "setup": "Dealing...",
    "moving": "Moving the tiles...",
    "over": "Game over",
    "broken": "Game stopped (see below)",
}


def status(game, phase_words):
    """The panel's headline for a game whose panel says the person's move in its own words
    (`phase_words`: {referee phase: words}): that move, which seat is thinking, or the bot
    game's phase (the set-up after the deal included)."""
    if game.phase == "person":
        return "Your turn: " + phase_words.get(game.state.phase, game.state.phase)
    if game.phase == "thinking":
        return f"{'ABCD'[game.state.current]} is thinking..."
    if game.phase == "setup":
        return "Dealing and setting up..."
    return STATUS[game.phase]


def button(surface, game, text, rect, key, enabled, fill=BUTTON_FILL, off=BUTTON_OFF, size=17):
    """A button at `rect` (1280x800 lengths) that gives `key` to the game when clicked."""
    rect = pygame.Rect([game.app.panel.px(v) for v in rect])
    pygame.draw.rect(surface, fill if enabled else off, rect, border_radius=6)
    pygame.draw.rect(surface, EDGE, rect, width=2, border_radius=6)
    game.app.text.blit(surface, text, rect.center, size, TEXT_COLOR if enabled else DIM, "center")
    game.buttons.append((rect, key, enabled))


def row(surface, game, x, y, label, items, width=42, size=18, button_size=17, per_row=5):
    """A label and buttons [(text, key, enabled, fill)] `width` wide, as many a row as
    `per_row` 42-wide ones would take; returns the y below them."""
    t, scale = game.app.text, game.app.panel.scale
    t.blit(surface, label, (x, y + game.app.panel.px(5)), size)
    left, top = x / scale, y / scale
    fits = per_row * 46 // (width + 4)
    for i, (text, key, enabled, fill) in enumerate(items):
        if i and i % fits == 0:
            top += 30
        rect = (left + 58 + (i % fits) * (width + 4), top, width, 26)
        button(surface, game, text, rect, key, enabled, fill, size=button_size)
    return game.app.panel.px(top + 32)


def transcript(surface, panel, game, x, y, width, size, room=None):
    """The game's messages, `width` characters a line, newest last, as many of the newest
    lines as fit above `room` (default: where the panel's help and legend begin, less the New
    game button's height); returns the y below them."""
    from simulator.app.panels import wrap

    lines = [(line, kind) for text, kind in game.messages for line in wrap(text, width)]
    room = panel.bottom - panel.px(44) if room is None else room
    height = panel.text.font(size).get_sized_height()
    fits = max(1, int((room - y) // max(1, height)))
    for line, kind in lines[-fits:]:
        y = panel.text.blit(surface, line, (x, y), size, KIND_COLOR[kind]).bottom
    return y


def new_game_button(surface, panel, game, x, y, gap=10, height=30, size=22):
    """New game, once the game is over or stopped; returns the y below it."""
    if game.phase not in ("over", "broken"):
        return y
    rect = pygame.Rect(x, y + panel.px(gap), panel.px(140), panel.px(height))
    pygame.draw.rect(surface, BUTTON_FILL, rect, border_radius=6)
    pygame.draw.rect(surface, EDGE, rect, width=2, border_radius=6)
    panel.text.blit(surface, "New game", rect.center, size, TEXT_COLOR, "center")
    game.buttons.append((rect, NEW_GAME, True))
    return rect.bottom
