"""Bots that play Lost Gems from observations only, by name."""

from simulator.sessions.bots.base import Bot, play_game
from simulator.sessions.bots.cautious import CautiousBot
from simulator.sessions.bots.conventions import ConventionBot

BOTS = {CautiousBot.name: CautiousBot, ConventionBot.name: ConventionBot}
BEST_BOT = ConventionBot.name


def bot_class(name):
    """The bot class called `name`; raises KeyError listing the known bots."""
    try:
        return BOTS[name]
    except KeyError:
        raise KeyError(f"no bot called {name!r}; known bots: {', '.join(sorted(BOTS))}") from None


__all__ = ["BEST_BOT", "BOTS", "Bot", "bot_class", "play_game"]
