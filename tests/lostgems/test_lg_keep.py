"""Stories of a tile keeping its shard: a reset (power cycle) in every state brings it back
exactly where it was; a tile that fell asleep wakes with its shard. (A reset in the middle of a
deal: tests/lostgems/test_lg_deal.py.)"""

import pytest
from games.lostgems import game
from lg_story import (
    BOARD,
    attach,
    board_of,
    dealt_table,
    deck_counter,
    east,
    find,
    first_play,
    hand_out,
    logs,
    settle,
    shard,
    state,
    states,
    table,
    take_into_hand,
)
from runtime import tile as runtime_tile


def reset_and_look(w, t):
    before = w.inspect(t)
    w.reset_tile(t)
    w.advance(300)
    after = w.inspect(t)
    assert (
        any(line.startswith("LG restore ") for line in logs(w, t)) or before["state"] == "undealt"
    )
    return before, after


def test_an_undealt_tile_comes_back_undealt():
    w = table(6)
    before, after = reset_and_look(w, 2)
    assert before["state"] == after["state"] == "undealt"
    assert after["shard"] is None


@pytest.mark.parametrize("where", ["face down", "revealed", "discarded"])
def test_a_hand_shard_comes_back_as_it_was(where):
    w = dealt_table(6)
    t = find(w, "R2")
    take_into_hand(w, t)
    if where == "revealed":
        w.double_click(t)
    elif where == "discarded":
        w.hold(t, 2100)
    before, after = reset_and_look(w, t)
    assert before["state"] == after["state"] == where
    assert after["shard"] == "R2"


def test_a_played_tile_comes_back_with_its_board_and_rank():
    w = dealt_table(6)
    r1, r2 = find(w, "R1"), find(w, "R2")
    first_play(w, r1)
    attach(w, r2, east(BOARD, 1))
    before, after = reset_and_look(w, r1)
    assert after["state"] == "played" and after["shard"] == "R1"
    assert after["board"] == before["board"] == {"R": 2, "Y": 0, "B": 0}
    assert after["rank"] == 1
    # and it still judges the next play for the board
    r3 = find(w, "R3")
    attach(w, r3, east(BOARD, -1))
    assert state(w, r3) == "played"
    assert board_of(w, r2)["R"] == 3


def test_an_errored_tile_comes_back_flashing_then_discarded():
    w = dealt_table(6)
    t = find(w, "R3")
    first_play(w, t)
    assert state(w, t) == "error"
    _before, after = reset_and_look(w, t)
    assert after["state"] == "error" and after["shard"] == "R3"
    w.advance(game.ERROR_MS)
    assert state(w, t) == "discarded"


def test_a_tile_woken_from_sleep_keeps_its_shard():
    w = dealt_table(6)
    t = find(w, "R3")
    take_into_hand(w, t)
    w.double_click(t)
    w.advance(runtime_tile.SLEEP_MS + 1000)
    assert w.inspect(t)["asleep"]
    assert w.leds(t) == [0] * 6
    w.click(t)  # a press wakes it
    w.advance(100)
    info = w.inspect(t)
    assert not info["asleep"]
    assert info["state"] == "revealed" and info["shard"] == "R3"
    assert max(w.leds(t)) > 0


def test_a_damaged_save_is_reported_and_the_tile_starts_undealt():
    w = table(6)
    w.hal(2).storage = b"LG\x01\x03\x07\x01\x01\x00"  # bad checksum
    w.reset_tile(2)
    w.advance(300)
    assert state(w, 2) == "undealt"
    assert any("damaged save ignored" in line for line in logs(w, 2))


def deal_lines(w):
    return [line for t in w.tiles for line in logs(w, t) if line.startswith("LG deal ")]


def test_the_press_that_wakes_a_sleeping_cluster_starts_no_deal():
    """The runtime swallows the press that wakes a tile; the 6-second hold must not be timed
    from a press the tile saw before it fell asleep, or waking the jungle deals again."""
    w = dealt_table(6)
    dealt = [(state(w, t), shard(w, t)) for t in w.tiles]
    lines = deal_lines(w)
    w.advance(runtime_tile.SLEEP_MS + 1000)
    assert all(w.inspect(t)["asleep"] for t in w.tiles)
    w.hold(2, 300)  # a firm press to wake the jungle
    w.advance(3000)
    assert not any(w.inspect(t)["asleep"] for t in w.tiles)
    assert deal_lines(w) == lines
    assert [(state(w, t), shard(w, t)) for t in w.tiles] == dealt


def test_a_triple_click_that_wakes_a_sleeping_board_deals_nothing():
    w = dealt_table(6)
    r1, r2 = find(w, "R1"), find(w, "R2")
    first_play(w, r1)
    attach(w, r2, east(BOARD, 1))
    lines = deal_lines(w)
    w.advance(runtime_tile.SLEEP_MS + 1000)
    assert w.inspect(r1)["asleep"] and w.inspect(r2)["asleep"]
    w.triple_click(r2)  # the first press wakes it, the other two make a double click
    w.advance(3000)
    assert deal_lines(w) == lines
    assert state(w, r1) == state(w, r2) == "played"
    assert board_of(w, r1) == board_of(w, r2) == {"R": 2, "Y": 0, "B": 0}


def test_holding_a_sleeping_tile_for_six_seconds_deals_from_the_press_that_woke_it():
    w = dealt_table(6)
    w.advance(runtime_tile.SLEEP_MS + 1000)
    assert all(w.inspect(t)["asleep"] for t in w.tiles)
    lines = deal_lines(w)
    w.press(2)
    w.advance(game.HOLD_DEAL_MS - 200)
    assert deal_lines(w) == lines  # not yet: the hold counts from the waking press
    w.advance(300)
    w.release(2)
    settle(w, 2)
    assert w.inspect(2)["deal"]["result"] == "dealt 6"
    assert states(w) == ["face down"] * 6
    assert hand_out(w) == deck_counter(1)


def test_a_sleeping_board_wakes_for_a_play_and_judges_it_with_its_state_intact():
    """The board sleeps 10 minutes after the last press; a shard attached later wakes it (any
    neighbour frame does), is judged against what the board remembers, and completes the gem."""
    w = dealt_table(6)
    r1, r2, r3 = find(w, "R1"), find(w, "R2"), find(w, "R3")
    first_play(w, r1)
    attach(w, r2, east(BOARD, 1))
    take_into_hand(w, r3)
    w.advance(runtime_tile.SLEEP_MS - 30000)
    w.double_click(r3)  # the partner looks at it: this shard stays awake longer
    w.advance(40000)
    assert w.inspect(r1)["asleep"] and w.inspect(r2)["asleep"]
    assert not w.inspect(r3)["asleep"]
    attach(w, r3, east(BOARD, 2))
    assert not w.inspect(r1)["asleep"] and not w.inspect(r2)["asleep"]
    assert state(w, r3) == "played"
    assert w.inspect(r3)["show"] == "copper spin"
    assert w.inspect(r1)["show"] == w.inspect(r2)["show"] == "gold flash"
    assert board_of(w, r1) == {"R": 3, "Y": 0, "B": 0}
