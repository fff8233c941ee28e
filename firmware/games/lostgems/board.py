"""The gem board as one 6-bit face value: the highest value played per colour, 2 bits each.

Red is bits 0-1, yellow bits 2-3, blue bits 4-5. A board always holds at least one play, so a
board value is 1..63 and 0 on a face means "not a board tile". Board tiles send their value on
every face; merging is a per-colour maximum, so values only grow and the whole board converges
however the news travels. Because every valid play adds exactly one to the score, the score a
board had just before a play is that play's rank on the board (1..9): the score count uses it to
light the tiles one by one in the order they were played.
"""

from games.lostgems import shards

EMPTY = 0
FULL = 63


def highest(board, colour):
    """Highest value played in colour 0..2 (0 when that colour has not started)."""
    return (board >> (2 * colour)) & 3


def with_highest(board, colour, value):
    return (board & ~(3 << (2 * colour)) & 63) | (value << (2 * colour))


def merge(a, b):
    """The board that knows every play either side knows."""
    out = 0
    for c in range(3):
        out = with_highest(out, c, max(highest(a, c), highest(b, c)))
    return out


def score(board):
    return highest(board, 0) + highest(board, 1) + highest(board, 2)


def is_playable(board, shard):
    """True when the shard's value is exactly one more than its colour's highest."""
    return shards.value_of(shard) == highest(board, shards.colour_of(shard)) + 1


def play(board, shard):
    """The board after a playable shard joined it."""
    return with_highest(board, shards.colour_of(shard), shards.value_of(shard))


def completed(before, after):
    """Colours whose gem went from incomplete to complete (highest 3) between two boards."""
    out = []
    for c in range(3):
        if highest(before, c) < 3 and highest(after, c) == 3:
            out.append(c)
    return out


def describe(board):
    """{'R': 0-3, 'Y': 0-3, 'B': 0-3}: the board in the words of the session JSON."""
    return {"R": highest(board, 0), "Y": highest(board, 1), "B": highest(board, 2)}
