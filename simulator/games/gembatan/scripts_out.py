"""A Gembatan game written out as a session script (`.gb`): its players, the order of the
tiles and gems, every move, then `expect` lines for how it ended, so `blinks session run`
replays that very game."""

from simulator.games.gembatan.rules import PLAYERS


def game_script(state, title, seed=0):
    lines = [
        f"# {title}",
        "# Replay: blinks session run THIS_FILE [--board-png DIR]",
        f"players {state.players}",
        f"seed {seed}",
        "tiles " + " ".join(state.tile_order),
        "gems " + " ".join(state.gem_order),
        f"start {PLAYERS[state.start]}",
    ]
    lines += [f"{PLAYERS[ev.player]} {ev.move}" for ev in state.history]
    lines += [f"expect score {PLAYERS[p]} {state.score(p)}" for p in range(state.players)]
    lines += [
        f"expect board {len(state.board.tiles)}",
        f"expect tray {len(state.tray)}",
        f"expect over {'yes' if state.over else 'no'}",
        f"expect ended {state.ended or 'no'}",
    ]
    return "\n".join(lines) + "\n"
