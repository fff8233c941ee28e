"""Find the firmware game class the simulator runs, by its short name.

A name that is not a game's is refused, listing the games; a game module of your own that
fails as it loads raises UserCodeError naming its line. The games and the default come from
simulator.games (each game's host module names its
firmware). If the default cannot be imported (for instance while it is being written) the
simulator falls back to the demo game and says so on screen rather than refusing to start.
"""

import importlib

from simulator.games import DEFAULT, HOST_MODULES, game_names, host_game, name_problem
from simulator.sessions.user_code import wrap

# short name -> (module, class name)
KNOWN = {name: tuple(host_game(name).FIRMWARE) for name in (*HOST_MODULES, "demo")}
FALLBACK = "demo"


class GameNotFound(LookupError):
    pass


def _import(name: str):
    problem = name_problem(name)
    if problem:
        raise GameNotFound(f"--game: {problem}")
    if name in KNOWN:
        module_name, class_name = KNOWN[name]
    else:
        module_name, class_name = "games." + name, None
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        if exc.name == module_name:  # no such game (not a module of its own failing to import)
            games = ", ".join(game_names())
            raise GameNotFound(f"--game: there is no game {name!r}; the games: {games}") from None
        raise wrap(exc, f"game {name}", "importing its module") from None
    except Exception as exc:  # noqa: BLE001 - a game's module may raise anything as it loads
        raise wrap(exc, f"game {name}", "importing its module") from None
    if class_name is None:
        class_name = "".join(part.capitalize() for part in name.split("_"))
    cls = getattr(module, class_name, None) or getattr(module, "GAME", None)
    if cls is None:
        raise GameNotFound(f"game {name!r}: {module_name} has no class {class_name}")
    return cls


def load_game(name=None) -> tuple:
    """(game class, name actually used, note for the screen or None)."""
    if name is not None:
        return _import(name), name, None
    try:
        return _import(DEFAULT), DEFAULT, None
    except GameNotFound as exc:
        return (
            _import(FALLBACK),
            FALLBACK,
            f"{DEFAULT} not available, showing the {FALLBACK} game ({exc})",
        )
