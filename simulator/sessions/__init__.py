"""The session framework every game's scripts and playtests run on; it knows no game by name.

- `cli`: `blinks session run SCRIPT...`: the script's game (told by its suffix, through
  simulator.games) parses it and brings its runners; this module batches, reports and exits.
- `runner`: the exit codes and the `SessionResult` a game's runner ends with.
- `script`: the `ScriptError(line, message)` every game's parser raises, and whole numbers.
- `playtest_cli`: `blinks playtest`: the options, handed to the game's own playtest.

Each game's referee, bots, script language and runners live with the game, in
simulator/games/<game>/ (docs/writing-a-game.md).
"""

# Lost Gems' Python API was this package's before games had a place of their own; the names
# still resolve here (a module __getattr__, PEP 562) so code written against it keeps working.
_LOST_GEMS_NAMES = {
    "BEST_BOT",
    "BOTS",
    "Bot",
    "Event",
    "GameState",
    "IllegalMove",
    "Move",
    "Observation",
    "RulesRunner",
    "SessionResult",
    "UnknownBot",
    "bot_class",
    "parse_script",
    "parse_shard",
    "play_game",
    "run_games",
    "run_script_text",
    "score_stats",
    "shard_name",
}


def __getattr__(name):
    if name in _LOST_GEMS_NAMES:
        from simulator.games import host_game

        return getattr(host_game("lostgems"), name)
    if name == "ScriptError":
        from simulator.sessions.script import ScriptError

        return ScriptError
    raise AttributeError(f"module 'simulator.sessions' has no attribute {name!r}")
