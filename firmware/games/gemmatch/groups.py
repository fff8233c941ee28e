"""How field tiles find the groups their gems make, by face values alone.

Gems touch within a token (faces f and f +- 1) and across two touching faces. Each gem has
one neighbour across, and a side holds at most one pair of neighbouring gems alike (its twin),
so a group is a chain: across, twin, across, twin ... A field tile sends on face f its gem's
colour (1-6) and how many gems of that colour the chain holds from that gem on, away from the
tile across the face: the gem itself, its twin, and what the twin's own face hears
(`value = colour << 3 | count`, count 1-7). A tile that hears on face f a value of its gem's
colour knows the chain beyond; adding its own side gives the whole group's size, up to 7.

A gem is lit when its group holds at least `least` gems and joins two tokens or more (a side's
own twin is no group). A chain round a ring, possible only in passing, saturates at 7.
Nothing here allocates: `sizes` fills the game's own list.
"""

try:
    import micropython
except ImportError:  # CPython: plain Python (runtime/native.py)
    from runtime import native as micropython  # type: ignore[no-redef]

try:
    from micropython import const
except ImportError:  # CPython: plain ints (runtime/native.py)
    from runtime.native import const


MAX_COUNT = const(7)
NOT_FIELD = const(0)  # the value of a tile off the field: no gem


def value(colour, count):
    return colour << 3 | (min(MAX_COUNT, count))


def colour_of(v):
    return v >> 3


def count_of(v):
    return v & 7


@micropython.native
def twin_of(gems, f):
    """The face next to f whose gem is f's colour (an improved side's pair), or -1."""
    c = gems[f]
    if gems[(f + 1) % 6] == c:
        return (f + 1) % 6
    if gems[(f + 5) % 6] == c:
        return (f + 5) % 6
    return -1


@micropython.native
def beyond(gems, heard, f):
    """How many gems of f's colour the neighbour across face f adds (0: none, or not alike);
    `heard[f]` is that face's value (0: no field tile there)."""
    v = heard[f]
    return count_of(v) if v and colour_of(v) == gems[f] else 0


@micropython.native
def send(gems, heard, f):
    """The value to send on face f: its colour, and the chain from it into this tile."""
    count = 1
    twin = twin_of(gems, f)
    if twin >= 0:
        count += 1 + beyond(gems, heard, twin)
    return value(gems[f], count)


@micropython.native
def sizes(gems, heard, least, out):
    """Fill `out[f]` with the size of face f's group if it is lit (at least `least` gems on two
    tokens or more), else 0; return `out`."""
    for f in range(6):
        across = beyond(gems, heard, f)
        twin = twin_of(gems, f)
        own = 1
        if twin >= 0:
            own = 2 + beyond(gems, heard, twin)  # the twin, and the chain across its face
        size = own + across
        joined = across > 0 or own > 2
        size = min(size, MAX_COUNT)
        out[f] = size if joined and size >= least else 0
    return out
