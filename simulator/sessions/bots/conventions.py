"""The convention bot: every hint is a code word about the partner's whole hand.

Any of the six hints (red, yellow, blue, 1, 2, 3) is legal whatever the partner holds, so a
hint carries one of six messages. Both players agree on a *hand class*, a function of a hand
and the public state (gems, discards) at the moment of the hint ("safe" = discarding it loses
no needed shard: trash, or not the last copy):

    0  slot 1 playable, and slot 2 playable once slot 1 is played
    1  slot 1 playable, slot 2 not but safe
    2  slot 1 playable, slot 2 neither playable nor safe
    3  slot 2 playable, slot 1 not
    4  nothing playable, slot 1 safe
    5  nothing playable, slot 1 not safe

Code words a class leaves unused (classes the receiver's knowledge already rules out) split the
heaviest class further on the shards it leaves open, so no hint is wasted. Each group is then
paired with the hint whose literal meaning (the slots it points at) splits the group best, which
tells the receiver a little more for free. The hinter sees the partner's hand and gives the
hint of its group. Each player keeps, for both hands, the set of slot-by-slot shard tuples
consistent with every message and with the hint's literal meaning (both common knowledge), and
weighs them by card counting from its own seat.

Policy, in order: warn a partner who is about to discard the last copy of a needed shard (when
a hint lets them do something else); play a shard known to be playable; in the last round,
gamble a play while no error token is lost; hint a partner who holds a play they cannot know;
discard the slot whose loss is smallest in expectation; otherwise hint (it still informs).

Silence informs too, since both follow this policy: a partner who played or discarded while a
token was available did not warn, so one's likely discard is not a lone last copy beside a
safe shard; a partner who discarded while a token was available saw no play one cannot know.

Measured (bench/bench_sessions.py, 10,000 deals): mean 8.47, 60% perfect, 0% zero.
"""

from operator import mul

from simulator.sessions.bots.base import Bot
from simulator.sessions.bots.handsets import ALL_PAIRS_MASK, hands_of, mask_of, remember
from simulator.sessions.bots.knowledge import (
    consistent,
    critical_table,
    playable_table,
    trash_table,
    unseen_counts,
)
from simulator.sessions.moves import ALL_HINTS, Move
from simulator.sessions.shards import MAX_HINTS, TYPE_COUNTS

HINT_INDEX = {m: i for i, m in enumerate(ALL_HINTS)}
MATCHES = tuple(tuple(m.matches(t) for t in range(9)) for m in ALL_HINTS)
EXPANSIONS = tuple(range(9))
# POINTING[hand][hint]: which of the hand's slots the hint points at, as a code 0..3.
POINTING = {h: tuple(sum(2 ** k for k, t in enumerate(h) if MATCHES[i][t]) for i in range(6))
            for h in [(a, b) for a in range(9) for b in range(9)] + [(t,) for t in range(9)] + [()]}

# Memoised pure functions of common knowledge, shared by every bot and game in the process.
_PARTITIONS = {}  # (set mask, gems, sorted discards) -> {hand: message}
_DECISIONS = {}   # act(): everything the choice depends on -> Move
_UPDATES = {}     # observe(): the sets before and the public event -> the sets after
_TABLES = {}      # (gems, sorted discards) -> public_tables()
_WEIGHTS = {}     # (set mask, unseen counts, hand size) -> slot_weights()
_SILENCE = {}     # (class, which, set mask, gems, sorted discards) -> no_warning/no_unknown_play
_LEAVES = {}      # (set mask, slot, shard, hand size after) -> leave_hand()
_CLASSES = {}     # (playable, safe) -> class_table()
_VIEWS = {}       # (set mask, gems, sorted discards, hand size) -> partner_view()


def hand_class(hand, playable, safe):
    """The message (0..5) that describes `hand` (a tuple of shards) to its holder."""
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


# REFINE[label][hand]: refine_key, precomputed.
REFINE = tuple({h: refine_key(h, label) for h in POINTING} for label in range(6))


