"""Lost Gems' deal as OpenSpiel's chance nodes: 18 outcomes, one a shard.

A shard's identity is its place in the full deck's fixed order (shards.FULL_DECK):
0-2 R1, 3-4 R2, 5 R3, 6-8 Y1, 9-10 Y2, 11 Y3, 12-14 B1, 15-16 B2, 17 B3. The deal draws
identities without replacement: A's slots 1 and 2, B's slots 1 and 2, then the jungle from
top to bottom, as the referee's `GameState(deck=...)` takes them. Copies of a shard are
alike in play, so a seed's deal is the identities of its shuffled deck, each copy the first
of its kind not yet used: the same game as `blinks playtest --seed` and the referee deal.
"""

from simulator.games.lostgems.shards import DECK_SIZE, FULL_DECK, shuffled_deck


def deck_of(identities):
    """The deck (shards in draw order) the dealt identities make."""
    return [FULL_DECK[i] for i in identities]


def identities_of(deck):
    """The identities that deal `deck`: each shard the lowest identity of its kind left."""
    left = list(range(DECK_SIZE))
    out = []
    for shard in deck:
        i = next(i for i in left if FULL_DECK[i] == shard)
        left.remove(i)
        out.append(i)
    return out


def seed_identities(seed):
    """The chance outcomes that deal the referee's game of `seed`."""
    return identities_of(shuffled_deck(seed))
