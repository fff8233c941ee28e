"""Lost Gems moves done by hand on the app's table, a few frames at a time.

The session runner's `simulator.games.lostgems.physical.Table` knows which tile is in which hand,
on the board and in the discards, and checks the tiles against the referee; `AppTable` reuses
that bookkeeping (`choose_order`, `expected`, `check`) and the runner's timings. Its moves could
not be reused as they stand: they block (`world.advance`/`run_until` inside), act on the world
directly (so nothing would be recorded) and use fixed cells far off the app's table. Here each
move is a generator of waits, run by `Steps` across frames, acting only through `app.ops` in the
app's labelled areas, so a playtester watches every move and `--record` keeps it.

A step yields either an int (simulated ms to wait) or an `Until` (a condition on the tiles with
a time limit). Short waits inside a gesture (click timing) run at once with exact timing, so
clicks work at any speed; longer waits are spread over frames.
"""

from simulator.app.layout import DIRECTIONS, hex_distance
from simulator.app.steps import Gestures
from simulator.games.lostgems import physical
from simulator.games.lostgems.physical import (
    DEAL_TIMEOUT_MS,
    DISCARD_HOLD_MS,
    ERROR_MS,
    HOLD_DEAL_MS,
    LONE_WAIT_MS,
    SETTLE_MS,
    Mismatch,
)
from simulator.games.lostgems.shards import full_deck, parse_shard

HINT_MS = 500  # a hint moves no tile; the turn still takes a moment


