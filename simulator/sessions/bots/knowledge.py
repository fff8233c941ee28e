"""Card counting shared by the bots: what is playable, trash or critical, and how many copies
of each shard are neither played nor discarded. All tables are indexed by shard (0..8)."""

from simulator.sessions.shards import TYPE_COUNTS


def card_tables(gems, discards):
    """(playable, trash, critical, unseen) per shard, from the gems and the discards, in one
    pass (the bots ask for them at every new public state):

    - playable[t]: shard t would join its gem now;
    - trash[t]: it never can (already played, or every copy of a lower value not yet played
      is discarded);
    - critical[t]: the last copy of a shard still needed (discarding it loses points);
    - unseen[t]: copies neither played nor discarded.
    """
    gone = [0] * 9
    for s in discards:
        gone[s] += 1
    playable = [False] * 9
    trash = [False] * 9
    critical = [False] * 9
    unseen = [0] * 9
    for c in range(3):
        gem = gems[c]
        dead = False  # a needed value below is gone for good
        for v in range(3):
            t = c * 3 + v
            left = TYPE_COUNTS[t] - gone[t]
            unseen[t] = left - (v < gem)
            if v < gem or dead:
                trash[t] = True
            else:
                playable[t] = v == gem
                critical[t] = left == 1
                dead = left == 0
    return playable, trash, critical, unseen


def consistent(t, knowledge):
    """Shard t agrees with a slot's hint knowledge (colour mask, value mask)."""
    cm, vm = knowledge
    return (cm >> (t // 3)) & 1 and (vm >> (t % 3)) & 1
