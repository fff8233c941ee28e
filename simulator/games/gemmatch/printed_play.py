"""The printed Gem Match at the simulator's window: a person in seat A (or nobody, `--watch`), a
bot in each other seat, and what a person's click means.

No pygame here: a click is a pixel and the picture's Layout (printed_png), so the tests play
whole games through the same clicks a person makes. A person picks a hand token (a click on
it), turns it a quarter (R or the right button), sees it over the field where it would lie and
clicks to place it there; the rest of a turn (pass, skip, a group's tokens to the heap or the
hand) are buttons named in a script's words.
"""

from simulator.games.gemmatch import printed as pr
from simulator.games.gemmatch import printed_bots
from simulator.play.bots import bot_seed

MOVE_MS = 1000  # a bot's move a second after the move before it, so a person can follow
BUTTON_ROWS = 4  # rows of 3 buttons the room under the panel is sized for; more rows shrink


class Table:
    """One printed game in the window: `people` the seats a person plays, bots in the rest."""

    def __init__(self, seed, size, bot, people=(0,)):
        self.size, self.bot, self.people = size, bot, tuple(people)
        self.deal(seed)

    def deal(self, seed):
        self.seed, self.clock, self.due = seed, 0, MOVE_MS
        self.state = pr.GameState(seed=seed, size=self.size)
        self.bots = {
            p: printed_bots.bot_class(self.bot)(p, bot_seed(seed, p, 0x9E7))
            for p in range(2)
            if p not in self.people
        }
        self.views = [self.state.observation(p) for p in range(2)]
        self.moves = 0  # changes when the picture must be drawn again
        self.slot, self.turn = None, 0  # the token a person holds (its hand slot) and its turns
        self.said = self.hint()

    # --- whose move ----------------------------------------------------------------------------
    def persons_turn(self):
        return not self.state.over and self.state.current in self.people

    def advance(self, ms):
        """Let `ms` of simulated time pass: the bots' moves that fall due. A person's turn waits,
        and the bot's move after it comes MOVE_MS after the person's."""
        self.clock += ms
        while not self.state.over:
            if self.persons_turn():
                self.due = self.clock + MOVE_MS
                return
            if self.clock < self.due:
                return
            seat = self.state.current
            self._apply(self.bots[seat].act(self.views[seat]))
            self.due += MOVE_MS

    def _apply(self, move):
        event = self.state.apply(move)
        for p, bot in self.bots.items():
            bot.observe(self.views[p], event)
        self.moves += 1
        self.slot, self.turn = None, 0
        self.said = self.hint()
        return event

    # --- a person's hand -----------------------------------------------------------------------
    def hint(self):
        """One line for the person: what the game waits for."""
        s = self.state
        if s.over:
            return "the game is over: N deals the next seed"
        if not self.persons_turn():
            return f"{pr.PLAYERS[s.current]} (the bot) is playing"
        if s.phase in (pr.PLACE, pr.AGAIN):
            if self.slot is None:
                return "click a token of your hand to pick it up"
            return "R or the right button turns it; click the field to place it"
        return "choose with a button"

    def pick(self, slot):
        """Pick up the token in hand slot `slot` (from 1), or put it back if it is held."""
        self.slot = None if self.slot == slot else slot
        self.turn = 0
        self.said = self.hint()

    def rotate(self, step=1):
        if self.slot is not None:
            self.turn = (self.turn + step) % 4

    def held_cells(self):
        """The held token's squares as it is turned, from 0,0, with their gems; None if none."""
        if self.slot is None:
            return None
        token, side = self.state.hands[self.state.current][self.slot - 1]
        return list(
            zip(pr.turned(pr.side_cells(token, side), self.turn), pr.side_gems(token, side))
        )

    def spot_under(self, square):
        """Where the held token goes when the pointer is on field square `square`: its middle
        square under the pointer."""
        cells = self.held_cells()
        wide = max(x for (x, _), _ in cells) + 1
        tall = max(y for (_, y), _ in cells) + 1
        return (square[0] - (wide - 1) // 2, square[1] - (tall - 1) // 2)

    def ghost(self, square):
        """The held token over `square`: [((x, y), gem)] on the field, and whether it fits."""
        x, y = self.spot_under(square)
        cells = [((x + cx, y + cy), gem) for (cx, cy), gem in self.held_cells()]
        return cells, self.state.fits([c for c, _ in self.held_cells()], x, y)

    def choices(self):
        """The moves other than a placement (pass, skip, a group's tokens), as buttons offer them."""
        if not self.persons_turn():
            return []
        return [m for m in self.state.legal_moves() if m.kind != pr.PLACE]

    def play(self, move):
        """Make a person's move; the referee's refusal becomes the line the window shows."""
        try:
            self._apply(move)
        except pr.IllegalMove as refused:
            self.said = str(refused)

    # --- clicks --------------------------------------------------------------------------------
    def click(self, pos, layout):
        """A person's left click at pixel `pos` on the picture laid out as `layout`."""
        if not self.persons_turn():
            return
        for i, box in enumerate(layout.hands.get(self.state.current, ())):
            if inside(pos, box) and self.state.phase in (pr.PLACE, pr.AGAIN):
                self.pick(i + 1)
                return
        for move, box in zip(self.choices(), button_boxes(layout, len(self.choices()))):
            if inside(pos, box):
                self.play(move)
                return
        square = square_at(pos, layout)
        if square is not None and self.slot is not None:
            self.play(pr.place(self.slot, self.turn, self.spot_under(square)))


def inside(pos, box):
    left, top, width, height = box
    return left <= pos[0] < left + width and top <= pos[1] < top + height


def square_at(pos, layout):
    """The field square (x, y) under pixel `pos`, or None off the field."""
    left, top, cell, n = layout.field
    x, y = int((pos[0] - left) // cell), int((pos[1] - top) // cell)
    return (x, y) if 0 <= x < n and 0 <= y < n else None


def button_boxes(layout, count):
    """Boxes for `count` buttons in the room under the panel: a line for the hint, then rows of
    three columns."""
    left, top, width, bottom = layout.free
    rows = max(BUTTON_ROWS, -(-count // 3))
    height = min(34, (bottom - top) / (rows + 1.5))
    column = width / 3
    top += height * 1.3
    return [
        (left + (i % 3) * column, top + (i // 3) * height, column - 6, height - 4)
        for i in range(count)
    ]
