"""Bots that play Gem Match from observations only, by name: `greedy` (the default), `careful`
and `random`. A bot sees the field, both hands and the heaps' sizes, never the pile's order nor
a token's other side (but those of a group it is resolving).

- random: any legal move.
- greedy: the placement that scores most now (a group of 2 a point, 3 a point and a token to
  the hand, 4+ every token), keeping its improved tokens (each a point at the end) unless
  spending one scores more; it takes the hand token improved side up.
- careful: greedy, and it also weighs what each placement leaves the opponent, whose hand it
  sees: the best the opponent could score next with the tokens they hold. The bot a person
  meets as a fair opponent.
"""

import random

from simulator.games.gemmatch import moves as mv
from simulator.games.gemmatch.field import Placed
from simulator.games.gemmatch.rules import (
    BIG,
    HAND_LIMIT,
    HUGE,
    IMPROVED,
    SMALL,
    TIER_SIZES,
    neighbour,
    tier_of,
)
from simulator.games.gemmatch.tactics import Outlook, twin_face
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


_gains = {}  # (signature, gems, rotation, room) -> placement_gain's answer


def placement_gain(outlook, cell, gems, rotation, room):
    """placement_gain_of, remembered: the same few neighbourhoods and tokens come up over and
    over in a game and from game to game."""
    key = (outlook.signature[cell], gems, rotation, room)
    found = _gains.get(key)
    if found is None:
        if len(_gains) > 200_000:
            _gains.clear()  # bounded: a long batch of games keeps its memory
        found = _gains[key] = placement_gain_of(outlook, cell, gems, rotation, room)
    return found


def placement_gain_of(outlook, cell, gems, rotation, room):
    """gain(outlook.outcome(cell, gems, rotation), room), counted without building the groups:
    the bots ask it of every cell and rotation. On a settled field each group facing the new
    token lies on one neighbour and is joined by one run of its gems at most (tactics.py), so a
    run's group is its gems plus the groups it joins, and groups merged as the document counts
    them add up their gems and their tokens (the new one once). Returns (gain, makes a group)."""
    facing = outlook.facing[cell]
    twin = twin_face(gems)
    twin_at = None if twin is None else (twin + rotation) % 6
    by_tier = {}
    for d in range(6):
        if twin_at is not None and d == (twin_at + 1) % 6:
            continue  # counted with its twin
        run = (d, (d + 1) % 6) if d == twin_at else (d,)
        colour = gems[(d - rotation) % 6]
        size = len(run)
        joined = 0
        for e in run:
            g = facing[e]
            if g is not None and g.colour == colour:
                size += g.size
                joined += 1
        if joined and size >= TIER_SIZES[0]:
            by_tier.setdefault(tier_of(size), []).append((size, 1 + joined))
    if not by_tier:
        return 0.0, False
    for tier in (SMALL, BIG, HUGE):
        found = by_tier.get(tier, ())
        if len(found) > 1:
            union = (sum(s for s, _ in found), 1 + sum(c - 1 for _, c in found))
            by_tier[tier] = []
            by_tier.setdefault(min(tier + 1, HUGE), []).append(union)
    value = 0.0
    for tier in (HUGE, BIG, SMALL):
        for _size, tokens in by_tier.get(tier, ())[:1]:
            if tier == SMALL:
                value += 1.0
            elif tier == BIG:
                value += 1.0 + (KEEP_VALUE if room > 0 else 1.0) + EXTRA_VALUE
                room -= 1
            else:
                value += tokens + EXTRA_VALUE
    return value, True


def best_score_for(field, hand, improved, room, outlook=None):
    """The most a hand could make now on this field (gain of its best placement, less what an
    improved token spent would have kept)."""
    bests = cell_bests(outlook or Outlook(field), hand, improved, room)
    return max([0.0, *bests.values()])


_cell_gains = {}  # (signature, gems, room) -> best_gain_at's answer


def best_gain_at(outlook, cell, gems, room):
    """The most a token showing `gems` makes on `cell` in any rotation, or None when no
    rotation makes a group; remembered like placement_gain, by the cell's signature."""
    key = (outlook.signature[cell], gems, room)
    if key in _cell_gains:
        return _cell_gains[key]
    best = None
    for rotation in range(6):
        made, makes = placement_gain_of(outlook, cell, gems, rotation, room)
        if makes and (best is None or made > best):
            best = made
    if len(_cell_gains) > 200_000:
        _cell_gains.clear()
    _cell_gains[key] = best
    return best


