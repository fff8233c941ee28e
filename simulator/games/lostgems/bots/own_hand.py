"""The search bot's belief over its own hand: every hand it may hold, exactly, with a weight.

A player holds 2 shards out of at most 16 unseen, so the hands can be listed (at most 81
kinds, 1 << bit as in handsets.py). A hand's weight is

    (ways the unseen copies make it: card counting, beliefs.hand_weights)
    x (the common knowledge allows it: the convention bot's mask of this seat)
    x stray ** (times the partner, seeing this hand, would not have done what it did)

The last factor is the partner's policy: at each of the partner's turns, the convention
bot's `decide` is run from the partner's seat with each hand of mine as the hand it sees, and
the hands under which it would have moved otherwise are marked. With `stray` 0 (a partner
that plays the blueprint) that is Bayes' rule exactly: the deal is uniform, and the policy is
deterministic. A partner who searches too moves off the blueprint now and then; a small
positive `stray` keeps the true hand in play when it did.

When a shard of mine leaves my hand its marks pass on to the hands made of the shard left
and each possible draw (the draw was in the jungle when the partner moved, so it told the
partner nothing).
"""

from simulator.games.lostgems.bots.beliefs import hand_weights
from simulator.games.lostgems.bots.handsets import BIT_OF_HAND, HAND_OF_BIT, indices_of

NO_MARKS = (0,) * len(HAND_OF_BIT)


def marked_after_partner(marks, hands_mask, n, partner_moves_with):
    """`marks` (per hand bit, how often the partner's move disagreed) after a partner's move:
    partner_moves_with(hand) says whether the partner, seeing `hand`, would have made the move
    it made. Only the `n`-shard hands of `hands_mask` are tried (the others weigh nothing)."""
    out = list(marks)
    for i in indices_of(hands_mask):
        if not partner_moves_with(HAND_OF_BIT[i]):
            out[i] += 1
    return tuple(out)


def marked_after_leaving(marks, slot, shown, size_after):
    """`marks` once `shown` left `slot` (1-based) and, if the hand is back to `size_after`
    shards, an unknown shard was drawn into the last slot (the draw carries no marks)."""
    out = [0] * len(HAND_OF_BIT)
    for i, hand in enumerate(HAND_OF_BIT):
        if len(hand) < slot or hand[slot - 1] != shown or not marks[i]:
            continue
        rest = hand[: slot - 1] + hand[slot:]
        if len(rest) + 1 == size_after:
            for t in range(9):
                out[BIT_OF_HAND[rest + (t,)].bit_length() - 1] = marks[i]
        else:
            out[BIT_OF_HAND[rest].bit_length() - 1] = marks[i]
    return tuple(out)


def weighted_hands(mask, unseen, marks, stray):
    """[(hand, weight)] of the hands of `mask` that `unseen` (an Unseen: the copies I have not
    seen) allows, by weight as above; hands of weight 0 are left out."""
    ways = hand_weights(unseen.counts)
    out = []
    for i in indices_of(mask & unseen.possible):
        w = ways[i]
        if marks[i]:
            w *= stray ** marks[i]
        if w > 0:
            out.append((HAND_OF_BIT[i], w))
    return out
