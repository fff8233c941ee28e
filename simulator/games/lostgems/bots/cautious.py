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
bot without conventions averages about 6.4). The card counting (literal.py) works on shard
sets, and each turn weighs the six hints' outcomes once (PartnerHints): 8.4 million
instructions a game, about half the convention bot's games per CPU-second (bench:
cautious_vs_best); it was 40 million, an eighth.
"""

from simulator.games.lostgems.bots.base import Bot
from simulator.games.lostgems.bots.handsets import trim_caches
from simulator.games.lostgems.bots.literal import (
    SHARDS_ALLOWED,
    exact,
    hand_beliefs,
    hinted,
    known,
    odds,
    slot_beliefs,
    table_of,
)
from simulator.games.lostgems.moves import ALL_HINTS, Move
from simulator.games.lostgems.shards import MAX_ERRORS, MAX_HINTS

# Discard rather than hint while two tokens remain only when the slot is this cheap to lose
# (expected points lost, see Table.cost); measured best on seeds 0..1999.
RISKY_DISCARD = 0.55
# With this few shards left to draw, hint (if a token is left) rather than discard: drawing the
# last shard starts the final round, and every turn before it can still be a sure play.
ENDGAME_JUNGLE = 2
# A final-round gamble needs at least this chance of being playable.
GAMBLE_ODDS = 0.5


class PartnerHints:
    """What each of the six hints (ALL_HINTS) would leave the partner knowing, worked out once
    a turn: the play, save and fallback hints all weigh the same outcomes.

    `before` and `after[j]` are the partner's beliefs about their slots (hand_beliefs) now and
    after hint j, from what they can count; `plays_before` and `plays_after[j]` the shards
    they would then know playable (as sets); `info[j]` how many possible shards hint j rules
    out across their slots."""

    def __init__(self, hand, theirs, counts, table):
        self.hand = hand
        self.table = table
        allowed = [SHARDS_ALLOWED[k] for k in theirs]
        self.before = hand_beliefs(allowed, counts)
        self.after = [
            hand_beliefs([hinted(a, move, s) for a, s in zip(allowed, hand)], counts)
            for move in ALL_HINTS
        ]
        self.plays_before = self.known_plays(self.before)
        self.plays_after = [self.known_plays(after) for after in self.after]
        possible_now = sum(b.shards.bit_count() for b in self.before)
        self.info = [
            possible_now - sum(b.shards.bit_count() for b in after) for after in self.after
        ]

    def known_plays(self, beliefs):
        """The partner's shards they would know playable with these beliefs, as a set."""
        playable = self.table.playable_shards
        plays = 0
        for b, s in zip(beliefs, self.hand):
            if known(b, playable):
                plays |= 1 << s
        return plays

    def play_hint(self):
        """The hint after which the partner knows the most new playable shards, or None.

        Ties go to the hint that also says most (negative information included)."""
        best, best_key = None, None
        for j, plays in enumerate(self.plays_after):
            new = plays & ~self.plays_before
            if not new:
                continue
            key = (new.bit_count(), self.info[j], -j)
            if best_key is None or key > best_key:
                best, best_key = ALL_HINTS[j], key
        return best

    def save_hint(self):
        """A hint that stops the partner discarding a last copy, if that is their next discard.

        The partner, with nothing to play, discards the slot `discard_slot` picks from their
        knowledge; when that slot holds a critical shard, find a hint after which it does not."""
        table, hand = self.table, self.hand
        slot = table.next_discard(self.before)
        if slot is None or not table.critical[hand[slot - 1]]:
            return None
        best, best_key = None, None
        for j, beliefs in enumerate(self.after):
            new_slot = table.next_discard(beliefs)
            if new_slot is not None and table.critical[hand[new_slot - 1]]:
                continue
            key = (self.info[j], -j)
            if best_key is None or key > best_key:
                best, best_key = ALL_HINTS[j], key
        return best

    def best_hint(self):
        """With nothing better to do and no discard wanted: the hint that says the most,
        preferring news about shards that matter."""
        table, hand = self.table, self.hand
        best, best_key = ALL_HINTS[0], None
        for j, beliefs in enumerate(self.after):
            plays = self.plays_after[j].bit_count()
            risk = table.cost[hand[table.discard_slot(beliefs) - 1]]
            key = (plays, -risk, self.info[j], -j)
            if best_key is None or key > best_key:
                best, best_key = ALL_HINTS[j], key
        return best


class CautiousBot(Bot):
    name = "cautious"

    def __init__(self, player, seed=0):
        Bot.__init__(self, player, seed)
        trim_caches()  # between games, the memo caches are kept within CACHE_LIMIT

    def act(self, obs):
        table = table_of(obs.gems, obs.discards)
        partner_hand = obs.partner_hand
        mine = slot_beliefs(obs.knowledge(self.player), table.unseen.less(partner_hand))
        plays = table.plays(mine)
        if plays:
            return Move.play(plays[0])
        # What the partner can count: the public shards and my slots both of us know exactly.
        my_known = [exact(b) for b in mine]
        their_counts = table.unseen.less([t for t in my_known if t is not None])
        theirs = obs.knowledge(1 - self.player)
        hints = PartnerHints(partner_hand, theirs, their_counts, table) if obs.hints else None
        if obs.final_turns is not None:
            gamble = self.final_gamble(obs, mine, table, hints)
            if gamble is not None:
                return gamble
        if hints:
            hint = hints.play_hint()
            if hint is None and obs.final_turns is None:
                hint = hints.save_hint()
            if hint is not None:
                return hint
        slot = table.discard_slot(mine)
        if obs.hints < MAX_HINTS and not self.stall(
            obs, table.loss(mine[slot - 1]), known(mine[slot - 1], table.critical_shards)
        ):
            return Move.discard(slot)
        return hints.best_hint()

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

    @staticmethod
    def final_gamble(obs, mine, table, hints):
        """In the final round, a probable play (even odds or better) when an error cannot cost
        the game, i.e. it would not be the second; a hint that tells the partner, who still
        moves after, a sure play comes first (`mine`: my slots' beliefs; `hints`:
        PartnerHints, None with no token)."""
        if obs.errors + 1 >= MAX_ERRORS or not mine:
            return None
        partner_after = obs.final_turns >= 2
        if partner_after and hints and hints.play_hint():
            return None  # telling the partner a sure play is worth more
        best = max(range(len(mine)), key=lambda i: (odds(mine[i], table.playable_shards), -i))
        p = odds(mine[best], table.playable_shards)
        return Move.play(best + 1) if p >= GAMBLE_ODDS else None
