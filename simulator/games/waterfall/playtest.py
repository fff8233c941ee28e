"""`blinks playtest --game waterfall [--bot NAME] [--players N] --games N [--seed S] [--json]
[--scripts DIR] [--physical]`: many bot games on the referee, and what they tell a designer:
the winner's mean score and how the games ended (the 20-tile rule, an empty deck, or the turn
limit). With --physical every game is also played move by move on 27 simulated tiles, as
people would (the session runner's tiles runner), and the tiles are checked against the
referee after each move; a disagreement names the game and exits 1.

Game i is dealt from seed S + i, so a run is reproducible.
"""

import json
import math
import os
import sys
from collections import Counter

from simulator.games.waterfall.bots import BEST_BOT, BOTS, UnknownBot, bot_class, play_game
from simulator.games.waterfall.referee import IllegalMove
from simulator.games.waterfall.rules import ENDS, MAX_PLAYERS, MIN_PLAYERS
from simulator.output_path import folder_problem
from simulator.sessions.playtest_cli import MAX_GAMES, rounded
from simulator.sessions.script import ScriptError

# Lost Gems' options that mean nothing for Waterfall (refused, exit 2)
LOST_GEMS_ONLY = ("partner", "against", "ceiling", "plot")


def problem(args):
    for option in LOST_GEMS_ONLY:
        if getattr(args, option, None):
            return f"--{option} is a Lost Gems option, not for --game waterfall"
    try:
        bot_class(args.bot)
    except UnknownBot as exc:
        return exc.args[0]
    if not MIN_PLAYERS <= args.players <= MAX_PLAYERS:
        return f"--players must be from {MIN_PLAYERS} to {MAX_PLAYERS}, got {args.players}"
    if not 1 <= args.games <= MAX_GAMES:
        return f"--games must be from 1 to {MAX_GAMES:,}, got {args.games}"
    if args.scripts == "":
        return "--scripts needs a folder name"
    if args.scripts is not None and folder_problem(args.scripts):
        return f"--scripts {args.scripts}: {folder_problem(args.scripts)}"
    return None


def stats(states):
    """The figures of finished games: winner's mean score and its standard error, the mean of
    every player's score, the fraction of games by how they ended, turns, wins by seat."""
    n = len(states)
    best = [max(s.scores) for s in states]
    mean = sum(best) / n
    var = sum((b - mean) ** 2 for b in best) / (n - 1) if n > 1 else 0.0
    ends = Counter(s.ended for s in states)
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
        "stderr": math.sqrt(var / n),
        "mean_all": sum(sum(s.scores) for s in states) / (n * players),
        "ended": {e: ends[e] / n for e in ENDS},
        "twenty_fraction": ends["twenty"] / n,
        "deck_fraction": ends["deck"] / n,
        "mean_turns": sum(s.turns for s in states) / n,
        "wins_by_seat": wins,
    }


def write_script(state, directory, bot, seed):
    from simulator.games.waterfall.scripts_out import game_script

    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, f"{bot}-{state.players}p-seed{seed}.wf")
    with open(path, "w") as f:
        f.write(game_script(state, f"{bot}, {state.players} players, seed {seed}", seed))
    return path


class TilesDisagree(Exception):
    """A bot game played on the simulated tiles did not end as on the referee."""


def play_on_tiles(state, seed):
    """Play a finished game's moves again on 27 simulated tiles (--physical), from its deal
    on; raise TilesDisagree with the first thing the tiles did not show as the referee."""
    from simulator.games.waterfall.physical import TilesRunner
    from simulator.games.waterfall.script import parse_script
    from simulator.games.waterfall.scripts_out import game_script

    failures = []
    script = game_script(state, f"seed {seed}", seed)
    runner = TilesRunner(parse_script(script), failed=lambda line, msg: failures.append(msg))
    try:
        runner.run()
    except ScriptError as exc:
        failures.append(exc.message)
    if failures:
        raise TilesDisagree(f"seed {seed}: {failures[0]}")


def run(args):
    if args.bot is None:
        args.bot = BEST_BOT
    if getattr(args, "players", None) is None:
        args.players = 2
    wrong = problem(args)
    if wrong:
        print(f"playtest: {wrong}", file=sys.stderr)
        return 2
    states = []
    try:
        for i in range(args.games):
            state = play_game(args.bot, seed=args.seed + i, players=args.players)
            states.append(state)
            if args.physical:
                play_on_tiles(state, args.seed + i)
            if args.scripts:
                write_script(state, args.scripts, args.bot, args.seed + i)
    except IllegalMove as exc:
        print(f"playtest: {args.bot} made a move the rules refuse ({exc})", file=sys.stderr)
        return 1
    except TilesDisagree as exc:
        print(f"playtest: the tiles disagree with the referee ({exc})", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"playtest: cannot write the scripts to {args.scripts}: {exc}", file=sys.stderr)
        return 2
    figures = stats(states)
    figures.update(bot=args.bot, seed=args.seed, physical=bool(args.physical))
    if args.json:
        print(json.dumps(rounded(figures)))
        return 0
    print(
        f"Waterfall, {args.players} players, {args.bot}: {figures['games']} games from seed {args.seed}"
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
    return 0


__all__ = ["BOTS", "run", "stats"]
