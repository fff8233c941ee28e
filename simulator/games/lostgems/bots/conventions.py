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

Policy, in order:
- warn a partner who is about to discard the last copy of a needed shard (when a hint lets
  them do something else);
- play a shard known to be playable;
- while no error token is lost: gamble a play in the last round, and before it, with at most
  one hint token left, when a failed play (its shard lost, and an error token) costs less in
  expectation than the cheapest discard;
- hint a partner who holds a play they cannot know;
- discard the slot whose loss is smallest in expectation, unless that risks something and the
  partner has something free to do: a play they know, or a free discard (they know a trash
  shard, or the slot they would discard is, as this bot sees it, a spare copy); then hint,
  and keep the risky shard until more is known;
- otherwise hint (it still informs), except that the last token is not hinted away when the
  partner, knowing no play, would then have to discard a last copy (discard instead).

Silence informs too, since both follow this policy: a partner who played or discarded while a
token was available did not warn, so one's likely discard is not a lone last copy beside a
safe shard; a partner who discarded while a token was available saw no play one cannot know.

A partner who does not share these conventions (a person, another bot) is found out by doing
what they never do: discarding beside a play the code words told them of, a hint that names
none of one's possible hands, or a play or discard of a shard they cannot hold. From then on
this seat plays as the cautious bot, reading and giving hints literally; read as code words,
a literal partner's hints mislead it into errors (with the cautious bot as partner it averaged
4.6 before it changed course, 6.7 since; two cautious bots make 6.8).

Everything the bot computes is a pure function of common knowledge (the hand sets, kept as
bitmasks: handsets.py), the public state and the partner's hand, so belief updates, partitions
(codewords.py) and beliefs (beliefs.py) are memoised across turns and games. (Whole decisions
are not: nine in ten are new, so their keys cost more than the repeats save.)

