"""Sets of possible hands as int bitmasks, so the convention bot can memoise on them.

A hand of 2 shards (a, b) is bit a*9+b, a hand of 1 shard (t,) bit 81+t, the empty hand bit 90.
Ints hash in constant time and compare exactly, which makes them cheap keys for caches of
pure functions of common knowledge; ascending bits decode to the hands in sorted order. Sets
of hands that share a property are masks too, so filtering a set is one `&`.
"""

EMPTY_HAND_BIT = 1 << 90
ALL_PAIRS_MASK = (1 << 81) - 1
# Entries per cache before it starts afresh (trim_caches; 10,000 games: ~200 MB).
CACHE_LIMIT = 150_000

HAND_OF_BIT = tuple([(a, b) for a in range(9) for b in range(9)] + [(t,) for t in range(9)] + [()])

BIT_OF_HAND = {h: 1 << i for i, h in enumerate(HAND_OF_BIT)}
ALL_SINGLES_MASK = 511 << 81

# FIRST_IN[s] / SECOND_IN[s]: the 2-shard hands whose slot 1 / slot 2 shard is in the 9-bit
# shard set s; SINGLES_IN[s]: the 1-shard hands whose shard is.
ROW_OF_FIRST_0 = 511  # the hands (0, x): bits 0..8
COLUMN_OF_SECOND_0 = sum(1 << (9 * a) for a in range(9))  # the hands (x, 0): bits 0, 9, .. 72
FIRST_IN = tuple(sum(ROW_OF_FIRST_0 << (9 * t) for t in range(9) if s >> t & 1) for s in range(512))
SECOND_IN = tuple(sum(COLUMN_OF_SECOND_0 << t for t in range(9) if s >> t & 1) for s in range(512))
SINGLES_IN = tuple(s << 81 for s in range(512))
# DIAGONAL_IN[s]: the hands (t, t) of the shards t in s (bit 10 * t).
DIAGONAL_IN = tuple(sum(1 << (10 * t) for t in range(9) if s >> t & 1) for s in range(512))

CACHES = []


def new_cache():
    """A dict for memoised results, registered so that clear_caches() can empty it."""
    cache = {}
    CACHES.append(cache)
    return cache


def clear_caches():
    """Forget every memoised result (tests use it to compare against fresh computation)."""
    for cache in CACHES:
        cache.clear()


_DECODED = new_cache()


def trim_caches():
    """Empty every cache that has reached CACHE_LIMIT entries. Called as each convention bot
    is made (twice a game), so a memo store is a plain dict store: checking the size at
    every store took 1.6% of a batch's instructions."""
    for cache in CACHES:
        if len(cache) >= CACHE_LIMIT:
            cache.clear()


def mask_of(hands):
    """The bitmask of an iterable of hands (0 when there is none)."""
    m = 0
    bits = BIT_OF_HAND
    for h in hands:
        m |= bits[h]
    return m


def shard_set(table):
    """The set of the shards t with table[t] true, as bits (9 for a table by shard)."""
    s = 0
    for t in range(len(table)):
        if table[t]:
            s |= 1 << t
    return s


def size_of(mask):
    """How many shards the hands of a (non-empty) mask hold; 0 for the empty mask too. (A
    mask holds hands of one size; if not, the size of its lowest bit's hand.)"""
    if mask & ALL_PAIRS_MASK:
        return 2
    return 1 if mask & ALL_SINGLES_MASK else 0


def mask_where(test):
    """The mask of every hand (of any size) for which test(hand) is true."""
    return mask_of(h for h in HAND_OF_BIT if test(h))


# BITS_AT[k][r]: the bit indices of the 9 bits r found at bits 9k..9k+8 of a mask.
BITS_AT = tuple(
    tuple(tuple(9 * k + j for j in range(9) if r >> j & 1) for r in range(512)) for k in range(11)
)


_INDICES = new_cache()  # mask -> indices_of(mask)


def indices_of(mask):
    """The bit indices of a mask, ascending, as a tuple; memoised, as the masks of common
    knowledge come back (seven lookups in ten find theirs)."""
    got = _INDICES.get(mask)
    if got is None:
        got = _INDICES[mask] = bit_indices(mask)
    return got


def bit_indices(mask):
    """indices_of, worked out: a table lookup per 9 bits, not a step per bit."""
    out = ()
    k = 0
    while mask:
        r = mask & 511
        if r:
            out += BITS_AT[k][r]
        mask >>= 9
        k += 1
    return out


def hands_of(mask):
    """The hands of a bitmask, as a sorted tuple of shard tuples."""
    got = _DECODED.get(mask)
    if got is None:
        got = _DECODED[mask] = tuple(HAND_OF_BIT[i] for i in indices_of(mask))
    return got
