"""`blinks session run SCRIPT.gb --board-png DIR`: a picture of the board after each move,
DIR/board-001.png (the start), board-002.png (after the first move), ... (matplotlib, no window).

A tile is a grey square; a cutout is a half disc on its side, edged in the cutout's colour; a
gem is a disc in its socket, each half in the colour that meets the cutout on its side. The
title names the move, the panel below it the scores and what each player holds; the axes give
the cells' x,y as scripts name them, and a legend under the board says what each mark is.
"""

import os

from simulator.games.gembatan.rules import (
    COLOUR_NAMES,
    COLOURS,
    EAST,
    PLAIN,
    PLAYERS,
    STEPS,
    side_toward,
)

RGB = {"R": "#d62728", "B": "#1f5fd6", "G": "#2ca02c", "Y": "#f2c200"}
TILE = "#b8b2a7"
EDGE = "#6e675c"
OPEN = "#f4f1ea"  # an empty cutout's inside
INCH_A_CELL = 0.9


def save_board(state, directory, number, title):
    """Draw `state`'s board into DIRECTORY/board-NNN.png; return the path."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot as plt
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch, Rectangle, Wedge

    os.makedirs(directory, exist_ok=True)
    board = state.board
    xs = [c[0] for c in board.tiles] or [0]
    ys = [c[1] for c in board.tiles] or [0]
    width, height = max(xs) - min(xs) + 3, max(ys) - min(ys) + 3
    size = (max(6, width * INCH_A_CELL), max(6, height * INCH_A_CELL))
    fig, ax = plt.subplots(figsize=size, dpi=100)
    ax.set_aspect("equal")
    for spine in ax.spines.values():
        spine.set_visible(False)
    for (x, y), (sides, rotation) in board.tiles.items():
        ax.add_patch(Rectangle((x + 0.03, -y - 0.97), 0.94, 0.94, fc=TILE, ec=EDGE, lw=1))
        for d in range(4):
            side = side_toward(sides, rotation, d)
            if side == PLAIN:
                continue
            cx, cy = x + 0.5 + 0.47 * STEPS[d][0], -y - 0.5 - 0.47 * STEPS[d][1]
            start = (90 * (1 - d) + 90) % 360  # the half disc opens toward the tile's middle
            ax.add_patch(Wedge((cx, cy), 0.2, start, start + 180, fc=OPEN, ec=RGB[side], lw=3))
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
    columns = range(min(xs), max(xs) + 1)
    rows = range(min(ys), max(ys) + 1)
    ax.set_xticks([x + 0.5 for x in columns], [str(x) for x in columns], fontsize=8, color=EDGE)
    ax.set_yticks([-y - 0.5 for y in rows], [str(y) for y in rows], fontsize=8, color=EDGE)
    ax.tick_params(length=0)
    ax.set_xlabel("x (east)", fontsize=8, color=EDGE)
    ax.set_ylabel("y (south)", fontsize=8, color=EDGE)
    legend = [Patch(fc=RGB[c], ec="black", label=f"{c} {COLOUR_NAMES[c]}") for c in COLOURS]
    legend += [
        Line2D(
            [],
            [],
            ls="none",
            marker="o",
            ms=11,
            mfc=OPEN,
            mec=EDGE,
            mew=3,
            label="cutout: a socket's half, ringed in its colour",
        ),
        Line2D(
            [],
            [],
            ls="none",
            marker="o",
            ms=9,
            mfc=TILE,
            mec="black",
            label="gem in a socket: each half the colour of its side",
        ),
    ]
    ax.legend(
        handles=legend,
        loc="upper center",
        ncol=3,
        fontsize=9,
        frameon=False,
        bbox_to_anchor=(0.5, -0.08),
    )
    held = "   ".join(
        f"{PLAYERS[p]} {state.score(p)} pts · gems {' '.join(state.hand_gems[p]) or '-'}"
        for p in range(state.players)
    )
    stock = f"tray {len(state.tray)} gems, pile {len(state.pile)} tiles" + (
        f" · over ({state.ended})" if state.over else ""
    )
    ax.set_title(f"{title}\n{held}\n{stock}", fontsize=11, loc="left")
    path = os.path.join(directory, f"board-{number:03d}.png")
    fig.savefig(path, bbox_inches="tight")
    plt.close(fig)
    return path


__all__ = ["COLOURS", "save_board"]
