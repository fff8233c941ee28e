"""The code words of the convention bot: which of the six hints names a partner's hand.

Both players compute the same partition of the hands they think the partner may hold (common
knowledge), so the hinter can name the partner's group and the partner can read it. See
conventions.py for the classes; everything here is a pure function, memoised on bitmasks.
"""

from struct import Struct

from simulator.games.lostgems.bots.beliefs import hand_weights, possible_hands
from simulator.games.lostgems.bots.handsets import (
    DIAGONAL_IN,
    EMPTY_HAND_BIT,
    FIRST_IN,
    HAND_OF_BIT,
    SECOND_IN,
    SINGLES_IN,
    indices_of,
    new_cache,
    shard_set,
)
from simulator.games.lostgems.moves import ALL_HINTS

MATCHES = tuple(tuple(m.matches(t) for t in range(9)) for m in ALL_HINTS)
# POINTING[hand][hint]: which of the hand's slots the hint points at, as a code 0..3.
POINTING = {
    h: tuple(sum(2**k for k, t in enumerate(h) if MATCHES[i][t]) for i in range(6))
    for h in [(a, b) for a in range(9) for b in range(9)] + [(t,) for t in range(9)] + [()]
}

_PARTITIONS = new_cache()  # (set mask, PublicFacts) -> CodeBook
_CLASSES = new_cache()  # playable and safe sets -> class_masks()
_TABLES = new_cache()  # PublicFacts -> (hand_weights(), class_masks()) in that state


def hand_class(hand, playable, safe):
    """The message (0..5) that describes `hand` (a tuple of shards) to its holder: the
    definition, which class_masks() works out for every hand at once."""
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
# PAIR_OF_BIT[label][bit]: the (class, refine key) pair of the hand of that bit, as one int
# (its class is the int // 92).
PAIR_OF_BIT = tuple(tuple(label * 92 + 1 + key for key in KEY_OF_BIT[label]) for label in range(6))
FEW_HANDS = 9  # up to this many hands, partition() first tries grouping on pairs alone
# SPREAD_UNIT[bit]: a 1 in the field (hint, pattern) of each hint's pointing pattern of the
# hand of that bit; weights summed over a group's hands fill all 24 fields at once (a group
# weighs at most 81 * 9 < 2**16), which SPREAD_FIELDS then reads out as 24 ints.
SPREAD_BYTES = 2 * 24
SPREAD_FIELDS = Struct("<24H").unpack
SPREAD_WORST = 1 << 40  # more than any sum of squares of a group's pattern weights
SPREAD_UNIT = tuple(
    sum(1 << (16 * (4 * f + POINTING[h][f])) for f in range(6)) for h in HAND_OF_BIT
)
POINTING_OF_BIT = tuple(POINTING[h] for h in HAND_OF_BIT)
# SPREAD_OF[w][bit]: w * SPREAD_UNIT[bit], for every weight a hand can have (at most 3 * 3).
SPREAD_OF = tuple(tuple(w * unit for unit in SPREAD_UNIT) for w in range(10))


def partition(mask, counts, playable, safe):
    """Split the hands both players think possible into at most six groups, one per hint.

    Hands (of `mask`, weighed by the ways `counts` lets one hold them; hands no deal allows
    are left out) are grouped by class; code words the classes leave unused then split the
    heaviest group on the shards its class leaves open, in two halves of about equal weight.
    Both players compute this from common knowledge only. Each group then gets its hint (see
    CodeBook). Returns the mask of each message's hands, indexed by hint.
    """
    allowed = mask & possible_hands(counts)
    classes = class_masks(shard_set(playable), shard_set(safe))
    return code_book(allowed, hand_weights(counts), classes).masks()


def code_book(mask, weights, classes):
    """The CodeBook of partition(), from its tables: each hand's weight, by bit, and the mask
    of each class's hands (class_masks). Every hand of `mask` must weigh something.

    A group is (bits, label, total weight) with its hands' bits ascending; weights[bit] is a
    hand's weight and KEY_OF_BIT[label][bit] what a split may separate (see refine_key).
    """
    if mask.bit_count() <= FEW_HANDS:
        # Halving stops only at six groups or when no group has two keys: if the hands fall
        # into six (class, key) pairs or fewer, those pairs are the groups, whatever the order.
        pairs = {}
        for label in range(6):
            members = mask & classes[label]
            if members:
                pair_of = PAIR_OF_BIT[label]
                for i in indices_of(members):
                    pair = pair_of[i]
                    bits = pairs.get(pair)
                    if bits is None:
                        pairs[pair] = [i]
                    else:
                        bits.append(i)
        if len(pairs) <= 6:
            order = []
            for bits in pairs.values():
                total = 0
                for i in bits:
                    total += weights[i]
                order.append((total, -bits[0], bits))
            return CodeBook(order, weights)
    groups = []  # (bits, label, total weight)
    splittable = []  # per group: its total weight if it can be split, else 0
    for label in range(6):
        members = mask & classes[label]
        if members:
            bits = indices_of(members)
            total = 0  # (a loop here, not a call: most groups are of one hand)
            for i in bits:
                total += weights[i]
            groups.append((bits, label, total))
            splittable.append(total if _splits(bits, label) else 0)
    while len(groups) < 6:
        heaviest = max(splittable)
        if not heaviest:
            break
        best = splittable.index(heaviest)  # the first of equals
        bits, label, _ = groups.pop(best)
        splittable.pop(best)
        for part, total, splits in _halves(bits, label, weights):
            groups.insert(best, (part, label, total))
            splittable.insert(best, total if splits else 0)
    return CodeBook([(total, -bits[0], bits) for bits, _, total in groups], weights)


