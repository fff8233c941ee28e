"""Stories of a game after the deal: reveals, plays judged by the gem board, gem completion,
discards, the score count and victory. Boards in these stories grow as a line going east from
BOARD, so "far end" means the other end of that line."""

import itertools

from games.lostgems import display, game
from lg_story import (
    BOARD,
    attach,
    board_of,
    dealt_table,
    east,
    find,
    first_play,
    shard,
    state,
    state_log,
    take_into_hand,
)


def test_double_click_toggles_a_hand_shard_between_face_down_and_revealed():
    w = dealt_table(6)
    t = find(w, "R3")
    take_into_hand(w, t)
    w.double_click(t)
    assert state(w, t) == "revealed"
    leds = w.leds(t)
    bright = max(leds)
    assert [f for f in range(6) if leds[f] == bright] == [0, 2, 4]  # three spots for a 3
    w.double_click(t)
    assert state(w, t) == "face down"
    assert state_log(w, t)[-2:] == [
        ("face down", "revealed", "R3"),
        ("revealed", "face down", "R3"),
    ]


def test_a_lone_1_triple_clicked_starts_the_board():
    w = dealt_table(6)
    t = find(w, "R1")
    first_play(w, t)
    assert state(w, t) == "played"
    assert board_of(w, t) == {"R": 1, "Y": 0, "B": 0}
    assert w.inspect(t)["face_out"] == [1] * 6  # it tells every neighbour the board


def test_a_lone_2_triple_clicked_is_an_error_then_discarded():
    w = dealt_table(6)
    t = find(w, "R2")
    first_play(w, t)
    assert state(w, t) == "error"
    w.advance(game.ERROR_MS)
    assert state(w, t) == "discarded"
    assert w.inspect(t)["face_out"] == [0] * 6


def test_plays_at_the_far_ends_of_a_board_are_judged_by_the_whole_board():
    w = dealt_table(18)
    r1, y1, b1 = find(w, "R1"), find(w, "Y1"), find(w, "B1")
    first_play(w, r1)
    attach(w, y1, east(BOARD, 1))
    attach(w, b1, east(BOARD, 2))
    assert [state(w, t) for t in (r1, y1, b1)] == ["played"] * 3
    # a 2 of red at the far end from the red 1 learns the board through the yellow and blue
    r2 = find(w, "R2")
    attach(w, r2, east(BOARD, 3))
    assert state(w, r2) == "played"
    w.advance(600)  # the news travels one hop per few passes
    assert board_of(w, r1) == {"R": 2, "Y": 1, "B": 1}  # the news reached the other end
    # another red 2 at the red 1's end: red is at 2 already, so it is an error
    other_r2 = find(w, "R2", "face down")
    attach(w, other_r2, east(BOARD, -1))
    assert state(w, other_r2) == "error"
    # a yellow 3 at the far end: yellow is only at 1
    y3 = find(w, "Y3")
    attach(w, y3, east(BOARD, 4))
    assert state(w, y3) == "error"
    w.advance(game.ERROR_MS)
    assert state(w, other_r2) == state(w, y3) == "discarded"
    # discarded shards lying against the board are ignored and change nothing
    w.advance(1000)
    assert state(w, other_r2) == "discarded"
    assert board_of(w, r1) == board_of(w, r2) == {"R": 2, "Y": 1, "B": 1}
    assert [w.inspect(t)["rank"] for t in (r1, y1, b1, r2)] == [1, 2, 3, 4]


def test_completing_a_gem_flashes_gold_and_spins_copper_then_shimmers():
    w = dealt_table(6)
    r1, r2, r3 = find(w, "R1"), find(w, "R2"), find(w, "R3")
    first_play(w, r1)
    attach(w, r2, east(BOARD, 1))
    attach(w, r3, east(BOARD, 2))
    assert state(w, r3) == "played"
    assert w.inspect(r3)["show"] == "copper spin"
    assert w.inspect(r1)["show"] == w.inspect(r2)["show"] == "gold flash"
    w.advance(game.COMPLETION_MS)
    assert [w.inspect(t)["show"] for t in (r1, r2, r3)] == ["shimmer"] * 3


def test_holding_a_lone_shard_for_two_seconds_discards_it():
    w = dealt_table(6)
    in_hand, in_jungle = find(w, "R1"), find(w, "R2")
    take_into_hand(w, in_hand)
    w.double_click(in_hand)  # revealed to the partner first: still a hand shard
    w.hold(in_hand, 2100)
    assert state(w, in_hand) == "discarded"
    assert shard(w, in_hand) == "R1"
    w.hold(in_jungle, 2100)  # a shard still in the jungle is not in a hand
    assert state(w, in_jungle) == "face down"


def play_line(w, names):
    """Play shards one after the other on a line board; returns their tiles."""
    tiles = []
    for i, name in enumerate(names):
        t = find(w, name, "face down")
        if i == 0:
            first_play(w, t)
        else:
            attach(w, t, east(BOARD, i))
        assert state(w, t) == "played", name
        tiles.append(t)
    return tiles


def lit_times(w, tiles, ms):
    """When each tile first showed `count lit` during the next ms."""
    seen = {}
    end = w.now + ms
    while w.now < end:
        w.advance(20)
        for t in tiles:
            if t not in seen and w.inspect(t)["show"] == "count lit":
                seen[t] = w.now
    return [seen.get(t) for t in tiles]


def test_a_triple_click_on_the_board_lights_it_tile_by_tile_in_play_order():
    w = dealt_table(12)
    tiles = play_line(w, ["Y1", "R1", "Y2", "R2"])
    w.triple_click(tiles[3])  # clicked at the far end from the first play
    times = lit_times(w, tiles, 6 * display.COUNT_STEP_MS)
    assert None not in times
    gaps = [b - a for a, b in itertools.pairwise(times)]
    assert all(abs(g - display.COUNT_STEP_MS) <= 60 for g in gaps), gaps
    w.advance(game.COUNT_HOLD_MS + game.VICTORY_MS)
    assert [w.inspect(t)["show"] for t in tiles] == ["played"] * 4  # no victory for 4


def test_a_full_board_of_nine_plays_the_victory_animation():
    w = dealt_table(18)
    tiles = play_line(w, ["R1", "R2", "R3", "Y1", "Y2", "Y3", "B1", "B2", "B3"])
    w.advance(game.COMPLETION_MS)
    w.triple_click(tiles[4])
    w.advance(11 * display.COUNT_STEP_MS + game.COUNT_HOLD_MS)  # the news takes a few hops
    assert [w.inspect(t)["show"] for t in tiles] == ["victory"] * 9
    assert all(board_of(w, t) == {"R": 3, "Y": 3, "B": 3} for t in tiles)
    w.advance(game.VICTORY_MS)
    assert [w.inspect(t)["show"] for t in tiles] == ["shimmer"] * 9
