"""A short game at 10% frame loss played the way the session runner plays: every move by
moving and pressing tiles, every tile checked after every move."""

from games.lostgems import game
from lg_story import (
    BOARD,
    HAND,
    board_of,
    deal,
    east,
    find,
    lift_to,
    logs,
    play_like_the_runner,
    shard,
    state,
    table,
)


def test_a_short_game_at_ten_percent_loss():
    w = table(18, "random", 0.1, seed=21)
    deal(w, 0)
    w.advance(1000)
    hands = {"A": [find(w, "R1"), find(w, "Y2")], "B": [find(w, "B1"), find(w, "R2")]}
    for i, t in enumerate(hands["A"] + hands["B"]):
        lift_to(w, t, (HAND[0], HAND[1] + 3 * i))
        w.double_click(t)  # shown to the partner
        assert state(w, t) == "revealed"
    jungle = [t for t in w.tiles if state(w, t) == "face down"]
    assert len(jungle) == 14

    # A plays R1: the first play, alone in the middle, triple-clicked
    r1 = hands["A"].pop(0)
    lift_to(w, r1, BOARD)
    w.triple_click(r1)
    assert state(w, r1) == "played"
    board = [r1]

    # B plays B1 against the red 1
    b1 = hands["B"].pop(0)
    assert play_like_the_runner(w, b1, east(BOARD, 1), board) == "played"
    board.append(b1)
    assert board_of(w, r1) == {"R": 1, "Y": 0, "B": 1}

    # A discards Y2 (a hint was spent in the rules; the tiles only see the hold)
    y2 = hands["A"].pop(0)
    w.hold(y2, 2100)
    assert state(w, y2) == "discarded"
    lift_to(w, y2, (HAND[0], -20))  # onto the discard pile

    # A draws Y1 from the jungle and reveals it
    y1 = find(w, "Y1", "face down")
    lift_to(w, y1, (HAND[0], HAND[1] + 30))
    w.double_click(y1)
    assert state(w, y1) == "revealed"

    # B plays R2 at the blue end, A plays Y1 at the red end: both valid
    r2 = hands["B"].pop(0)
    assert play_like_the_runner(w, r2, east(BOARD, 2), board) == "played"
    board.append(r2)
    assert play_like_the_runner(w, y1, east(BOARD, -1), board) == "played"
    board.append(y1)

    # a second red 1 from the jungle is not playable any more: error, then discarded
    other_r1 = find(w, "R1", "face down")
    assert play_like_the_runner(w, other_r1, east(BOARD, 3), board) == "error"
    w.advance(game.ERROR_MS + 100)  # the flash lasts 3 s from the judgement, plus a pass
    assert state(w, other_r1) == "discarded"

    # every tile shows what the game says
    assert [state(w, t) for t in board] == ["played"] * 4
    assert all(board_of(w, t) == {"R": 2, "Y": 1, "B": 1} for t in board)
    assert sorted(w.inspect(t)["rank"] for t in board) == [1, 2, 3, 4]
    assert [state(w, t) for t in jungle if t not in (y1, other_r1)] == ["face down"] * 12
    assert shard(w, y2) == "Y2" and state(w, y2) == "discarded"
    changes = [line for t in w.tiles for line in logs(w, t) if line.startswith("LG state ")]
    # every change logged exactly once: the deal (2 a tile), 4 reveals, R1 B1 played, Y2
    # discarded, Y1 revealed, R2 Y1 played, the second R1 error then discarded
    assert len(changes) == 18 * 2 + 4 + 2 + 1 + 1 + 2 + 2
