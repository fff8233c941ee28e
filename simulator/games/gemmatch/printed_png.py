"""A picture of the printed Gem Match (matplotlib, no window), drawn once for three uses:
`blinks playtest --variant printed --board-png DIR` (each game as it ended), `blinks session run
--board-png DIR` on a printed script (after each move) and `blinks sim --game gemmatch --variant
printed` (the window and its --screenshot).

The field on the left: a square is a gem in its colour, lettered; a thick line runs between
two squares of different tokens, so each tetromino shows its outline, and the group being
resolved is outlined in white. On the right: whose turn and what they do, each player's score,
heap and hand (each token drawn as it lies, its name under it, `+` improved side up), the pile.
"""

import os

from simulator.games.gemmatch.printed import (
    AGAIN,
    HAND_LIMIT,
    HEAP,
    KEEP,
    OVER,
    PLACE,
    SHARE,
    SKIP,
    side_cells,
    side_gems,
    token_name,
    token_word,
)
from simulator.games.gemmatch.rules import PLAYERS

RGB = {
    "R": "#d62728",
    "G": "#2ca02c",
    "B": "#1f5fd6",
    "Y": "#f2c200",
    "P": "#9b3fd1",
    "C": "#17becf",
}
PAPER, EMPTY, GRID, OUTLINE = "#fbfaf6", "#efeadf", "#d8d2c4", "#222222"
INK, FAINT, TURN = "#222222", "#6b6b6b", "#b3400f"
GROUP = TURN  # the outline of the group being resolved
DPI = 100
SIZE = (1100, 700)  # a saved picture's pixels, the simulator's smallest window
DOING = {
    PLACE: "places a token",
    AGAIN: "may place again or pass",
    SKIP: "cannot place: skips",
    HEAP: "heaps a token of the group",
    KEEP: "takes one to the hand",
    SHARE: "shares the group: heap or hand",
}


def save_board(state, folder, number, title):
    """`blinks session run --board-png DIR`: the game after a move, DIR/board-NNN.png."""
    return save_field(state, os.path.join(folder, f"board-{number:03d}.png"), title)


def save_field(state, path, title):
    """Draw `state` into `path` (a .png); return the path."""
    folder = os.path.dirname(path)
    if folder:
        os.makedirs(folder, exist_ok=True)
    fig = figure(state, title, SIZE)
    fig.savefig(path, dpi=DPI)
    return path


class Layout:
    """Where figure() drew the field and the hands, in the picture's pixels (y down), so the
    window can tell what a person's click landed on."""

    def __init__(self):
        self.field = None  # (left, top, cell, n): square (x, y) starts at left + x * cell
        self.hands = {}  # seat -> a box (left, top, width, height) for each hand slot
        self.free = None  # (left, top, width, bottom): room left under the panel


def rgba(state, title, size, note="", layout=None):
    """The picture as RGBA bytes of `size` (width, height) pixels, for a pygame surface;
    `note` goes at its foot (the window's keys); `layout` (a Layout) learns where things are."""
    fig = figure(state, title, size, note, layout)
    fig.canvas.draw()
    return bytes(fig.canvas.buffer_rgba())


def figure(state, title, size, note="", layout=None):
    """The matplotlib Figure of the whole picture, laid out in pixels (y down)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    w, h = size
    fig = Figure(figsize=(w / DPI, h / DPI), dpi=DPI, facecolor=PAPER)
    FigureCanvasAgg(fig)  # drawn off screen, whatever backend pyplot uses
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(0, w)
    ax.set_ylim(h, 0)
    ax.axis("off")
    pen = Pen(ax, h)
    margin = round(h * 0.03)
    heading = pen.pt(h * 0.034)
    pen.text(margin, margin, title, heading, weight="bold")
    top = margin + h * 0.06
    side = min(h - top - margin, w * 0.56)
    layout = Layout() if layout is None else layout
    layout.field = (margin, top, side / state.size, state.size)
    _field(pen, state, margin, top, side)
    panel_left, panel_width = margin + side + 2 * margin, w - side - 4 * margin
    below = _panel(pen, state, panel_left, top, panel_width, layout.hands)
    layout.free = (panel_left, below, panel_width, h - margin - h * 0.03)
    if note:
        pen.text(w - margin, h - margin, note, pen.pt(h * 0.022), FAINT, ha="right", va="bottom")
    return fig


class Pen:
    """Drawing on the picture's axes in pixels: font sizes in pixels become points."""

    def __init__(self, ax, height):
        self.ax, self.height = ax, height

    def pt(self, px):
        return px * 72 / DPI

    def text(self, x, y, words, size, color=INK, weight="normal", ha="left", va="top"):
        self.ax.text(x, y, words, fontsize=size, color=color, weight=weight, ha=ha, va=va)

    def square(self, x, y, side, face, edge=GRID, lw=0.5):
        from matplotlib.patches import Rectangle

        self.ax.add_patch(Rectangle((x, y), side, side, fc=face, ec=edge, lw=lw))

    def line(self, xs, ys, color=OUTLINE, lw=2.0):
        self.ax.plot(xs, ys, color=color, lw=lw, solid_capstyle="round")


