"""`blinks session run SCRIPT.gb --board-png DIR`: a picture of the board after each move,
DIR/board-001.png (the start), board-002.png (after the first move), ... (matplotlib, no window).

A tile is a grey square; a cutout is a half disc on its side, edged in the cutout's colour; a
gem is a disc in its socket, each half in the colour that meets the cutout on its side. The
title names the move, the panel below it the scores and what each player holds.
"""

import os

from simulator.games.gembatan.rules import COLOURS, EAST, PLAIN, PLAYERS, STEPS, side_toward

RGB = {"R": "#d62728", "B": "#1f5fd6", "G": "#2ca02c", "Y": "#f2c200"}
TILE = "#b8b2a7"
EDGE = "#6e675c"


def save_board(state, directory, number, title):
    """Draw `state`'s board into DIRECTORY/board-NNN.png; return the path."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot as plt
    from matplotlib.patches import Rectangle, Wedge

    os.makedirs(directory, exist_ok=True)
    board = state.board
    xs = [c[0] for c in board.tiles] or [0]
    ys = [c[1] for c in board.tiles] or [0]
    width, height = max(xs) - min(xs) + 3, max(ys) - min(ys) + 3
    fig, ax = plt.subplots(figsize=(max(4, width * 0.7), max(4, height * 0.7)), dpi=80)
    ax.set_aspect("equal")
    ax.axis("off")
    for (x, y), (sides, rotation) in board.tiles.items():
        ax.add_patch(Rectangle((x + 0.03, -y - 0.97), 0.94, 0.94, fc=TILE, ec=EDGE, lw=1))
        for d in range(4):
            side = side_toward(sides, rotation, d)
            if side == PLAIN:
                continue
            cx, cy = x + 0.5 + 0.47 * STEPS[d][0], -y - 0.5 - 0.47 * STEPS[d][1]
            start = (90 * (1 - d) + 90) % 360  # the half disc opens toward the tile's middle
            ax.add_patch(Wedge((cx, cy), 0.2, start, start + 180, fc="#f4f1ea", ec=RGB[side], lw=3))
    for e, (first, second) in board.gems.items():
        (x, y), direction = e
        if direction == EAST:
            cx, cy, a1 = x + 1, -y - 0.5, 90  # west half, then east half
        else:
            cx, cy, a1 = x + 0.5, -y - 1, 0  # north half, then south half
        ax.add_patch(Wedge((cx, cy), 0.15, a1, a1 + 180, fc=RGB[first], ec="black", lw=0.6))
        ax.add_patch(Wedge((cx, cy), 0.15, a1 + 180, a1 + 360, fc=RGB[second], ec="black", lw=0.6))
    ax.set_xlim(min(xs) - 1, max(xs) + 2)
    ax.set_ylim(-max(ys) - 2, -min(ys) + 1)
    held = "   ".join(
        f"{PLAYERS[p]} {state.score(p)} pts · gems {' '.join(state.hand_gems[p]) or '-'}"
        for p in range(state.players)
    )
    ax.set_title(f"{title}\n{held}", fontsize=9, loc="left")
    fig.text(
        0.01,
        0.01,
        f"tray {len(state.tray)} gems, pile {len(state.pile)} tiles"
        + (f" · over ({state.ended})" if state.over else ""),
        fontsize=8,
    )
    path = os.path.join(directory, f"board-{number:03d}.png")
    fig.savefig(path, bbox_inches="tight")
    plt.close(fig)
    return path


__all__ = ["COLOURS", "save_board"]
