"""The code words of the convention bot: which of the six hints names a partner's hand.

Both players compute the same partition of the hands they think the partner may hold (common
knowledge), so the hinter can name the partner's group and the partner can read it. See
conventions.py for the classes; everything here is a pure function, memoised on bitmasks.
"""

from simulator.sessions.bots.beliefs import public_tables
from simulator.sessions.bots.handsets import (
    FIRST_OF_BIT,
    HAND_OF_BIT,
    SECOND_OF_BIT,
    indices_of,
    new_cache,
    remember,
)
from simulator.sessions.moves import ALL_HINTS, COLOUR


def hint_index(move):
    """The code of a hint move: its index in ALL_HINTS (red, yellow, blue, 1, 2, 3)."""
    return move.hint if move.hint_kind == COLOUR else move.hint + 2


MATCHES = tuple(tuple(m.matches(t) for t in range(9)) for m in ALL_HINTS)
# POINTING[hand][hint]: which of the hand's slots the hint points at, as a code 0..3.
POINTING = {
    h: tuple(sum(2**k for k, t in enumerate(h) if MATCHES[i][t]) for i in range(6))
    for h in [(a, b) for a in range(9) for b in range(9)] + [(t,) for t in range(9)] + [()]
}

_PARTITIONS = new_cache()  # (set mask, gems, sorted discards) -> mask per message
_CLASSES = new_cache()  # (playable, safe) -> class_table()


