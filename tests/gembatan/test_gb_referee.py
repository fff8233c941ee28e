"""Gembatan's referee: the document's two scoring examples (7 points each), laying tiles and
gems, chains only on the diagonals, a Gembatan, trading, drawing back up, and the end."""

import pytest
from gb_positions import position

from simulator.games.gembatan import moves as mv
from simulator.games.gembatan.referee import GameState, IllegalMove
from simulator.games.gembatan.rules import EAST, GEMS, NORTH, SOUTH, TILES, WEST, edge

# Example 1: a diagonal of three red-blue gems; A lays the tile on 1,0, whose two sockets take
# two red-blue gems: the first makes no chain, the one in the middle of the diagonal is the
# document's centre gem.
EXAMPLE_1 = {(0, 0): "-R--", (1, 1): "BR--", (2, 1): "---B"}
# Example 2: two legs run down from the socket under 1,0, a red one to the south-west (RG, RY)
# and a blue one to the south-east (BG, BY); A lays 1,0, and the gem it puts in is the top.
EXAMPLE_2 = {(1, 1): "BB-G", (0, 1): "-RR-", (0, 2): "Y---", (2, 1): "--BG", (2, 2): "Y---"}
EXAMPLE_2_GEMS = [
    ((0, 1), EAST, "RG"),
    ((0, 1), SOUTH, "RY"),
    ((1, 1), EAST, "BG"),
    ((2, 1), SOUTH, "BY"),
]


def test_the_pieces_are_sixty_tiles_and_sixty_gems():
    assert len(TILES) == 60 and len(GEMS) == 60
    assert all(2 <= 4 - t.count("-") <= 4 for t in TILES)  # two to four cutouts
    assert len(set(GEMS)) == 10 and all(GEMS.count(g) == 6 for g in set(GEMS))


def test_the_deal_starts_the_board_and_gives_four_tiles_and_four_gems_each():
    s = GameState(players=3, seed=2)
    assert list(s.board.tiles) == [(0, 0)]
    assert [len(h) for h in s.hand_tiles] == [4, 4, 4] and [len(h) for h in s.hand_gems] == [4] * 3
    assert len(s.pile) == 60 - 1 - 12 and len(s.tray) == 60 - 12


def test_scoring_example_1_the_centre_gem_scores_seven():
    s = position(
        EXAMPLE_1, gems=[((1, 1), EAST, "RB")], hand_tiles=["--RB"], hand_gems=["RB", "RB", "GY"]
    )
    s.apply(mv.tile(1, (1, 0), 0))  # sockets west (R|B) and south (R over B)
    first = s.apply(mv.gem(1, edge((1, 0), WEST)))
    assert first.points == 1 and first.chains == []
    centre = s.apply(mv.gem(1, edge((1, 0), SOUTH)))
    assert sorted(centre.chains) == [("B", 3), ("R", 3)]  # both colours, each on its own
    assert centre.points == 7
    assert s.points[0] == 8


def test_scoring_example_2_the_top_gem_scores_seven():
    s = position(EXAMPLE_2, gems=EXAMPLE_2_GEMS, hand_tiles=["--R-"], hand_gems=["RB"])
    s.apply(mv.tile(1, (1, 0), 0))
    top = s.apply(mv.gem(1, edge((1, 0), SOUTH)))
    assert sorted(top.chains) == [("B", 3), ("R", 3)]
    assert top.points == 7


def test_gems_in_a_row_or_a_column_make_no_chain():
    row = {(0, 0): "-R--", (1, 0): "-R-R", (2, 0): "-R-R", (3, 0): "---R"}
    s = position(row, gems=[((0, 0), EAST, "RR"), ((1, 0), EAST, "RR")])
    s.board.gems[edge((2, 0), EAST)] = ("R", "R")
    assert s.board.chains_through(edge((2, 0), EAST)) == []
    assert s.board.gem_points(edge((2, 0), EAST)) == 1


def test_a_tile_must_touch_fit_cutout_to_cutout_and_make_a_socket_a_gem_fills():
    s = position({(0, 0): "RR--"}, hand_tiles=["--GR", "-R--", "B-B-"], hand_gems=["GR", "BB"])
    assert s.board.fits((2, 0), "---R", 0) is None  # touches nothing
    with pytest.raises(IllegalMove, match="plain side to plain side"):
        s.apply(mv.tile(2, (0, -1), 0))  # a plain south side against the north cutout
    with pytest.raises(IllegalMove, match="with a gem"):
        s.apply(mv.tile(3, (0, -1), 0))  # B meets R: no BR gem in hand
    with pytest.raises(IllegalMove, match="needs its gem|lay a tile first"):
        s.apply(mv.gem(1, edge((0, 0), NORTH)))
    s.apply(mv.tile(1, (0, -1), 0))  # its south G meets the north R: a GR socket
    with pytest.raises(IllegalMove, match="needs its gem"):
        s.apply(mv.done())
    ev = s.apply(mv.gem(1, edge((0, 0), NORTH)))
    assert ev.points == 1 and s.board.gems[edge((0, 0), NORTH)] == ("G", "R")


