"""`blinks playtest [--game NAME] --bot NAME --games N --seed S [--json] ...`: many bot games
of one game, and the figures a designer reads from them. The options are parsed here, once for
every game; the game's own playtest (its host module's `run_playtest(args)`) plays the games,
refuses the options it has no use for, and reports. Lost Gems' options and figures:
simulator/games/lostgems/playtest_cli.py; Waterfall's: simulator/games/waterfall/playtest.py.
"""

import sys

from simulator.games import DEFAULT, HOST_MODULES, host_game, name_problem
from simulator.sessions.cli import seed_number
from simulator.sessions.user_code import DEBUG_ENV, UserCodeError, report

MAX_GAMES = 10_000_000  # over an hour of the best bot; more only fills memory with scores
JSON_DECIMALS = 4  # figures in --json: 66.6667, not 66.66666666666667


def playtested_games():
    """The names of the games that have playtests."""
    return [name for name in HOST_MODULES if hasattr(host_game(name), "run_playtest")]


def bot_names():
    """Each playtested game's bots, for --help: "lostgems: a, b; waterfall: c"."""
    return "; ".join(
        f"{name}: {', '.join(host_game(name).bot_names())}" for name in playtested_games()
    )


def add_arguments(parser):
    parser.add_argument(
        "--game",
        default=None,
        help=f"the game to playtest: {', '.join(playtested_games())} (default {DEFAULT})",
    )
    parser.add_argument(
        "--bot",
        default=None,
        help=f"bot to play every seat: {bot_names()} (default: the game's best), or "
        "module:Class for a Bot subclass of your own",
    )
    parser.add_argument(
        "--players",
        type=int,
        default=None,
        help="players a game, for games with a choice (waterfall: 2-4, default 2)",
    )
    parser.add_argument(
        "--partner",
        metavar="NAME",
        help="a different bot for seat B (the --bot plays A, who moves first): cross-play, "
        "how the bot fares with a partner who does not share its conventions",
    )
    parser.add_argument(
        "--against",
        metavar="NAME",
        help="also play the same deals with this bot in place of --bot, and report the "
        "difference per deal with its paired standard error: is one bot better?",
    )
    parser.add_argument("--games", type=int, default=1000, help="number of games (default 1000)")
    parser.add_argument(
        "--seed",
        type=seed_number,
        default=0,
        help="game i is dealt from seed S+i, a whole number >= 0 (default 0)",
    )
    parser.add_argument(
        "--json", action="store_true", help="print one JSON object with the figures"
    )
    parser.add_argument(
        "--plot", metavar="FILE.png", help="save a histogram of the scores as a PNG"
    )
    parser.add_argument(
        "--physical", action="store_true", help="play every move on the simulated tiles (slow)"
    )
    parser.add_argument(
        "--scripts",
        metavar="DIR",
        help="also write each game as a session script into DIR, to read, edit or replay "
        "with `blinks session run` (rules-only games in one process; --physical games too)",
    )
    parser.add_argument(
        "--ceiling",
        action="store_true",
        help="also find each deal's ceiling, the best score players who knew the whole deck "
        "could make, to tell points the deal lost from points the play lost (a few ms a game)",
    )
    add_debug_argument(parser)
    parser.add_argument(
        "-j",
        "--jobs",
        type=int,
        default=1,
        metavar="J",
        help="worker processes to share the games out, 0 for one per CPU (default 1); "
        "the scores are the same whatever J",
    )


def run(args):
    """`blinks playtest`: the game's own playtest (its host module's run_playtest(args))."""
    name = getattr(args, "game", None)
    wrong = name_problem(name)
    if wrong:
        print(f"playtest: --game: {wrong}", file=sys.stderr)
        return 2
    playtest_of = getattr(host_game(name), "run_playtest", None)
    if playtest_of is None:
        print(f"playtest: no playtests for --game {name}", file=sys.stderr)
        return 2
    try:
        return playtest_of(args)
    except KeyboardInterrupt:
        print("playtest: interrupted", file=sys.stderr)
        return 130
    except UserCodeError as error:  # a bot of your own failed: its line, not our traceback
        return report("playtest", error, args)


def add_debug_argument(parser):
    parser.add_argument(
        "--debug",
        action="store_true",
        help="when code of your own (a bot, a game) fails, print the whole Python traceback "
        f"instead of one line naming its file and line (also: {DEBUG_ENV}=1)",
    )


def rounded(figures):
    """The figures with every float rounded to JSON_DECIMALS places, however deeply nested."""
    if isinstance(figures, float):
        return round(figures, JSON_DECIMALS)
    if isinstance(figures, dict):
        return {key: rounded(value) for key, value in figures.items()}
    if isinstance(figures, (list, tuple)):
        return [rounded(value) for value in figures]
    return figures
