"""Gem Match moves done by hand on the app's table, a few frames at a time.

The session runner (`physical.TilesRunner`) plays with blocking `world.advance` calls on fixed
cells far off the app's table; here every move is a generator of waits, run by `Steps` across
frames and acting only through `app.ops` in the app's labelled areas, so a person watches each
move and `--record` keeps it. The tiles are checked with the runner's own check
(`physical.tile_problems`) and, for every token off the field, by the area it lies in.

Where things go: the dealt cluster is the pile; the field's centre is the field area's middle
cell, and a field cell (q, r) lies (q, r) away from it; hand and heap tokens fill their areas
row by row. A token taken from a group is clicked (to the heap) or double-clicked (to the
hand), and all of a group's tokens are lifted once it is resolved, as in the session runner.
"""

from games.gemmatch import tokens

from simulator.app.steps import DeckTable, Until
from simulator.games.gemmatch.physical import (
    LONE_WAIT_MS,
    tile_problems,
)
from simulator.games.gemmatch.rules import SIDES, cell_name, neighbour
from simulator.play.physical import SETTLE_MS, Mismatch

QUIET_MS = 300  # a move that changes no tile (pass, skip) still takes a moment
PERSON = 0


class AppTable(DeckTable):
    """Which world tile is which referee token, where each lies, and the moves on the tiles."""

    DECK = tokens
    PIECE, PIECES, DEALT = "token", "tokens", "pile"
    SALT = 0x6E3

    def __init__(self, app, seed):
        DeckTable.__init__(self, app, seed)
        self.centre = app.table.centre_cell("field")
        self.marked = []  # (token, player, to_hand, side): taken, lifted once resolved

    # --- where things go ----------------------------------------------------------------------
    def area_cells(self, name):
        """Cells of an area below its label whose whole hexagon lies inside it, row by row."""
        table = self.app.table
        x, y, w, h = table.area(name).rect
        s = table.layout.size
        a = 0.87 * s
        inner = (x + s, y + table.label_px + a, w - 2 * s, h - table.label_px - 2 * a)
        to_pixel = table.layout.to_pixel
        found = [c for c in table.layout.cells_in_rect(inner) if table.on_table(*c)]
        return sorted(found, key=lambda c: (round(to_pixel(*c)[1]), to_pixel(*c)[0]))

    def field_cell(self, cell):
        return (self.centre[0] + cell[0], self.centre[1] + cell[1])

    # --- reading the tiles ----------------------------------------------------------------------
    def problems(self, state):
        """How the tiles differ from the referee's game; [] when they agree."""
        out = tile_problems(self.world, state, self.tile_of, self.field_cell)
        where = {}
        for p in range(state.players):
            for ref in state.hands[p]:
                where[ref] = self.area_of(p)
            for ref in state.heaps[p]:
                where[ref] = self.area_of(p, "heap")
        for ref in state.pile:
            where[ref] = "pile"
        for ref, area in sorted(where.items()):
            t = self.tile_of[ref]
            if self.app.area_name(t) != area:
                out.append(f"tile {t} lies in {self.app.area_name(t)}, not {area}")
        return out

    # --- the setup ----------------------------------------------------------------------------
    def set_up(self, state):
        """Each hand drawn from the pile, token by token, improved ones turned over."""
        for n in range(max(map(len, state.hands))):
            for p, hand in enumerate(state.hands):
                if n < len(hand):
                    yield from self.draw(hand[n], p, SIDES[state.sides[hand[n]]])
        yield self.agreeing(state)

    def draw(self, ref, player, side="basic"):
        t = self.tile_of[ref]
        yield from self.clicks(t, 2)
        yield self.wait_state(t, "hand")
        self.move_to(t, self.free_cell(self.area_of(player)))
        yield LONE_WAIT_MS
        if side == "improved":
            yield from self.clicks(t, 2)
            yield Until(
                lambda: self.world.inspect(t)["side"] == side,
                SETTLE_MS,
                f"tile {t} did not turn over",
            )

    # --- the moves ------------------------------------------------------------------------------
    def perform(self, state, event, field_before):
        """Do on the tiles what the referee's Event says happened (as TilesRunner.after_move);
        `field_before` is the set of field cells before the move."""
        m = event.move
        if m.kind == "place":
            yield from self.place(event.token, m.cell, m.rotation, field_before)
        elif m.kind in ("heap", "hand"):
            t = self.tile_of[event.token]
            yield from self.clicks(t, 2 if m.kind == "hand" else 1)
            yield self.wait_state(t, "taken", 2000)
            self.marked.append((event.token, event.player, m.kind == "hand", m.side))
        else:
            yield QUIET_MS
        if self.marked and (state.phase != "resolve" or event.groups):
            yield from self.lift_marked()
        for player, ref in event.drew:
            yield from self.draw(ref, player)
        if not self.marked:
            yield self.agreeing(state)

    def place(self, ref, cell, rotation, field_before):
        t = self.tile_of[ref]
        alone = not any(neighbour(cell, d) in field_before for d in range(6))
        target = self.field_cell(cell)
        area = self.app.table.area_of_cell(*target)
        if self.world.tile_at(*target) is not None or area is None or area.name != "field":
            raise Mismatch(f"the field area has no room at {cell_name(cell)}")
        self.move_to(t, target, rotation)
        if alone:
            yield LONE_WAIT_MS
            yield from self.clicks(t, 3)
        yield Until(
            lambda: self.state_of(t) == "field",
            SETTLE_MS,
            f"tile {t} put on {cell_name(cell)} did not join the field",
        )

    def lift_marked(self):
        for ref, p, to_hand, side in self.marked:
            t = self.tile_of[ref]
            self.move_to(t, self.free_cell(self.area_of(p, "hand" if to_hand else "heap")))
            yield self.wait_state(t, "hand" if to_hand else "heap")
            if to_hand and self.world.inspect(t)["side"] != SIDES[side]:
                yield from self.clicks(t, 2)
        self.marked = []