BIT = tuple(1 << i for i in range(91))


def _splits(bits, label):
    """Whether a group of `bits` (all of class `label`) has two keys, so it can be split."""
    if label >= 4:  # split on the hands themselves: any two can be told apart
        return len(bits) > 1
    if not label:  # both shards known playable: nothing left to split on
        return False
    keys = KEY_OF_BIT[label]
    first = keys[bits[0]]
    for i in bits:
        if keys[i] != first:
            return True
    return False


def _halves(bits, label, weights):
    """A group's bits split on their keys into two of about equal weight: the heaviest keys
    first (the lowest key of equals), each to the lighter side (the first side on ties).
    Returns (second, first), each as (bits, total weight, whether it has two keys). Keys are
    the hands themselves in classes 4 and 5, and a shard in classes 1 to 3 (see refine_key);
    a stable sort in reverse keeps equals ascending."""
    if label >= 4:
        first, second = [], []
        total_first = total_second = 0
        for i in sorted(bits, key=weights.__getitem__, reverse=True):
            if total_first <= total_second:
                first.append(i)
                total_first += weights[i]
            else:
                second.append(i)
                total_second += weights[i]
        first.sort()
        second.sort()
        return (second, total_second, len(second) > 1), (first, total_first, len(first) > 1)
    keys = KEY_OF_BIT[label]
    key_weight = [0] * 9
    for i in bits:
        key_weight[keys[i]] += weights[i]
    in_first = [False] * 9
    total_first = total_second = 0
    keys_first = keys_second = 0
    for k in sorted(range(9), key=key_weight.__getitem__, reverse=True):
        w = key_weight[k]
        if not w:  # no hand of the group has this key, nor any later one
            break
        if total_first <= total_second:
            in_first[k] = True
            total_first += w
            keys_first += 1
        else:
            total_second += w
            keys_second += 1
    first, second = [], []
    for i in bits:
        if in_first[keys[i]]:
            first.append(i)
        else:
            second.append(i)
    return (second, total_second, keys_second > 1), (first, total_first, keys_first > 1)


# Pairs (a, b) with b the next value of a's colour (a 1 then its 2, a 2 then its 3).
NEXT_VALUE_PAIRS = sum(1 << (9 * t + t + 1) for t in range(9) if t % 3 < 2)


def class_masks(playable, safe):
    """The mask of the hands of each class (hand_class), for the 9-bit sets of the playable
    and the safe shards; memoised. Worked out on masks, a few big-int operations, not hand by
    hand."""
    key = playable | safe << 9
    got = _CLASSES.get(key)
    if got is None:
        unplayable = ~playable & 511
        unsafe = ~safe & 511
        first_playable = FIRST_IN[playable]
        # Slot 2 playable once slot 1 is: another playable shard, or the next of slot 1's.
        after = SECOND_IN[playable] & ~DIAGONAL_IN[511] | NEXT_VALUE_PAIRS
        neither = FIRST_IN[unplayable] & SECOND_IN[unplayable]
        got = (
            first_playable & after | SINGLES_IN[playable],
            first_playable & ~after & SECOND_IN[safe],
            first_playable & ~after & SECOND_IN[unsafe],
            FIRST_IN[unplayable] & SECOND_IN[playable],
            neither & FIRST_IN[safe] | SINGLES_IN[unplayable & safe],
            neither & FIRST_IN[unsafe] | SINGLES_IN[unplayable & unsafe] | EMPTY_HAND_BIT,
        )
        _CLASSES[key] = got
    return got


