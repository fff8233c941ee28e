"""Card counting shared by the bots: what is playable, trash or critical, and how many copies
of each shard are neither played nor discarded. All tables are indexed by shard (0..8).

Colours do not mix in card counting, so the tables of a colour depend only on its gem and on
how many copies of each of its values are discarded: few enough cases (96) to work out once,
at import, and join three at a time (COLOUR_TABLES)."""

from simulator.games.lostgems.shards import COPIES


def colour_card_tables(gem, gone):
    """card_tables for one colour, whose highest value played is `gem` (0..3) and of whose
    values 1, 2, 3 `gone` (a 3-tuple) copies are discarded: 3-tuples by value (0..2)."""
    playable = [False] * 3
    trash = [False] * 3
    critical = [False] * 3
    unseen = [0] * 3
    dead = False  # a needed value below is gone for good
    for v in range(3):
        left = COPIES[v + 1] - gone[v]
        unseen[v] = left - (v < gem)
        if v < gem or dead:
            trash[v] = True
        else:
            playable[v] = v == gem
            critical[v] = left == 1
            dead = left == 0
    return tuple(playable), tuple(trash), tuple(critical), tuple(unseen)


def colour_index(gem, gone_1, gone_2, gone_3):
    """Where a colour's state (its gem, discarded copies of values 1, 2, 3) sits in tables
    such as COLOUR_TABLES. (Impossible states, such as a 1 played with every 1 discarded,
    have entries too: nothing asks for them.)"""
    return ((gem * 4 + gone_1) * 3 + gone_2) * 2 + gone_3


# COLOUR_TABLES[colour_index(...)]: colour_card_tables of that state.
COLOUR_TABLES = tuple(
    colour_card_tables(gem, (a, b, c))
    for gem in range(4)
    for a in range(COPIES[1] + 1)
    for b in range(COPIES[2] + 1)
    for c in range(COPIES[3] + 1)
)


def discarded_copies(discards):
    """How many copies of each shard (0..8) `discards` holds, as a list."""
    gone = [0] * 9
    for s in discards:
        gone[s] += 1
    return gone


def card_tables(gems, discards):
    """(playable, trash, critical, unseen) per shard, as lists, from the gems and the
    discards (the bots ask for them at every new public state):

    - playable[t]: shard t would join its gem now;
    - trash[t]: it never can (already played, or every copy of a lower value not yet played
      is discarded);
    - critical[t]: the last copy of a shard still needed (discarding it loses points);
    - unseen[t]: copies neither played nor discarded.
    """
    gone = discarded_copies(discards)
    out = ([], [], [], [])
    for c in range(3):
        tables = COLOUR_TABLES[colour_index(gems[c], gone[3 * c], gone[3 * c + 1], gone[3 * c + 2])]
        for k in range(4):
            out[k].extend(tables[k])
    return out


def consistent(t, knowledge):
    """Shard t agrees with a slot's hint knowledge (colour mask, value mask)."""
    cm, vm = knowledge
    return (cm >> (t // 3)) & 1 and (vm >> (t % 3)) & 1
