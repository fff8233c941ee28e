"""The search bot: the convention bot, corrected by rollouts at each of its turns (SPARTA's
single-agent search, Lerer et al. 2020).

At its turn the bot asks its blueprint (the convention bot) for a move. Unless that is a play
the common knowledge already proves (nothing to weigh), it lists the hands it may hold with
their weights (own_hand.py: card counting, the code words, and what the partner's blueprint
would have done with each), deals `worlds` full worlds from them (systematic sampling over the
hands, a shuffled jungle for each), and plays each candidate move out in every world with the
blueprint in both seats afterwards (rollout.py). The candidates are the blueprint's move,
each play with some chance of success, each discard the conventions allow (not beside a play
the common knowledge proves), and the hint that names the partner's hand; a candidate after
which the partner's common knowledge would no longer hold their actual hand is dropped, so
the partner never goes astray. The same worlds serve every candidate, so their difference is
measured without the deal's noise. The bot moves off the blueprint only when a candidate
beats the blueprint's move by more than `margin` points on average (docs/search-bot.md says
why that margin).

The bot reads nothing but its Observation (the partner's hand, the public state, its own
hint knowledge through the blueprint's masks); tests/lostgems/test_search_fair.py checks that
its choices do not change when its own shards are changed in the hidden state. Its randomness
is its own seed and the turn, so a game replays exactly.
"""

import random

from simulator.games.lostgems.bots.base import Bot
from simulator.games.lostgems.bots.beliefs import known_play, knows_a_play, public_facts
from simulator.games.lostgems.bots.compare import choose, sample_deals
from simulator.games.lostgems.bots.conventions import ConventionBot
from simulator.games.lostgems.bots.handsets import BIT_OF_HAND
from simulator.games.lostgems.bots.own_hand import (
    NO_MARKS,
    marked_after_leaving,
    marked_after_partner,
    weighted_hands,
)
from simulator.games.lostgems.bots.rollout import BLUEPRINT, STALL_JUNGLE
from simulator.games.lostgems.moves import DISCARDS, HINT, PLAYS
from simulator.games.lostgems.shards import MAX_HINTS


class SearchBot(Bot):
    name = "search"

    margin = 0.05  # points a candidate must gain over the blueprint's move, on average
    worlds = 192  # deals at most per searched turn (each candidate still running plays all)
    batch = 32  # deals played out before the hopeless candidates are dropped
    stray = 0.1  # weight factor of a hand under which the partner would have moved otherwise

    def __init__(self, player, seed=0):
        Bot.__init__(self, player, seed)
        self.blueprint = ConventionBot(player, seed)
        self.marks = NO_MARKS  # own_hand.py: per hand, the partner's moves it disagrees with
        self.searched = 0  # turns searched
        self.deviated = 0  # turns on which the search moved off the blueprint

    # --- belief ---------------------------------------------------------------------------
    def observe(self, obs, event):
        bp = self.blueprint
        if bp.plain is None:
            if event.player != self.player:
                if bp.seen == event.turn - 1:
                    self.mark_partner(obs, event)
            elif event.move.kind != HINT:
                self.marks = marked_after_leaving(
                    self.marks, event.move.slot, event.shard, event.holds
                )
        bp.observe(obs, event)

    def mark_partner(self, obs, event):
        """Mark the hands of mine under which the partner's blueprint would not have made the
        move it just made (called before the blueprint reads the move: its masks and public
        facts are still those the partner moved with)."""
        bp = self.blueprint
        me, partner = self.player, 1 - self.player
        move = event.move
        hand = tuple(obs.partner_hand)  # the partner's hand now; undo the move's change
        hints, errors = event.hints, event.errors - event.error
        jungle = obs.jungle
        final_turns = obs.final_turns
        if event.drew is not None:
            hand = hand[:-1]
            jungle += 1
            final_turns = None if jungle == 1 else final_turns
        if final_turns is not None:
            final_turns += 1
        if move.kind == HINT:
            hints += 1
        else:
            hand = hand[: move.slot - 1] + (event.shard,) + hand[move.slot - 1 :]
            hints -= (move.kind != "play") + event.regained
        facts = bp.public
        masks = bp.masks
        mine = facts.beside(hand)

        def same_move(my_hand):
            m = BLUEPRINT.decide(
                masks[partner],
                masks[me],
                facts,
                hints,
                errors == 0,
                my_hand,
                len(hand),
                final_turns,
                jungle <= STALL_JUNGLE,
            )
            return m == move

        n = obs.hand_size
        self.marks = marked_after_partner(self.marks, masks[me] & mine.possible, n, same_move)

    # --- choosing a move ------------------------------------------------------------------
    def act(self, obs):
        bp = self.blueprint
        move = bp.act(obs)
        if bp.plain is not None:
            return move
        hints, errors, _, turns, final_turns, n, partner_hand = obs.glance()
        if n == 0:
            return move
        facts = bp.public if turns == bp.seen else public_facts_of(obs)
        me = self.player
        my_mask, their_mask = bp.masks[me], bp.masks[1 - me]
        mine = facts.beside(partner_hand)
        if move.kind == "play" and known_play(my_mask & mine.possible, facts.playable_set) >= 0:
            return move  # a play the common knowledge proves: nothing to weigh
        hands = weighted_hands(my_mask, mine, self.marks, self.stray)
        if not hands:
            return move
        candidates = self.candidates(
            move, hands, facts, hints, n, my_mask, their_mask, partner_hand
        )
        if len(candidates) < 2:
            return move
        self.searched += 1
        rng = random.Random(self.seed * 1009 + turns)
        deals = sample_deals(hands, mine.counts, self.worlds, rng)
        start = (me, hints, errors, facts, bp.masks, final_turns, tuple(partner_hand))
        k = choose(candidates, start, deals, self.batch, self.margin)
        if k:
            self.deviated += 1
        return candidates[k]

    @staticmethod
    def candidates(move, hands, facts, hints, n, my_mask, their_mask, partner_hand):
        """The blueprint's move first, then the other moves worth playing out."""
        out = [move]
        for s in range(n):
            if any(facts.playable[h[s]] for h, _ in hands):
                out.append(PLAYS[s])
        if hints < MAX_HINTS and not knows_a_play(my_mask, facts):
            out.extend(DISCARDS[:n])
        if hints > 0 and partner_hand:
            out.append(BLUEPRINT.hint(their_mask, facts, BIT_OF_HAND[tuple(partner_hand)]))
        unique = []
        for m in out:
            if m not in unique:
                unique.append(m)
        return unique


def public_facts_of(obs):
    """The PublicFacts of the observation (a turn the blueprint did not observe)."""
    return public_facts(tuple(obs.gems), tuple(sorted(obs.discards)))
