"""The options of `blinks playtest` each game takes through its hook, `add_arguments(options)`:
the options several games share by name (`options.standard("players", "against")`), and its
own (`options.add_argument`). The command (simulator.sessions.playtest_cli) refuses an option a
game did not take; the driver (simulator.play.playtest) reads which seats' options it took."""

import argparse
import importlib

from simulator import games
from simulator.games import host_game


def playtest_module(name):
    """The game's playtest module (its descriptor's PLAYTEST), or None."""
    module = getattr(host_game(name), "PLAYTEST", None)
    return module and importlib.import_module(module)


def playtested_games():
    """The names of the games that have playtests."""
    return [name for name in games.HOST_MODULES if getattr(host_game(name), "PLAYTEST", None)]


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


def add_game_arguments(parser):
    """Every playtested game's options added to `parser`; {dest: [flag, default, games]}."""
    options = Options(parser, {})
    for name in playtested_games():
        options.game = name
        playtest_module(name).add_arguments(options)
    return options.takers


def takers(option):
    """The games that take a shared `option`."""
    taken = add_game_arguments(argparse.ArgumentParser(add_help=False)).get(option)
    return taken[2] if taken else []
