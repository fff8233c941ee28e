"""`blinks playtest [--game NAME] --bot NAME --games N --seed S [--json] ...`: many bot games
of one game, and the figures a designer reads from them.

The options every playtest takes are declared here; each game adds the rest through its
playtest module's hook, `add_arguments(options)` (Options below): the options several games
share by name (`options.standard("players", "against")`), its own with `options.add_argument`.
An option given to a game that did not take it is refused, naming the games that do. The games
are then played by the play layer's driver (simulator.play.playtest), or by the game's own
`run(args, game)` (Lost Gems: simulator/games/lostgems/playtest_cli.py).
"""

import importlib
import sys

from simulator.games import DEFAULT, HOST_MODULES, host_game, name_problem
from simulator.sessions.cli import seed_number
from simulator.sessions.user_code import DEBUG_ENV, UserCodeError, report


def playtest_module(name):
    """The game's playtest module (its descriptor's PLAYTEST), or None."""
    module = getattr(host_game(name), "PLAYTEST", None)
    return module and importlib.import_module(module)


def playtested_games():
    """The names of the games that have playtests."""
    return [name for name in HOST_MODULES if getattr(host_game(name), "PLAYTEST", None)]


def bot_names():
    """Each playtested game's bots, for --help: "lostgems: a, b; waterfall: c"."""
    return "; ".join(
        f"{name}: {', '.join(host_game(name).bot_names())}" for name in playtested_games()
    )


# The options several games share, declared once for all that take them: name -> (flags, kw).
STANDARD = {
    "players": (
        ("--players",),
        {"type": int, "default": None, "help": "players a game, for games with a choice"},
    ),
    "partner": (
        ("--partner",),
        {
            "metavar": "NAME",
            "help": "a different bot for seat B (the --bot plays A, who moves first): "
            "cross-play, how the bot fares with a partner who does not share its conventions",
        },
    ),
    "against": (
        ("--against",),
        {
            "metavar": "NAME",
            "help": "also play the same deals with this bot in place of --bot (or meet it, "
            "seats taken turn about), and report the two bots' figures side by side",
        },
    ),
    "physical": (
        ("--physical",),
        {"action": "store_true", "help": "play every move on the simulated tiles (slow)"},
    ),
    "scripts": (
        ("--scripts",),
        {
            "metavar": "DIR",
            "help": "also write each game as a session script into DIR, to read, edit or "
            "replay with `blinks session run`",
        },
    ),
}


class Options:
    """What a game's `add_arguments(options)` hook is handed: the parser, and the record of
    which game took which option (`takers`: dest -> [the option's flag, its default, names])."""

    def __init__(self, parser, takers):
        self.parser = parser
        self.takers = takers
        self.game = None

    def standard(self, *names):
        """Take options several games share (STANDARD), declaring each the first time."""
        for name in names:
            if name not in self.takers:
                flags, kw = STANDARD[name]
                action = self.parser.add_argument(*flags, **kw)
                self.takers[name] = [flags[0], action.default, []]
            self.takers[name][2].append(self.game)

    def add_argument(self, *flags, **kw):
        """Add an option of the game's own."""
        action = self.parser.add_argument(*flags, **kw)
        self.takers[action.dest] = [action.option_strings[-1], action.default, [self.game]]
        return action


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
    options = Options(parser, {})
    for name in playtested_games():
        options.game = name
        playtest_module(name).add_arguments(options)
    for action in parser._actions:  # say which games take each option that is not everyone's
        taken = options.takers.get(action.dest)
        if taken and action.help:
            action.help += f" ({', '.join(taken[2])})"
    parser.set_defaults(option_takers=options.takers)


def foreign_option(args, name):
    """The first option given that game `name` does not take, as a message, or None."""
    for dest, (flag, default, games) in getattr(args, "option_takers", {}).items():
        if name not in games and getattr(args, dest, default) != default:
            return f"{flag} is not for --game {name} (only {', '.join(games)})"
    return None


def run(args):
    """`blinks playtest`: refuse what the game does not take, then play (the game's own
    `run(args, game)`, else the play layer's driver)."""
    name = getattr(args, "game", None) or DEFAULT
    wrong = name_problem(name)
    module = None if wrong else playtest_module(name)
    if module is None:
        print(f"playtest: {wrong or f'no playtests for --game {name}'}", file=sys.stderr)
        return 2
    wrong = foreign_option(args, name)
    if wrong:
        print(f"playtest: {wrong}", file=sys.stderr)
        return 2
    from simulator.play import playtest

    try:
        if hasattr(module, "run"):
            return module.run(args, host_game(name))
        return playtest.run(args, host_game(name), module)
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
