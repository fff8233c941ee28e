"""Bots that play Gem Match from observations only, by name: `greedy` (the default), `careful`
and `random`. A bot sees the field, both hands and the heaps' sizes, never the pile's order nor
a token's other side (but those of a group it is resolving).

- random: any legal move.
- greedy: the placement that scores most now (a group of 3 a point, 4 a point and a token to
  the hand, 5+ every token), keeping its improved tokens (each a point at the end) unless
  spending one scores more; it takes the hand token improved side up.
- careful: greedy, and it also weighs what each placement leaves the opponent, whose hand it
  sees: the best the opponent could score next with the tokens they hold. The bot a person
  meets as a fair opponent.
"""

import random

from simulator.games.gemmatch import moves as mv
from simulator.games.gemmatch.field import Placed
from simulator.games.gemmatch.rules import BIG, HAND_LIMIT, HUGE, IMPROVED, SMALL
from simulator.games.gemmatch.tactics import Outlook
from simulator.play import bots as play_bots
from simulator.play.bots import BotTable, play_out
from simulator.play.bots import bot_seed as seed_of_bot

EXTRA_VALUE = 0.6  # another placement, now
KEEP_VALUE = 1.05  # an improved token in the hand: a point at the end, if it stays there
OPPONENT_WEIGHT = 0.8  # careful: how much what the opponent could score next counts against


class Bot(play_bots.Bot):
    """Gem Match's bots' base."""


class RandomBot(play_bots.RandomPlay, Bot):
    """A legal move at random (the yardstick)."""


def gain(outcome, hand_room):
    """What a placement's groups are worth to the player who makes them (points, roughly)."""
    value = 0.0
    for tier, group in outcome:
        tokens = len(group.cells)
        if tier == SMALL:
            value += 1.0
        elif tier == BIG:
            value += 1.0 + (KEEP_VALUE if hand_room > 0 else 1.0) + EXTRA_VALUE
            hand_room -= 1
        else:
            value += tokens + EXTRA_VALUE
    return value


def best_score_for(field, hand, improved, room, outlook=None):
    """The most a hand could make now on this field (gain of its best placement, less what an
    improved token spent would have kept)."""
    outlook = outlook or Outlook(field)
    best = 0.0
    for gems, up in zip(hand, improved):
        cost = KEEP_VALUE if up else 0.0
        for cell in outlook.cells:
            for rotation in range(6):
                outcome = outlook.outcome(cell, gems, rotation)
                if outcome:
                    best = max(best, gain(outcome, room) - cost)
    return best


class GreedyBot(Bot):
    name = "greedy"
    looks_ahead = False

    def __init__(self, player, seed=0):
        Bot.__init__(self, player, seed)
        self.rng = random.Random(seed)

    def act(self, obs):
        if obs.phase == "resolve":
            return self._resolve(obs)
        moves = obs.legal_moves()
        if moves == [mv.skip()]:
            return moves[0]
        choice, value = self._place(obs)
        if obs.phase == "extra" and (choice is None or value <= 0.0):
            return mv.pass_()
        return choice

    # --- placing -----------------------------------------------------------------------------
    def _place(self, obs):
        field = obs.field
        outlook = Outlook(field)
        hand = obs.hand()
        improved = obs.improved_in_hand()
        room = HAND_LIMIT - len(hand) + 1  # the token placed leaves the hand
        scored = []
        for slot, (gems, up) in enumerate(zip(hand, improved), 1):
            cost = KEEP_VALUE if up else 0.0
            seen = set()
            for cell in outlook.cells:
                for rotation in range(6):
                    shown = tuple(gems[(d - rotation) % 6] for d in range(6))
                    if (cell, shown) in seen:
                        continue  # a turned copy of a symmetric side
                    seen.add((cell, shown))
                    outcome = outlook.outcome(cell, gems, rotation)
                    value = gain(outcome, room) - cost + self.rng.random() * 0.01
                    scored.append((value, slot, cell, rotation, bool(outcome)))
        if not scored:
            return None, 0.0
        scored.sort(reverse=True)
        if self.looks_ahead:
            scored = self._weigh_reply(obs, field, hand, scored)
        value, slot, cell, rotation, _ = scored[0]
        return mv.place(slot, cell, rotation), value

    def _weigh_reply(self, obs, field, hand, scored, keep=6):
        """careful: of the best placements (and the best that make no group), the one whose
        value stays highest once the opponent's best reply counts against it."""
        quiet = [s for s in scored if not s[4]]
        candidates = scored[:keep] + [s for s in quiet[:keep] if s not in scored[:keep]]
        other = 1 - self.player
        opp_hand = obs.hand(other)
        opp_up = obs.improved_in_hand(other)
        opp_room = HAND_LIMIT - len(opp_hand)
        out = []
        for value, slot, cell, rotation, makes in candidates:
            if makes:
                out.append((value, slot, cell, rotation, makes))  # the field changes: not weighed
                continue
            after = field.copy()
            after.put(cell, Placed(-1, hand[slot - 1], rotation))
            reply = best_score_for(after, opp_hand, opp_up, opp_room)
            out.append((value - OPPONENT_WEIGHT * reply, slot, cell, rotation, makes))
        out.sort(reverse=True)
        return out

    # --- resolving ---------------------------------------------------------------------------
    def _resolve(self, obs):
        pending = obs.pending
        moves = obs.legal_moves()
        hands = [m for m in moves if m.kind == mv.HAND and m.side == IMPROVED]
        heaps = [m for m in moves if m.kind == mv.HEAP]
        if pending.tier == HUGE:
            return hands[0] if hands else heaps[0]
        if pending.tier == BIG and pending.heap:
            # the heap takes a basic token, so the pair comes back to the hand
            return self._pick(obs, heaps, prefer=0 if len(pending.cells) > 1 else IMPROVED)
        if hands:
            return self._pick(obs, hands, prefer=IMPROVED)
        return self._pick(obs, heaps, prefer=IMPROVED)

    def _pick(self, obs, moves, prefer):
        """The token to take: one showing side `prefer` first (a pair left on the field is bait
        for the opponent), else the first."""
        for m in moves:
            if obs.side_at(m.cell) == prefer:
                return m
        return moves[0]


class CarefulBot(GreedyBot):
    name = "careful"
    looks_ahead = True


BOTS = {b.name: b for b in (CarefulBot, GreedyBot, RandomBot)}
BEST_BOT = CarefulBot.name


TABLE = BotTable("Gem Match", BOTS, Bot, "simulator.games.gemmatch.bots.Bot")
bot_class = TABLE.bot_class


def bot_seed(deal_seed, player):
    return seed_of_bot(deal_seed, player, 0x6E3)


def play_game(bot, seed=0, deck=None, start=0, seats=None):
    """One game, `bot` (a class or name) in both seats unless `seats` names one per seat; the
    final GameState."""
    from simulator.games.gemmatch.referee import GameState, IllegalMove

    state = GameState(seed=seed, deck=deck, start=start)
    classes = seats or [bot] * state.players
    bots = [bot_class(c)(p, bot_seed(seed, p)) for p, c in enumerate(classes)]
    return play_out(state, bots, seed, IllegalMove)