class CodeBook:
    """The groups of a partition, paired with hints only as far as someone asks.

    Each group is paired with the hint whose literal meaning (which slots it points at) splits
    the group's hands as evenly as possible: information for free. Heavier groups choose
    first; ties go to the one holding the lowest hand, and to the lower hint index. So the
    hint of a group is known once the groups heavier than it have chosen, and the hinter (who
    asks for the group of the partner's hand, most likely a heavy one) and the receiver (who
    asks for the group of the hint given) rarely need the light groups paired at all: 40% of
    the pairing work is never done. It is built from a list of the groups as (total weight,
    -lowest bit, bits), which it sorts so that the next to choose is always the last."""

    __slots__ = ("_free", "_order", "_out", "_weights")

    def __init__(self, order, weights):
        order.sort()
        self._order = order
        self._weights = weights
        self._free = [0, 1, 2, 3, 4, 5]
        self._out = [0, 0, 0, 0, 0, 0]

    def group(self, k):
        """The mask of the hands hint `k` names (0 if it names none)."""
        out = self._out
        order = self._order
        while not out[k] and order:
            self._pair_next()
        return out[k]

    def hint_naming(self, bit):
        """The hint whose group holds the hand of `bit` (a mask of one hand), or -1."""
        out = self._out
        for k in range(6):
            if out[k] & bit:
                return k
        while self._order:
            k = self._pair_next()
            if out[k] & bit:
                return k
        return -1

    def masks(self):
        """The mask of each hint's group, indexed by hint (0 for a hint no group has)."""
        while self._order:
            self._pair_next()
        return tuple(self._out)

    def _pair_next(self):
        """Pair the heaviest group not yet paired with its hint; returns the hint."""
        _, _, bits = self._order.pop()
        free = self._free
        mask = 0
        if len(free) == 1 or len(bits) == 1:  # any hint splits it alike: the first free one
            for i in bits:
                mask |= BIT[i]
            best = free.pop(0)
            self._out[best] = mask
            return best
        if len(bits) == 2:  # the first free hint that tells the two apart, if any
            i, j = bits
            pi, pj = POINTING_OF_BIT[i], POINTING_OF_BIT[j]
            best = free[0]
            for f in free:
                if pi[f] != pj[f]:
                    best = f
                    break
            free.remove(best)
            self._out[best] = BIT[i] | BIT[j]
            return best
        weights = self._weights
        if len(bits) == 3:  # the patterns compared directly: which hands a hint lumps together
            i, j, k = bits
            pi, pj, pk = POINTING_OF_BIT[i], POINTING_OF_BIT[j], POINTING_OF_BIT[k]
            wi, wj, wk = weights[i], weights[j], weights[k]
            best, best_squares = -1, SPREAD_WORST
            for f in free:
                if pi[f] == pj[f]:
                    if pj[f] == pk[f]:
                        squares = (wi + wj + wk) ** 2
                    else:
                        squares = (wi + wj) ** 2 + wk * wk
                elif pi[f] == pk[f]:
                    squares = (wi + wk) ** 2 + wj * wj
                elif pj[f] == pk[f]:
                    squares = (wj + wk) ** 2 + wi * wi
                else:
                    squares = wi * wi + wj * wj + wk * wk
                if squares < best_squares:
                    best, best_squares = f, squares
            free.remove(best)
            self._out[best] = BIT[i] | BIT[j] | BIT[k]
            return best
        # Weight of each pointing pattern (slot 1 pointed, slot 2 pointed) per hint: the
        # pattern numbers of a hand's bit, one field of 16 bits per (hint, pattern).
        # (A loop adds these big ints faster than sum(map(...)) does.)
        spread = 0
        for i in bits:
            spread += SPREAD_OF[weights[i]][i]
            mask |= BIT[i]
        # The most even split has the least sum of squared pattern weights (Gini impurity);
        # the first free hint wins ties.
        fields = SPREAD_FIELDS(spread.to_bytes(SPREAD_BYTES, "little"))
        best, best_squares = -1, SPREAD_WORST
        for f in free:
            j = 4 * f
            a, b, c, d = fields[j], fields[j + 1], fields[j + 2], fields[j + 3]
            squares = a * a + b * b + c * c + d * d
            if squares < best_squares:
                best, best_squares = f, squares
        free.remove(best)
        self._out[best] = mask
        return best


def shared_code_book(mask, facts):
    """The CodeBook of a common-knowledge set in the public state `facts` (beliefs.py): a
    pure function of public facts, memoised so that the hinter and the receiver, who both
    ask it, and later games pay for it once."""
    key = (mask & facts.possible, facts)  # hands no deal allows are in no group
    got = _PARTITIONS.get(key)
    if got is None:
        tables = _TABLES.get(facts)
        if tables is None:
            safe = ~facts.critical_set & 511
            tables = (hand_weights(facts.counts), class_masks(facts.playable_set, safe))
            _TABLES[facts] = tables
        got = _PARTITIONS[key] = code_book(key[0], *tables)
    return got
