"""`blinks playtest --game gembatan [--bot NAME] [--against NAME] [--players N] --games N
[--seed S] [--json] [--scripts DIR]`: many bot games on the referee, and what they tell a
designer: each seat's mean score, wins, how the games ended (a player used up their gems once
the tray was empty, a round passed without a play, the turn limit), chains and Gembatans.

Game i is dealt from seed S + i, so a run is reproducible. With --against (two players) the
--bot sits in seat A in even games and in seat B in odd ones, and the figures are also given
per bot. Gembatan is not played on the tiles: --physical is refused.
"""

import json
import math
import os
import sys
from collections import Counter

from simulator.games.gembatan.bots import BEST_BOT, UnknownBot, bot_class, play_game
from simulator.games.gembatan.referee import IllegalMove
from simulator.games.gembatan.rules import ENDS, MAX_PLAYERS, MIN_PLAYERS, PLAYERS
from simulator.sessions.playtest_cli import MAX_GAMES, rounded

NOT_FOR_GEMBATAN = ("partner", "ceiling", "plot")  # Lost Gems' options (refused, exit 2)


def problem(args):
    for option in NOT_FOR_GEMBATAN:
        if getattr(args, option, None):
            return f"--{option} is a Lost Gems option, not for --game gembatan"
    if args.physical:
        return "--physical: Gembatan is not played on the tiles (docs/gembatan.md)"
    for name in (args.bot, args.against):
        if name is not None:
            try:
                bot_class(name)
            except UnknownBot as exc:
                return exc.args[0]
    if not MIN_PLAYERS <= args.players <= MAX_PLAYERS:
        return f"--players must be from {MIN_PLAYERS} to {MAX_PLAYERS}, got {args.players}"
    if args.against and args.players != 2:
        return "--against pits two bots against each other: it takes --players 2"
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
    players = states[0].players
    names = PLAYERS[:players]
    figures = {"game": "gembatan", "games": n, "players": players}
    figures["mean"], figures["stderr"] = {}, {}
    for p, name in enumerate(names):
        figures["mean"][name], figures["stderr"][name] = _mean_err([s.score(p) for s in states])
    figures["mean_winner"] = sum(max(s.scores) for s in states) / n
    wins = Counter()
    for s in states:
        w = s.winners()
        wins[names[w[0]] if len(w) == 1 else "tie"] += 1
    figures["wins"] = {k: wins[k] for k in names + ("tie",)}
    ends = Counter(s.ended for s in states)
    figures["ended"] = {e: ends[e] / n for e in ENDS}
    figures["mean_turns"] = sum(s.turns for s in states) / n
    figures["chains_per_game"] = sum(len(ev.chains) for s in states for ev in s.history) / n
    figures["gembatans_per_game"] = sum(ev.bonus for s in states for ev in s.history) / n
    bots = sorted({b for _, seats in games for b in seats})
    if len(bots) > 1:
        by_bot = {}
        for b in bots:
            scores, won = [], 0
            for s, seats in games:
                for p in range(players):
                    if seats[p] == b:
                        scores.append(s.score(p))
                        won += s.winners() == [p]
            mean, err = _mean_err(scores)
            by_bot[b] = {"mean": mean, "stderr": err, "wins": won}
        figures["by_bot"] = by_bot
    return figures


def write_script(state, directory, title, seed):
    from simulator.games.gembatan.scripts_out import game_script

    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, f"{title}-{state.players}p-seed{seed}.gb")
    with open(path, "w") as f:
        f.write(game_script(state, f"{title}, {state.players} players, seed {seed}", seed))
    return path


def seats_of(args, i):
    if not args.against:
        return [args.bot] * args.players
    return [args.bot, args.against] if i % 2 == 0 else [args.against, args.bot]


def run(args):
    if args.bot is None:
        args.bot = BEST_BOT
    if args.players is None:
        args.players = 2
    wrong = problem(args)
    if wrong:
        print(f"playtest: {wrong}", file=sys.stderr)
        return 2
    games = []
    try:
        for i in range(args.games):
            seed = args.seed + i
            seats = seats_of(args, i)
            state = play_game(None, seed=seed, players=args.players, seats=seats)
            games.append((state, seats))
            if args.scripts:
                write_script(state, args.scripts, "-".join(dict.fromkeys(seats)), seed)
    except IllegalMove as exc:
        print(f"playtest: a bot made a move the rules refuse ({exc})", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"playtest: cannot write the scripts to {args.scripts}: {exc}", file=sys.stderr)
        return 2
    figures = stats(games)
    figures.update(bot=args.bot, against=args.against, seed=args.seed, physical=False)
    if args.json:
        print(json.dumps(rounded(figures)))
        return 0
    report(args, figures)
    return 0


def report(args, figures):
    who = f"{args.bot} against {args.against}" if args.against else args.bot
    print(
        f"Gembatan, {figures['players']} players, {who}: {figures['games']} games from seed "
        f"{args.seed}"
    )
    for name, mean in figures["mean"].items():
        print(
            f"seat {name}: mean {mean:.3f} ± {figures['stderr'][name]:.3f} (standard error), "
            f"won {figures['wins'][name]}"
        )
    print(f"ties: {figures['wins']['tie']}; winner's mean score {figures['mean_winner']:.3f}")
    for bot, f in sorted(figures.get("by_bot", {}).items()):
        print(f"{bot}: mean {f['mean']:.3f} ± {f['stderr']:.3f}, won {f['wins']}")
    ended = figures["ended"]
    print(
        f"ended: a player's gems used up {100 * ended['gems']:.1f}%, a round without a play "
        f"{100 * ended['stuck']:.1f}%, the turn limit {100 * ended['turns']:.1f}%; turns a game "
        f"{figures['mean_turns']:.1f}"
    )
    print(
        f"chains a game {figures['chains_per_game']:.2f}, Gembatans a game "
        f"{figures['gembatans_per_game']:.2f}"
    )


__all__ = ["run", "stats"]
