"""Gem Match's moves on the tiles, as people make them: in a session script on 27 simulated
tiles (`TilesRunner`), and in the window's bot game (`AppTable`).

A session script: the deal is a 6 s hold on a tile of the cluster (the pile). The runner then
decides which tile is which referee token: with a script `deck` it picks tiles realising that
order, otherwise the tiles in an order shuffled from the seed. Each hand token is drawn (a
double-click on the pile tile), carried to its player's hand and, if it starts improved side
up, double-clicked again. A placement carries the token to its field cell, turned as the move
says (on an empty field: alone to the centre, then a triple-click); a token taken from a group
is clicked (to the heap) or double-clicked (to the hand) and, once the group is resolved,
lifted, as a person marks the tokens first and then picks them up; a token taken to the hand is
turned over there if its side should change. A draw double-clicks the pile's tile and carries
it to the hand. After every move the runner checks that the tiles show the referee's game:
every field token on its cell, turned as placed, its side up, and exactly the gems of the
field's groups lit, each with its group's size; hands face up with their sides; heaps; the pile
face down. It plays with blocking `world.advance` calls on fixed cells.

In the window every move is a generator of waits instead, run by the app's `Steps` across
frames and acting only through `app.ops` in the app's labelled areas, so a person watches each
move and `--record` keeps it. The tiles are checked with the runner's own check
(`tile_problems`) and, for every token off the field, by the area it lies in. The dealt cluster
is the pile; the field's centre is the field area's middle cell, and a field cell (q, r) lies
(q, r) away from it; hand and heap tokens fill their areas row by row.
"""

from games.gemmatch import Gemmatch, tokens

from simulator.app.steps import DeckTable, Until
from simulator.games.gemmatch.rules import SIDES, TIER_SIZES, cell_name, neighbour
from simulator.games.gemmatch.script import RulesRunner
from simulator.play.physical import SETTLE_MS, Mismatch, OnTiles, Stop

LONE_WAIT_MS = 1000
FIELD = (0, -30)  # the field's centre cell in the world
HANDS = {0: (-30, 25), 1: (-30, -70)}  # each player's hand: a row of lone cells
HEAPS = {0: (10, 15), 1: (10, -80)}


def world_cell(cell):
    return (FIELD[0] + cell[0], FIELD[1] + cell[1])


def lit_gems(field):
    """{(cell, direction): size} of every gem the tiles should light: the field's groups of
    TIER_SIZES[0] gems or more that join two tokens (sizes as the tiles count, up to 7)."""
    out = {}
    for group in field.groups(minimum=TIER_SIZES[0]):
        for gem in group.gems:
            out[gem] = min(group.size, 7)
    return out


