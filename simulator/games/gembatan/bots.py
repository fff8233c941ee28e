"""Bots that play Gembatan from observations only, by name: `greedy` (the default) and
`random`. A bot sees the board, every hand and the points; never the order of the tray or the
pile.

- random: any legal move (a trade only when no tile can be laid, or it would trade nearly
  always: a hand has 256 trades and few tiles to lay).
- greedy: the move that scores most now: a gem by its points (one, and each chain it makes), a
  tile by the best gem it lets it lay next; it lays every gem it can (a Gembatan is four more
  points, and a gem left at the end costs one), and when no tile fits it trades the tiles, and
  while the tray holds gems, the gems no open socket takes.
"""

import random

from simulator.games.gembatan import moves as mv
from simulator.games.gembatan.board import gem_matches
from simulator.play import bots as play_bots
from simulator.play.bots import BotTable, play_out
from simulator.play.bots import bot_seed as seed_of_bot


class Bot(play_bots.Bot):
    """Gembatan's bots' base: each has its own random stream."""

    def __init__(self, player, seed=0):
        play_bots.Bot.__init__(self, player, seed)
        self.rng = random.Random(seed)


class RandomBot(Bot):
    name = "random"

    def act(self, obs):
        moves = obs.legal_moves()
        plays = [m for m in moves if m.kind != mv.TRADE]
        return self.rng.choice(plays or moves)


def gem_value(board, gem, e):
    """The points gem `gem` scores in socket `e` of `board` (None if it does not fit)."""
    colours = board.gem_fits(gem, e)
    if colours is None:
        return None
    after = board.copy()
    after.gems[e] = colours
    return after.gem_points(e)


class GreedyBot(Bot):
    name = "greedy"

    def act(self, obs):
        moves = obs.legal_moves()
        board = obs.board
        gems = obs.gems()
        best, best_value = None, -1.0
        for m in moves:
            if m.kind == mv.GEM:
                value = gem_value(board, gems[m.slot - 1], m.edge)
            elif m.kind == mv.TILE:
                value = self._tile_value(board, obs, m, gems)
            else:
                continue
            value += self.rng.random() * 0.01
            if value > best_value:
                best, best_value = m, value
        if best is not None:
            return best
        if obs.phase != "start":
            return mv.done()
        return self._trade(obs, board, gems)

    def _tile_value(self, board, obs, m, gems):
        """A tile is worth the best gem it lets the bot lay in a socket it makes."""
        sides = obs.tiles()[m.slot - 1]
        made = board.sockets_made(m.cell, sides, m.rotation)
        after = board.copy()
        after.tiles[m.cell] = (sides, m.rotation)
        best = 0
        for e, colours in made:
            if any(gem_matches(g, colours) for g in gems):
                after.gems[e] = colours
                best = max(best, after.gem_points(e))
                del after.gems[e]
        return best

    def _trade(self, obs, board, gems):
        tiles = list(range(1, len(obs.tiles()) + 1)) if obs.pile else []
        useless = []
        if obs.tray:
            sockets = board.open_sockets()
            useless = [
                i for i, g in enumerate(gems, 1) if not any(board.gem_fits(g, e) for e in sockets)
            ]
        return mv.trade(tiles, useless)


BOTS = {b.name: b for b in (GreedyBot, RandomBot)}
BEST_BOT = GreedyBot.name


TABLE = BotTable("Gembatan", BOTS, Bot, "simulator.games.gembatan.bots.Bot")
bot_class = TABLE.bot_class


def bot_seed(deal_seed, player):
    return seed_of_bot(deal_seed, player, 0x6EB)


def play_game(bot, seed=0, players=2, start=0, seats=None):
    """One game, `bot` in every seat unless `seats` names one per seat; the final GameState."""
    from simulator.games.gembatan.referee import GameState, IllegalMove

    state = GameState(players=players, seed=seed, start=start)
    classes = seats or [bot] * players
    bots = [bot_class(c)(p, bot_seed(seed, p)) for p, c in enumerate(classes)]
    return play_out(state, bots, seed, IllegalMove)
