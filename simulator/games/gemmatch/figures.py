"""Gem Match's part of `blinks playtest --game gemmatch [--against NAME] [--physical]` (the
driver is simulator.play.playtest): each seat's mean score, wins, how the games ended (the pile
ran out, both players skipped, the turn limit) and how many groups of each tier a game makes.
With --against the --bot sits in seat A in even games and in seat B in odd ones (the first
player has the first placement, on an empty field), and the figures are also given per bot.
"""

from collections import Counter

from simulator.games.gemmatch.bots import BEST_BOT, bot_class, play_game
from simulator.games.gemmatch.referee import IllegalMove
from simulator.games.gemmatch.rules import ENDS, PLAYERS, TIER_NAMES
from simulator.games.gemmatch.script import game_script
from simulator.play.figures import by_bot, ended_fractions, seat_figures, seat_lines


def add_arguments(options):
    options.standard("against", "physical", "scripts")


def play(seats, seed, players):
    return play_game(None, seed=seed, seats=seats)


def script_names(seats, players, seed):
    who = "-".join(seats)
    return f"{who}-seed{seed}.gm", f"{who}, seed {seed}"


def stats(games):
    """The figures of finished games, each (state, seat names as bot names)."""
    states = [s for s, _ in games]
    n = len(states)
    figures = seat_figures("gemmatch", states, PLAYERS)
    figures["ended"] = ended_fractions(states, ENDS)
    tiers = Counter()
    for s in states:
        for ev in s.history:
            for pending in ev.groups:
                tiers[TIER_NAMES[pending.tier]] += 1
    figures["groups_per_game"] = {name: tiers[name] / n for name in TIER_NAMES.values()}
    figures["mean_turns"] = sum(s.turns for s in states) / n
    bots = by_bot(games)
    if bots:
        figures["by_bot"] = bots
    return figures


def report(args, figures):
    who = f"{args.bot} against {args.against}" if args.against else args.bot
    print(f"Gem Match, {who}: {figures['games']} games from seed {args.seed}")
    if args.physical:
        print("every move also played on 27 simulated tiles: they agreed with the referee")
    for line in seat_lines(figures):
        print(line)
    ended = figures["ended"]
    print(
        f"ended: the pile ran out {100 * ended['pile']:.1f}%, both skipped "
        f"{100 * ended['skips']:.1f}%, the turn limit {100 * ended['turns']:.1f}%; "
        f"turns a game {figures['mean_turns']:.1f}"
    )
    groups = figures["groups_per_game"]
    print(
        "groups a game: " + ", ".join(f"{groups[n]:.2f} of {n} gems" for n in TIER_NAMES.values())
    )


__all__ = ["BEST_BOT", "IllegalMove", "bot_class", "game_script"]
