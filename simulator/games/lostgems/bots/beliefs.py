"""Beliefs about hands from common knowledge and card counting, for the convention bot.

Pure functions of the public state (PublicFacts: gems, sorted discards and their card-counting
tables) and hand-set bitmasks, memoised because the same positions recur across turns and
games: the per-slot weights of a hand set, what a partner makes of their own hand, and the
hands left after a play or discard.
"""

from operator import mul

from simulator.games.lostgems.bots.handsets import (
    ALL_SINGLES_MASK,
    DIAGONAL_IN,
    EMPTY_HAND_BIT,
    FIRST_IN,
    HAND_OF_BIT,
    SECOND_IN,
    SINGLES_IN,
    indices_of,
    new_cache,
    shard_set,
    size_of,
)
from simulator.games.lostgems.bots.knowledge import COLOUR_TABLES, colour_index, discarded_copies

_FACTS = new_cache()  # facts_code(gems, discards) -> PublicFacts
_UNSEEN = new_cache()  # Unseen.code -> Unseen
_WEIGHTS = new_cache()  # (set mask, Unseen, hand size) -> slot_weights()
_LEAVES = new_cache()  # (set mask, slot, shard, hand size after) -> leave_hand()
_VIEWS = new_cache()  # (set mask, PublicFacts, hand size) -> partner_view()
_HAND_WEIGHTS = new_cache()  # unseen counts -> hand_weights()


class Unseen:
    """Copies of each shard a player has not seen (a tuple `counts`), and the hands they allow
    (`possible`, a mask: see possible_hands). unseen_of() hands out one object per counts, so
    that, like PublicFacts, it stands for them in memo keys, hashed by identity rather than as
    a 9-tuple at every lookup (1% of the instructions of a batch of games). Its `code` packs
    the counts into one int, two bits a shard (shard t at bit 2t), which finds the object in
    one int lookup: the counts less a hand are a subtraction (PublicFacts.beside)."""

    __slots__ = ("code", "copies", "counts", "possible")

    def __init__(self, counts, code):
        self.counts = counts
        self.code = code
        # copies_sets(counts), joined from each colour's 6 bits of the code.
        r = COPIES_OF_CODE[code & 63]
        y = COPIES_OF_CODE[code >> 6 & 63]
        b = COPIES_OF_CODE[code >> 12]
        k1 = r[0] | y[0] << 3 | b[0] << 6
        k2 = r[1] | y[1] << 3 | b[1] << 6
        self.copies = (k1, k2, r[2] | y[2] << 3 | b[2] << 6)
        self.possible = hands_allowed(k1, k2)


# COPY_CODE[t]: one copy of shard t in an Unseen's code.
COPY_CODE = tuple(1 << (2 * t) for t in range(9))
# COUNTS_OF_CODE[c]: the counts of three shards in a row packed in the 6 bits c, and
# COPIES_OF_CODE[c] their copies_sets (3-bit sets).
COUNTS_OF_CODE = tuple((c & 3, c >> 2 & 3, c >> 4 & 3) for c in range(64))


def unseen_of(counts):
    """The Unseen of `counts` (a tuple); one object per counts."""
    code = 0
    for t in range(9):
        code += counts[t] * COPY_CODE[t]
    return unseen_by_code(code)


def unseen_by_code(code):
    """The Unseen whose counts pack into `code` (see Unseen); one object per counts."""
    got = _UNSEEN.get(code)
    if got is None:
        counts = COUNTS_OF_CODE[code & 63] + COUNTS_OF_CODE[code >> 6 & 63]
        got = _UNSEEN[code] = Unseen(counts + COUNTS_OF_CODE[code >> 12], code)
    return got