def partition(weighted, playable, safe):
    """Split the hands both players think possible into at most six groups, one per hint.

    Hands are grouped by class; code words the classes leave unused then split the heaviest
    group on the shards its class leaves open, in two halves of about equal weight. Both
    players compute this from common knowledge only. Returns {hand: message}.
    """
    by_label = {}
    labels = class_table(playable, safe)
    for h, w in weighted:
        label = labels[h]
        by_label.setdefault(label, []).append((h, w, REFINE[label][h]))
    groups = [by_label[k] for k in sorted(by_label)]
    splittable = [_weight_if_splittable(g) for g in groups]
    while len(groups) < 6:
        best, best_weight = None, 0
        for i, weight in enumerate(splittable):
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
        splittable.pop(best)
        for half in (halves[1], halves[0]):
            part = [x for x in g if x[2] in half]
            groups.insert(best, part)
            splittable.insert(best, _weight_if_splittable(part))
    return {h: hint for g, hint in assign_hints(groups) for h, _, _ in g}


def _weight_if_splittable(group):
    """A group's weight if it holds two or more keys to split on, else 0."""
    first = group[0][2]
    for _, _, k in group:
        if k != first:
            return sum(w for _, w, _ in group)
    return 0


def class_table(playable, safe):
    """{hand: hand_class} for every hand, memoised on the (few) playable/safe tables."""
    key = (tuple(playable), tuple(safe))
    got = _CLASSES.get(key)
    if got is None:
        got = remember(_CLASSES, key, {h: hand_class(h, playable, safe) for h in POINTING})
    return got


def assign_hints(groups):
    """Pair each group with a hint so that the hint's literal meaning (which slots it points
    at) splits the group's hands as evenly as possible: information for free. Heavier groups
    choose first; ties go to the lower hint index. Returns [(group, hint index)]."""
    order = sorted(groups, key=lambda g: (-sum(w for _, w, _ in g), min(h for h, _, _ in g)))
    free = list(range(6))
    out = []
    for g in order:
        # Weight of each pointing pattern (slot 1 pointed, slot 2 pointed) per hint.
        spread = [[0, 0, 0, 0] for _ in range(6)]
        total = 0
        for h, w, _ in g:
            total += w
            codes = POINTING[h]
            for i in free:
                spread[i][codes[i]] += w
        best, best_score = free[0], -1.0
        for i in free:
            a, b, c, d = spread[i]
            score = total * total - (a * a + b * b + c * c + d * d)  # Gini spread
            if score > best_score + 1e-9:
                best, best_score = i, score
        free.remove(best)
        out.append((g, best))
    return out


def shared_partition(mask, gems, discards):
    """The partition of a common-knowledge set: a pure function of public facts, memoised so
    that the hinter and the receiver, who both compute it, and later games pay for it once."""
    key = (mask, gems, discards)
    got = _PARTITIONS.get(key)
    if got is None:
        playable, _, critical, counts, _ = public_tables(gems, discards)
        weighted = weighed(hands_of(mask), counts)
        got = remember(_PARTITIONS, key, partition(weighted, playable, [not c for c in critical]))
    return got


def public_tables(gems, discards):
    """(playable, trash, critical, unseen counts, loss) tables of a public state (gems, sorted
    discards); `loss` is loss_table with no partner hand to spare a copy."""
    key = (gems, discards)
    got = _TABLES.get(key)
    if got is None:
        trash = trash_table(gems, discards)
        critical = critical_table(gems, discards, trash)
        got = remember(_TABLES, key, (
            playable_table(gems), trash, critical, tuple(unseen_counts(gems, discards)),
            loss_table(discards, (), trash, critical)))
    return got


def beliefs(mask, counts, n):
    """slot_weights of the hands in `mask` (n shards each), memoised."""
    key = (mask, counts, n)
    got = _WEIGHTS.get(key)
    if got is None:
        got = remember(_WEIGHTS, key, slot_weights(hands_of(mask), counts, n))
    return got


