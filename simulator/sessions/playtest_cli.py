"""`blinks playtest [--game NAME] --bot NAME --games N --seed S [--json] ...`: many bot games
of one game, and the figures a designer reads from them.

The options every playtest takes are declared here; each game adds the rest through its
playtest module's hook, `add_arguments(options)` (simulator.play.options): the options several
games share by name (`options.standard("players", "against")`), its own with
`options.add_argument`. An option given to a game that did not take it is refused, naming the
games that do. The games
are then played by the play layer's driver (simulator.play.playtest), or by the game's own
`run(args, game)` (Lost Gems: simulator/games/lostgems/playtest_cli.py).
"""

import argparse
import sys

from simulator.games import DEFAULT, game_names, host_game, name_problem
from simulator.play.options import add_game_arguments, bot_names, playtest_module, playtested_games
from simulator.sessions.cli import seed_number
from simulator.sessions.user_code import DEBUG_ENV, UserCodeError, report


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
    add_debug_argument(parser)
    takers = add_game_arguments(parser)
    for action in parser._actions:  # say which games take each option that is not everyone's
        taken = takers.get(action.dest)
        if taken and action.help:
            action.help += f" ({', '.join(taken[2])})"


def foreign_option(args, name):
    """The first option given that game `name` does not take, as a message, or None. The
    games' hooks are asked again (a game registered after the parser was made counts)."""
    takers = add_game_arguments(argparse.ArgumentParser(add_help=False))
    for dest, (flag, default, games) in takers.items():
        if name not in games and getattr(args, dest, default) != default:
            return f"{flag} is not for --game {name} (only {', '.join(games)})"
    return None


def run(args):
    """`blinks playtest`: refuse what the game does not take, then play (the game's own
    `run(args, game)`, else the play layer's driver)."""
    name = getattr(args, "game", None) or DEFAULT
    wrong = name_problem(name)
    if wrong:
        print(f"blinks playtest: --game: {wrong}", file=sys.stderr)
        return 2
    module = playtest_module(name)
    if module is None:
        known = ", ".join(sorted(playtested_games()))
        if name in game_names():
            print(
                f"blinks playtest: {name} has no playtests; games that do: {known}", file=sys.stderr
            )
        else:
            print(
                f"blinks playtest: --game: there is no game {name!r}; the games: {known}",
                file=sys.stderr,
            )
        return 2
    wrong = foreign_option(args, name)
    if wrong:
        print(f"blinks playtest: {wrong}", file=sys.stderr)
        return 2
    from simulator.play import playtest

    try:
        if hasattr(module, "run"):
            return module.run(args, host_game(name))
        return playtest.run(args, host_game(name), module)
    except KeyboardInterrupt:
        print("blinks playtest: interrupted", file=sys.stderr)
        return 130
    except UserCodeError as error:  # a bot of your own failed: its line, not our traceback
        return report("blinks playtest", error, args)


def add_debug_argument(parser):
    parser.add_argument(
        "--debug",
        action="store_true",
        help="when code of your own (a bot, a game) fails, print the whole Python traceback "
        f"instead of one line naming its file and line (also: {DEBUG_ENV}=1)",
    )