def cell_bests(outlook, hand, improved, room):
    """{cell: the most the hand could make there} for the outlook's cells where it makes any
    group: the rest of best_score_for, kept per cell so that a field one token larger need only
    look again around that token (CarefulBot._weigh_reply)."""
    bests = {}
    for gems, up in zip(hand, improved):
        gems = tuple(gems)
        cost = KEEP_VALUE if up else 0.0
        for cell in outlook.cells:
            if not outlook.may_make(cell, gems):
                continue
            made = best_gain_at(outlook, cell, gems, room)
            if made is not None:
                value = made - cost
                if value > bests.get(cell, value - 1.0):
                    bests[cell] = value
    return bests


def distinct_rotations(gems):
    """The rotations of a side that show different gems, first of each kind: a symmetric
    side's turned copies are the same placement."""
    shown = []
    out = []
    for rotation in range(6):
        looks = tuple(gems[(d - rotation) % 6] for d in range(6))
        if looks not in shown:
            shown.append(looks)
            out.append(rotation)
    return out


def best_reply_after(field, base, cell, placed, hand, improved, room):
    """best_score_for on `field` with `placed` put on `cell`, given `base` (cell_bests on
    `field` as it is), for a placement that makes no group: every group of the field stays as
    it is and only the cells around `cell` see new gems, so only they are looked at again."""
    after = field.copy()
    after.put(cell, placed)
    around = {neighbour(cell, d) for d in range(6)}
    bests = {c: v for c, v in base.items() if c != cell and c not in around}
    bests.update(cell_bests(Outlook(after, only=around), hand, improved, room))
    return max([0.0, *bests.values()])


class GreedyBot(Bot):
    name = "greedy"
    looks_ahead = False

    def __init__(self, player, seed=0):
        Bot.__init__(self, player, seed)
        self.rng = random.Random(seed)

    def act(self, obs):
        if obs.phase == "resolve":
            return self._resolve(obs)
        choice, value = self._place(obs)
        if obs.phase == "extra" and (choice is None or value <= 0.0):
            return mv.pass_()
        return mv.skip() if choice is None else choice  # no token in hand, or no open cell

    # --- placing -----------------------------------------------------------------------------
    def _place(self, obs):
        field = obs.field
        outlook = Outlook(field)
        hand = obs.hand()
        improved = obs.improved_in_hand()
        room = HAND_LIMIT - len(hand) + 1  # the token placed leaves the hand
        scored = []
        noise = self.rng.random
        for slot, (gems, up) in enumerate(zip(hand, improved), 1):
            gems = tuple(gems)
            cost = KEEP_VALUE if up else 0.0
            rotations = distinct_rotations(gems)
            for cell in outlook.cells:
                if not outlook.may_make(cell, gems):
                    for rotation in rotations:
                        scored.append((noise() * 0.01 - cost, slot, cell, rotation, False))
                    continue
                for rotation in rotations:
                    made, makes = placement_gain(outlook, cell, gems, rotation, room)
                    scored.append((made - cost + noise() * 0.01, slot, cell, rotation, makes))
        if not scored:
            return None, 0.0
        scored.sort(reverse=True)
        if self.looks_ahead:
            scored = self._weigh_reply(obs, field, hand, scored, outlook)
        value, slot, cell, rotation, _ = scored[0]
        return mv.place(slot, cell, rotation), value

    def _weigh_reply(self, obs, field, hand, scored, outlook, keep=6):
        """careful: of the best placements (and the best that make no group), the one whose
        value stays highest once the opponent's best reply counts against it."""
        quiet = [s for s in scored if not s[4]]
        candidates = scored[:keep] + [s for s in quiet[:keep] if s not in scored[:keep]]
        other = 1 - self.player
        opp_hand = obs.hand(other)
        opp_up = obs.improved_in_hand(other)
        opp_room = HAND_LIMIT - len(opp_hand)
        base = cell_bests(outlook, opp_hand, opp_up, opp_room)
        out = []
        for value, slot, cell, rotation, makes in candidates:
            if makes:
                out.append((value, slot, cell, rotation, makes))  # the field changes: not weighed
                continue
            placed = Placed(-1, hand[slot - 1], rotation)
            reply = best_reply_after(field, base, cell, placed, opp_hand, opp_up, opp_room)
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
