"""The session framework every game's scripts and playtests run on; it knows no game by name.

- `cli`: `blinks session run SCRIPT...`: the script's game (told by its suffix, through
  simulator.games) parses it and brings its runners; this module batches, reports and exits.
- `runner`: the exit codes and the `SessionResult` a game's runner ends with.
- `script`: the `ScriptError(line, message)` every game's parser raises, and whole numbers.
- `playtest_cli`: `blinks playtest`: the options every game takes, each game's own through its
  hook, then the play layer's driver (simulator.play.playtest) or the game's own run.

Each game's referee, bots, script language and runners live with the game, in
simulator/games/<game>/ (docs/writing-a-game.md).
"""


def __getattr__(name):
    """Lost Gems' Python API (its `__all__`) was this package's before games had a place of
    their own; its names still resolve here (PEP 562), so code written against it runs on."""
    from simulator.games import host_game

    lost_gems = host_game("lostgems")
    if name in lost_gems.__all__:
        return getattr(lost_gems, name)
    raise AttributeError(f"module 'simulator.sessions' has no attribute {name!r}")
