"""Bots that play Lost Gems from observations only, by name.

A name is one of BOTS, one of OPENSPIEL (OpenSpiel's bots), or `module:Class` for a bot of
your own: a `Bot` subclass in a module that can be imported from the current directory or the
Python path.
"""

from simulator.games.lostgems.bots.base import Bot, bot_seed, play_game
from simulator.games.lostgems.bots.cautious import CautiousBot
from simulator.games.lostgems.bots.conventions import ConventionBot
from simulator.games.lostgems.bots.search import SearchBot
from simulator.sessions.user_code import load_class

BOTS = {
    CautiousBot.name: CautiousBot,
    ConventionBot.name: ConventionBot,
    SearchBot.name: SearchBot,
}
BEST_BOT = ConventionBot.name
# OpenSpiel's own bots, by their playtest names (simulator.envs.bots; the research extra)
OPENSPIEL = {
    "openspiel:random": "OpenSpielRandom",
    "openspiel:mcts": "OpenSpielMcts",
    "openspiel:ismcts": "OpenSpielIsmcts",
}


class UnknownBot(KeyError):
    """No bot by that name; the message (args[0]) says why and what would do."""


def bot_class(name):
    """The bot class called `name` (a BOTS name or `module:Class`; a Bot subclass is returned
    as it is). Raises UnknownBot saying what is wrong."""
    if isinstance(name, type) and issubclass(name, Bot):
        return name
    if name in OPENSPIEL:
        return _bot_of_your_own("simulator.envs.bots:" + OPENSPIEL[name])
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
    return load_class(spec, "bot", Bot, "simulator.games.lostgems.Bot", UnknownBot)


__all__ = ["BEST_BOT", "BOTS", "Bot", "UnknownBot", "bot_class", "bot_seed", "play_game"]