def _field(pen, state, left, top, side):
    n = state.size
    cell = side / n
    letters = pen.pt(cell * 0.36)
    for y in range(n):
        for x in range(n):
            held = state.field.get((x, y))
            pen.square(left + x * cell, top + y * cell, cell, RGB[held[1]] if held else EMPTY)
            if held:
                pen.text(
                    left + (x + 0.5) * cell,
                    top + (y + 0.5) * cell,
                    held[1],
                    letters,
                    ha="center",
                    va="center",
                )
    group = state.resolving.tokens if state.resolving is not None else ()
    for (x, y), (token, _) in state.field.items():
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            other = state.field.get((x + dx, y + dy))
            if other is not None and other[0] == token:
                continue
            xs, ys = _edge(left, top, cell, x, y, dx, dy)
            pen.line(xs, ys, GROUP if token in group else OUTLINE, 4.0 if token in group else 2.0)
    small = pen.pt(max(10, cell * 0.16))
    for i in range(n):  # the squares' numbers, as scripts name them (X across, Y down)
        pen.text(left + (i + 0.5) * cell, top - 2, str(i), small, FAINT, ha="center", va="bottom")
        pen.text(left - 3, top + (i + 0.5) * cell, str(i), small, FAINT, ha="right", va="center")


def _edge(left, top, cell, x, y, dx, dy):
    """The ends of the side of square (x, y) toward (dx, dy), in pixels."""
    x0, y0 = left + x * cell, top + y * cell
    if dx:
        xe = x0 + (cell if dx > 0 else 0)
        return (xe, xe), (y0, y0 + cell)
    ye = y0 + (cell if dy > 0 else 0)
    return (x0, x0 + cell), (ye, ye)


def _panel(pen, state, left, top, width, boxes):
    """Draw the panel; fill `boxes` (seat -> each hand slot's box); return the y under it."""
    height = pen.height
    unit = min(height, width * 1.6)  # the fonts fit the panel's width too
    big, normal = pen.pt(unit * 0.03), pen.pt(unit * 0.024)
    step = unit * 0.045
    y = top
    pen.text(left, y, _whose_turn(state), big, TURN, weight="bold")
    y += step * 1.2
    if state.history:
        last = state.history[-1]
        pen.text(left, y, f"last move: {PLAYERS[last.player]} {last.move}", normal, FAINT)
    y += step
    if state.resolving is not None:
        g = state.resolving
        look = state.observation(state.current)
        pen.text(left, y, f"a group of {g.size} {g.gem}; under its tokens:", normal)
        under = [f"{token_word(t)} {look.under(t)}" for t in sorted(g.tokens)]
        for row in range(0, len(under), 3):
            y += step * 0.8
            pen.text(left + unit * 0.02, y, "   ".join(under[row : row + 3]), normal)
    y += step * 1.3
    cell = min(width / (HAND_LIMIT * 4.6), unit * 0.032)
    for p in range(state.players):
        words = f"{PLAYERS[p]}: score {state.score(p)} (heap {len(state.heaps[p])})"
        mover = p == state.current and state.phase != OVER
        pen.text(left, y, words, big, TURN if mover else INK, weight="bold")
        y += step * 1.1
        boxes[p] = []
        for i, (token, side) in enumerate(state.hands[p]):
            _token(pen, left + i * cell * 4.6, y, cell, token, side)
            boxes[p].append((left + i * cell * 4.6, y, cell * 4.2, cell * 5))
        if not state.hands[p]:
            pen.text(left, y, "(an empty hand)", normal, FAINT)
        y += cell * 5 + step * 0.6
    turns = f"{state.turns} turns" if state.phase == OVER else f"turn {state.turns + 1}"
    pen.text(left, y, f"pile: {len(state.pile)} tokens, {turns}", normal, FAINT)
    return y + step


def _token(pen, left, top, cell, token, side):
    """A hand token as it lies, in a box of 4 by 4 cells, its name just under it."""
    cells = side_cells(token, side)
    for (cx, cy), gem in zip(cells, side_gems(token, side)):
        pen.square(left + cx * cell, top + cy * cell, cell, RGB[gem], OUTLINE, 1.0)
    below = top + cell * (max(cy for _, cy in cells) + 1.25)
    pen.text(left, below, token_name(token, side), pen.pt(cell * 0.75), INK)


def _whose_turn(state):
    if state.phase == OVER:
        scores = ", ".join(f"{PLAYERS[p]} {state.score(p)}" for p in range(state.players))
        won = state.winners()
        result = "a tie" if len(won) > 1 else f"{PLAYERS[won[0]]} wins"
        return f"Game over ({state.ended}): {scores}, {result}"
    return f"{PLAYERS[state.current]} {DOING[state.phase]}"