Measured (bench/bench_sessions.py, 10,000 deals): mean 8.622 ± 0.006, 69.6% perfect, 0% zero
(a bot seeing its own shards: 8.94); 1,800 to 2,700 games per second of CPU in one process, as
the shared machine allows (2.58 million instructions a game).
"""

from simulator.games.lostgems.bots.base import Bot
from simulator.games.lostgems.bots.beliefs import (
    beliefs,
    known_play,
    knows_a_play,
    leave_hand,
    means,
    opening_facts,
    partner_view,
    public_facts,
    spared_loss,
)
from simulator.games.lostgems.bots.cautious import CautiousBot
from simulator.games.lostgems.bots.codewords import MATCHES, shared_code_book
from simulator.games.lostgems.bots.handsets import (
    ALL_PAIRS_MASK,
    BIT_OF_HAND,
    FIRST_IN,
    SECOND_IN,
    SINGLES_IN,
    hands_of,
    mask_of,
    mask_where,
    new_cache,
    size_of,
    trim_caches,
)
from simulator.games.lostgems.bots.knowledge import consistent
from simulator.games.lostgems.moves import ALL_HINTS, DISCARDS, PLAYS, Move
from simulator.games.lostgems.shards import MAX_HINTS

# LITERAL[message][p]: the hands that hint points at just as it did, p = slot 1 pointed at
# + 2 * slot 2 pointed at (a hint's literal meaning, which holds whatever the code word).
LITERAL = tuple(
    tuple(
        mask_where(
            lambda h, m=MATCHES[k], p=p: (
                (not h or m[h[0]] == bool(p & 1)) and (len(h) < 2 or m[h[1]] == bool(p & 2))
            )
        )
        for p in range(4)
    )
    for k in range(6)
)

# Memoised belief updates (observe), shared by every bot and game in the process: the sets
# before and the public event -> the sets after.
_HINTS_READ = new_cache()
_ACTIONS_READ = new_cache()


def drops_last_copy(their_mask, facts, partner_hand):
    """Whether the partner (hands `their_mask`, holding `partner_hand`) would discard a last
    copy: the slot partner_view says they would, or any slot if all their shards are last
    copies (then their view need not be worked out)."""
    critical = facts.critical
    if critical[partner_hand[0]] and critical[partner_hand[-1]]:
        return True
    return critical[partner_hand[partner_view(their_mask, facts, len(partner_hand))[1]]]


class ConventionBot(Bot):
    name = "conventions"

    gamble = 1.1  # smallest chance of success for a blind play before the last round
    stall_jungle = 2  # with this few shards left, hint rather than draw towards the end
    discard_ok = 5.0  # largest expected loss a voluntary discard may risk (see loss_table)
    error_cost = 2.5  # what losing the first error token costs, in loss_table's units
    spare_loss = 1.0  # above this expected loss, hint a partner who can discard safely instead
    spare_ok = 0.0  # the partner "can discard safely" at or below this loss (their view)
    spare_seen = 0.3  # ... or whose likely discard is, as I see it, at most this costly

    def __init__(self, player, seed=0):
        Bot.__init__(self, player, seed)
        trim_caches()  # between games, the memo caches are kept within CACHE_LIMIT
        # Per hand: the possible shard tuples, as a bitmask (handsets.py). Both bots hold the
        # same two masks: they are common knowledge.
        self.masks = [ALL_PAIRS_MASK, ALL_PAIRS_MASK]
        # The public state after the last turn observed (PublicFacts, beliefs.py), kept from
        # the events so that it need not be rebuilt from the observation every time.
        self.public = opening_facts()
        self.seen = 0  # turns observed
        # Once the partner has done what these conventions never do, the code words mean
        # nothing between us: from then on this seat plays as the cautious bot, which reads
        # and gives hints literally (a person's way).
        self.plain = None

    def public_now(self, obs):
        """The PublicFacts now; read afresh from `obs` if a turn went unobserved."""
        if obs.turns != self.seen:
            self.public = public_facts(tuple(obs.gems), tuple(sorted(obs.discards)))
            self.seen = obs.turns
        return self.public

    @property
    def sets(self):
        """Per hand: the possible shard tuples, sorted."""
        return [hands_of(self.masks[0]), hands_of(self.masks[1])]

    # --- keeping the common knowledge -----------------------------------------------------
    def observe(self, obs, event):
        if self.plain is not None:
            return  # the cautious bot reads everything it needs from the observation
        actor = event.player
        other = 1 - actor
        move = event.move
        turn = event.turn
        if self.seen == turn - 1:
            facts = self.public  # before the move
        else:  # a turn went unobserved: undo this one's public change from the observation
            gems, discards = obs.gems, obs.discards
            if event.played:
                gems[event.shard // 3] -= 1
            elif move.kind != "hint":
                discards = discards[:-1]
            facts = public_facts(tuple(gems), tuple(sorted(discards)))
        self.seen = turn
        masks = self.masks
        kind = move.kind
        if kind == "hint":
            self.public = facts
            key = (self.__class__, masks[actor], masks[other], facts, move.code, event.touched)
            got = _HINTS_READ.get(key)
            if got is None:
                got = _HINTS_READ[key] = self.read_hint(*key[1:])
            masks[other] = got or mask_of(self.literal_hands(obs, other))
            if not got and other == self.player:
                self.partner_strays()  # no hand of mine is one that code word names
            return
        shard = event.shard
        if event.played:
            self.public = facts.after_play(shard)
        else:
            self.public = facts.after_discard(shard)
        token_left = event.hints > (1 if kind == "discard" or event.regained else 0)
        key = (
            self.__class__,
            masks[actor],
            masks[other],
            facts,
            token_left,  # before the move
            kind,
            move.slot,
            shard,
            event.holds,
        )
        got = _ACTIONS_READ.get(key)
        if got is None:
            got = _ACTIONS_READ[key] = self.read_action(*key[1:])
        masks[other] = got[1]
        masks[actor] = got[0] or mask_of(self.literal_hands(obs, actor))
        if not got[0] or (got[2] and actor != self.player):
            self.partner_strays()  # (my own hand not among my hands: the partner misled me)

    def partner_strays(self):
        """The partner does not follow these conventions (a person, or another bot): play on
        as the cautious bot, whose hints mean what they say."""
        self.plain = CautiousBot(self.player, self.seed)
        self.remark = (
            "You don't use my code words, so from now on my hints mean just what they say, "
            "and I read yours so."
        )

    def read_hint(self, actor_mask, target_mask, facts, message, touched):
        """The target's hands after a hint: those of the code word's group, agreeing with what
        the hint pointed at, and warned ones if the hinter knew a play. 0 if none is left."""
        group = shared_code_book(target_mask, facts).group(message)
        kept = target_mask & group & LITERAL[message][(1 in touched) + 2 * (2 in touched)]
        warned = self.warned_hands(actor_mask, target_mask, facts)
        return kept if warned is None else kept & warned

    def read_action(self, actor_mask, other_mask, facts, token_left, kind, slot, shown, size_after):
        """(actor's mask, other's mask, whether the actor broke these conventions) after a
        play or discard of `shown` from `slot`; the actor's mask is 0 if no hand is left (they
        broke them too). Discarding beside a play one knows of is never done here."""
        n = size_of(actor_mask)
        broke = kind == "discard" and n > 0 and knows_a_play(actor_mask, facts)
        if token_left:
            other_mask = self.no_warning(other_mask, facts)
            if kind == "discard":
                other_mask = self.no_unknown_play(other_mask, facts)
        return leave_hand(actor_mask, slot, shown, size_after), other_mask, broke

    @staticmethod
    def literal_hands(obs, player):
        """Hands the hints allow read literally: the fallback when a partner who does not follow
        these conventions (a person) has led the common knowledge astray."""
        options = [[t for t in range(9) if consistent(t, k)] for k in obs.knowledge(player)]
        if len(options) == 2:
            return tuple((a, b) for a in options[0] for b in options[1])
        return tuple((a,) for a in options[0]) if options else ((),)

    def warned_hands(self, actor_mask, target_mask, facts):
        """A player who surely knew a play (common knowledge) hinted instead: by this policy
        only a warning comes before one's own play, so the target's hand is one that would be
        warned. Returns the mask of those hands, or None when nothing follows."""
        n = size_of(actor_mask)
        if not n:
            return None
        if not knows_a_play(actor_mask, facts):
            return None
        return target_mask ^ self.no_warning(target_mask, facts)  # (a subset of it)

    @staticmethod
    def no_warning(mask, facts):
        """The partner of the hand played or discarded with a token available, so by this
        policy they did not see it in danger: rule out the hands they would have warned."""
        if not mask & facts.critical_hands & facts.spare_hands:
            return mask  # no hand holds a last copy and something else to do: none is warned
        n = size_of(mask)
        knows_play, s, _ = partner_view(mask, facts, n)
        if knows_play:
            return mask
        # Warned: the hand's likely discard is a last copy, and it holds a shard that is not
        # one, or is playable (something else to do).
        playable, critical = facts.playable_set, facts.critical_set
        other = ~critical & 511 | playable
        if n == 2:
            at_risk = (FIRST_IN if s == 0 else SECOND_IN)[critical]
            warned = at_risk & (FIRST_IN[other] | SECOND_IN[other])
        else:
            warned = SINGLES_IN[critical & other]
        return mask ^ (mask & warned) or mask  # (x ^ (x & y), not x & ~y: ints stay >= 0)

    @staticmethod
    def no_unknown_play(mask, facts):
        """The partner of the hand discarded while a token was available, so by this policy
        they saw no play in it that its holder could not know of: unless the holder already
        knew a play, the hand holds no playable shard. (Common knowledge: both bots infer it.)"""
        n = size_of(mask)
        if not n:
            return mask
        if knows_a_play(mask, facts):
            return mask
        unplayable = ~facts.playable_set & 511
        return (
            mask & (FIRST_IN[unplayable] & SECOND_IN[unplayable] | SINGLES_IN[unplayable]) or mask
        )

    # --- choosing a move --------------------------------------------------------------------
    def act(self, obs):
        if self.plain is not None:
            return self.plain.act(obs)
        hints, errors, jungle, turns, final_turns, n, partner_hand = obs.glance()
        return self.decide(
            self.masks[self.player],
            self.masks[1 - self.player],
            self.public if turns == self.seen else self.public_now(obs),
            hints,
            errors == 0,
            partner_hand,
            n,
            final_turns,
            jungle <= self.stall_jungle,
        )

    def decide(
        self,
        my_mask,
        their_mask,
        facts,
        hints,
        no_error,
        partner_hand,
        n,
        final_turns,
        jungle_low,
    ):
        """The move, from common knowledge, the partner's hand and the public state (`facts`,
        a PublicFacts) only."""
        # What the partner makes of their hand (partner_view) matters only if I may hint; its
        # discard slot and loss are worked out only where a question needs them.
        hinting = hints > 0 and partner_hand
        partner_knows = hinting and knows_a_play(their_mask, facts)
        hand_bit = BIT_OF_HAND[partner_hand]
        at_risk = hinting and not partner_knows and hand_bit & facts.critical_hands
        if (
            at_risk
            and hand_bit & facts.spare_hands
            and drops_last_copy(their_mask, facts, partner_hand)
        ):
            # Their likely discard is a last copy, and they have something else to do.
            return self.hint(their_mask, facts, hand_bit)  # a warning
        needs_hint = hinting and not partner_knows and hand_bit & facts.playable_hands
        mine = facts.beside(partner_hand)
        my_hands = my_mask & mine.possible  # the hands I may hold, seeing the partner's
        s = known_play(my_hands, facts.playable_set)
        if s >= 0:
            return PLAYS[s]
        last = final_turns is not None and (final_turns == 1 or not needs_hint)
        gambles = n and no_error and (last or self.gamble <= 1.0 or hints <= 1)
        if needs_hint and not gambles:  # the hint below, without weighing my hand for nothing
            return self.hint(their_mask, facts, hand_bit)
        can_discard = hints < MAX_HINTS and n > 0
        if not (gambles or can_discard):  # a hint (all tokens in hand): nothing to weigh
            return self.hint(their_mask, facts, hand_bit)
        # A slot I know holds trash costs nothing to discard: it is the slot I would discard,
        # and no blind play beats it (a failed play never costs less than nothing), so unless
        # the last round asks for the odds of a play, my hand need not be weighed.
        weigh_plays = gambles and (last or self.gamble <= 1.0)
        junk = -1 if weigh_plays else known_play(my_hands, facts.trash_set)
        losses = None  # per slot, the expected loss of discarding it (once worked out)
        if junk < 0:
            rows, total = beliefs(my_mask, mine, n)
        if gambles and junk < 0:
            if weigh_plays:
                play_odds = means(rows, total, facts.playable)
                s = 1 if n == 2 and play_odds[1] > play_odds[0] else 0
                if (last and play_odds[s] > 0) or play_odds[s] >= self.gamble:
                    return PLAYS[s]
            if hints <= 1:
                # Short of tokens to stall with: a blind play that fails loses its shard too,
                # and an error token; play when that costs less, in expectation, than the
                # cheapest discard.
                loss = spared_loss(facts.loss, facts.trash, partner_hand)
                losses = means(rows, total, loss)
                # A free discard beats any blind play (which costs >= 0, as error_cost >= 0),
                # and a hand with no playable shard fails for sure, at more than a discard.
                if min(losses) > 0.0 and my_hands & facts.playable_hands:
                    playable = facts.playable
                    fail = [0.0 if playable[t] else loss[t] + self.error_cost for t in range(9)]
                    costs = means(rows, total, fail)
                    j = 1 if n == 2 and costs[1] < costs[0] else 0
                    if costs[j] < min(losses):
                        return PLAYS[j]
        if needs_hint:
            return self.hint(their_mask, facts, hand_bit)
        if can_discard:
            if junk >= 0:
                s, discard_loss = junk, 0.0
            else:
                if losses is None:
                    losses = means(rows, total, spared_loss(facts.loss, facts.trash, partner_hand))
                s = 1 if n == 2 and losses[1] < losses[0] else 0
                discard_loss = losses[s]
            stall = hints > 0 and jungle_low
            if hinting and discard_loss > self.spare_loss:
                # If the partner has something free to do (a play they know, or a discard that
                # brings the token back): hint, and keep my risky shard until I know more.
                if partner_knows:
                    stall = True
                else:
                    _, chop, their_loss = partner_view(their_mask, facts, len(partner_hand))
                    if their_loss <= self.spare_ok or (
                        their_loss <= self.discard_ok
                        and facts.loss[partner_hand[chop]] <= self.spare_seen
                    ):
                        stall = True
            if not stall and discard_loss <= self.discard_ok:
                return DISCARDS[s]
        if hints > 0:
            if (
                hints == 1
                and can_discard
                and at_risk
                and drops_last_copy(their_mask, facts, partner_hand)
            ):
                # My last token would leave the partner, who knows no play, none to stall with
                # before discarding a last copy: risk my own discard instead.
                return DISCARDS[s]
            return self.hint(their_mask, facts, hand_bit)
        return Move.discard(s + 1)

    @staticmethod
    def hint(their_mask, facts, hand_bit):
        """The hint whose code word names the group of the partner's actual hand (the mask of
        that one hand: `hand_bit`). (None does only if the common knowledge has gone astray,
        which a seat that follows these conventions never causes, but a subclass that bends
        them may: then the first hint.)"""
        k = shared_code_book(their_mask, facts).hint_naming(hand_bit)
        return ALL_HINTS[max(k, 0)]
