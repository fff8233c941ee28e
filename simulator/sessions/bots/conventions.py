"""The convention bot: every hint is a code word about the partner's whole hand.

Any of the six hints (red, yellow, blue, 1, 2, 3) is legal whatever the partner holds, so a
hint can carry one of six messages. Both players agree on a *hand class*, a function of a hand
and the public state (gems, discards) at the moment of the hint:

    0  slot 1 playable, and slot 2 playable once slot 1 is played
    1  slot 1 playable, slot 2 not
    2  slot 2 playable, slot 1 not
    3  nothing playable, slot 1 trash
    4  nothing playable, slot 2 trash (slot 1 not)
    5  nothing playable, nothing trash

The hinter sees the partner's hand and gives the hint whose index is its class. Each player
keeps, for both hands, the set of slot-by-slot shard tuples consistent with every message and
with the hint's literal meaning (both are common knowledge), and weighs them by card counting
from its own seat. A bot then plays what it knows is playable, hints when the partner has a
play they do not know about, and otherwise discards the slot most likely to be trash.
"""

from simulator.sessions.bots.base import Bot
from simulator.sessions.bots.knowledge import (
    critical_table,
    playable_table,
    trash_table,
    unseen_counts,
)
from simulator.sessions.moves import ALL_HINTS, Move
from simulator.sessions.shards import MAX_HINTS, TYPE_COUNTS

ALL_PAIRS = tuple((a, b) for a in range(9) for b in range(9))
HINT_INDEX = {m: i for i, m in enumerate(ALL_HINTS)}


