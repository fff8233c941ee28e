"""Waterfall's part of `blinks playtest --game waterfall [--players N] [--physical]` (the driver is
simulator.play.playtest): the winner's mean score and how the games ended (the 20-tile rule, an
empty deck, or the turn limit). With --physical every game is also played move by move on 27
simulated tiles, as people would, and the tiles are checked against the referee.
"""

from simulator.games.waterfall.bots import BEST_BOT, bot_class, play_game
from simulator.games.waterfall.referee import IllegalMove
from simulator.games.waterfall.rules import ENDS, RULES
from simulator.games.waterfall.script import game_script
from simulator.play.figures import ended_fractions, mean_err


def add_arguments(options):
    options.standard("players", "physical", "scripts")
    options.add_argument(
        "--rules",
        choices=RULES,
        action="append",
        help="a rules option, as a script's `rules` line (docs/waterfall.md#rules-options)",
    )


def play_options(args):
    return {"rules": tuple(sorted(set(args.rules or ())))}


def play(seats, seed, players, rules=()):
    return play_game(None, seed=seed, players=players, seats=seats, rules=rules)


def script_names(seats, players, seed):
    return f"{seats[0]}-{players}p-seed{seed}.wf", f"{seats[0]}, {players} players, seed {seed}"


def stats(games):
    """The figures of finished games: winner's mean score and its standard error, the mean of
    every player's score, the fraction of games by how they ended, turns, wins by seat."""
    states = [s for s, _ in games]
    n = len(states)
    mean, stderr = mean_err([max(s.scores) for s in states])
    ended = ended_fractions(states, ENDS)
    players = states[0].players
    wins = [0] * players
    for s in states:
        for p in s.winners():
            wins[p] += 1
    return {
        "game": "waterfall",
        "games": n,
        "players": players,
        "mean": mean,
        "stderr": stderr,
        "mean_all": sum(sum(s.scores) for s in states) / (n * players),
        "ended": ended,
        "twenty_fraction": ended["twenty"],
        "deck_fraction": ended["deck"],
        "mean_turns": sum(s.turns for s in states) / n,
        "wins_by_seat": wins,
    }


def report(args, figures):
    rules = "".join(f", rules {r}" for r in figures["rules"])
    print(
        f"Waterfall, {figures['players']} players{rules}, {args.bot}: "
        f"{figures['games']} games from seed {args.seed}"
    )
    if args.physical:
        print("every move also played on 27 simulated tiles: they agreed with the referee")
    print(f"winner's score: mean {figures['mean']:.3f} ± {figures['stderr']:.3f} (standard error)")
    print(
        f"every player's score: mean {figures['mean_all']:.3f}; turns a game: {figures['mean_turns']:.1f}"
    )
    ended = figures["ended"]
    print(
        f"ended by the 20-tile rule {100 * ended['twenty']:.1f}%, an empty deck "
        f"{100 * ended['deck']:.1f}%, the turn limit {100 * ended['turns']:.1f}%"
    )
    print(
        "wins by seat: "
        + ", ".join(f"{'ABCD'[p]} {w}" for p, w in enumerate(figures["wins_by_seat"]))
    )


__all__ = ["BEST_BOT", "IllegalMove", "bot_class", "game_script"]
