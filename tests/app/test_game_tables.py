"""A game says what its table holds: Waterfall its draw pile, waterfall, discards, hands and
score piles; a game with no host module (the demo) a plain table; Lost Gems its own."""

import pygame

from simulator.app import cli
from simulator.games import host_game


def area_names(app):
    return [a.name for a in app.table.areas]


def test_waterfall_gets_its_own_table_with_the_dealt_cluster_on_the_draw_pile(make_app):
    app = make_app(tiles=27, game="waterfall")
    names = area_names(app)
    assert names[0] == "draw" and "waterfall" in names and "discard" in names
    for p in "ab":  # two players unless --players says otherwise
        assert f"hand_{p}" in names and f"score_{p}" in names
    assert not {"hand_c", "score_c", "hand_d", "score_d"} & set(names)
    assert {app.area_name(t) for t in app.world.tiles} == {"draw"}
    assert app.world.inspect(0)["state"] == "undealt"
    assert "triple-click" in app.tip()
    surface = pygame.Surface((app.width, app.height))
    app.render(surface)
    assert app.panel.coins == []  # no Lost Gems tokens on Waterfall's panel


def test_a_game_without_a_host_module_gets_a_plain_table(make_app):
    app = make_app(tiles=7, game="demo")
    assert area_names(app) == ["table"]
    assert {app.area_name(t) for t in app.world.tiles} == {"table"}
    assert app.tip() is None


def test_lost_gems_keeps_its_table_and_tokens(make_app):
    app = make_app(tiles=18)
    assert sorted(area_names(app)) == ["board", "discard", "hand_a", "hand_b", "jungle"]
    app.render(pygame.Surface((app.width, app.height)))
    assert len(app.panel.coins) == 5  # 3 hint coins, 2 error coins


def test_the_default_tile_count_is_the_games():
    assert cli.default_tiles("waterfall") == 27 == host_game("waterfall").TILES
    assert cli.default_tiles(None) == 18 and cli.default_tiles("demo") == 18
