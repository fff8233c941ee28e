"""Card counting shared by the bots: what is playable, trash or critical, and which shards
are still unseen from a player's seat. All tables are indexed by shard (0..8)."""

from simulator.sessions.shards import TYPE_COUNTS


def playable_table(gems):
    """playable[t]: shard t would join its gem now."""
    return [t % 3 == gems[t // 3] for t in range(9)]


def trash_table(gems, discards):
    """trash[t]: shard t can never join its gem (already played, or a lower value is gone)."""
    gone = [0] * 9
    for s in discards:
        gone[s] += 1
    trash = [False] * 9
    for c in range(3):
        dead = False
        for v in range(3):
            t = c * 3 + v
            trash[t] = v < gems[c] or dead
            if v >= gems[c] and gone[t] >= TYPE_COUNTS[t]:
                dead = True
    return trash


def critical_table(gems, discards, trash):
    """critical[t]: the last copy of a shard still needed (discarding it loses points)."""
    gone = [0] * 9
    for s in discards:
        gone[s] += 1
    return [not trash[t] and gone[t] == TYPE_COUNTS[t] - 1 for t in range(9)]


def unseen_counts(gems, discards, visible=()):
    """How many copies of each shard are neither played, discarded nor in `visible`."""
    left = list(TYPE_COUNTS)
    for c in range(3):
        for v in range(gems[c]):
            left[c * 3 + v] -= 1
    for s in discards:
        left[s] -= 1
    for s in visible:
        left[s] -= 1
    return left


def consistent(t, knowledge):
    """Shard t agrees with a slot's hint knowledge (colour mask, value mask)."""
    cm, vm = knowledge
    return (cm >> (t // 3)) & 1 and (vm >> (t % 3)) & 1
