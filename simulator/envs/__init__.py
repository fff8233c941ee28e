"""Our games for researchers: each as a PettingZoo AEC environment and as an OpenSpiel game,
both thin over the play layer (simulator.play.state). docs/research.md says what they hold.

    pettingzoo_env("lostgems")          # an AEC env; options: players, render_mode
    openspiel_game("waterfall", players=3)   # a pyspiel.Game, registered as
                                             # python_blinks_waterfall on first use
Both need the `research` extra: pip install -e '.[research]'.
"""

GAMES = ("lostgems", "waterfall", "gemmatch", "gembatan")
PLAYERS = {"lostgems": (2,), "waterfall": (2, 3, 4), "gemmatch": (2,), "gembatan": (2, 3, 4)}
EXTRA = "pip install -e '.[research]'"


def _check(name, options, allowed):
    if name not in GAMES:
        raise ValueError(f"{name!r} is not a game here; the games: {', '.join(GAMES)}")
    for key in options:
        if key not in allowed:
            raise ValueError(f"{name} takes no option {key!r} (it takes {', '.join(allowed)})")
    players = options.get("players")
    if players is not None and players not in PLAYERS[name]:
        raise ValueError(f"{name} is for {', '.join(map(str, PLAYERS[name]))} players")


def pettingzoo_env(name, **options):
    """Game `name` as a PettingZoo AEC environment, wrapped as PettingZoo's classic ones are.
    Options: players (Waterfall, Gembatan: 2-4), render_mode ("human" or "ansi")."""
    _check(name, options, ("players", "render_mode"))
    try:
        from simulator.envs import aec
    except ImportError as exc:
        raise ImportError(f"the PettingZoo environments need {EXTRA} ({exc})") from exc
    return aec.env(name, **options)


def openspiel_game(name, **params):
    """Game `name` as a pyspiel.Game, registered as python_blinks_<name> on first use so
    pyspiel.load_game finds it. Parameters: players (Waterfall, Gembatan), deals (the deal
    seeds of every game but Lost Gems, whose deal is its 18 shards)."""
    _check(name, params, ("players", "deals") if name != "lostgems" else ())
    try:
        import pyspiel

        from simulator.envs import spiel
    except ImportError as exc:
        raise ImportError(f"the OpenSpiel games need {EXTRA} ({exc})") from exc
    return pyspiel.load_game(spiel.register(name), params)
