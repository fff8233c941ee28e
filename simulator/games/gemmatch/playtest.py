"""`blinks playtest --game gemmatch [--bot NAME] [--against NAME] --games N [--seed S] [--json]
[--scripts DIR] [--physical]`: many bot games on the referee, and what they tell a designer:
each seat's mean score, wins, how the games ended (the pile ran out, both players skipped, the
turn limit) and how many groups of each tier a game makes.

Game i is dealt from seed S + i, so a run is reproducible. With --against the two bots meet:
the --bot sits in seat A in even games and in seat B in odd ones (the first player has the
first placement, on an empty field), and the figures are also given per bot. With --physical
every game is also played move by move on 27 simulated tiles, as people would (the tiles
runner of the session scripts); a disagreement names the game and exits 1.
"""

import json
import math
import os
import sys
from collections import Counter

from simulator.games.gemmatch.bots import BEST_BOT, UnknownBot, bot_class, play_game
from simulator.games.gemmatch.referee import IllegalMove
from simulator.games.gemmatch.rules import ENDS, PLAYERS, TIER_NAMES
from simulator.sessions.playtest_cli import MAX_GAMES, rounded
from simulator.sessions.script import ScriptError

NOT_FOR_GEM_MATCH = ("partner", "ceiling", "plot")  # Lost Gems' options (refused, exit 2)


def problem(args):
    for option in NOT_FOR_GEM_MATCH:
        if getattr(args, option, None):
            return f"--{option} is a Lost Gems option, not for --game gemmatch"
    for name in (args.bot, args.against):
        if name is not None:
            try:
                bot_class(name)
            except UnknownBot as exc:
                return exc.args[0]
    if args.players not in (None, 2):
        return f"Gem Match is for 2 players, not --players {args.players}"
    if not 1 <= args.games <= MAX_GAMES:
        return f"--games must be from 1 to {MAX_GAMES:,}, got {args.games}"
    if args.scripts == "":
        return "--scripts needs a folder name"
    return None


def _mean_err(values):
    n = len(values)
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / (n - 1) if n > 1 else 0.0
    return mean, math.sqrt(var / n)


def stats(games):
    """The figures of finished games, each (state, seat names as bot names)."""
    n = len(games)
    states = [s for s, _ in games]
    figures = {"game": "gemmatch", "games": n, "players": 2}
    means, errs = {}, {}
    for p, name in enumerate(PLAYERS):
        means[name], errs[name] = _mean_err([s.score(p) for s in states])
    figures["mean"] = means
    figures["stderr"] = errs
    figures["mean_winner"] = sum(max(s.scores) for s in states) / n
    wins = Counter()
    for s in states:
        w = s.winners()
        wins[PLAYERS[w[0]] if len(w) == 1 else "tie"] += 1
    figures["wins"] = {k: wins[k] for k in PLAYERS + ("tie",)}
    ends = Counter(s.ended for s in states)
    figures["ended"] = {e: ends[e] / n for e in ENDS}
    tiers = Counter()
    for s in states:
        for ev in s.history:
            for pending in ev.groups:
                tiers[TIER_NAMES[pending.tier]] += 1
    figures["groups_per_game"] = {name: tiers[name] / n for name in TIER_NAMES.values()}
    figures["mean_turns"] = sum(s.turns for s in states) / n
    bots = sorted({b for _, seats in games for b in seats})
    if len(bots) > 1:
        by_bot = {}
        for b in bots:
            scores, won = [], 0
            for s, seats in games:
                for p in range(2):
                    if seats[p] == b:
                        scores.append(s.score(p))
                        won += s.winners() == [p]
            mean, err = _mean_err(scores)
            by_bot[b] = {"mean": mean, "stderr": err, "wins": won}
        figures["by_bot"] = by_bot
    return figures


def write_script(state, directory, title, seed):
    from simulator.games.gemmatch.scripts_out import game_script

    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, f"{title}-seed{seed}.gm")
    with open(path, "w") as f:
        f.write(game_script(state, f"{title}, seed {seed}", seed))
    return path


class TilesDisagree(Exception):
    """A bot game played on the simulated tiles did not go as on the referee."""


def play_on_tiles(state, seed):
    """Play a finished game's moves again on 27 simulated tiles (--physical), from its deal on;
    raise TilesDisagree with the first thing the tiles did not show as the referee."""
    from simulator.games.gemmatch.physical import TilesRunner
    from simulator.games.gemmatch.script import parse_script
    from simulator.games.gemmatch.scripts_out import game_script

    failures = []
    script = game_script(state, f"seed {seed}", seed)
    runner = TilesRunner(parse_script(script), failed=lambda line, msg: failures.append(msg))
    try:
        runner.run()
    except ScriptError as exc:
        failures.append(exc.message)
    if failures:
        raise TilesDisagree(f"seed {seed}: {failures[0]}")


def seats_of(args, i):
    if not args.against:
        return [args.bot, args.bot]
    return [args.bot, args.against] if i % 2 == 0 else [args.against, args.bot]


def run(args):
    if args.bot is None:
        args.bot = BEST_BOT
    wrong = problem(args)
    if wrong:
        print(f"playtest: {wrong}", file=sys.stderr)
        return 2
    games = []
    try:
        for i in range(args.games):
            seed = args.seed + i
            seats = seats_of(args, i)
            state = play_game(None, seed=seed, seats=seats)
            games.append((state, seats))
            if args.physical:
                play_on_tiles(state, seed)
            if args.scripts:
                write_script(state, args.scripts, "-".join(seats), seed)
    except IllegalMove as exc:
        print(f"playtest: a bot made a move the rules refuse ({exc})", file=sys.stderr)
        return 1
    except TilesDisagree as exc:
        print(f"playtest: the tiles disagree with the referee ({exc})", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"playtest: cannot write the scripts to {args.scripts}: {exc}", file=sys.stderr)
        return 2
    figures = stats(games)
    figures.update(bot=args.bot, against=args.against, seed=args.seed, physical=bool(args.physical))
    if args.json:
        print(json.dumps(rounded(figures)))
        return 0
    report(args, figures)
    return 0


def report(args, figures):
    who = f"{args.bot} against {args.against}" if args.against else args.bot
    print(f"Gem Match, {who}: {figures['games']} games from seed {args.seed}")
    if args.physical:
        print("every move also played on 27 simulated tiles: they agreed with the referee")
    for name in PLAYERS:
        print(
            f"seat {name}: mean {figures['mean'][name]:.3f} ± {figures['stderr'][name]:.3f} "
            f"(standard error), won {figures['wins'][name]}"
        )
    print(f"ties: {figures['wins']['tie']}; winner's mean score {figures['mean_winner']:.3f}")
    for bot, f in sorted(figures.get("by_bot", {}).items()):
        print(f"{bot}: mean {f['mean']:.3f} ± {f['stderr']:.3f}, won {f['wins']}")
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


__all__ = ["run", "stats"]