def loss_table(discards, partner_hand, trash, critical):
    """What discarding each shard costs: nothing for trash, a little for a copy the partner
    also holds, much for the last copy of a needed shard, some for an early copy."""
    left = list(TYPE_COUNTS)
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


def weighed(tuples, counts):
    """(tuple, weight) for each tuple the counts allow; weight = ways to hold it."""
    if tuples and len(tuples[0]) == 2:
        out = []
        for h in tuples:
            a, b = h
            w = counts[a] * (counts[b] - (a == b))
            if w > 0:
                out.append((h, w))
        return out
    return [(h, counts[h[0]] if h else 1) for h in tuples if not h or counts[h[0]] > 0]


def slot_weights(tuples, counts, n):
    """Per slot, the weight of each shard (beliefs about single slots), and the total."""
    rows = [[0] * 9 for _ in range(n)]
    total = 0
    if n == 2:
        first, second = rows
        for a, b in tuples:
            w = counts[a] * (counts[b] - (a == b))
            if w > 0:
                total += w
                first[a] += w
                second[b] += w
    elif n == 1:
        first = rows[0]
        for (a,) in tuples:
            w = counts[a]
            if w > 0:
                total += w
                first[a] += w
    return tuple(tuple(r) for r in rows), total


def leave_hand(mask, slot, shown, size_after):
    """The hands left when `shown` leaves `slot` (1-based) and, if the hand is back to
    `size_after` shards, an unknown shard is drawn into the last slot; memoised."""
    key = (mask, slot, shown, size_after)
    got = _LEAVES.get(key)
    if got is None:
        i = slot - 1
        kept = {h[:i] + h[i + 1:] for h in hands_of(mask) if h[i] == shown}
        if kept and size_after > len(next(iter(kept))):
            kept = {h + (t,) for h in kept for t in EXPANSIONS}
        got = remember(_LEAVES, key, mask_of(kept))
    return got


def partner_view(mask, gems, discards, n):
    """What the partner, whose hands are `mask` (n shards), makes of their own hand: whether
    they know a play, the slot they would discard (least expected loss) and that loss."""
    key = (mask, gems, discards, n)
    got = _VIEWS.get(key)
    if got is None:
        playable, _, _, counts, loss = public_tables(gems, discards)
        rows, total = beliefs(mask, counts, n)
        knows_play = any(mean(rows[s], total, playable) == 1.0 for s in range(n))
        losses = [mean(rows[s], total, loss) for s in range(n)]
        chop = min(range(n), key=lambda k: (losses[k], k))
        got = remember(_VIEWS, key, (knows_play, chop, min(losses)))
    return got


def mean(row, total, table):
    """Expected value of table[shard] for a slot whose shard weights are `row`."""
    if not total:
        return 0.0
    return sum(map(mul, row, table)) / total


