"""A picture of the printed Gem Match's field (`blinks playtest --game gemmatch --variant printed
--board-png DIR`: DIR/seedN.png, each game's field as it ended; matplotlib, no window).

A square is a gem in its colour, lettered; a thick line runs between two squares of different
tokens, so each tetromino shows its outline. The title names the game and the scores.
"""

import os

from simulator.games.gemmatch.printed import token_name

RGB = {
    "R": "#d62728",
    "G": "#2ca02c",
    "B": "#1f5fd6",
    "Y": "#f2c200",
    "P": "#9b3fd1",
    "C": "#17becf",
}
EMPTY, GRID, OUTLINE = "#f4f1ea", "#d8d2c4", "#222222"


def save_board(state, folder, number, title):
    """`blinks session run --board-png DIR`: the field after a move, DIR/board-NNN.png."""
    return save_field(state, os.path.join(folder, f"board-{number:03d}.png"), title)


def save_field(state, path, title):
    """Draw `state`'s field into `path` (a .png); return the path."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot as plt
    from matplotlib.patches import Rectangle

    folder = os.path.dirname(path)
    if folder:
        os.makedirs(folder, exist_ok=True)
    n = state.size
    fig, ax = plt.subplots(figsize=(n * 0.55 + 1, n * 0.55 + 1.4), dpi=80)
    ax.set_aspect("equal")
    ax.axis("off")
    ax.set_xlim(-0.2, n + 0.2)
    ax.set_ylim(-n - 0.2, 0.2)
    for y in range(n):
        for x in range(n):
            held = state.field.get((x, y))
            colour = RGB[held[1]] if held else EMPTY
            ax.add_patch(Rectangle((x, -y - 1), 1, 1, fc=colour, ec=GRID, lw=0.5))
            if held:
                ax.text(x + 0.5, -y - 0.5, held[1], ha="center", va="center", fontsize=9)
    for (x, y), (token, _) in state.field.items():  # each token's outline
        for dx, dy, line in (
            (1, 0, ((x + 1, x + 1), (-y, -y - 1))),
            (0, 1, ((x, x + 1), (-y - 1, -y - 1))),
            (-1, 0, ((x, x), (-y, -y - 1))),
            (0, -1, ((x, x + 1), (-y, -y))),
        ):
            other = state.field.get((x + dx, y + dy))
            if other is None or other[0] != token:
                ax.plot(*line, color=OUTLINE, lw=2)
    hands = "; ".join(
        f"{p}: hand {' '.join(token_name(*t) for t in state.hands[i]) or '-'}"
        for i, p in enumerate("AB")
    )
    ax.set_title(f"{title}\n{hands}", fontsize=9)
    fig.savefig(path)
    plt.close(fig)
    return path