class AppTable(Gestures, physical.Table):
    """The session runner's table bookkeeping on the app's world, with frame-driven moves.

    Built without calling `physical.Table.__init__`, which would make a world of its own."""

    SETTLE_MS = SETTLE_MS
    HOLD_DEAL_MS = HOLD_DEAL_MS
    DEAL_TIMEOUT_MS = DEAL_TIMEOUT_MS

    def __init__(self, app):
        self.app = app
        self.world = app.world
        self.ops = app.ops
        self.shards = {}
        self.order = []
        self.next_draw = 0
        self.hands = ([], [])
        self.board = []
        self.discards = []
        self.hand_cells = [0, 0]

    # --- where things go ----------------------------------------------------------------------
    def slot_cell(self, player: int, slot: int) -> tuple:
        """Slot 1 left, slot 2 right, four cells apart (hand shards must never touch), either
        side of the hand area's centre column, in its row nearest the middle below the label:
        both hands' slots line up, whichever way the hex rows fall in each area."""
        name = "hand_a" if player == 0 else "hand_b"
        x, y, w, h = self.app.table.area(name).rect
        label_px = self.app.table.label_px
        mid = (x + w / 2.0, y + (label_px + h) / 2.0)  # the middle of the area below its label
        to_pixel = self.app.table.layout.to_pixel
        cells = self._area_cells(name)
        centre_x = min((to_pixel(*c)[0] for c in cells), key=lambda cx: abs(cx - mid[0]))
        centre = min(
            (c for c in cells if abs(to_pixel(*c)[0] - centre_x) < 1.0),
            key=lambda c: abs(to_pixel(*c)[1] - mid[1]),
        )
        row_y = to_pixel(*centre)[1]
        row = sorted(
            (c for c in cells if abs(to_pixel(*c)[1] - row_y) < 1.0), key=lambda c: to_pixel(*c)[0]
        )
        i = row.index(centre)
        return row[i - 1] if slot == 1 else row[i + 1]

    def _area_cells(self, name: str) -> list:
        """Cells whose whole hexagon lies inside the area, below its label."""
        x, y, w, h = self.app.table.area(name).rect
        s = self.app.table.layout.size
        a = 0.87 * s  # apothem
        label_px = self.app.table.label_px
        inner = (x + s, y + label_px + a, w - 2 * s, h - label_px - 2 * a)
        return [
            c for c in self.app.table.layout.cells_in_rect(inner) if self.app.table.on_table(*c)
        ]

    def _neighbours(self, cell) -> list:
        return [self.world.tile_at(cell[0] + dq, cell[1] + dr) for dq, dr in DIRECTIONS]

    def board_cell(self) -> tuple:
        """The first play: the centre of the gem board area. Later plays: the free cell nearest
        that centre touching the board and nothing else."""
        centre = self.app.table.centre_cell("board")
        if not self.board:
            return centre
        cells = sorted(
            self._area_cells("board"), key=lambda c: (hex_distance(c, centre), c[1], c[0])
        )
        for cell in cells:
            near = [t for t in self._neighbours(cell) if t is not None]
            if self.world.tile_at(*cell) is None and near and all(t in self.board for t in near):
                return cell
        raise Mismatch("no free cell left beside the gem board")

    def discard_cell(self) -> tuple:
        """Discarded shards send nothing, so they may lie together: the first free cell of the
        discard area touching only other discards."""
        to_pixel = self.app.table.layout.to_pixel
        for cell in sorted(
            self._area_cells("discard"), key=lambda c: (round(to_pixel(*c)[1]), to_pixel(*c)[0])
        ):
            near = [t for t in self._neighbours(cell) if t is not None]
            if self.world.tile_at(*cell) is None and all(t in self.discards for t in near):
                return cell
        raise Mismatch("no free cell left in the discard area")

    # --- the deal and the moves ---------------------------------------------------------------
    def deal(self, held):
        """Hold `held` for 6 s, let the firmware deal, then read the shards (as Table.deal)."""
        yield from self.hold_to_deal(held, "face down")
        w = self.world
        self.shards = {t: parse_shard(w.inspect(t)["shard"]) for t in w.tiles}
        if sorted(self.shards.values()) != full_deck():
            raise Mismatch("the tiles do not hold the 18 shards exactly once")

    def draw(self, player):
        """The next jungle tile into the player's last slot, alone, double-clicked to reveal."""
        t = self.order[self.next_draw]
        self.next_draw += 1
        self.move_to(t, self.slot_cell(player, len(self.hands[player]) + 1))
        yield LONE_WAIT_MS
        yield from self.clicks(t, 2)
        yield self.wait_state(t, ("revealed",))
        self.hands[player].append(t)

    def play(self, player, slot):
        t = self.hands[player].pop(slot - 1)
        if not self.board:
            self.move_to(t, self.board_cell())
            yield LONE_WAIT_MS
            yield from self.clicks(t, 3)
        else:
            self.move_to(t, self.board_cell())
        yield self.wait_state(t, ("played", "error"))
        if self.state_of(t) == "played":
            self.board.append(t)
        else:
            yield self.wait_state(t, ("discarded",), ERROR_MS + SETTLE_MS)
            self.to_discards(t)
        yield from self.close_up(player)

    def discard(self, player, slot):
        t = self.hands[player].pop(slot - 1)
        yield from self.hold(t, DISCARD_HOLD_MS)
        yield self.wait_state(t, ("discarded",))
        self.to_discards(t)
        yield from self.close_up(player)

    def to_discards(self, t):
        self.move_to(t, self.discard_cell())
        self.discards.append(t)

    def close_up(self, player):
        """The shard left in the hand slides to slot 1, as the rules' slots do."""
        hand = self.hands[player]
        if hand and self.world.position(hand[0])[:2] != self.slot_cell(player, 1):
            self.move_to(hand[0], self.slot_cell(player, 1))
            yield LONE_WAIT_MS

    def perform(self, event):
        """Do on the tiles what the referee's Event says happened (as Table.perform)."""
        p, m = event.player, event.move
        if m.kind == "play":
            yield from self.play(p, m.slot)
        elif m.kind == "discard":
            yield from self.discard(p, m.slot)
        else:
            yield HINT_MS
            return
        if event.drew is not None:
            yield from self.draw(p)
