"""The games the host side knows, each described by one object, so the platform (the app, the
session framework, the playtest command) asks a game what it needs instead of knowing it.

A game's host code lives in one place, `simulator/games/<name>/` (lostgems, waterfall), whose
`__init__` is its descriptor. This module is the only one of the platform that names games.
A firmware game with no host package (the demo, or `games.<name>` of your own) gets a plain
table and no sessions. docs/writing-a-game.md walks through adding one.

A descriptor (module-level names of the game's host module):
- NAME, FIRMWARE = ("games.<name>", "Class"): the tile firmware the world runs
- TILES: how many tiles `blinks sim --game NAME` lays out by default
- table_areas(width, height, size, margin, label_px) -> [(name, label, (x, y, w, h))]: what
  the table holds, the first area being where the starting cluster lies (optional: a plain
  table, PlainGame.table_areas)
- SCRIPT_SUFFIX, parse_script(text) and session_runners(): `blinks session run` for the game's
  scripts (optional); CEILING = True if its runners take --ceiling, BOARD_PNG = True if they
  take --board-png DIR (a picture of the board after each move)
- run_playtest(args) -> exit code: `blinks playtest --game NAME` (optional)
- bot_names() -> [name]: the bots `blinks playtest --bot` takes, for its --help (optional)
- sim_bot_problem(args) -> None or the error, and attach_sim_bot(app, name, seed, scripts):
  `blinks sim --bot NAME`, a person against a bot in the window (optional)
- for the simulator's side panel (optional): DEAL_TIP (how to deal, shown while undealt),
  TOKENS (True: the hint and error coins), PIECE (the inspect() key naming what a tile is),
  AREA_WORDS (the inspector's name for each area; else the area's label), VIEW_HIDES and
  FACE_UP (viewing as a player: the states of a piece in their own hand they cannot see, and
  the states any player can read)
"""

import importlib

# short name -> the module that describes the game on the host
HOST_MODULES = {
    "lostgems": "simulator.games.lostgems",
    "waterfall": "simulator.games.waterfall",
    "gemmatch": "simulator.games.gemmatch",
    "gembatan": "simulator.games.gembatan",
}
DEFAULT = "lostgems"


class PlainGame:
    """A firmware game with no host package of its own: a plain table, nothing else."""

    TILES = 18

    def __init__(self, name):
        self.NAME = name
        self.FIRMWARE = ("games." + name, "".join(p.capitalize() for p in name.split("_")))

    @staticmethod
    def table_areas(width, height, size, margin, label_px=30):
        return [("table", "Table", (margin, margin, width - 2 * margin, height - 2 * margin))]


def host_game(name=None):
    """The descriptor of game `name` (default DEFAULT): its host module, or a PlainGame."""
    name = name or DEFAULT
    module = HOST_MODULES.get(name)
    if module is None:
        return PlainGame(name)
    return importlib.import_module(module)


def table_areas(game):
    """The game's table_areas function (a plain table if it describes none)."""
    return getattr(game, "table_areas", PlainGame.table_areas)


def script_games():
    """{script suffix: host module} of every game that runs session scripts."""
    out = {}
    for name in HOST_MODULES:
        game = host_game(name)
        suffix = getattr(game, "SCRIPT_SUFFIX", None)
        if suffix:
            out[suffix] = game
    return out


def game_of_script(path):
    """The host module for a script path, by its suffix (Lost Gems' `.lg` for anything else,
    as `blinks session run` always read every named file as Lost Gems)."""
    for suffix, game in script_games().items():
        if path.endswith(suffix):
            return game
    return host_game(DEFAULT)
