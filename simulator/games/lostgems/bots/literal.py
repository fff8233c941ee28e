"""What a seat knows of a hand from hints read literally and card counting (the cautious bot).

A slot's Belief weighs each shard by how many of the possible hands put it there, counting
the two slots of a hand jointly: a hand (a, b) weighs counts[a] * (counts[b] - (a == b)), so
two slots cannot both hold the only copy left. Slot 1's weight of shard a is therefore
counts[a] times the copies slot 2 may hold beside it, and any sum of weights comes down to
copies of sets of shards: three popcounts each (UnseenCopies.of), not a loop over 81 hands.
Shard sets are 9-bit ints, bit t for shard t.
"""

from simulator.games.lostgems.bots.handsets import new_cache, shard_set
from simulator.games.lostgems.bots.knowledge import card_tables

ALL_SHARDS = (1 << 9) - 1


def hinted(allowed, move, s):
    """The shards a slot holding shard s may hold after hint `move`, read literally, if it
    could hold the set `allowed` before: those the hint points at, or those it does not."""
    points_at = move.points_at
    return allowed & points_at if points_at >> s & 1 else allowed & ~points_at


def allows(knowledge, t):
    """Shard t agrees with a slot's (colour mask, value mask)."""
    return (knowledge[0] >> (t // 3)) & 1 and (knowledge[1] >> (t % 3)) & 1


# SHARDS_ALLOWED[(colour mask, value mask)]: the shards a slot with that knowledge may hold.
SHARDS_ALLOWED = {
    (cm, vm): sum(1 << t for t in range(9) if allows((cm, vm), t))
    for cm in range(8)
    for vm in range(8)
}


class UnseenCopies:
    """Copies of each shard a seat has not seen (`counts`, by shard, none below 0) and the
    shards with at least 1, 2 and 3 of them (`at_least`), so that `of` counts the copies of
    a set of shards in three popcounts."""

    __slots__ = ("at_least", "counts")

    def __init__(self, counts):
        self.counts = [max(0, c) for c in counts]  # (a shard seen too often: none left)
        at_least = [0, 0, 0]
        for t, c in enumerate(self.counts):
            for j in range(c):
                at_least[j] |= 1 << t
        self.at_least = tuple(at_least)

    def less(self, seen):
        """The UnseenCopies once the shards `seen` are seen too."""
        counts = list(self.counts)
        at_least = list(self.at_least)
        for t in seen:
            c = counts[t]
            if c:
                counts[t] = c - 1
                at_least[c - 1] &= ~(1 << t)
        other = UnseenCopies.__new__(UnseenCopies)  # (counts and at_least: already worked out)
        other.counts = counts
        other.at_least = tuple(at_least)
        return other

    def of(self, shards):
        """The unseen copies of the shards in the set `shards`."""
        k1, k2, k3 = self.at_least
        return (shards & k1).bit_count() + (shards & k2).bit_count() + (shards & k3).bit_count()


def unseen(gems, discards, visible):
    """The UnseenCopies of a seat that sees the gems, the discards and the shards `visible`."""
    return Table(gems, discards).unseen.less(visible)


class Belief:
    """What one slot may hold: `shards`, those of positive weight (a set), and `total`, the
    weight of every hand its knowledge allows. Its weight per shard is worked out only when
    asked (weight_of, mean): most questions are about the shards alone.

    `allowed` are the shards its knowledge allows with a copy unseen; `beside` those the other
    slot of the hand allows, and `others` their copies (a lone slot: none beside, and 1, so a
    shard weighs its copies)."""

    __slots__ = ("allowed", "beside", "others", "shards", "total", "unseen")

    def __init__(self, unseen, allowed, beside, others, total):
        self.unseen = unseen
        self.allowed = allowed
        self.beside = beside
        self.others = others
        self.total = total
        if others >= 2:
            self.shards = allowed
        elif others == 1:  # the other slot holds the one copy beside: not this slot's
            self.shards = allowed & ~beside
        else:
            self.shards = 0

    def weight_of(self, shards):
        """The weight of the set `shards` in this slot: their copies times the copies beside,
        less the hands holding the same shard twice."""
        mine = self.allowed & shards
        return self.unseen.of(mine) * self.others - self.unseen.of(mine & self.beside)

    def mean(self, values):
        """The mean of values[shard] over the hands (0.0 if there is none). Summed in shard
        order, as over a list of all nine: shards of no weight add nothing, not even a
        rounding."""
        if not self.total:
            return 0.0
        counts, beside, others = self.unseen.counts, self.beside, self.others
        terms = [
            counts[t] * (others - (beside >> t & 1)) * values[t] for t in SHARDS_IN[self.shards]
        ]
        return sum(terms) / self.total

    @property
    def weight(self):
        """Per shard, how many of the possible hands put it in this slot (a list; the bot
        itself never needs it whole)."""
        return [self.weight_of(1 << t) for t in range(9)]


# SHARDS_IN[s]: the shards in the set s, in order.
SHARDS_IN = tuple(tuple(t for t in range(9) if s >> t & 1) for s in range(512))


def slot_beliefs(knowledges, unseen):
    """Per slot of a hand whose slots have these knowledges ((colour mask, value mask)
    tuples), its Belief, counting the copies in `unseen` (an UnseenCopies) jointly for the two
    slots."""
    return hand_beliefs([SHARDS_ALLOWED[k] for k in knowledges], unseen)


def hand_beliefs(allowed, unseen):
    """slot_beliefs of a hand whose slots may hold the shard sets `allowed`."""
    present = unseen.at_least[0]
    if len(allowed) != 2:
        return [Belief(unseen, a & present, 0, 1, unseen.of(a)) for a in allowed]
    first, second = allowed[0] & present, allowed[1] & present
    copies = unseen.of(first), unseen.of(second)
    # Every pair of copies, less those of one shard twice (a copy cannot be beside itself).
    total = copies[0] * copies[1] - unseen.of(first & second)
    return [
        Belief(unseen, first, second, copies[1], total),
        Belief(unseen, second, first, copies[0], total),
    ]


THREES = shard_set([t % 3 == 2 for t in range(9)])


def odds(belief, shards):
    """Chance that a slot holds a shard of the set `shards`."""
    return belief.weight_of(shards) / belief.total if belief.total else 0.0


def known(belief, shards):
    """Every shard the slot could hold is in the set `shards` (and it could hold one)."""
    return belief.shards != 0 and not belief.shards & ~shards


def exact(belief):
    """The shard a slot must hold, or None."""
    s = belief.shards
    return s.bit_length() - 1 if s and not s & (s - 1) else None


class Table:
    """The public tables of the moment: playable, trash, critical (lists by shard, and the
    playable and critical shards as sets), and what a loss costs."""

    def __init__(self, gems, discards):
        self.playable, self.trash, self.critical, unseen = card_tables(gems, discards)
        self.unseen = UnseenCopies(unseen)  # as a seat that sees no hand counts them
        self.playable_shards = shard_set(self.playable)
        self.critical_shards = shard_set(self.critical)
        # Discarding a last copy loses that value and every one above it in its colour.
        self.cost = [
            0.0
            if self.trash[t]
            else (3 - t % 3 if self.critical[t] else 0.15 + 0.1 * self.playable[t])
            for t in range(9)
        ]

    def loss(self, belief):
        """The expected cost of discarding a slot."""
        return belief.mean(self.cost)

    def discard_slot(self, beliefs):
        """The 1-based slot whose discard costs least; a known last copy only if both are
        (ties: slot 1)."""
        if len(beliefs) < 2:
            return 1
        first, second = beliefs
        last_copy = known(first, self.critical_shards), known(second, self.critical_shards)
        if last_copy[0] != last_copy[1]:
            return 2 if last_copy[0] else 1
        return 2 if self.loss(second) < self.loss(first) else 1

    def next_discard(self, beliefs):
        """The slot a player with these beliefs discards when it comes to that, or None when
        they know a play."""
        if any(known(b, self.playable_shards) for b in beliefs):
            return None
        return self.discard_slot(beliefs)

    def plays(self, beliefs):
        """1-based slots known playable, the most useful first (a 3 gives a token back)."""
        slots = [i for i, b in enumerate(beliefs) if known(b, self.playable_shards)]
        slots.sort(key=lambda i: (-odds(beliefs[i], THREES), i))
        return [i + 1 for i in slots]


_TABLES = new_cache()  # (gems, sorted discards) -> Table


def table_of(gems, discards):
    """The Table of the public state (gems, discards), worked out once per state: the bot
    asks at every turn, and most states recur (seven in ten, over 2,000 games)."""
    key = (tuple(gems), tuple(sorted(discards)))
    got = _TABLES.get(key)
    if got is None:
        got = _TABLES[key] = Table(*key)
    return got
