"""Which game the window runs: Lost Gems by default, the demo (with a visible note) if it is missing."""

import pytest

from simulator.app import games


def test_default_is_lost_gems():
    cls, name, note = games.load_game()
    assert (cls.__name__, name, note) == ("LostGems", "lostgems", None)


def test_falls_back_to_the_demo_with_a_note_when_lost_gems_cannot_be_imported(monkeypatch):
    monkeypatch.setitem(games.KNOWN, "lostgems", ("games.no_such_module", "LostGems"))
    cls, name, note = games.load_game()
    assert name == "demo" and cls.__name__ == "Demo"
    assert "lostgems not available, showing the demo game" in note


def test_an_unknown_game_named_on_purpose_is_an_error():
    with pytest.raises(games.GameNotFound, match="no_such_game"):
        games.load_game("no_such_game")


def test_cosimulation_hook_runs_a_tile_on_real_micropython_and_badges_it(make_app):
    import pygame
    from sim_hands import Hands, app_args

    from simulator.app import cli
    from simulator.cosim.runner import MpyTileRunner

    app = cli.make_app(app_args(tiles=2, game="demo"), runners={0: MpyTileRunner})
    try:
        Hands(app).frames(300)
        assert app.inspect(0).get("micropython") is True
        assert not app.inspect(1).get("micropython")
        assert app.badge_micropython
        app.render(pygame.Surface((app.width, app.height)))
    finally:
        app.world.runner(0).close()
