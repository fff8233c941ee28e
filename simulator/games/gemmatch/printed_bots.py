"""Bots for the printed Gem Match (printed.py), by name: `greedy` (the default) and `random`.

The greedy bot places the token, turn and spot that make the most of the groups at once (a
group of 3 is a point, one of 4 two points and another placement, one of 5 or more every token
of it), keeps its improved tokens in hand unless placing one makes a group, and leaves as few
pairs of gems alike beside it as it can, since the opponent would complete them.
"""

from simulator.games.gemmatch import printed as pr
from simulator.games.gemmatch.rules import BASIC, IMPROVED
from simulator.play import bots as play_bots
from simulator.play.bots import BotTable, play_out
from simulator.play.bots import bot_seed as seed_of_bot

TIER_VALUE = {1: 1.0, 2: 3.0}  # a top group is worth its tokens and a placement
KEEP_UNTIL = 3  # a top group's tokens go to the hand (improved up) while it holds fewer


class Bot(play_bots.Bot):
    """The printed Gem Match bots' base."""


class RandomBot(play_bots.RandomPlay, Bot):
    """A legal move at random (a yardstick)."""


class GreedyBot(Bot):
    name = "greedy"

    def act(self, obs):
        phase = obs.phase
        if phase == pr.SKIP:
            return pr.SKIP_MOVE
        if phase in (pr.PLACE, pr.AGAIN):
            best, value = self._best_place(obs)
            if phase == pr.AGAIN and (best is None or value <= 0):
                return pr.PASS
            return best
        group = sorted(obs.group.tokens)
        if phase == pr.HEAP:
            return pr.heap(group[0])
        if phase == pr.KEEP:  # the token whose hidden side has the most gems alike to come
            return pr.keep(group[-1], IMPROVED)
        if len(obs.hand()) < KEEP_UNTIL:
            return pr.keep(group[0], IMPROVED)
        return pr.heap(group[0])

    def _best_place(self, obs):
        field = obs.field
        hand = obs.hand()
        best, best_value = None, None
        lies = [dict(pr.ways(token, side)) for token, side in hand]
        for move in obs.legal_moves():
            if move.kind != pr.PLACE:
                continue
            token, side = hand[move.slot - 1]
            x, y = move.spot
            cells = [(x + cx, y + cy) for cx, cy in lies[move.slot - 1][move.turn]]
            value = self._value(field, token, side, cells)
            if best_value is None or value > best_value:
                best, best_value = move, value
        return best, best_value

    def _value(self, field, token, side, cells):
        for cell, gem in zip(cells, pr.side_gems(token, side)):
            field[cell] = (token, gem)
        try:
            groups = pr.merged(pr.groups_on(field, cells))
            pairs = _pairs(field, cells)
        finally:
            for cell in cells:
                del field[cell]
        value = sum(TIER_VALUE.get(g.tier, len(g.tokens) + 3.0) for g in groups)
        if side == IMPROVED and not groups:
            value -= 1.0  # an improved token in hand is a point
        return value - 0.1 * pairs


def _pairs(field, cells):
    """Pairs of gems alike, one of them new, across two tokens: half a group for the next
    player."""
    n = 0
    for x, y in cells:
        token, gem = field[(x, y)]
        for nxt in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if nxt in field and field[nxt][1] == gem and field[nxt][0] != token:
                n += 1
    return n


BOTS = {GreedyBot.name: GreedyBot, RandomBot.name: RandomBot}
BEST_BOT = GreedyBot.name
TABLE = BotTable("printed Gem Match", BOTS, Bot, "simulator.games.gemmatch.printed_bots.Bot")
bot_class = TABLE.bot_class


def play_game(bot, seed=0, seats=None, size=pr.FIELD_SIZE, deck=None):
    """One printed game, `bot` (a class or name) in both seats unless `seats` names each."""
    state = pr.GameState(seed=seed, deck=deck, size=size)
    classes = seats or [bot_class(bot)] * 2
    bots = [bot_class(c)(p, seed_of_bot(seed, p, 0x9E7)) for p, c in enumerate(classes)]
    return play_out(state, bots, seed, pr.IllegalMove)


__all__ = ["BASIC", "BEST_BOT", "play_game"]
