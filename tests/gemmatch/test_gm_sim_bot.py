"""`blinks sim --game gemmatch --bot NAME`: a person (this test, through the panel's buttons)
plays A against a bot playing B on the 27 simulated tiles.

After every move the tiles are read back by area, independently of the game's own
bookkeeping, and compared with the referee: the field, hands, heaps and the pile.
"""

import argparse
import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame
import pytest
from games.gemmatch import tokens

from host_tools.cli import main as blinks
from simulator.games.gemmatch import moves as mv
from simulator.games.gemmatch.bot_play import BROKEN, NEW_GAME, OVER, TURN
from simulator.games.gemmatch.bots import GreedyBot
from simulator.games.gemmatch.observation import Observation

FRAME_MS = 1000.0 / 60.0


def app_args(**kw):
    args = {
        "tiles": 27,
        "seed": 1,
        "game": "gemmatch",
        "ir_loss": 0.0,
        "speed": 16,
        "record": None,
        "replay": None,
        "bot": "careful",
    }
    args.update(kw)
    return argparse.Namespace(**args)


@pytest.fixture
def make_app():
    from simulator.app import cli

    pygame.display.init()
    apps = []

    def make(**kw):
        app = cli.make_app(app_args(**kw))
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


def settle(app, game, timeout_ms=180000):
    end = app.world.now + timeout_ms
    while game.phase not in (TURN, OVER, BROKEN):
        assert app.world.now < end, f"timed out; {game.messages}"
        frames(app, 100)


def click(app, pos):
    app.handle_event(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0,) * 3))
    app.handle_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1, mod=0))
    app.handle_event(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))


def button(app, game, key):
    """Render the panel (that is where buttons come from): the button of `key`, or None."""
    app.render(pygame.Surface((app.width, app.height)))
    return next(((rect, enabled) for rect, k, enabled in game.buttons if k == key), None)


def press(app, game, move):
    """Press the buttons of `move`: a placement's token and turn first, a hand's side first."""
    if move.kind == mv.PLACE:
        for key in (("slot", move.slot), ("turn", move.rotation)):
            rect, enabled = button(app, game, key)
            assert enabled
            click(app, rect.center)
    if move.kind == mv.HAND:
        rect, enabled = button(app, game, ("side", move.side))
        click(app, rect.center)
    rect, enabled = button(app, game, move)
    assert enabled, move
    click(app, rect.center)


def tiles_by_area(app):
    out = {}
    for tid in app.world.tiles:
        out.setdefault(app.area_name(tid), []).append(app.world.inspect(tid))
    return out


def assert_tiles_agree(app, state):
    areas = tiles_by_area(app)

    def names(ids):
        return sorted(tokens.name(state.kinds[t]) for t in ids)

    def shown(area, want):
        seen = areas.get(area, [])
        assert [s["state"] for s in seen] == [want] * len(seen), area
        return sorted(s["token"] for s in seen)

    assert shown("hand_a", "hand") == names(state.hands[0])
    assert shown("hand_b", "hand") == names(state.hands[1])
    assert shown("heap_a", "heap") == names(state.heaps[0])
    assert shown("heap_b", "heap") == names(state.heaps[1])
    assert shown("pile", "pile") == names(state.pile)
    assert shown("field", "field") == names(p.token for p in state.field.cells.values())
    assert None not in areas


def test_a_person_plays_a_whole_game_against_the_bot_through_the_panel(make_app):
    app = make_app(seed=1)
    game = app.controllers[0]
    seen = []
    act = game.bot.act
    game.bot.act = lambda obs: seen.append(type(obs)) or act(obs)
    settle(app, game)
    state = game.state
    assert game.phase == TURN and state.current == 0
    assert_tiles_agree(app, state)
    b_tile = game.table.tile_of[state.hands[1][0]]  # hands off the game's tiles
    where = app.world.position(b_tile)
    click(app, tuple(round(v) for v in app.table.layout.to_pixel(*where[:2])))
    assert app.world.position(b_tile) == where
    assert game.messages[-1][0] == "Bot game: the tiles move by the buttons."

    me = GreedyBot(0, 11)
    turns = set()
    while game.phase == TURN:
        move = me.act(state.observation(0))
        moves = state.moves
        press(app, game, move)
        assert state.moves == moves + 1 and state.history[-1].move == move
        settle(app, game)
        if game.phase == TURN and state.phase == "place":
            assert game.table.problems(state) == []
            assert_tiles_agree(app, state)
            turns.add(state.turns)
    assert game.phase == OVER, game.messages
    assert state.over and len(turns) > 5 and set(seen) == {Observation}
    assert "Game over" in game.messages[-1][0]
    assert button(app, game, NEW_GAME)[1]


def test_bot_option_errors_are_named(capsys):
    assert blinks(["sim", "--game", "gemmatch", "--bot", "clever"]) == 2
    assert "no Gem Match bot called 'clever'" in capsys.readouterr().err
    assert blinks(["sim", "--game", "gemmatch", "--bot", "careful", "--tiles", "12"]) == 2
    assert "27 tiles, not --tiles 12" in capsys.readouterr().err
