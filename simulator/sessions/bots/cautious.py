"""The cautious bot: no conventions, plays only shards it knows are playable.

Hints are read literally, negative information included, and nothing more: a hint means what
it says and never "play this" or "save that". Knowledge comes from those hints plus card
counting over the shards this seat can see (gems, discards, the partner's hand, and its own
slots whose shard it already knows), done jointly for the two slots of a hand.

Each turn, in order:
1. play a slot whose every possible shard is playable; in the final round, when an error
   cannot cost the game (it would not be the second), also a slot at least even odds to be;
2. hint so that the partner will know one of their playable shards is playable (the hint that
   completes most of them, then the one that rules out most besides);
3. hint to keep the partner from discarding the last copy of a shard still needed, when that
   is the slot they would discard next;
4. discard the slot whose loss costs least (known trash first) -- unless a hint token can buy
   time: it hints instead of discarding a known last copy, of a risky discard while two
   tokens remain, and of any discard with two shards or fewer left to draw;
5. otherwise (every token available, or stalling): the hint that tells the partner a play, or
   else makes their next discard safest, or else says the most.

The partner is predicted from what both seats know in common (hints and the public shards),
so the prediction is cautious: when it says "they know", they do.

Measured on seeds 0..9999: mean 6.84 +- 0.01, 4.3% perfect, 0% zero (the reference cautious
bot without conventions averages about 6.4).
"""

from simulator.sessions.bots.base import Bot
from simulator.sessions.bots.knowledge import card_tables
from simulator.sessions.moves import ALL_HINTS, Move
from simulator.sessions.shards import MAX_ERRORS, MAX_HINTS, TYPE_COUNTS

# Discard rather than hint while two tokens remain only when the slot is this cheap to lose
# (expected points lost, see Table.cost); measured best on seeds 0..1999.
RISKY_DISCARD = 0.55
# With this few shards left to draw, hint (if a token is left) rather than discard: drawing the
# last shard starts the final round, and every turn before it can still be a sure play.
ENDGAME_JUNGLE = 2
# A final-round gamble needs at least this chance of being playable.
GAMBLE_ODDS = 0.5


def hinted(knowledge, move, s):
    """The knowledge a slot holding shard s has after hint `move` (literal reading)."""
    cm, vm = knowledge
    if move.hint_kind == "colour":
        bit = 1 << move.hint
        return (bit, vm) if s // 3 == move.hint else (cm & ~bit, vm)
    bit = 1 << (move.hint - 1)
    return (cm, bit) if s % 3 + 1 == move.hint else (cm, vm & ~bit)


