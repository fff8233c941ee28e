"""Bot games written out as session scripts, so a designer can read, edit and replay them.

A game becomes a `deck` line (its whole draw order), the turns as statements, and `expect`
lines for how it ended: `blinks session run` replays it on the referee or, without
`--rules-only`, move by move on the simulated tiles.
"""

import os

from simulator.games.lostgems.referee import PLAYERS
from simulator.games.lostgems.shards import shard_name
from simulator.sessions.script import safe_name

SUFFIX = ".lg"


def game_script(state, title):
    """The session script of a finished (or stopped) game: its deck, turns and outcome."""
    lines = [
        f"# {title}",
        "# Replay: blinks session run THIS_FILE [--rules-only]",
        "deck " + " ".join(shard_name(s) for s in state.deck),
        f"start {PLAYERS[state.history[0].player] if state.history else 'A'}",
    ]
    for ev in state.history:
        lines.append(f"{PLAYERS[ev.player]} {ev.move}")
    lines += [
        f"expect score {state.score}",
        f"expect hints {state.hints}",
        f"expect errors {state.errors}",
        f"expect jungle {state.jungle}",
        f"expect over {'yes' if state.over else 'no'}",
    ]
    return "\n".join(lines) + "\n"


def script_path(directory, bot_name, seed):
    """Where the script of the game dealt from `seed` goes (`module:Class` names made safe)."""
    return os.path.join(directory, f"{safe_name(bot_name)}-seed{seed}{SUFFIX}")
