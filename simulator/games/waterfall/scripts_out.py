"""A Waterfall game written out as a session script (`.wf`): its deck, players and every move,
then `expect` lines for how it ended, so `blinks session run` replays that very game."""

from games.waterfall import cards

from simulator.games.waterfall.rules import PLAYERS


def game_script(state, title, seed=0):
    lines = [
        f"# {title}",
        "# Replay: blinks session run THIS_FILE [--rules-only]",
        f"players {state.players}",
        f"seed {seed}",
        "deck " + " ".join(cards.name(k) for k in state.kinds),
        f"start {PLAYERS[state.history[0].player] if state.history else 'A'}",
    ]
    lines += [f"{PLAYERS[ev.player]} {ev.move}" for ev in state.history]
    lines += [f"expect score {PLAYERS[p]} {state.score(p)}" for p in range(state.players)]
    lines += [
        f"expect waterfall {len(state.waterfall)}",
        f"expect draw {len(state.pile)}",
        f"expect over {'yes' if state.over else 'no'}",
        f"expect ended {state.ended or 'no'}",
    ]
    return "\n".join(lines) + "\n"