def hand_class(hand, playable, trash):
    """The message (0..5) that describes `hand` (a tuple of shards) to its holder."""
    if len(hand) == 2:
        a, b = hand
        if playable[a]:
            after = (playable[b] and b != a) or (b == a + 1 and b // 3 == a // 3)
            return 0 if after else 1
        if playable[b]:
            return 2
        if trash[a]:
            return 3
        return 4 if trash[b] else 5
    if len(hand) == 1:
        a = hand[0]
        return 0 if playable[a] else (3 if trash[a] else 5)
    return 5


def refine_key(hand, label):
    """The part of a hand a group may still be split on: the shards its label leaves open."""
    if len(hand) == 2:
        a, b = hand
        if label == 5:
            return hand
        if label in (1, 3):
            return (b,)
        if label in (2, 4):
            return (a,)
        return ()
    return hand if label != 0 else ()


def partition(weighted, playable, trash):
    """Split the hands both players think possible into at most six groups, one per hint.

    Hands are first grouped by their class; code words the classes leave unused then split
    the heaviest group on the shards its class leaves open, in two halves of about equal
    weight. Both players compute this from common knowledge, so it needs no agreement beyond
    this function. Returns {hand: message}.
    """
    by_label = {}
    for h, w in weighted:
        label = hand_class(h, playable, trash)
        by_label.setdefault(label, []).append((h, w, refine_key(h, label)))
    groups = [by_label[k] for k in sorted(by_label)]
    while len(groups) < 6:
        best, best_weight = None, 0
        for i, g in enumerate(groups):
            if len({k for _, _, k in g}) >= 2:
                weight = sum(w for _, w, _ in g)
                if weight > best_weight:
                    best, best_weight = i, weight
        if best is None:
            break
        key_weight = {}
        for _, w, k in groups[best]:
            key_weight[k] = key_weight.get(k, 0) + w
        halves, totals = (set(), set()), [0, 0]
        for k in sorted(key_weight, key=lambda k: (-key_weight[k], k)):
            side = 0 if totals[0] <= totals[1] else 1
            halves[side].add(k)
            totals[side] += key_weight[k]
        g = groups.pop(best)
        groups.insert(best, [x for x in g if x[2] in halves[1]])
        groups.insert(best, [x for x in g if x[2] in halves[0]])
    groups.sort(key=lambda g: min(h for h, _, _ in g))
    return {h: i for i, g in enumerate(groups) for h, _, _ in g}


def weighed(tuples, counts):
    """(tuple, weight) for each tuple the counts allow; weight = ways to hold it."""
    out = []
    for h in tuples:
        if len(h) == 2:
            a, b = h
            w = counts[a] * (counts[b] - (a == b))
        elif len(h) == 1:
            w = counts[h[0]]
        else:
            w = 1
        if w > 0:
            out.append((h, w))
    return out


def expected(weighted, slot, table):
    total = acc = 0
    for h, w in weighted:
        total += w
        acc += w * table[h[slot]]
    return acc / total if total else 0.0


def odds(weighted, slot, table):
    total = hit = 0
    for h, w in weighted:
        total += w
        if table[h[slot]]:
            hit += w
    return hit / total if total else 0.0


class ConventionBot(Bot):
    name = "conventions"

    def __init__(self, player, seed=0):
        Bot.__init__(self, player, seed)
        self.sets = [list(ALL_PAIRS), list(ALL_PAIRS)]  # per hand: possible shard tuples

    # --- keeping the common knowledge -----------------------------------------------------
    def observe(self, obs, event):
        actor = event.player
        if event.move.kind == "hint":
            target = 1 - actor
            gems, discards = obs.gems, obs.discards
            message = HINT_INDEX[event.move]
            move, touched = event.move, event.touched
            groups = partition(weighed(self.sets[target], unseen_counts(gems, discards)),
                               *self.label_tables(gems, discards))
            self.sets[target] = [
                h for h in self.sets[target]
                if groups.get(h) == message
                and all((move.matches(h[i]) == (i + 1 in touched)) for i in range(len(h)))
            ]
            return
        i = event.move.slot - 1
        shown = event.shard
        size_after = obs.hand_size if actor == self.player else len(obs.partner_hand)
        kept = set()
        for h in self.sets[actor]:
            if h[i] == shown:
                kept.add(h[:i] + h[i + 1:])
        if size_after > len(next(iter(kept))) if kept else False:
            kept = {h + (t,) for h in kept for t in range(9)}
        self.sets[actor] = sorted(kept)

    # --- choosing a move --------------------------------------------------------------------
    gamble = 1.1        # smallest chance of success for a blind play before the last round
    stall_jungle = 0    # with this few shards left, hint rather than draw towards the end
    discard_ok = 0.35   # largest expected loss (in "shards") a voluntary discard may risk
    keep_reserve = 1    # a hint that is not needed must leave this many tokens

    def loss_table(self, gems, discards, partner_hand, trash, critical):
        """What discarding each shard would cost: 0 for trash, a little for a copy the
        partner also holds, much for the last copy of a needed shard."""
        left = [0] * 9
        for t in range(9):
            left[t] = TYPE_COUNTS[t]
        for d in discards:
            left[d] -= 1
        loss = [0.0] * 9
        for t in range(9):
            if trash[t]:
                loss[t] = 0.0
            elif t in partner_hand:
                loss[t] = 0.05
            elif critical[t]:
                loss[t] = 10.0
            else:
                loss[t] = 0.3 if left[t] > 2 else 1.0
        return loss

    def act(self, obs):
        gems, discards = obs.gems, obs.discards
        playable = playable_table(gems)
        trash = trash_table(gems, discards)
        critical = critical_table(gems, discards, trash)
        partner_hand = tuple(obs.partner_hand)
        mine = weighed(self.sets[self.player], unseen_counts(gems, discards, partner_hand))
        n = obs.hand_size
        play_odds = [odds(mine, s, playable) for s in range(n)]
        if obs.hints > 0 and self.warn_first and self.partner_in_danger(
                obs, partner_hand, playable, trash, critical):
            return self.hint_for(obs, partner_hand)
        for s in range(n):
            if play_odds[s] == 1.0:
                return Move.play(s + 1)
        if n and obs.errors == 0:
            s = max(range(n), key=lambda k: play_odds[k])
            last = obs.final_turns is not None and (obs.final_turns == 1 or obs.hints == 0)
            if (last and play_odds[s] > 0) or play_odds[s] >= self.gamble:
                return Move.play(s + 1)
        if obs.hints > 0 and self.partner_needs_hint(obs, partner_hand, playable, trash):
            return self.hint_for(obs, partner_hand)
        if obs.hints > 0 and self.warn and self.partner_in_danger(obs, partner_hand, playable, trash, critical):
            return self.hint_for(obs, partner_hand)
        can_discard = obs.hints < MAX_HINTS and n > 0
        if can_discard:
            loss = self.loss_table(gems, discards, partner_hand, trash, critical)
            losses = [expected(mine, s, loss) for s in range(n)]
            s = min(range(n), key=lambda k: (losses[k], k))
            stall = obs.hints > 0 and obs.jungle <= self.stall_jungle
            if losses[s] <= self.discard_ok and not stall:
                return Move.discard(s + 1)
        if obs.hints > self.keep_reserve or (obs.hints > 0 and not can_discard) or (
                obs.hints > 0 and self.smart_stall
                and self.partner_has_out(obs, partner_hand, playable, trash, critical)):
            return self.hint_for(obs, partner_hand)
        if can_discard:
            return Move.discard(s + 1)
        return self.hint_for(obs, partner_hand)

    label_safe = False  # classes mark shards safe to discard (True) or trash only (False)

    def label_tables(self, gems, discards):
        """The tables hand classes are computed from: playable, and discardable."""
        trash = trash_table(gems, discards)
        if self.label_safe:
            critical = critical_table(gems, discards, trash)
            return playable_table(gems), [not c for c in critical]
        return playable_table(gems), trash

    def hint_for(self, obs, hand):
        """The hint whose code word names the group of the partner's actual hand."""
        theirs = weighed(self.sets[1 - self.player], unseen_counts(obs.gems, obs.discards))
        return ALL_HINTS[partition(theirs, *self.label_tables(obs.gems, obs.discards))[hand]]

    smart_stall = False

    def partner_has_out(self, obs, hand, playable, trash, critical):
        """The partner can make a harmless move without a token: a play they know of, or a
        discard they would choose that loses nothing needed."""
        theirs = weighed(self.sets[1 - self.player], unseen_counts(obs.gems, obs.discards))
        n = len(hand)
        if any(odds(theirs, s, playable) == 1.0 for s in range(n)):
            return True
        if not n:
            return False
        loss = self.loss_table(obs.gems, obs.discards, (), trash, critical)
        losses = [expected(theirs, s, loss) for s in range(n)]
        s = min(range(n), key=lambda k: (losses[k], k))
        return not critical[hand[s]]

    warn = False
    warn_useful = False
    warn_first = False
    warn_tokens = 2

    def partner_in_danger(self, obs, hand, playable, trash, critical):
        """The partner, knowing no play, would likely discard the last copy of a needed shard."""
        if obs.hints > self.warn_tokens:
            return False
        theirs = weighed(self.sets[1 - self.player], unseen_counts(obs.gems, obs.discards))
        n = len(hand)
        if any(odds(theirs, s, playable) == 1.0 for s in range(n)):
            return False
        loss = self.loss_table(obs.gems, obs.discards, (), trash, critical)
        losses = [expected(theirs, s, loss) for s in range(n)]
        s = min(range(n), key=lambda k: (losses[k], k))
        if not critical[hand[s]]:
            return False
        if self.warn_useful:
            return any(not critical[t] or playable[t] for t in hand)
        return True

    def partner_needs_hint(self, obs, hand, playable, trash):
        """The partner holds a play they cannot know about yet."""
        if not any(playable[s] for s in hand):
            return False
        theirs = weighed(self.sets[1 - self.player], unseen_counts(obs.gems, obs.discards))
        return not any(odds(theirs, s, playable) == 1.0 for s in range(len(hand)))