class PublicFacts:
    """A public state (gems, sorted discards) and what card counting makes of it, worked out
    once per state: the bots consult these tables many times a turn.

    public_facts() hands out one object per state, so the object itself stands for the state
    in memo keys: it hashes by identity, far cheaper than the tuples it stands for. (Were a
    state ever given a second object, its memo entries would merely be missed.)"""

    __slots__ = (
        "blind_first",
        "blind_second",
        "code",
        "counts",
        "critical",
        "critical_hands",
        "critical_set",
        "discards",
        "gems",
        "loss",
        "playable",
        "playable_hands",
        "playable_set",
        "possible",
        "spare_hands",
        "trash",
        "trash_set",
        "unseen",
    )

    def __init__(self, gems, discards, code):
        self.gems = gems
        self.discards = discards
        self.code = code  # see facts_code
        # Each colour's tables from COLOUR_FACTS, joined: colours do not mix in card counting.
        r = COLOUR_FACTS[code & 127]
        y = COLOUR_FACTS[code >> 7 & 127]
        b = COLOUR_FACTS[code >> 14]
        self.playable = r[0] + y[0] + b[0]
        self.trash = r[1] + y[1] + b[1]
        self.critical = r[2] + y[2] + b[2]
        # From a seat that sees no hand: the copies neither played nor discarded.
        self.unseen = unseen_by_code(r[7] | y[7] << 6 | b[7] << 12)
        self.counts = self.unseen.counts
        self.loss = r[4] + y[4] + b[4]  # loss_table, before spared_loss
        self.playable_set = r[5] | y[5] << 3 | b[5] << 6
        self.critical_set = r[6] | y[6] << 3 | b[6] << 6
        self.trash_set = r[8] | y[8] << 3 | b[8] << 6
        # The hands holding a playable shard (a partner holding one may need a hint), a last
        # copy (they may need a warning), and a shard that is not one or is playable (they
        # have something else to do than lose it), as masks.
        self.playable_hands = HANDS_HOLDING[self.playable_set]
        self.critical_hands = HANDS_HOLDING[self.critical_set]
        self.spare_hands = HANDS_HOLDING[~self.critical_set & 511 | self.playable_set]
        self.possible = possible = self.unseen.possible  # hands a player may hold, seeing none
        # The possible hands whose slot 1 / slot 2 shard is not playable (or that have no such
        # slot): a hand set disjoint from one of them knows a play (knows_a_play).
        self.blind_first = possible & FIRST_UNPLAYABLE[self.playable_set]
        self.blind_second = possible & SECOND_UNPLAYABLE[self.playable_set]

    def beside(self, partner_hand):
        """The Unseen of the seat that sees `partner_hand` (a tuple): the counts less it."""
        code = self.unseen.code
        for t in partner_hand:
            code -= COPY_CODE[t]
        return _UNSEEN.get(code) or unseen_by_code(code)  # (most are found: no call)

    def after_play(self, shard):
        """The facts once `shard` joined its gem."""
        code = self.code + PLAY_STEP[shard]
        got = _FACTS.get(code)
        if got is None:
            gems = list(self.gems)
            gems[shard // 3] += 1
            got = _FACTS[code] = PublicFacts(tuple(gems), self.discards, code)
        return got

    def after_discard(self, shard):
        """The facts once `shard` went to the discard pile (after a discard or an error)."""
        code = self.code + DISCARD_STEP[shard]
        got = _FACTS.get(code)
        if got is None:
            discards = tuple(sorted(self.discards + (shard,)))
            got = _FACTS[code] = PublicFacts(self.gems, discards, code)
        return got


# A public state's code: each colour's colour_index (knowledge.py: its gem and discarded
# copies, 0..95) in 7 bits, red lowest. A play or a discard adds to one colour's index:
# PLAY_STEP[t] and DISCARD_STEP[t] are what they add for shard t.
PLAY_STEP = tuple(colour_index(1, 0, 0, 0) << (7 * (t // 3)) for t in range(9))
DISCARD_STEP = tuple(
    colour_index(0, t % 3 == 0, t % 3 == 1, t % 3 == 2) << (7 * (t // 3)) for t in range(9)
)


def facts_code(gems, discards):
    """The code of the public state (gems, discards): see PLAY_STEP."""
    gone = discarded_copies(discards)
    code = 0
    for c in range(3):
        code |= colour_index(gems[c], gone[3 * c], gone[3 * c + 1], gone[3 * c + 2]) << (7 * c)
    return code


def public_facts(gems, discards):
    """The PublicFacts of (gems, sorted discards), both tuples; one object per state."""
    code = facts_code(gems, discards)
    got = _FACTS.get(code)
    if got is None:
        got = _FACTS[code] = PublicFacts(gems, discards, code)
    return got


OPENING_CODE = facts_code((0, 0, 0), ())  # no gem begun, nothing discarded


def opening_facts():
    """The PublicFacts of a game's start, found by its code without working it out (each
    convention bot asks as it is made)."""
    return _FACTS.get(OPENING_CODE) or public_facts((0, 0, 0), ())


def beliefs(mask, seen_from, n):
    """slot_weights of the hands in `mask` (n shards each) for the counts of `seen_from` (an
    Unseen), memoised. Hands those counts rule out weigh nothing, so they are left out of
    the key (more lookups find it) and of the work."""
    key = (mask & seen_from.possible, seen_from, n)
    got = _WEIGHTS.get(key)
    if got is None:
        got = _WEIGHTS[key] = slot_weights(key[0], seen_from.counts, n, seen_from.copies)
    return got


# What losing the last copy of a needed shard costs, by value 1, 2, 3: the lower the value, the
# more points its gem loses (3, 2, 1). Against 10 for all, 15 and 12 gained 0.005 ± 0.002
# points per game over 20,000 paired deals; costing them in proportion (30, 20, 10) gained
# nothing measurable (-0.001 and +0.004 on two sets of 10,000).
CRITICAL_LOSS = (15.0, 12.0, 10.0)


def loss_table(unseen, trash, critical):
    """What discarding each shard costs: nothing for trash, much for the last copy of a needed
    shard (CRITICAL_LOSS), some for an early copy (spared_loss: a little for a copy the
    partner also holds). `unseen` counts the copies not yet played or discarded (for a shard
    that is not trash, none is played). Tables by shard, or one colour's by value (0..2)."""
    loss = [0.0] * len(trash)
    for t in range(len(trash)):
        if trash[t]:
            loss[t] = 0.0
        elif critical[t]:
            loss[t] = CRITICAL_LOSS[t % 3]
        else:
            loss[t] = 0.3 if unseen[t] > 2 else 1.0
    return loss


# COLOUR_FACTS[colour_index(...)]: what PublicFacts joins for one colour: its card tables
# (knowledge.COLOUR_TABLES), its loss_table, its playable and critical values as 3-bit sets,
# its unseen counts packed as in Unseen.code, and its trash values as a 3-bit set. (Impossible
# states may hold nonsense: unused.)
COLOUR_FACTS = tuple(
    (
        *tables,
        tuple(loss_table(tables[3], tables[1], tables[2])),
        shard_set(tables[0]),
        shard_set(tables[2]),
        tables[3][0] | tables[3][1] << 2 | tables[3][2] << 4,  # its counts, as in Unseen.code
        shard_set(tables[1]),
    )
    for tables in COLOUR_TABLES
)


def spared_loss(loss, trash, partner_hand):
    """The loss_table `loss` beside `partner_hand`: a shard the partner also holds (and is not
    trash) costs little to discard, as its other copy stays in play."""
    spared = list(loss)
    for t in partner_hand:
        if not trash[t]:
            spared[t] = 0.05
    return spared


FEW_HANDS = 16  # up to this many 2-shard hands, slot_weights() weighs hands one by one


def slot_weights(mask, counts, n, copies=None):
    """Per slot, the weight of each shard (beliefs about single slots), and the total.

    A hand (a, b) weighs counts[a] * (counts[b] - (a == b)). So slot 1's row a sums to
    counts[a] times the counts of the slot-2 shards beside it (less one for (a, a)): popcounts
    of the row against the shards with at least 1, 2 and 3 copies unseen. Slot 2's column b
    sums to counts[b] times the counts of the slot-1 shards above it: the rows, spread to one
    6-bit field per column (COLUMN_FIELDS) and weighed by their counts, add up to all nine.
    (What a slot may hold at all needs no weights: possible_hands.) `copies` is
    copies_sets(counts), if the caller has it at hand (an Unseen does).
    """
    first = [0] * 9
    total = 0
    if n == 2 and mask.bit_count() <= FEW_HANDS:
        # Few hands (as most are, once hints have spoken): weigh each on its own.
        second = [0] * 9
        for i in indices_of(mask):
            a, b = HAND_OF_BIT[i]
            w = counts[a] * (counts[b] - (a == b))
            first[a] += w
            second[b] += w
        return (tuple(first), tuple(second)), sum(first)
    if n == 2:
        k1, k2, k3 = copies or copies_sets(counts)
        second = [0] * 9
        columns = 0
        for t in range(9):
            c = counts[t]
            if c:
                row = (mask >> (9 * t)) & 511
                if row:
                    w = c * (
                        (row & k1).bit_count()
                        + (row & k2).bit_count()
                        + (row & k3).bit_count()
                        - (row >> t & 1)
                    )
                    first[t] = w
                    total += w
                    columns += c * COLUMN_FIELDS[row]  # even at weight 0: see (t, t) below
        for t in range(9):
            c = counts[t]
            if c:
                second[t] = c * ((columns >> (6 * t) & 63) - (mask >> (10 * t) & 1))
        return (tuple(first), tuple(second)), total
    if n == 1:
        singles = mask >> 81
        for t in range(9):
            if singles >> t & 1:
                first[t] = counts[t]
                total += counts[t]
        return (tuple(first),), total
    return (), 0


def hand_weights(counts):
    """Per hand bit (handsets.py), the ways `counts` (a tuple) lets one hold that hand:
    counts[a] * (counts[b] - (a == b)) for (a, b), counts[t] for (t,), 1 for (); memoised."""
    got = _HAND_WEIGHTS.get(counts)
    if got is None:
        # All 81 products in one multiplication, a byte each (at most 3 * 3, so no carries):
        # counts[a] at byte 9a times counts[b] at byte b puts counts[a] * counts[b] at byte
        # 9a + b; then counts[t] comes off byte 10t, the hand (t, t).
        row = bytes(counts)
        firsts = bytearray(81)
        firsts[::9] = row
        same = bytearray(81)
        same[::10] = row
        ways = int.from_bytes(firsts, "little") * int.from_bytes(row, "little")
        ways -= int.from_bytes(same, "little")
        got = _HAND_WEIGHTS[counts] = (*ways.to_bytes(81, "little"), *counts, 1)
    return got


def copies_sets(counts):
    """The sets of the shards with at least 1, 2 and 3 copies in `counts`, as bits (9 for
    counts by shard). An Unseen holds those of its counts (Unseen.copies)."""
    at_least = [0, 0, 0]
    for t in range(len(counts)):
        for j in range(counts[t]):
            at_least[j] |= 1 << t
    return tuple(at_least)


COPIES_OF_CODE = tuple(copies_sets(counts) for counts in COUNTS_OF_CODE)


# COLUMN_FIELDS[r]: the 9-bit set r with shard t moved to bit 6 * t, so that weighted rows
# add up column by column (a column sums to at most 9 * 3 < 64).
COLUMN_FIELDS = tuple(sum(1 << (6 * t) for t in range(9) if r >> t & 1) for r in range(512))


def leave_hand(mask, slot, shown, size_after):
    """The hands left when `shown` leaves `slot` (1-based) and, if the hand is back to
    `size_after` shards, an unknown shard is drawn into the last slot; memoised."""
    key = (mask, slot, shown, size_after)
    got = _LEAVES.get(key)
    if got is None:
        size = size_of(mask)
        if size == 2:
            # The shards left in the other slot, as a 9-bit set.
            if slot == 1:
                rest = (mask >> (9 * shown)) & 511
            else:
                rest = 0
                for a in range(9):
                    rest |= ((mask >> (9 * a + shown)) & 1) << a
            got = FIRST_IN[rest] if size_after == 2 else SINGLES_IN[rest]
        elif size == 1 and mask >> (81 + shown) & 1:
            got = ALL_SINGLES_MASK if size_after == 1 else EMPTY_HAND_BIT
        else:
            got = 0
        _LEAVES[key] = got
    return got


def partner_view(mask, facts, n):
    """What the partner, whose hands are `mask` (n shards), makes of their own hand in the
    public state `facts`: whether they know a play, the slot they would discard (least
    expected loss) and that loss. (A partner who knows a play would not discard: then the
    slot and loss are 0 and never asked for, and the weights are not worked out. Nor are
    they for a partner who knows a slot holds trash: that slot costs nothing, so it is the one
    they would discard.)"""
    key = (mask, facts, n)
    got = _VIEWS.get(key)
    if got is None:
        if knows_a_play(mask, facts):
            got = (True, 0, 0.0)
        elif (junk := known_play(mask & facts.possible, facts.trash_set)) >= 0:
            got = (False, junk, 0.0)
        else:
            rows, total = beliefs(mask, facts.unseen, n)
            losses = means(rows, total, facts.loss)
            chop = 1 if n == 2 and losses[1] < losses[0] else 0
            got = (False, chop, losses[chop])
        _VIEWS[key] = got
    return got


def knows_a_play(mask, facts):
    """Whether the holder of the hands `mask` knows a play in the public state `facts` (the
    common-knowledge view: every unseen copy could be theirs): known_play() >= 0, spelt out,
    as it is asked 40 times a game."""
    if not mask & facts.possible:
        return False
    return not mask & facts.blind_first or not mask & facts.blind_second


def possible_hands(counts):
    """The mask of the hands `counts` (unseen copies per shard) lets one hold: those of
    positive weight in slot_weights(), each shard unseen and, for (t, t), two copies of t."""
    k1, k2, _ = copies_sets(counts)
    return hands_allowed(k1, k2)


def hands_allowed(k1, k2):
    """possible_hands from the sets of the shards with at least 1 and 2 copies unseen."""
    # Pairs of shards with a copy each, less (t, t) for a shard with one copy only.
    return FIRST_IN[k1] & SECOND_IN[k1] ^ DIAGONAL_IN[k1 & ~k2] | SINGLES_IN[k1]


def hands_holding(shards):
    """The mask of the hands (of 1 or 2 shards) holding a shard of the 9-bit set `shards`."""
    return FIRST_IN[shards] | SECOND_IN[shards] | SINGLES_IN[shards]


HANDS_HOLDING = tuple(hands_holding(s) for s in range(512))  # hands_holding, by 9-bit set


# FIRST_UNPLAYABLE[s] / SECOND_UNPLAYABLE[s]: every hand (of any size) whose slot 1 / slot 2
# shard is not in the 9-bit set s (or that has no such slot), as a mask.
# (Kept positive: CPython's & is slower on negative ints.)
ALL_HANDS = (1 << 91) - 1
FIRST_UNPLAYABLE = tuple(ALL_HANDS & ~(FIRST_IN[s] | SINGLES_IN[s]) for s in range(512))
SECOND_UNPLAYABLE = tuple(ALL_HANDS & ~SECOND_IN[s] for s in range(512))


def known_play(hands, playable):
    """The first slot (from 0) whose shard is playable in every hand of the mask `hands`
    (hands one may hold: see possible_hands), or -1: a play its holder knows of. `playable`
    is a 9-bit shard set. Masks, not weights: a few big-int operations, no loop."""
    if not hands:
        return -1
    if not hands & FIRST_UNPLAYABLE[playable]:
        return 0
    if not hands & SECOND_UNPLAYABLE[playable]:
        return 1
    return -1


def means(rows, total, table):
    """Per slot, the expected value of table[shard] (slot weights `rows`, summing to total)."""
    if len(rows) == 2 and total:  # most hands: spelt out, as a list comprehension costs a call
        first, second = rows
        return [sum(map(mul, first, table)) / total, sum(map(mul, second, table)) / total]
    if not total:
        return [0.0] * len(rows)
    return [sum(map(mul, row, table)) / total for row in rows]
