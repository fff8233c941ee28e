"""`blinks playtest --game tally [--bot NAME] [--partner NAME] [--games N] [--seed S] [--json]`:
how often each seat wins with those bots (A moves first)."""

import json
import sys

from tally.bots import UnknownBot, bot_class, play_game
from tally.rules import IllegalMove

# Lost Gems' options Tally has no use for (refused, exit 2)
NOT_FOR_TALLY = ("against", "ceiling", "plot", "physical", "scripts", "players")


def run(args):
    for option in NOT_FOR_TALLY:
        if getattr(args, option, None):
            print(f"playtest: --{option} is not for --game tally", file=sys.stderr)
            return 2
    names = (args.bot or "perfect", args.partner or args.bot or "perfect")
    try:
        a, b = (bot_class(name) for name in names)
    except UnknownBot as exc:
        print(f"playtest: {exc.args[0]}", file=sys.stderr)
        return 2
    wins = [0, 0]
    try:
        for i in range(args.games):
            wins[play_game(a, b, seed=args.seed + i).winner] += 1
    except IllegalMove as exc:
        print(f"playtest: a bot made a move the rules refuse ({exc})", file=sys.stderr)
        return 1
    figures = {"games": args.games, "bots": list(names), "wins_a": wins[0], "wins_b": wins[1]}
    if args.json:
        print(json.dumps(figures))
    else:
        print(
            f"{names[0]} (A) against {names[1]} (B), {args.games} games: A won {wins[0]}, B won {wins[1]}"
        )
    return 0