def allows(knowledge, t):
    """Shard t agrees with a slot's (colour mask, value mask)."""
    return (knowledge[0] >> (t // 3)) & 1 and (knowledge[1] >> (t % 3)) & 1


def unseen(gems, discards, visible):
    """Copies of each shard not played, discarded or in `visible`."""
    left = list(TYPE_COUNTS)
    for c in range(3):
        for v in range(gems[c]):
            left[c * 3 + v] -= 1
    for s in list(discards) + list(visible):
        left[s] -= 1
    return left


def slot_weights(knowledges, counts):
    """Per slot, how many of the possible hands put each shard there (joint card counting:
    two slots cannot both hold the only copy left)."""
    n = len(knowledges)
    weights = [[0] * 9 for _ in range(n)]
    if n == 1:
        for t in range(9):
            if counts[t] > 0 and allows(knowledges[0], t):
                weights[0][t] = counts[t]
        return weights
    k0, k1 = knowledges[0], knowledges[1]
    for a in range(9):
        if counts[a] <= 0 or not allows(k0, a):
            continue
        for b in range(9):
            if not allows(k1, b):
                continue
            w = counts[a] * (counts[b] - (a == b))
            if w > 0:
                weights[0][a] += w
                weights[1][b] += w
    return weights


def odds(weight, table):
    """Chance that a slot with these weights holds a shard for which table[t] holds."""
    total = sum(weight)
    return sum(w for t, w in enumerate(weight) if table[t]) / total if total else 0.0


def known(weight, table):
    """Every shard the slot could hold satisfies table (and it could hold one)."""
    return any(weight) and all(table[t] for t in range(9) if weight[t])


def exact(weight):
    """The shard a slot must hold, or None."""
    ts = [t for t in range(9) if weight[t]]
    return ts[0] if len(ts) == 1 else None


class Table:
    """The public tables of the moment: playable, trash, critical, and what a loss costs."""

    def __init__(self, gems, discards):
        self.playable, self.trash, self.critical, _ = card_tables(gems, discards)
        # Discarding a last copy loses that value and every one above it in its colour.
        self.cost = [
            0.0
            if self.trash[t]
            else (3 - t % 3 if self.critical[t] else 0.15 + 0.1 * self.playable[t])
            for t in range(9)
        ]

    def loss(self, weight):
        total = sum(weight)
        return sum(w * self.cost[t] for t, w in enumerate(weight)) / total if total else 0.0

    def discard_slot(self, weights):
        """The 1-based slot whose discard costs least; a known last copy only if both are."""
        best, best_key = 1, None
        for i, w in enumerate(weights):
            key = (known(w, self.critical), self.loss(w), i)
            if best_key is None or key < best_key:
                best, best_key = i + 1, key
        return best

    def next_discard(self, weights):
        """The slot a player with these weights discards when it comes to that, or None when
        they know a play."""
        if any(known(w, self.playable) for w in weights):
            return None
        return self.discard_slot(weights)

    def plays(self, weights):
        """1-based slots known playable, the most useful first (a 3 gives a token back)."""
        slots = [i for i, w in enumerate(weights) if known(w, self.playable)]
        slots.sort(key=lambda i: (-odds(weights[i], [t % 3 == 2 for t in range(9)]), i))
        return [i + 1 for i in slots]


class CautiousBot(Bot):
    name = "cautious"

    def act(self, obs):
        gems, discards = obs.gems, obs.discards
        table = Table(gems, discards)
        partner_hand = obs.partner_hand
        mine = obs.knowledge(self.player)
        weights = slot_weights(mine, unseen(gems, discards, partner_hand))
        theirs = obs.knowledge(1 - self.player)
        # What the partner can count: the public shards and my slots both of us know exactly.
        my_known = [exact(w) for w in weights]
        their_counts = unseen(gems, discards, [t for t in my_known if t is not None])
        plays = table.plays(weights)
        slot = table.discard_slot(weights)
        if plays:
            return Move.play(plays[0])
        if obs.final_turns is not None:
            gamble = self.final_gamble(obs, weights, table, partner_hand, theirs, their_counts)
            if gamble is not None:
                return gamble
        if obs.hints > 0:
            hint = self.play_hint(partner_hand, theirs, their_counts, table)
            if hint is None and obs.final_turns is None:
                hint = self.save_hint(partner_hand, theirs, their_counts, table)
            if hint is not None:
                return hint
        if obs.hints < MAX_HINTS and not self.stall(
            obs, table.loss(weights[slot - 1]), known(weights[slot - 1], table.critical)
        ):
            return Move.discard(slot)
        return self.best_hint(partner_hand, theirs, their_counts, table)

    @staticmethod
    def stall(obs, loss, last_copy):
        """Hint instead of discarding: with no token left a discard is forced; near the end
        every draw brings the final round closer; otherwise only a risky discard is worth a
        token while at least two remain."""
        if obs.hints == 0:
            return False
        if obs.jungle <= ENDGAME_JUNGLE:
            return True
        return last_copy or (obs.hints >= 2 and loss >= RISKY_DISCARD)

    def final_gamble(self, obs, weights, table, hand, theirs, counts):
        """In the final round, a probable play (even odds or better) when an error cannot cost
        the game, i.e. it would not be the second; a hint that tells the partner, who still
        moves after, a sure play comes first."""
        if obs.errors + 1 >= MAX_ERRORS or not weights:
            return None
        partner_after = obs.final_turns >= 2
        if partner_after and obs.hints > 0 and self.play_hint(hand, theirs, counts, table):
            return None  # telling the partner a sure play is worth more
        best = max(range(len(weights)), key=lambda i: (odds(weights[i], table.playable), -i))
        p = odds(weights[best], table.playable)
        return Move.play(best + 1) if p >= GAMBLE_ODDS else None

    def play_hint(self, hand, theirs, counts, table):
        """The hint after which the partner knows the most new playable shards, or None.

        Ties go to the hint that also says most (negative information included)."""
        before = slot_weights(theirs, counts)
        already = {hand[i] for i, w in enumerate(before) if known(w, table.playable)}
        best, best_key = None, None
        for move in ALL_HINTS:
            after = [hinted(theirs[i], move, s) for i, s in enumerate(hand)]
            weights = slot_weights(after, counts)
            new = {hand[i] for i, w in enumerate(weights) if known(w, table.playable)} - already
            if not new:
                continue
            key = (len(new), self.info(theirs, after, counts), -ALL_HINTS.index(move))
            if best_key is None or key > best_key:
                best, best_key = move, key
        return best

    def save_hint(self, hand, theirs, counts, table):
        """A hint that stops the partner discarding a last copy, if that is their next discard.

        The partner, with nothing to play, discards the slot `discard_slot` picks from their
        knowledge; when that slot holds a critical shard, find a hint after which it does not."""
        slot = table.next_discard(slot_weights(theirs, counts))
        if slot is None or not table.critical[hand[slot - 1]]:
            return None
        best, best_key = None, None
        for move in ALL_HINTS:
            after = [hinted(theirs[i], move, s) for i, s in enumerate(hand)]
            new_slot = table.next_discard(slot_weights(after, counts))
            if new_slot is not None and table.critical[hand[new_slot - 1]]:
                continue
            key = (self.info(theirs, after, counts), -ALL_HINTS.index(move))
            if best_key is None or key > best_key:
                best, best_key = move, key
        return best

    def best_hint(self, hand, theirs, counts, table):
        """With nothing better to do and no discard wanted: the hint that says the most,
        preferring news about shards that matter."""
        best, best_key = ALL_HINTS[0], None
        for move in ALL_HINTS:
            after = [hinted(theirs[i], move, s) for i, s in enumerate(hand)]
            w = slot_weights(after, counts)
            plays = len({hand[i] for i, x in enumerate(w) if known(x, table.playable)})
            risk = table.cost[hand[table.discard_slot(w) - 1]]
            key = (plays, -risk, self.info(theirs, after, counts), -ALL_HINTS.index(move))
            if best_key is None or key > best_key:
                best, best_key = move, key
        return best

    @staticmethod
    def info(before, after, counts):
        """How many possible shards a hint rules out across the partner's slots."""
        wb = slot_weights(before, counts)
        wa = slot_weights(after, counts)
        return sum(
            sum(1 for t in range(9) if b[t]) - sum(1 for t in range(9) if a[t])
            for b, a in zip(wb, wa)
        )
