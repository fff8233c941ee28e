"""The games the host side knows, each described by one object, so the platform (the app, the
session framework, the playtest command) asks a game what it needs instead of knowing it.

A game's host code lives in one place, `simulator/games/<name>/` (lostgems, waterfall), whose
`__init__` is its descriptor. This module is the only one of the platform that names games.
A firmware game with no host package (the demo, or `games.<name>` of your own) gets a plain
table and no sessions. A host package outside simulator/games/ joins through BLINKS_GAMES
(`register`). docs/writing-a-game.md walks through adding one.

A descriptor (module-level names of the game's host module):
- NAME, FIRMWARE = ("games.<name>", "Class"): the tile firmware the world runs
- TILES: how many tiles `blinks sim --game NAME` lays out by default
- table_areas(width, height, size, margin, label_px) -> [(name, label, (x, y, w, h))]: what
  the table holds, the first area being where the starting cluster lies (optional: a plain
  table, PlainGame.table_areas); a game with PLAYER_COUNTS (and DEFAULT_PLAYERS) takes
  `players=` too and lays out only the seats in play (`blinks sim --players N`)
- SCRIPT_SUFFIX, parse_script(text) and session_runners(): `blinks session run` for the game's
  scripts (optional; `script_hooks` makes both); script_runners(statements) when a script's
  header picks the runners (a variant); CEILING = True if its runners take --ceiling; a runner
  with a BOARD_PICTURE takes --board-png DIR (a picture of the board after each move)
- TITLE: the game's name in words ("Gem Match")
- PLAYTEST = "module": `blinks playtest --game NAME` (optional): the module gives the game's
  options hook and its parts for the play layer's driver (simulator.play.playtest), or its
  own `run(args, game)`; bot_names() -> [name]: the bots `--bot` takes, for its --help
- dealt(seed, players) -> a referee, and RETURNS = (low, high): the game as OpenSpiel's
  Game/State (simulator.play.state; optional), with REFEREE_PLAYERS, the player counts its
  referee takes when they are not PLAYER_COUNTS, and returns(referee) for a shared score
- sim_bot_problem(args) -> None or the error, and attach_sim_bot(app, name, seed, scripts):
  `blinks sim --bot NAME`, a person against a bot in the window (optional)
- for the simulator's side panel (optional): DEAL_TIP (how to deal, shown while undealt),
  TOKENS (True: the hint and error coins), PIECE (the inspect() key naming what a tile is),
  AREA_WORDS (the inspector's name for each area; else the area's label), VIEW_HIDES and
  FACE_UP (viewing as a player: the states of a piece in their own hand they cannot see, and
  the states any player can read)
"""

import importlib
import os
import pkgutil
import sys

# short name -> the module that describes the game on the host
HOST_MODULES = {
    "lostgems": "simulator.games.lostgems",
    "waterfall": "simulator.games.waterfall",
    "gemmatch": "simulator.games.gemmatch",
    "gembatan": "simulator.games.gembatan",
}
DEFAULT = "lostgems"
# More games' host packages, without editing HOST_MODULES: folders (or name=module), separated
# by os.pathsep, e.g. BLINKS_GAMES=examples/tally (docs/writing-a-game.md).
GAMES_ENV = "BLINKS_GAMES"


def register(entry):
    """Add a game's host package to HOST_MODULES and return its name: `entry` is the folder that
    holds it (its name is the folder's; the folder's parent goes on sys.path) or `name=module`.
    Raises ValueError for a folder with no package in it."""
    if "=" in entry:
        name, module = entry.split("=", 1)
    else:
        path = os.path.abspath(entry)
        name = module = os.path.basename(path)
        if not os.path.isfile(os.path.join(path, "__init__.py")):
            raise ValueError(f"{GAMES_ENV}: {entry} is no game's host package (no __init__.py)")
        parent = os.path.dirname(path)
        if parent not in sys.path:
            sys.path.append(parent)
    HOST_MODULES[name] = module
    return name


def _register_from_environment():
    for entry in os.environ.get(GAMES_ENV, "").split(os.pathsep):
        if entry:
            try:
                register(entry)
            except ValueError as exc:
                print(f"blinks: {exc}", file=sys.stderr)


_register_from_environment()


class PlainGame:
    """A firmware game with no host package of its own: a plain table, nothing else."""

    TILES = 18

    def __init__(self, name):
        self.NAME = name
        self.FIRMWARE = ("games." + name, "".join(p.capitalize() for p in name.split("_")))

    @staticmethod
    def table_areas(width, height, size, margin, label_px=30):
        return [("table", "Table", (margin, margin, width - 2 * margin, height - 2 * margin))]


def script_hooks(script, tiles, words=None):
    """A descriptor's parse_script(text) and session_runners() for a game whose `script`
    module has RulesRunner (and parse_script, unless a `words` module has it), and whose
    `tiles` module has TilesRunner (None while the world or firmware is missing); the modules
    load only when a script runs."""

    def parse_script(text):
        return importlib.import_module(words or script).parse_script(text)

    def session_runners():
        try:
            on_tiles = importlib.import_module(tiles).TilesRunner
        except ImportError:
            on_tiles = None
        return importlib.import_module(script).RulesRunner, on_tiles

    return parse_script, session_runners


def game_names():
    """Every game there is by name: those with a host module (BLINKS_GAMES' too), and every
    firmware game in the `games` package (firmware/games/), sorted."""
    import games

    found = {info.name for info in pkgutil.iter_modules(games.__path__)}
    return sorted(found | set(HOST_MODULES))


def name_problem(name):
    """None if `name` can name a game, else what is wrong with it (a game is a module of the
    firmware's `games` package: its name is a Python identifier), listing the games there are."""
    if name is None or (name.isidentifier() and name.isascii()):
        return None
    return f"{name!r} is not a game's name; the games: {', '.join(game_names())}"


def host_game(name=None):
    """The descriptor of game `name` (default DEFAULT): its host module, or a PlainGame."""
    name = name or DEFAULT
    module = HOST_MODULES.get(name)
    if module is None:
        return PlainGame(name)
    return importlib.import_module(module)


def table_areas(game, players=None):
    """The game's table_areas function (a plain table if it describes none). A game with a
    choice of players (PLAYER_COUNTS) lays out the seats of `players` (default its
    DEFAULT_PLAYERS) and no others."""
    areas = getattr(game, "table_areas", PlainGame.table_areas)
    if not getattr(game, "PLAYER_COUNTS", None):
        return areas
    seats = players or game.DEFAULT_PLAYERS

    def seated(width, height, size, margin, label_px=30):
        return areas(width, height, size, margin, label_px, players=seats)

    return seated


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
