"""Waterfall's table at 1100x700, 1280x800 and 1920x1080 with 2 and 4 players (issue 44, item
11): only the seats in play, tiles sized for the table, a waterfall of 20 with room to grow, a
hand that fills its row left to right, readable captions, and a legend for card names and
lights. The screenshots these layouts were judged by come from the same calls."""

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame
import pytest
from test_wf_sim_bot import app_args, play_as_person, settle

from simulator.app import cli
from simulator.app.app import table_for
from simulator.app.draw import CAPTION_MIN_SCALE
from simulator.app.layout import hex_distance
from simulator.app.world_setup import cluster_fits
from simulator.games import host_game, table_areas
from simulator.games.waterfall.rules import cell_of

WATERFALL = host_game("waterfall")
SIZES = [(1100, 700), (1280, 800), (1920, 1080)]
SMALLEST_HEX = 21.0  # at 1100x700 (was 14 there, 17 at 1280x800, with every seat drawn)


def overlap(a, b):
    ax, ay, aw, ah = a
    bx, by, bw, bh = b
    return ax < bx + bw and bx < ax + aw and ay < by + bh and by < ay + ah


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("size", SIZES)
def test_the_table_holds_the_seats_in_play_and_tiles_sized_for_it(size, players):
    table = table_for(size, 27, table_areas(WATERFALL, players))
    rects = {a.name: a.rect for a in table.areas}
    seats = "abcd"[:players]
    assert set(rects) == {"draw", "waterfall", "discard"} | {
        f"{kind}_{p}" for p in seats for kind in ("hand", "score")
    }
    names = sorted(rects)
    for i, a in enumerate(names):  # apart, and on the table
        x, y, w, h = rects[a]
        assert x >= 0 and y >= 0 and x + w <= table.width and y + h <= table.height
        assert not any(overlap(rects[a], rects[b]) for b in names[i + 1 :]), a
    s = table.layout.size
    assert s >= SMALLEST_HEX
    assert cluster_fits(table, 27)
    # the sixth row of a full waterfall (6 places) lies in the area, below its label
    x, y, w, h = rects["waterfall"]
    assert w >= 17 * s and h >= table.label_px + 7 * s


@pytest.mark.parametrize("size", SIZES)
def test_tiles_are_at_least_half_again_as_large_as_before(size):
    before = {(1100, 700): 14.0, (1280, 800): 17.0, (1920, 1080): 23.0}
    for players in (2, 4):
        table = table_for(size, 27, table_areas(WATERFALL, players))
        assert table.layout.size >= 1.5 * before[size]


@pytest.mark.parametrize("window, players", [("1100x700", 4), ("1280x800", 2)])
def test_mid_game_the_hands_fill_their_rows_and_every_word_is_readable(make_app, window, players):
    app = make_app(window=window, players=players)
    game = app.controllers[0]
    settle(app, game)
    play_as_person(app, game, turns=10)
    table = app.table
    # the hand's cells in reading order: one zigzag row left to right (the 4th hand tile once
    # went back to the start of the row, touching slot 1), then the next row
    cells = game.table.area_cells("hand_a", loose=True)
    row = cells[:1]
    for cell in cells[1:]:
        if table.layout.to_pixel(*cell)[0] <= table.layout.to_pixel(*row[-1])[0]:
            break
        row.append(cell)
    assert len(row) >= (9 if players == 2 else 5)  # a hand of that many in one row
    assert hex_distance(row[3], row[0]) > 1 and hex_distance(row[3], row[2]) == 1
    # every hand and score pile lies in its own area (no spill into another seat's)
    for p in range(players):
        for kind, refs in (("hand", game.state.hands[p]), ("score", game.state.score_piles[p])):
            where = {app.area_name(game.table.tile_of[ref]) for ref in refs}
            assert where <= {f"{kind}_{'abcd'[p]}"}
    # captions under tiles never smaller than about 9 px letters, however small the tiles
    surface = pygame.Surface((app.width, app.height))
    app.render(surface)
    caption = app.painter.caption_text
    assert caption.scale >= CAPTION_MIN_SCALE
    assert caption.render("slot 1", 16).get_height() >= 10
    # the panel says what card names and lights mean, for the seats in play
    assert [heading for heading, _ in WATERFALL.legend(players)][:2] == [
        "Cards: ACTION-gem number, as ADD-R2",
        "Gem: its colour; number: 1-3 bright spots",
    ]
    assert [w for _, w in WATERFALL.legend(players)[-1][1]] == list("ABCD"[:players])
    assert app.panel.bottom < app.height - app.panel.px(100)  # the legend took its place


def test_the_top_leaves_room_for_the_sixth_row_on_both_sides(make_app):
    app = make_app(window="1100x700")
    game = app.controllers[0]
    settle(app, game)
    top = game.table.top
    for i in range(6):
        assert game.table.fits((5, i)), cell_of((5, i), top)


def test_players_is_for_games_with_a_choice_and_a_recording_keeps_it(tmp_path, capsys):
    from host_tools.cli import main as blinks

    assert blinks(["sim", "--players", "4", "--run-for", "0"]) == 2
    assert "--players: lostgems has no choice of players" in capsys.readouterr().err
    assert blinks(["sim", "--game", "waterfall", "--players", "5", "--run-for", "0"]) == 2
    assert "--players must be one of 2, 3, 4, not 5" in capsys.readouterr().err
    record = tmp_path / "four.jsonl"
    assert (
        blinks(
            [
                "sim",
                "--game",
                "waterfall",
                "--players",
                "4",
                "--run-for",
                "1",
                "--record",
                str(record),
            ]
        )
        == 0
    )
    pygame.display.init()
    again = cli.make_app(app_args(replay=str(record), bot=None))
    try:
        assert again.players == 4
        assert {"hand_c", "hand_d"} <= {a.name for a in again.table.areas}
    finally:
        again.close()