class ConventionBot(Bot):
    name = "conventions"

    gamble = 1.1        # smallest chance of success for a blind play before the last round
    stall_jungle = 2    # with this few shards left, hint rather than draw towards the end
    discard_ok = 5.0    # largest expected loss a voluntary discard may risk (see loss_table)
    spare_loss = 1.0    # above this expected loss, hint a partner who can discard safely instead
    spare_ok = 0.0      # the partner "can discard safely" at or below this loss (their view)

    def __init__(self, player, seed=0):
        Bot.__init__(self, player, seed)
        # Per hand: the possible shard tuples, as a bitmask (handsets.py). Both bots hold the
        # same two masks: they are common knowledge.
        self.masks = [ALL_PAIRS_MASK, ALL_PAIRS_MASK]

    @property
    def sets(self):
        """Per hand: the possible shard tuples, sorted."""
        return [hands_of(self.masks[0]), hands_of(self.masks[1])]

    # --- keeping the common knowledge -----------------------------------------------------
    def observe(self, obs, event):
        actor = event.player
        other = 1 - actor
        move = event.move
        cls = self.__class__
        if move.kind == "hint":
            key = (cls, 0, self.masks[actor], self.masks[other], tuple(obs.gems),
                   tuple(sorted(obs.discards)), HINT_INDEX[move], event.touched)
            got = _UPDATES.get(key)
            if got is None:
                got = remember(_UPDATES, key, self.read_hint(*key[2:]))
            self.masks[other] = got or mask_of(self.literal_hands(obs, other))
            return
        gems, discards = obs.gems, obs.discards
        if event.played:
            gems[event.shard // 3] -= 1
        else:
            discards = discards[:-1]
        hints_before = event.hints - (1 if move.kind == "discard" or event.regained else 0)
        size_after = obs.hand_size if actor == self.player else len(obs.partner_hand)
        key = (cls, 1, self.masks[actor], self.masks[other], tuple(gems), tuple(sorted(discards)),
               hints_before > 0, move.kind, move.slot, event.shard, size_after)
        got = _UPDATES.get(key)
        if got is None:
            got = remember(_UPDATES, key, self.read_action(*key[2:]))
        self.masks[other] = got[1]
        self.masks[actor] = got[0] or mask_of(self.literal_hands(obs, actor))

    def read_hint(self, actor_mask, target_mask, gems, discards, message, touched):
        """The target's hands after a hint: those of the code word's group, agreeing with what
        the hint pointed at, and warned ones if the hinter knew a play. 0 if none is left."""
        groups = shared_partition(target_mask, gems, discards)
        match = MATCHES[message]
        p0, p1 = 1 in touched, 2 in touched
        warned = self.warned_hands(actor_mask, target_mask, gems, discards)
        return mask_of(
            h for h in hands_of(target_mask)
            if groups.get(h) == message
            and (not h or match[h[0]] == p0) and (len(h) < 2 or match[h[1]] == p1)
            and (warned is None or h in warned))

    def read_action(self, actor_mask, other_mask, gems, discards, token_left, kind, slot, shown,
                    size_after):
        """(actor's mask, other's mask) after a play or discard of `shown` from `slot`; the
        actor's is 0 if no hand is left (the conventions were not followed)."""
        if token_left:
            other_mask = self.no_warning(other_mask, gems, discards)
            if kind == "discard":
                other_mask = self.no_unknown_play(other_mask, gems, discards)
        return leave_hand(actor_mask, slot, shown, size_after), other_mask

    @staticmethod
    def literal_hands(obs, player):
        """Hands the hints allow read literally: the fallback when a partner who does not follow
        these conventions (a person) has led the common knowledge astray."""
        options = [[t for t in range(9) if consistent(t, k)] for k in obs.knowledge(player)]
        if len(options) == 2:
            return tuple((a, b) for a in options[0] for b in options[1])
        return tuple((a,) for a in options[0]) if options else ((),)

    def warned_hands(self, actor_mask, target_mask, gems, discards):
        """A player who surely knew a play (common knowledge) hinted instead: by this policy
        only a warning comes before one's own play, so the target's hand is one that would be
        warned. Returns that set of hands, or None when nothing follows."""
        mine = hands_of(actor_mask)
        if not mine or not mine[0]:
            return None
        if not partner_view(actor_mask, gems, discards, len(mine[0]))[0]:
            return None
        return set(hands_of(target_mask & ~self.no_warning(target_mask, gems, discards)))

    def no_warning(self, mask, gems, discards):
        """The partner of the hand played or discarded with a token available, so by this
        policy they did not see it in danger: rule out the hands they would have warned."""
        key = (self.__class__, 0, mask, gems, discards)
        got = _SILENCE.get(key)
        if got is None:
            got = remember(_SILENCE, key, self._no_warning(mask, gems, discards))
        return got

    @staticmethod
    def _no_warning(mask, gems, discards):
        tuples = hands_of(mask)
        if not tuples or not tuples[0]:
            return mask
        knows_play, s, _ = partner_view(mask, gems, discards, len(tuples[0]))
        if knows_play:
            return mask
        playable, _, critical, _, _ = public_tables(gems, discards)
        return mask_of(
            h for h in tuples
            if not (critical[h[s]] and any(not critical[t] or playable[t] for t in h))) or mask

    def no_unknown_play(self, mask, gems, discards):
        """The partner of the hand discarded while a token was available, so by this policy
        they saw no play in it that its holder could not know of: unless the holder already
        knew a play, the hand holds no playable shard. (Common knowledge: both bots infer it.)"""
        key = (self.__class__, 1, mask, gems, discards)
        got = _SILENCE.get(key)
        if got is None:
            got = remember(_SILENCE, key, self._no_unknown_play(mask, gems, discards))
        return got

    @staticmethod
    def _no_unknown_play(mask, gems, discards):
        tuples = hands_of(mask)
        if not tuples or not tuples[0]:
            return mask
        if partner_view(mask, gems, discards, len(tuples[0]))[0]:
            return mask
        playable = public_tables(gems, discards)[0]
        return mask_of(h for h in tuples if not any(playable[t] for t in h)) or mask

    # --- choosing a move --------------------------------------------------------------------
    def act(self, obs):
        final = obs.final_turns
        key = (self.__class__, self.masks[self.player], self.masks[1 - self.player],
               tuple(obs.gems), tuple(sorted(obs.discards)), obs.hints, obs.errors == 0,
               tuple(obs.partner_hand), obs.hand_size, final,
               obs.jungle <= self.stall_jungle)
        got = _DECISIONS.get(key)
        if got is None:
            got = remember(_DECISIONS, key, self.decide(*key[1:]))
        return got

    def decide(self, my_mask, their_mask, gems, discards, hints, no_error, partner_hand, n,
               final_turns, jungle_low):
        """The move, from common knowledge, the partner's hand and the public state only."""
        playable, trash, critical, counts, _ = public_tables(gems, discards)
        mine = list(counts)
        for t in partner_hand:
            mine[t] -= 1
        rows, total = beliefs(my_mask, tuple(mine), n)
        view = None
        if hints > 0 and partner_hand:
            view = partner_view(their_mask, gems, discards, len(partner_hand))
            knows_play, chop, _ = view
            if (not knows_play and critical[partner_hand[chop]]
                    and any(not critical[t] or playable[t] for t in partner_hand)):
                return self.hint(their_mask, gems, discards, partner_hand)  # a warning
        needs_hint = view is not None and not view[0] and any(playable[t] for t in partner_hand)
        play_odds = [mean(rows[s], total, playable) for s in range(n)]
        for s in range(n):
            if play_odds[s] == 1.0:
                return Move.play(s + 1)
        if n and no_error:
            s = max(range(n), key=lambda k: play_odds[k])
            last = final_turns is not None and (final_turns == 1 or not needs_hint)
            if (last and play_odds[s] > 0) or play_odds[s] >= self.gamble:
                return Move.play(s + 1)
        if needs_hint:
            return self.hint(their_mask, gems, discards, partner_hand)
        can_discard = hints < MAX_HINTS and n > 0
        if can_discard:
            loss = loss_table(discards, partner_hand, trash, critical)
            losses = [mean(rows[s], total, loss) for s in range(n)]
            s = min(range(n), key=lambda k: (losses[k], k))
            stall = hints > 0 and jungle_low
            if view is not None and losses[s] > self.spare_loss and view[2] <= self.spare_ok:
                stall = True  # the partner knows a free discard: let them bring the token back
            if not stall and losses[s] <= self.discard_ok:
                return Move.discard(s + 1)
        if hints > 0:
            return self.hint(their_mask, gems, discards, partner_hand)
        return Move.discard(s + 1)

    @staticmethod
    def hint(their_mask, gems, discards, hand):
        """The hint whose code word names the group of the partner's actual hand."""
        return ALL_HINTS[shared_partition(their_mask, gems, discards)[hand]]
