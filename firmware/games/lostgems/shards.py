"""Gem shards: names, one-byte codes, decks and shuffling.

A shard code is `colour << 2 | value` with colour 0 red, 1 yellow, 2 blue and value 1..3, so
every code is 1..11 and fits a nibble; 0 means "no shard". The deal (runtime.deal) packs two
codes to a byte, so a whole 18-shard deck rides in one 16-byte datagram.
"""

COLOURS = "RYB"
VALUES_PER_COLOUR = (1, 1, 1, 2, 2, 3)
NO_SHARD = 0


def code(colour, value):
    """The code of the shard of colour index 0..2 and value 1..3."""
    if not (0 <= colour < 3 and 1 <= value <= 3):
        raise ValueError(f"no shard of colour {colour!r} and value {value!r}")
    return colour << 2 | value


def colour_of(shard):
    return shard >> 2


def value_of(shard):
    return shard & 3


def is_shard(shard):
    return isinstance(shard, int) and 0 <= shard >> 2 < 3 and 1 <= shard & 3 <= 3


def name(shard):
    """'R1', 'Y2', 'B3' ... or None for no shard."""
    if shard == NO_SHARD or shard is None:
        return None
    return COLOURS[shard >> 2] + str(shard & 3)


def parse(text):
    """The code of a shard written as 'R1'; ValueError on anything else."""
    if (
        not isinstance(text, str)
        or len(text) != 2
        or text[0] not in COLOURS
        or text[1] not in "123"
    ):
        raise ValueError(f"not a shard: {text!r} (expected R, Y or B followed by 1, 2 or 3)")
    return code(COLOURS.index(text[0]), int(text[1]))


def deck(colours):
    """The unshuffled deck of the first `colours` colours (1: red; 2: red, yellow; 3: all)."""
    if not 1 <= colours <= 3:
        raise ValueError(f"a deck has 1 to 3 colours, not {colours!r}")
    cards = []
    for c in range(colours):
        for v in VALUES_PER_COLOUR:
            cards.append(code(c, v))
    return cards


def colours_for_cluster(size):
    """How many colours a cluster of `size` tiles deals, or 0 when that size cannot deal."""
    if size in (6, 12, 18):
        return size // 6
    return 0
