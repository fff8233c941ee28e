"""Tally's bots, by name; `module:Class` names a Bot subclass of your own."""

import random

from simulator.sessions.user_code import bot_failed, load_class
from tally.rules import GOAL, GameState, IllegalMove


class Bot:
    """Override `act(obs)`; `observe(obs, event)` hears every move."""

    name = "bot"

    def __init__(self, player, seed=0):
        self.player = player
        self.rng = random.Random(seed)

    def act(self, obs):
        raise NotImplementedError

    def observe(self, obs, event):
        pass


class RandomBot(Bot):
    name = "random"

    def act(self, obs):
        return self.rng.choice(obs.legal_moves())


class PerfectBot(Bot):
    """Leaves the tally a multiple of 4 short of GOAL when it can: then the other player cannot
    stop it from reaching GOAL."""

    name = "perfect"

    def act(self, obs):
        moves = obs.legal_moves()
        for move in moves:
            if (GOAL - obs.tally - move.n) % 4 == 0:
                return move
        return moves[0]


BOTS = {RandomBot.name: RandomBot, PerfectBot.name: PerfectBot}


class UnknownBot(KeyError):
    """No bot by that name; the message (args[0]) says what would do."""


def bot_class(name):
    if ":" in name:
        return load_class(name, "bot", Bot, "tally.bots.Bot", UnknownBot)
    try:
        return BOTS[name]
    except KeyError:
        known = ", ".join(sorted(BOTS))
        raise UnknownBot(f"no Tally bot called {name!r}; known bots: {known}") from None


def play_game(bot_a, bot_b, seed=0, start=0):
    """One game between two bot classes; the final GameState. A bot of your own that raises is
    told by its line (simulator.sessions.user_code)."""
    state = GameState(start)
    bots = (bot_a(0, seed * 2), bot_b(1, seed * 2 + 1))
    seat = start
    try:
        while not state.over:
            seat = state.current
            event = state.apply(bots[seat].act(state.observation(seat)))
            for seat, bot in enumerate(bots):
                bot.observe(state.observation(seat), event)
    except IllegalMove:
        raise
    except Exception as exc:  # noqa: BLE001 - a bot of your own may raise anything
        raise bot_failed(exc, bots[seat], seed, state.turns + 1, "AB"[seat]) from None
    return state
