"""Bots that play Lost Gems from observations only, by name.

A name is one of BOTS, or `module:Class` for a bot of your own: a `Bot` subclass in a module
that can be imported from the current directory or the Python path.
"""

import importlib
import os
import sys

from simulator.games.lostgems.bots.base import Bot, play_game
from simulator.games.lostgems.bots.cautious import CautiousBot
from simulator.games.lostgems.bots.conventions import ConventionBot

BOTS = {CautiousBot.name: CautiousBot, ConventionBot.name: ConventionBot}
BEST_BOT = ConventionBot.name


class UnknownBot(KeyError):
    """No bot by that name; the message (args[0]) says why and what would do."""


def bot_class(name):
    """The bot class called `name` (a BOTS name or `module:Class`; a Bot subclass is returned
    as it is). Raises UnknownBot saying what is wrong."""
    if isinstance(name, type) and issubclass(name, Bot):
        return name
    if ":" in name:
        return _bot_of_your_own(name)
    try:
        return BOTS[name]
    except KeyError:
        raise UnknownBot(
            f"no bot called {name!r}; known bots: {', '.join(sorted(BOTS))}, "
            "or module:Class for a Bot subclass of your own"
        ) from None


def _bot_of_your_own(spec):
    module_name, _, class_name = spec.partition(":")
    if os.getcwd() not in sys.path:
        sys.path.append(os.getcwd())  # as `python -m` would find a module beside you
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise UnknownBot(f"{spec}: cannot import {module_name!r} ({exc})") from None
    except (ValueError, TypeError):  # importlib refuses a module named '' or '.x'
        raise UnknownBot(f"{spec}: name the module in full, not {module_name!r}") from None
    cls = getattr(module, class_name, None)
    if not (isinstance(cls, type) and issubclass(cls, Bot)):
        raise UnknownBot(
            f"{spec}: {module_name} has no Bot subclass called {class_name!r} "
            "(subclass simulator.games.lostgems.Bot and override act)"
        )
    return cls


__all__ = ["BEST_BOT", "BOTS", "Bot", "UnknownBot", "bot_class", "play_game"]
