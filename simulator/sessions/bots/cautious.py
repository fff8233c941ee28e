"""The cautious bot: no conventions, plays only shards it knows are playable.

It reads hints literally (positive and negative), counts the shards it can see, and plays a
slot only when every shard it could be is playable. It hints a partner's playable shard so that
the partner can know it, discards known trash first, and otherwise the slot least likely to be
the last copy of a shard still needed.
"""

from simulator.sessions.bots.base import Bot
from simulator.sessions.bots.knowledge import (
    consistent,
    critical_table,
    playable_table,
    trash_table,
    unseen_counts,
)
from simulator.sessions.moves import ALL_HINTS, Move
from simulator.sessions.shards import MAX_HINTS


def slot_odds(knowledge, counts, table):
    """Probability that a slot with this knowledge holds a shard for which table[t] is True."""
    total = hit = 0
    for t in range(9):
        if counts[t] > 0 and consistent(t, knowledge):
            total += counts[t]
            if table[t]:
                hit += counts[t]
    return hit / total if total else 0.0


def hinted(knowledge, move, s):
    """The knowledge a slot holding shard s has after hint `move`."""
    cm, vm = knowledge
    if move.hint_kind == "colour":
        bit = 1 << move.hint
        return (bit, vm) if s // 3 == move.hint else (cm & ~bit, vm)
    bit = 1 << (move.hint - 1)
    return (cm, bit) if s % 3 + 1 == move.hint else (cm, vm & ~bit)


class CautiousBot(Bot):
    name = "cautious"

    def act(self, obs):
        gems, discards = obs.gems, obs.discards
        playable = playable_table(gems)
        trash = trash_table(gems, discards)
        critical = critical_table(gems, discards, trash)
        partner_hand = obs.partner_hand
        mine = obs.knowledge(self.player)
        counts = unseen_counts(gems, discards, partner_hand)
        for i, k in enumerate(mine):
            if slot_odds(k, counts, playable) == 1.0:
                return Move.play(i + 1)
        if obs.hints > 0:
            hint = self.useful_hint(obs, partner_hand, playable)
            if hint is not None:
                return hint
        if obs.hints < MAX_HINTS:
            return Move.discard(self.discard_slot(mine, counts, trash, critical))
        return self.any_hint(obs, partner_hand)

    def useful_hint(self, obs, hand, playable):
        """A hint after which the partner knows a playable shard is playable."""
        theirs = obs.knowledge(1 - self.player)
        ck = unseen_counts(obs.gems, obs.discards)
        for i, k in enumerate(theirs):
            if slot_odds(k, ck, playable) == 1.0:
                return None  # they already know a play: let them make it
        best, best_gain = None, 0
        for move in ALL_HINTS:
            gain = 0
            for i, s in enumerate(hand):
                after = hinted(theirs[i], move, s)
                if after == theirs[i] or not playable[s]:
                    continue
                if slot_odds(after, ck, playable) == 1.0:
                    gain += 10  # they will know to play it
                else:
                    gain += 2  # a step towards knowing it
            if gain > best_gain:
                best, best_gain = move, gain
        return best

    def discard_slot(self, mine, counts, trash, critical):
        best, best_key = 1, None
        for i, k in enumerate(mine):
            hinted_slot = k != (7, 7)
            key = (-slot_odds(k, counts, trash), slot_odds(k, counts, critical), hinted_slot, i)
            if best_key is None or key < best_key:
                best, best_key = i + 1, key
        return best

    def any_hint(self, obs, hand):
        """With all tokens available and nothing to play: the hint that tells the most."""
        theirs = obs.knowledge(1 - self.player)
        best, best_gain = ALL_HINTS[0], -1
        for move in ALL_HINTS:
            gain = sum(hinted(theirs[i], move, s) != theirs[i] for i, s in enumerate(hand))
            if gain > best_gain:
                best, best_gain = move, gain
        return best
