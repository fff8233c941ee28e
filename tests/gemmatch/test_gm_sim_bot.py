"""`blinks sim --game gemmatch --bot NAME`: a person (this test, through the panel's buttons)
plays A against a bot playing B on the 27 simulated tiles.

After every move the tiles are read back by area, independently of the game's own
bookkeeping, and compared with the referee: the field, hands, heaps and the pile.
"""

import bot_window
import pytest
from bot_window import OVER, TURN, app_maker, button, click, settle, shown_in
from games.gemmatch import tokens

from host_tools.cli import main as blinks
from simulator.games.gemmatch import moves as mv
from simulator.games.gemmatch.bots import GreedyBot
from simulator.games.gemmatch.observation import Observation
from simulator.games.gemmatch.window import NEW_GAME


def app_args(**kw):
    return bot_window.app_args(**{"game": "gemmatch", "bot": "careful", **kw})


@pytest.fixture
def make_app():
    yield from app_maker(app_args)


def press(app, game, move):
    """Press the buttons of `move`: a placement's token and turn first, a hand's side first."""
    if move.kind == mv.PLACE:
        for key in (("slot", move.slot), ("turn", move.rotation)):
            bot_window.press(app, game, key)
    if move.kind == mv.HAND:
        rect, _ = button(app, game, ("side", move.side))
        click(app, rect.center)
    bot_window.press(app, game, move)


def assert_tiles_agree(app, state):
    shown = shown_in(app, "token")

    def names(ids):
        return sorted(tokens.name(state.kinds[t]) for t in ids)

    for p, seat in enumerate("ab"):  # each seat's hand and heap, face up
        assert shown(f"hand_{seat}", "hand") == names(state.hands[p])
        assert shown(f"heap_{seat}", "heap") == names(state.heaps[p])
    assert shown("pile", "pile") == names(state.pile)
    assert shown("field", "field") == names(p.token for p in state.field.cells.values())


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