class TilesRunner(OnTiles, RulesRunner):
    mode = "on 27 simulated tiles"
    FIRMWARE = Gemmatch
    DECK = tokens
    DEALT = "pile"
    PIECE = "token"
    PROBLEMS_SHOWN = 3

    def __init__(self, statements, **options):
        super().__init__(statements, **options)
        self.marked = []  # (token, player, to_hand, side): taken, to lift once resolved

    def lay_out(self, state, setup):
        """Each hand drawn from the pile, improved tokens turned over."""
        for p, hand in enumerate(state.hands):
            for ref in hand:
                self._draw(ref, p, SIDES[state.sides[ref]])

    def after_move(self, st, ev):
        s = self.state
        m = ev.move
        p = ev.player
        if m.kind == "place":
            self._place(st, ev.token, m.cell, m.rotation)
        elif m.kind in ("heap", "hand"):
            self._mark(st, ev.token, p, m.kind == "hand", m.side)
        if self.marked and (s.phase != "resolve" or ev.groups):
            self._lift_marked(st)
        for player, ref in ev.drew:
            self._draw(ref, player, "basic")
        if not self.marked:
            self.check_tiles(st.line)

    # --- moves on the table ----------------------------------------------------------------
    def tile_json(self, t, seen):
        if seen is None:
            seen = {"token": None, "side": None, "state": None}
        return {"id": t, "token": seen["token"], "side": seen["side"], "state": seen["state"]}

    def _to_area(self, t, area, p):
        """Carry tile `t` alone to the next free cell of a player's hand or heap."""
        n = self.free.get((area, p), 0)
        self.free[(area, p)] = n + 1
        q0, r0 = (HANDS if area == "hand" else HEAPS)[p]
        cell = (q0 + 2 * (n % 10), r0 - (n % 10) + 2 * (n // 10))
        w = self.world
        w.lift(t)
        w.place(t, *cell)

    def _draw(self, ref, p, side):
        """Draw referee token `ref` from the pile into player p's hand, `side` up."""
        w = self.world
        t = self.tile_of[ref]
        w.double_click(t)
        self._to_area(t, "hand", p)
        w.advance(LONE_WAIT_MS)
        if side == "improved":
            w.double_click(t)

    def _place(self, st, ref, cell, rotation):
        w = self.world
        t = self.tile_of[ref]
        alone = not any(neighbour(cell, d) in self.state.field.cells for d in range(6))
        w.lift(t)
        w.place(t, *world_cell(cell), rotation=rotation)
        if alone:
            w.advance(LONE_WAIT_MS)
            w.triple_click(t)
        if not w.run_until(lambda: self.tile_state(t) == "field", SETTLE_MS):
            raise Stop(st.line, f"tile {t} put on {cell_name(cell)} did not join the field")

    def _mark(self, st, ref, p, to_hand, side):
        """Click a group's token to take it (twice: to the hand); lift it later."""
        w = self.world
        t = self.tile_of[ref]
        (w.double_click if to_hand else w.click)(t)
        if self.tile_state(t) != "taken":
            raise Stop(st.line, f"tile {t} was not taken: it shows {self.tile_state(t)}")
        self.marked.append((ref, p, to_hand, side))

    def _lift_marked(self, st):
        w = self.world
        for ref, p, to_hand, side in self.marked:
            t = self.tile_of[ref]
            self._to_area(t, "hand" if to_hand else "heap", p)
            want = "hand" if to_hand else "heap"
            if not w.run_until(lambda t=t, want=want: self.tile_state(t) == want, SETTLE_MS):
                raise Stop(st.line, f"tile {t}, lifted, shows {self.tile_state(t)}, not {want}")
            if to_hand and w.inspect(t)["side"] != SIDES[side]:
                w.double_click(t)
        self.marked = []

    def problems(self):
        return tile_problems(self.world, self.state, self.tile_of)


def tile_problems(w, s, tile_of, cell_of=world_cell):
    """How the tiles differ from referee `s` (tile_of: referee token id -> world tile; cell_of:
    a field cell -> its world cell); [] when they agree. Shared with the simulator's bot
    game."""
    problems = []
    lit = lit_gems(s.field)
    for cell, placed in sorted(s.field.cells.items()):
        t = tile_of[placed.token]
        seen = w.inspect(t)
        want = tokens.name(s.kinds[placed.token])
        side = SIDES[s.sides[placed.token]]
        where = f"tile {t} on {cell_name(cell)}"
        if seen["state"] != "field" or seen["token"] != want or seen["side"] != side:
            problems.append(
                f"{where} shows {seen['state']} {seen['token']} {seen['side']}, "
                f"not field {want} {side}"
            )
            continue
        pos = w.position(t)
        if pos is None or (pos[0], pos[1]) != cell_of(cell) or pos[2] != placed.rotation:
            problems.append(f"{where} lies at {pos}, not turned {placed.rotation}")
            continue
        want_lit = [lit.get((cell, (f + placed.rotation) % 6), 0) for f in range(6)]
        if seen["lit"] != want_lit:
            problems.append(f"{where} lights {seen['lit']}, not {want_lit}")
    for p in range(s.players):
        for ref in s.hands[p]:
            seen = w.inspect(tile_of[ref])
            side = SIDES[s.sides[ref]]
            if seen["state"] != "hand" or seen["side"] != side:
                problems.append(
                    f"tile {tile_of[ref]} in {'AB'[p]}'s hand shows {seen['state']} "
                    f"{seen['side']}, not hand {side}"
                )
        for ref in s.heaps[p]:
            seen = w.inspect(tile_of[ref])
            if seen["state"] != "heap":
                problems.append(f"tile {tile_of[ref]} in {'AB'[p]}'s heap shows {seen['state']}")
    for ref in s.pile:
        if w.inspect(tile_of[ref])["state"] != "pile":
            problems.append(
                f"tile {tile_of[ref]} of the pile shows {w.inspect(tile_of[ref])['state']}"
            )
    return problems


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
