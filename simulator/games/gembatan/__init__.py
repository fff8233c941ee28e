"""Gembatan on the host: square tiles with coloured cutouts, two-coloured gems in the sockets
they make, and diagonal chains. A rules-only game (docs/gembatan.md says why it is not played
on the tiles): pieces (`rules`), the board (`board`), moves, the referee and observations, bots,
session scripts whose runs can draw the board (`board_png`), and playtests. This module
describes the game to the platform (simulator.games).

    from simulator.games.gembatan.bots import play_game
    play_game("greedy", seed=3, players=3).scores
"""

NAME = "gembatan"
TITLE = "Gembatan"
PLAYTEST = "simulator.games.gembatan.figures"  # `blinks playtest`: its options and figures
# Not played on the tiles (docs/gembatan.md): `blinks sim --game gembatan` lays out the demo's
# tiles on a plain table, and its panel says where Gembatan is played.
FIRMWARE = ("games.demo", "Demo")
SCRIPT_SUFFIX = ".gb"
# A rules-only game: `blinks sim --game gembatan` and `blinks emu --table gembatan` refuse it
# with these words rather than lay out tiles that play something else.
NOT_ON_TILES = (
    "Gembatan is played by the rules only, not on the tiles (docs/gembatan.md): play it with "
    "`blinks session run GAME.gb --board-png DIR` or `blinks playtest --game gembatan`"
)
DEAL_TIP = (
    "Gembatan is not played on the tiles: these are the demo's. Play it with "
    "`blinks session run GAME.gb --board-png DIR` or `blinks playtest --game gembatan`."
)


def parse_script(text):
    from simulator.games.gembatan.script import parse_script as parse

    return parse(text)


def session_runners():
    """The referee's runner for both: Gembatan has no tiles runner (docs/gembatan.md); the
    runner says so in its transcript."""
    from simulator.games.gembatan.script import RulesRunner

    return RulesRunner, RulesRunner


REFEREE_PLAYERS = (2, 3, 4)  # the referee's player counts (the table lays out two seats)
RETURNS = (-4, 1000)  # the play layer's returns: a held gem costs a point; no rule caps points


def dealt(seed, players=2):
    """The rules-only game dealt from `seed` (simulator.play.state deals with it)."""
    from simulator.games.gembatan.referee import GameState

    return GameState(players=players, seed=seed)


def bot_names():
    from simulator.games.gembatan.bots import BOTS

    return sorted(BOTS)


def sim_bot_problem(args):
    return "--bot: Gembatan is not played on the tiles (docs/gembatan.md); try blinks playtest"
