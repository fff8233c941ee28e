"""Shards, colours and the deck of Lost Gems (LOSTGEMS.md part 1).

A shard is kept as a small int, `colour * 3 + value - 1` (0..8), so the referee and the bots
can index tables with it; `shard_name` and `parse_shard` convert to and from `R1`, `Y2`, `B3`.
"""

import random

COLOURS = ("R", "Y", "B")
COLOUR_NAMES = ("red", "yellow", "blue")
VALUES = (1, 2, 3)
COPIES = {1: 3, 2: 2, 3: 1}
SHARD_TYPES = tuple(range(9))
DECK_SIZE = 18
HAND_SIZE = 2
MAX_HINTS = 3
MAX_ERRORS = 2

# How many copies of each shard type the full deck holds, indexed by shard.
TYPE_COUNTS = tuple(COPIES[t % 3 + 1] for t in SHARD_TYPES)


def shard(colour, value):
    """The shard of colour index 0..2 and value 1..3."""
    return colour * 3 + value - 1


def colour_of(s):
    return s // 3


def value_of(s):
    return s % 3 + 1


def shard_name(s):
    return COLOURS[s // 3] + str(s % 3 + 1)


def parse_shard(text):
    """`R1` -> shard; raises ValueError naming what a shard looks like."""
    t = text.strip().upper()
    if len(t) != 2 or t[0] not in COLOURS or t[1] not in "123":
        raise ValueError(f"{text!r} is not a shard (a colour R, Y or B then a value 1-3, e.g. R1)")
    return shard(COLOURS.index(t[0]), int(t[1]))


def parse_colour(text):
    """`red` or `R` -> colour index; raises ValueError."""
    t = text.strip().lower()
    for i, name in enumerate(COLOUR_NAMES):
        if t == name or t == COLOURS[i].lower():
            return i
    raise ValueError(f"{text!r} is not a colour (red, yellow or blue)")


FULL_DECK = tuple(t for t in SHARD_TYPES for _ in range(TYPE_COUNTS[t]))


def full_deck():
    """The 18 shards in a fixed order: R1 R1 R1 R2 R2 R3 Y1 ..., as a new list."""
    return list(FULL_DECK)


def shuffled_deck(seed):
    """The deck shuffled by `random.Random(seed)`: the same seed always deals the same game.

    A seed is a whole number, 0 or more: random.Random(-n) deals as Random(n) does, so a
    negative seed would replay another seed's game (a batch from seed -1000 would count each
    of 1000 deals twice).

    The shuffle is random.shuffle's own (Fisher-Yates, each index drawn as random's
    _randbelow draws it: the fewest bits that hold it, again while too big), spelt out here
    without a method call per draw, which took 2% of a batch of bot games. A test holds it
    to random.Random(seed).shuffle."""
    if not isinstance(seed, int) or seed < 0:
        raise ValueError(f"a seed is a whole number >= 0, got {seed!r}")
    deck = list(FULL_DECK)
    getrandbits = random.Random(seed).getrandbits
    for i in range(DECK_SIZE - 1, 0, -1):
        k = BITS_BELOW[i]
        j = getrandbits(k)
        while j > i:
            j = getrandbits(k)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


BITS_BELOW = tuple((i + 1).bit_length() for i in range(DECK_SIZE))  # bits of a draw below i + 1


def check_deck(deck):
    """Raise ValueError unless `deck` is a permutation of the 18 shards."""
    if len(deck) != DECK_SIZE:
        raise ValueError(f"a deck has 18 shards, got {len(deck)}")
    if sorted(deck) != full_deck():
        counts = [0] * 9
        for s in deck:
            counts[s] += 1
        wrong = [
            f"{shard_name(t)} x{counts[t]} (needs {TYPE_COUNTS[t]})"
            for t in SHARD_TYPES
            if counts[t] != TYPE_COUNTS[t]
        ]
        raise ValueError("not a permutation of the 18 shards: " + ", ".join(wrong))


def rating(score: int) -> str:
    """LOSTGEMS.md part 1's words for a final score."""
    if score >= 9:
        return "praised by the tribe"
    if score >= 6:
        return "nicely done"
    if score >= 4:
        return "a mediocre explorer"
    return "the tribes are let down"
