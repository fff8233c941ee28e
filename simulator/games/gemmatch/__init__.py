"""Gem Match on the host, all in this package: rules and geometry (`rules`, `field`), moves,
the referee and observations, bots (`tactics`, `bots`), session scripts (`script`, `runner`,
`physical`), playtests and the table the simulator shows. This module describes the game to the
platform (simulator.games); docs/gemmatch.md gives the rules.

    from simulator.games.gemmatch.bots import play_game
    play_game("careful", seed=3).scores
"""

NAME = "gemmatch"
FIRMWARE = ("games.gemmatch", "Gemmatch")
TILES = 27  # the tokens: one deal of 27 tiles
SCRIPT_SUFFIX = ".gm"
PIECE = "token"  # what a tile is (its inspect() key, shown by the inspector)
BOARD_PNG = True  # `blinks session run --board-png DIR` draws the field after each move
DEAL_TIP = (
    "To deal: hold any tile of the cluster for 6 s. Then double-click a pile tile to draw it, "
    "basic side up; triple-click a lone token to start the field."
)


def parse_script(text):
    from simulator.games.gemmatch.script import parse_script as parse

    return parse(text)


def session_runners():
    """(rules runner class, tiles runner class or None while the world or firmware is missing)."""
    from simulator.games.gemmatch.runner import RulesRunner

    try:
        from simulator.games.gemmatch.physical import TilesRunner
    except ImportError:
        TilesRunner = None
    return RulesRunner, TilesRunner


def bot_names():
    """The bots `blinks playtest --game gemmatch` knows, by name."""
    from simulator.games.gemmatch.bots import BOTS

    return sorted(BOTS)


def run_playtest(args):
    from simulator.games.gemmatch.playtest import run

    return run(args)
