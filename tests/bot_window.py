"""A person's hand on a headless window (SDL dummy driver) playing a game's bot game (`blinks sim
--game G --bot B`), for every game's bot-window tests: the app's options, frames, clicks on the
panel's buttons, and the tiles read back by the area they lie in, independently of the game's
own bookkeeping. (Imported by name: tests/ is on sys.path, as tests/conftest.py's folder.)"""

import argparse
import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame

from simulator.app.bot_game import BROKEN, OVER
from simulator.app.bot_game import PERSON as TURN

FRAME_MS = 1000.0 / 60.0


def app_args(**kw):
    """The options of `blinks sim` for a bot game on 27 tiles (game and bot given in `kw`)."""
    args = {
        "tiles": 27,
        "seed": 1,
        "game": None,
        "ir_loss": 0.0,
        "speed": 16,
        "record": None,
        "replay": None,
        "bot": None,
    }
    args.update(kw)
    return argparse.Namespace(**args)


def app_maker(args):
    """A make_app fixture's body: yields make(**kw) -> a SimApp of the options `args(**kw)`,
    and closes every app it made after the test."""
    from simulator.app import cli

    pygame.display.init()
    apps = []

    def make(**kw):
        app = cli.make_app(args(**kw))
        apps.append(app)
        return app

    yield make
    for app in apps:
        app.close()
    pygame.display.quit()


def frames(app, ms):
    end = app.world.now + ms
    while app.world.now < end:
        app.update(FRAME_MS)


def wait_for(app, ready, timeout_ms=180000):
    """Frames until `ready()`, `timeout_ms` of simulated time at most."""
    end = app.world.now + timeout_ms
    while not ready():
        assert app.world.now < end, f"timed out; {app.controllers[0].messages}"
        frames(app, 100)


def settle(app, game):
    """Frames until it is the person's turn, or the game is over or stopped."""
    wait_for(app, lambda: game.phase in (TURN, OVER, BROKEN))


def click(app, pos):
    app.handle_event(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0,) * 3))
    app.handle_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1, mod=0))
    app.handle_event(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))


def button(app, game, key):
    """Render the panel (that is where buttons come from): the button of `key`, or None."""
    app.render(pygame.Surface((app.width, app.height)))
    return next(((rect, enabled) for rect, k, enabled in game.buttons if k == key), None)


def press(app, game, key):
    """Click the enabled button of `key` (a choice or a move)."""
    rect, enabled = button(app, game, key)
    assert enabled, key
    click(app, rect.center)


def tiles_by_area(app):
    """The tiles' inspect() by area."""
    out = {}
    for tid in app.world.tiles:
        out.setdefault(app.area_name(tid), []).append(app.world.inspect(tid))
    return out


def shown_in(app, piece):
    """shown(area, state): the names of the pieces (inspect()'s `piece`) of the tiles in
    `area`, sorted, once every one of them shows `state`; and no tile lies off every area."""
    areas = tiles_by_area(app)
    assert None not in areas

    def shown(area, state):
        seen = areas.get(area, [])
        assert [s["state"] for s in seen] == [state] * len(seen), area
        return sorted(s[piece] for s in seen)

    return shown