def hand_class(hand, playable, safe):
    """The message (0..5) that describes `hand` (a tuple of shards) to its holder."""
    if len(hand) == 2:
        a, b = hand
        if playable[a]:
            after = (playable[b] and b != a) or (b == a + 1 and b // 3 == a // 3)
            if after:
                return 0
            return 1 if safe[b] else 2
        if playable[b]:
            return 3
        return 4 if safe[a] else 5
    if len(hand) == 1:
        a = hand[0]
        return 0 if playable[a] else (4 if safe[a] else 5)
    return 5


def refine_key(hand, label):
    """The part of a hand a group may still be split on: the shards its class leaves open."""
    if len(hand) == 2:
        if label in (4, 5):
            return hand
        if label == 3:
            return (hand[0],)
        if label in (1, 2):
            return (hand[1],)
        return ()
    return hand if label != 0 else ()


def _refine_index(hand, label):
    """refine_key as an int that sorts as the keys do: a 2-shard hand split on itself is its
    bit index, on one slot that slot's shard; a 1-shard hand its bit index; -1 if unsplittable.
    Within a group every hand has the same size and class, so the keys are of one kind."""
    key = refine_key(hand, label)
    if not key:
        return -1
    if len(key) == 1 and len(hand) == 2:
        return key[0]
    return HAND_OF_BIT.index(hand)


# KEY_OF_BIT[label][bit]: the refine key of the hand of that bit, as an int.
KEY_OF_BIT = tuple(tuple(_refine_index(h, label) for h in HAND_OF_BIT) for label in range(6))
# SPREAD_UNIT[bit]: a 1 in the field (hint, pattern) of each hint's pointing pattern of the
# hand of that bit; weights summed over a group's hands fill all 24 fields at once (a group
# weighs at most 81 * 9 < 2**SPREAD_BITS).
SPREAD_BITS = 12
SPREAD_FIELD = (1 << SPREAD_BITS) - 1
SPREAD_UNIT = tuple(
    sum(1 << (SPREAD_BITS * (4 * f + POINTING[h][f])) for f in range(6)) for h in HAND_OF_BIT
)


def partition(mask, counts, playable, safe):
    """Split the hands both players think possible into at most six groups, one per hint.

    Hands (of `mask`, weighed by the ways `counts` lets one hold them; hands no deal allows
    are left out) are grouped by class; code words the classes leave unused then split the
    heaviest group on the shards its class leaves open, in two halves of about equal weight.
    Both players compute this from common knowledge only. Returns the mask of each message's
    hands, indexed by hint.

    A group is a list of (bit, weight, key) in ascending bits (see KEY_OF_BIT).
    """
    labels = class_table(playable, safe)
    members = ([], [], [], [], [], [])
    for i in indices_of(mask):
        if i < 81:
            a = FIRST_OF_BIT[i]
            b = SECOND_OF_BIT[i]
            w = counts[a] * (counts[b] - (a == b))
        elif i < 90:
            w = counts[i - 81]
        else:
            w = 1
        if w > 0:
            label = labels[i]
            members[label].append((i, w, KEY_OF_BIT[label][i]))
    groups = [g for g in members if g]
    splittable = [_weight_if_splittable(g) for g in groups]
    while len(groups) < 6:
        best, best_weight = -1, 0
        for i, weight in enumerate(splittable):
            if weight > best_weight:
                best, best_weight = i, weight
        if best < 0:
            break
        g = groups.pop(best)
        splittable.pop(best)
        for part in _halves(g):
            groups.insert(best, part)
            splittable.insert(best, _weight_if_splittable(part))
    out = [0] * 6
    for g, hint in assign_hints(groups):
        m = 0
        for i, _, _ in g:
            m |= 1 << i
        out[hint] = m
    return tuple(out)


def _halves(group):
    """A group split on its keys into two of about equal weight: the heaviest keys first, each
    to the lighter side (the first side on ties). Returns (second half, first half)."""
    key_weight = {}
    for _, w, k in group:
        key_weight[k] = key_weight.get(k, 0) + w
    first, total_first, total_second = set(), 0, 0
    for neg_weight, k in sorted([(-w, k) for k, w in key_weight.items()]):
        if total_first <= total_second:
            first.add(k)
            total_first -= neg_weight
        else:
            total_second -= neg_weight
    second = [x for x in group if x[2] not in first]
    return second, [x for x in group if x[2] in first]


def _weight_if_splittable(group):
    """A group's weight if it holds two or more keys to split on, else 0."""
    first = group[0][2]
    for _, _, k in group:
        if k != first:
            total = 0
            for _, w, _ in group:
                total += w
            return total
    return 0


def class_table(playable, safe):
    """hand_class of each hand, indexed by bit, memoised on the (few) playable/safe tables."""
    key = (tuple(playable), tuple(safe))
    got = _CLASSES.get(key)
    if got is None:
        got = remember(_CLASSES, key, tuple(hand_class(h, playable, safe) for h in HAND_OF_BIT))
    return got


def assign_hints(groups):
    """Pair each group with a hint so that the hint's literal meaning (which slots it points
    at) splits the group's hands as evenly as possible: information for free. Heavier groups
    choose first; ties go to the one holding the lowest hand, and to the lower hint index.
    Groups are lists of (bit, weight, key), ascending. Returns [(group, hint index)]."""
    order = []
    for g in groups:
        total = 0
        for _, w, _ in g:
            total += w
        order.append((-total, g[0][0], g))
    order.sort()
    free = [0, 1, 2, 3, 4, 5]
    out = []
    for neg_total, _, g in order:
        # Weight of each pointing pattern (slot 1 pointed, slot 2 pointed) per hint: the
        # pattern numbers of a hand's bit, one field of SPREAD_BITS bits per (hint, pattern).
        spread = 0
        for i, w, _ in g:
            spread += w * SPREAD_UNIT[i]
        best, best_score = free[0], -1
        for f in free:
            fields = spread >> (4 * SPREAD_BITS * f)
            a = fields & SPREAD_FIELD
            b = (fields >> SPREAD_BITS) & SPREAD_FIELD
            c = (fields >> 2 * SPREAD_BITS) & SPREAD_FIELD
            d = (fields >> 3 * SPREAD_BITS) & SPREAD_FIELD
            score = neg_total * neg_total - (a * a + b * b + c * c + d * d)  # Gini spread
            if score > best_score:
                best, best_score = f, score
        free.remove(best)
        out.append((g, best))
    return out


def shared_partition(mask, gems, discards):
    """The partition of a common-knowledge set: a pure function of public facts, memoised so
    that the hinter and the receiver, who both compute it, and later games pay for it once."""
    key = (mask, gems, discards)
    got = _PARTITIONS.get(key)
    if got is None:
        playable, _, critical, counts, _ = public_tables(gems, discards)
        got = remember(
            _PARTITIONS, key, partition(mask, counts, playable, [not c for c in critical])
        )
    return got
