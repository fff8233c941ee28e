"""Find the firmware game class the simulator runs, by its short name.

The games and the default come from simulator.games (each game's host module names its
firmware). If the default cannot be imported (for instance while it is being written) the
simulator falls back to the demo game and says so on screen rather than refusing to start.
"""

import importlib

from simulator.games import DEFAULT, HOST_MODULES, host_game

# short name -> (module, class name)
KNOWN = {name: tuple(host_game(name).FIRMWARE) for name in (*HOST_MODULES, "demo")}
FALLBACK = "demo"


class GameNotFound(LookupError):
    pass


def _import(name: str):
    if name in KNOWN:
        module_name, class_name = KNOWN[name]
    else:
        module_name, class_name = "games." + name, None
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise GameNotFound(f"game {name!r}: cannot import {module_name} ({exc})") from None
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
