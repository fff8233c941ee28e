"""Tally's bots, on the play layer's bot table (`module:Class` names a Bot subclass of your
own), and its part of `blinks playtest --game tally [--bot NAME] [--partner NAME]`: how often
each seat wins (A moves first); the play layer's driver plays the games (simulator.play)."""

import random

from simulator.play.bots import BotTable, play_out
from simulator.play.figures import seat_figures
from tally.rules import GOAL, PLAYERS, GameState, IllegalMove, game_script


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


TABLE = BotTable("Tally", {b.name: b for b in (RandomBot, PerfectBot)}, Bot, "tally.bots.Bot")
BEST_BOT = PerfectBot.name
bot_class = TABLE.bot_class


def play_game(bot_a, bot_b, seed=0, start=0):
    """One game between two bots (classes or names); the final GameState."""
    bots = (bot_class(bot_a)(0, seed * 2), bot_class(bot_b)(1, seed * 2 + 1))
    return play_out(GameState(start), bots, seed, IllegalMove)


# --- `blinks playtest --game tally`: the parts the play layer's driver asks for -------------
def add_arguments(options):
    options.standard("partner", "scripts")


def play(seats, seed, players):
    return play_game(*seats, seed=seed)


def stats(games):
    return seat_figures("tally", [state for state, _ in games], PLAYERS)


def report(args, figures):
    a, b = args.bot, args.partner or args.bot
    wins = figures["wins"]
    print(
        f"{a} (A) against {b} (B), {figures['games']} games: A won {wins['A']}, B won {wins['B']}"
    )


def script_names(seats, players, seed):
    who = "-".join(seats)
    return f"{who}-seed{seed}.tly", f"{who}, seed {seed}"


__all__ = ["IllegalMove", "game_script"]
