"""A Gem Match game written out as a session script (`.gm`): its deck and every move, then
`expect` lines for how it ended, so `blinks session run` replays that very game."""

from games.gemmatch import tokens

from simulator.games.gemmatch.rules import PLAYERS


def game_script(state, title, seed=0):
    lines = [
        f"# {title}",
        "# Replay: blinks session run THIS_FILE [--rules-only]",
        f"seed {seed}",
        "deck " + " ".join(tokens.name(k) for k in state.kinds),
        f"start {PLAYERS[state.start]}",
    ]
    lines += [f"{PLAYERS[ev.player]} {ev.move}" for ev in state.history]
    for p in range(state.players):
        lines.append(f"expect score {PLAYERS[p]} {state.score(p)}")
        lines.append(f"expect heap {PLAYERS[p]} {len(state.heaps[p])}")
    lines += [
        f"expect field {len(state.field)}",
        f"expect pile {len(state.pile)}",
        f"expect over {'yes' if state.over else 'no'}",
        f"expect ended {state.ended or 'no'}",
    ]
    return "\n".join(lines) + "\n"