def test_each_tile_after_the_first_goes_beside_one_laid_this_turn():
    board = {(0, 0): "RRRR"}
    s = position(board, hand_tiles=["--R-", "-R--"], hand_gems=["RR", "RR"])
    s.apply(mv.tile(1, (0, -1), 0))
    s.apply(mv.gem(1, edge((0, 0), NORTH)))
    with pytest.raises(IllegalMove, match="beside a tile laid this turn"):
        s.apply(mv.tile(1, (-1, 0), 0))  # beside 0,0 only


def test_four_gems_in_a_turn_are_a_gembatan():
    # four tiles round an empty cell; A's tile there makes four red sockets
    around = {(0, -1): "--R-", (1, 0): "---R", (0, 1): "R---", (-1, 0): "-R--"}
    s = position(around, hand_tiles=["RRRR"], hand_gems=["RR"] * 4)
    s.apply(mv.tile(1, (0, 0), 0))
    for d in (NORTH, EAST, SOUTH, WEST):
        s.apply(mv.gem(1, edge((0, 0), d)))
    ev = s.apply(mv.done())
    assert ev.bonus and s.points[0] == 4 + 4


def test_a_tile_beside_only_the_first_of_the_turn_must_be_laid_next_to_it():
    s = position({(0, 0): "RRRR"}, hand_tiles=["--R-", "R---"], hand_gems=["RR", "RR"])
    s.apply(mv.tile(1, (0, -1), 0))
    s.apply(mv.gem(1, edge((0, 0), NORTH)))
    assert mv.tile(1, (0, 1), 0) not in s.legal_moves()


def test_the_turn_ends_drawing_back_up_to_four():
    s = GameState(seed=3)
    tray, pile = len(s.tray), len(s.pile)
    s.apply(mv.trade(tiles=[1, 2], gems=[3]))
    assert len(s.hand_tiles[0]) == 4 and len(s.hand_gems[0]) == 4
    assert len(s.tray) == tray and len(s.pile) == pile  # what was traded went back in
    assert s.current == 1


def test_a_trade_comes_in_place_of_a_turn_only():
    s = position({(0, 0): "RRRR"}, hand_tiles=["--R-"], hand_gems=["RR"])
    s.apply(mv.tile(1, (0, -1), 0))
    s.apply(mv.gem(1, edge((0, 0), NORTH)))
    with pytest.raises(IllegalMove, match="in place of a turn"):
        s.apply(mv.trade(gems=[1]))


def test_once_the_tray_is_empty_a_player_out_of_gems_ends_the_game_and_gems_left_cost_a_point():
    s = position({(0, 0): "RRRR"}, hand_tiles=["--R-"], hand_gems=["RR"], tray=0)
    s.hand_gems[1] = ["GY", "BB"]
    s.apply(mv.tile(1, (0, -1), 0))
    s.apply(mv.gem(1, edge((0, 0), NORTH)))
    s.apply(mv.done())
    assert s.over and s.ended == "gems"
    assert s.score(0) == 1 and s.score(1) == -2


def test_once_the_tray_is_empty_a_round_without_a_play_ends_the_game():
    s = position({(0, 0): "RRRR"}, hand_tiles=["-G--"], hand_gems=["BY"], tray=0)
    s.hand_tiles[1], s.hand_gems[1] = ["-G--"], ["BY"]
    s.pile = []
    s.apply(mv.trade())
    assert not s.over
    s.apply(mv.trade())
    assert s.over and s.ended == "stuck"


def test_a_gem_of_the_wrong_colours_is_refused_naming_both():
    s = position({(0, 0): "RR--"}, hand_tiles=["--GR"], hand_gems=["GR", "BB"])
    s.apply(mv.tile(1, (0, -1), 0))  # its south G meets the north R: a GR socket
    with pytest.raises(
        IllegalMove,
        match=r"gem 2 is blue and blue; the socket at 0,-1 south takes (green and red|red and "
        "green): a gem's colours meet the cutouts of their colour",
    ):
        s.apply(mv.gem(2, edge((0, 0), NORTH)))
