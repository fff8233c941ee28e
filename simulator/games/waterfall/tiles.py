"""Waterfall's moves on the tiles, as people make them: in a session script on 27 simulated
tiles (`TilesRunner`), and in the window's bot game (`AppTable`).

A session script: the deal is a 6 s hold on a tile of the cluster (the draw pile). The runner
then decides which tile is which referee tile: with a script `deck` it picks tiles realising
that order, otherwise the tiles in an order shuffled from the seed. The first ADD is carried
alone to the top of the waterfall area and triple-clicked; hand tiles lie alone in the hand
areas. A play carries the tile to the discards; a step clicks the tile below (from above: the
top tile, clicked 1-4 times for A-D); falling out is a 2 s hold on the pawn's tile; an ADD
carries the hand tile to its place under the top, at a random rotation; a score carries it to
the score pile; a draw carries a pile tile into the hand. After every move the runner checks
that the waterfall's tiles show the referee's: their cards, each tile's up face pointing north,
and every pawn. It plays with blocking `world.advance` calls on fixed cells.

In the window every move is a generator of waits instead, run by the app's `Steps` across
frames and acting only through `app.ops` in the app's labelled areas, so a person watches each
move and `--record` keeps it. The tiles are checked with the runner's own check of the
waterfall (`waterfall_problems`) and, for every other tile, by the area it lies in and the
state it shows. The dealt cluster is the draw pile; the top lies at the top of the waterfall
area and the pyramid grows down from it; hand and score tiles fill their areas row by row;
discards lie face up in the discard area. A's own hand tiles are double-clicked to show their
cards (the person holds them); the bots' hands and every score pile show their backs. When the
referee reshuffles the discards into a new draw pile, the discard tiles are turned face down
and carried back to the draw pile. A step yields either an int (simulated ms to wait) or an
`Until` (a condition on the tiles with a time limit).
"""

import random

from games.waterfall import Waterfall, cards

from simulator.app.steps import DeckTable, Until
from simulator.games.waterfall.referee import RulesRunner
from simulator.games.waterfall.rules import PLAYERS, cell_of, place_name
from simulator.play.physical import SETTLE_MS, Mismatch, OnTiles, Stop

LONE_WAIT_MS = 1000
TOP = (0, -40)  # the start tile's cell: the waterfall grows down from here
HAND_ROWS = {0: 40, 1: -80, 2: -80, 3: 40}  # each player's hand: a row of lone cells
HAND_COLS = {0: -30, 1: -30, 2: 30, 3: 30}
SCORE_COLS = {0: -60, 1: -60, 2: 60, 3: 60}
DISCARD = (60, 0)


class TilesRunner(OnTiles, RulesRunner):
    mode = "on 27 simulated tiles"
    FIRMWARE = Waterfall
    DECK = cards
    DEALT = PIECE = "card"

    def lay_out(self, state, setup):
        """The top ADD carried alone to TOP and triple-clicked, the hands to their areas."""
        w = self.world
        self.rng = random.Random(setup["seed"] ^ 0x7117)  # the rotations of added tiles
        top = self.tile_of[state.waterfall[(0, 0)]]
        w.place(top, *TOP, rotation=0)
        w.advance(LONE_WAIT_MS)
        w.triple_click(top)
        for p, hand in enumerate(state.hands):
            for t in hand:
                self._to_area(t, ("hand", p))

    def after_move(self, st, ev):
        s = self.state
        w = self.world
        m = ev.move
        p = ev.player
        if m.kind == "play":
            self._to_area(s.discards[-1], "discard")
        elif m.kind == "step":
            # a player clicks a tile as many times as their letter: A once, B twice ...
            if ev.exited:
                self._clicks(self._pawn_tile, p + 1)
            else:
                self._clicks(self.tile_of[s.waterfall[ev.entered]], p + 1)
        elif m.kind == "add":
            t = self.tile_of[s.waterfall[m.place]]
            self._put(t, cell_of(m.place, TOP), self.rng.randrange(6))
            if not w.run_until(lambda: self.tile_state(t) == "waterfall", SETTLE_MS):
                raise Stop(
                    st.line, f"tile {t} put at {place_name(m.place)} did not join the waterfall"
                )
        elif m.kind == "score":
            self._to_area(s.score_piles[p][-1], ("score", p))
        for player, t in ev.draws:
            self._to_area(t, ("hand", player))
        self.check_tiles(st.line)

    def run(self):
        self._pawn_tile = None
        self._pawn_place = None
        return super().run()

    def _move(self, st):
        # where the mover's pawn stands before the move: a fall-out is a hold on that tile
        s = self.state
        here = s.pawns[s.current] if st.player == s.current else None
        self._pawn_place = here
        self._pawn_tile = None if here is None else self.tile_of[s.waterfall[here]]
        RulesRunner._move(self, st)

    # --- the table -------------------------------------------------------------------------
    def tile_json(self, t, seen):
        if seen is None:
            seen = {"card": None, "state": None, "pawns": []}
        return {
            "id": t,
            "card": seen["card"],
            "state": seen["state"],
            "pawns": seen.get("pawns", []),
        }

    def _clicks(self, t, n):
        w = self.world
        if n <= 3:
            (w.click, w.double_click, w.triple_click)[n - 1](t)
            return
        for i in range(n):
            if i:
                w.advance(120)
            w.press(t)
            w.advance(80)
            w.release(t)
        w.advance(450)

    def _put(self, t, cell, rotation=0):
        w = self.world
        w.lift(t)
        w.place(t, cell[0], cell[1], rotation=rotation)

    def _to_area(self, ref, area):
        """Carry referee tile `ref` alone to the next free cell of an area."""
        n = self.free.get(area, 0)
        self.free[area] = n + 1
        if area == "discard":
            cell = (DISCARD[0] + 2 * (n % 10), DISCARD[1] + 2 * (n // 10) - (n % 10))
        else:
            kind, p = area
            q0 = (HAND_COLS if kind == "hand" else SCORE_COLS)[p]
            r0 = HAND_ROWS[p] + (0 if kind == "hand" else 10)
            cell = (q0 + 2 * (n % 8), r0 - (n % 8) + 2 * (n // 8))
        self._put(self.tile_of[ref], cell)

    def problems(self):
        return waterfall_problems(self.world, self.state, self.tile_of)


def waterfall_problems(w, s, tile_of):
    """How the waterfall's tiles differ from referee `s`'s waterfall and pawns (tile_of: referee
    tile id -> world tile); [] when they agree. Shared with the simulator's bot game."""
    problems = []
    for place, ref in sorted(s.waterfall.items()):
        t = tile_of[ref]
        seen = w.inspect(t)
        want = cards.name(s.kinds[ref])
        if seen["state"] != "waterfall" or seen["card"] != want:
            problems.append(
                f"tile {t} at {place_name(place)} shows {seen['state']} {seen['card']}, not {want}"
            )
            continue
        if (seen["up"] + w.position(t)[2]) % 6 != 0:
            problems.append(f"tile {t} at {place_name(place)} does not know which way is up")
        pawns = sorted(PLAYERS[p] for p in range(s.players) if s.pawns[p] == place)
        if sorted(seen["pawns"]) != pawns:
            problems.append(
                f"tile {t} at {place_name(place)} holds pawns {seen['pawns']}, not {pawns}"
            )
    top = w.inspect(tile_of[s.waterfall[(0, 0)]])
    above = [PLAYERS[p] for p in range(s.players) if s.pawns[p] is None]
    if [p for p in top["above"] if p in PLAYERS[: s.players]] != above:
        problems.append(f"the top keeps {top['above']} above the waterfall, not {above}")
    return problems


QUIET_MS = 300  # a move that changes no tile (fall, done) still takes a moment
PAWN_TRIES = 3  # clicks for a step, as a person clicks again when the pawn did not come
PAWN_WAIT_MS = 2500  # how long they wait for it before clicking again
DIRECTIONS = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))
PERSON = 0  # the seat whose hand shows its cards


class AppTable(DeckTable):
    """Which world tile is which referee tile, where each lies, and the moves on the tiles."""

    DECK = cards
    PIECE, PIECES, DEALT = "card", "cards", "card"
    SALT = 0x7117

    def __init__(self, app, seed, players=2):
        DeckTable.__init__(self, app, seed, players)
        self.top = None  # the top's cell

    # --- where things go ----------------------------------------------------------------------
    def area_cells(self, name, loose=False):
        """Cells of an area below its label whose whole hexagon lies inside it, in reading
        order: rows left to right, top to bottom, a row being two heights of cells read as one
        zigzag line (flat-top hexagons side by side sit half a tile up and down), so the next
        tile goes on to the right of the last one; `loose` (hands and score piles, which may
        outgrow their rows): then also the cells whose centre lies in the area, up to half over
        its label."""
        table = self.app.table
        x, y, w, h = table.area(name).rect
        s = table.layout.size
        a = 0.87 * s
        inner = (x + s, y + table.label_px + a, w - 2 * s, h - table.label_px - 2 * a)
        out = self._rows(inner)
        if loose:
            more = self._rows((x + s / 2, y + table.label_px / 2, w - s, h - table.label_px / 2))
            out += [c for c in more if c not in out and table.area_of_cell(*c).name == name]
        return out

    def _rows(self, rect):
        table = self.app.table
        to_pixel = table.layout.to_pixel
        heights = {}
        for c in table.layout.cells_in_rect(rect):
            if table.on_table(*c):
                heights.setdefault(round(to_pixel(*c)[1]), []).append(c)
        ys = sorted(heights)
        out = []
        for i in range(0, len(ys), 2):  # two heights make one zigzag row
            row = heights[ys[i]] + (heights[ys[i + 1]] if i + 1 < len(ys) else [])
            out += sorted(row, key=lambda c: to_pixel(*c)[0])
        return out

    def top_cell(self):
        """The top of the waterfall area's centre column."""
        to_pixel = self.app.table.layout.to_pixel
        x, _, w, _ = self.app.table.area("waterfall").rect
        cells = self.area_cells("waterfall")
        return min(cells, key=lambda c: (abs(to_pixel(*c)[0] - (x + w / 2)) // 20, to_pixel(*c)[1]))

    def place_cell(self, place):
        return cell_of(place, self.top)

    def fits(self, place) -> bool:
        """Whether a tile added at `place` lies inside the waterfall area, on a free cell."""
        cell = self.place_cell(place)
        return cell in set(self.area_cells("waterfall")) and self.world.tile_at(*cell) is None

    # --- reading the tiles ----------------------------------------------------------------------
    def problems(self, state):
        """How the tiles differ from the referee's game; [] when they agree."""
        w, app = self.world, self.app
        out = waterfall_problems(w, state, self.tile_of)
        kinds = state.kinds

        def check(refs, area, shows, what):
            for ref in refs:
                t = self.tile_of[ref]
                seen = w.inspect(t)
                if app.area_name(t) != area:
                    out.append(f"tile {t} ({what}) lies in {app.area_name(t)}, not {area}")
                elif seen["state"] != shows or seen["card"] != cards.name(kinds[ref]):
                    out.append(
                        f"tile {t} ({what}) shows {seen['state']} {seen['card']}, "
                        f"not {shows} {cards.name(kinds[ref])}"
                    )

        for p in range(state.players):
            shows = "revealed" if p == PERSON else "card"
            check(state.hands[p], self.area_of(p), shows, f"{PLAYERS[p]}'s hand")
            check(state.score_piles[p], self.area_of(p, "score"), "card", f"{PLAYERS[p]}'s score")
        check(state.discards, "discard", "revealed", "discarded")
        check(state.pile, "draw", "card", "draw pile")
        return out

    # --- gestures -------------------------------------------------------------------------------
    def turn(self, t, state):
        """Double-click: show or hide the card; wait until the tile shows `state`."""
        yield from self.clicks(t, 2)
        yield self.wait_state(t, state)

    # --- the setup ----------------------------------------------------------------------------
    def set_up(self, state):
        """The top ADD carried alone to the top of the waterfall and triple-clicked, then the
        hands dealt round into the hand areas (A's turned face up)."""
        self.top = self.top_cell()
        top = self.tile_of[state.waterfall[(0, 0)]]
        self.move_to(top, self.top, 0)
        yield LONE_WAIT_MS
        yield from self.clicks(top, 3)
        yield self.wait_state(top, "waterfall")
        for n in range(max(map(len, state.hands))):
            for p, hand in enumerate(state.hands):
                if n < len(hand):
                    yield from self.to_hand(hand[n], p)
        yield self.agreeing(state)

    def to_hand(self, ref, player):
        t = self.tile_of[ref]
        self.move_to(t, self.free_cell(self.area_of(player), loose=True))
        if player == PERSON:
            yield from self.turn(t, "revealed")

    # --- the moves ------------------------------------------------------------------------------
    def perform(self, state, event, pawn_tile):
        """Do on the tiles what the referee's Event says happened (as TilesRunner.after_move);
        `pawn_tile` is the tile the mover's pawn stood on before the move."""
        p, m = event.player, event.move
        if m.kind == "play":
            t = self.tile_of[state.discards[-1]]
            self.move_to(t, self.free_cell("discard"))
            if p != PERSON:
                yield from self.turn(t, "revealed")
            else:
                yield LONE_WAIT_MS // 2
        elif m.kind == "step":
            yield from self.step(state, event, pawn_tile)
        elif m.kind == "add":
            t = self.tile_of[state.waterfall[m.place]]
            if not self.fits(m.place):
                raise Mismatch(f"the table has no room for a tile at {place_name(m.place)}")
            self.move_to(t, self.place_cell(m.place), self.rng.randrange(6))
            yield Until(
                lambda: self.state_of(t) == "waterfall",
                SETTLE_MS,
                f"tile {t} put at {place_name(m.place)} did not join the waterfall",
            )
        elif m.kind == "score":
            t = self.tile_of[state.score_piles[p][-1]]
            self.move_to(t, self.free_cell(self.area_of(p, "score"), loose=True))
            if p == PERSON:
                yield from self.turn(t, "card")
            else:
                yield LONE_WAIT_MS // 2
        else:  # fall, done: no tile moves
            yield QUIET_MS
        for player, ref in event.draws:
            yield from self.draw(ref, player)
        yield self.agreeing(state)

    def step(self, state, event, pawn_tile):
        """A player clicks a tile as many times as their letter (A once, B twice ...): the one
        their pawn steps into, or the one it stands on to fall out. A pull for the pawn can
        go astray on the tiles (a datagram lost); then, like a person, click again once the
        pawn has clearly not come (never while it is on its way: that would move it on)."""
        letter = PLAYERS[event.player]
        if event.exited:
            clicked = pawn_tile

            def moved():
                return letter not in self.world.inspect(pawn_tile)["pawns"]
        else:
            clicked = self.tile_of[state.waterfall[event.entered]]

            def moved():
                return letter in self.world.inspect(clicked)["pawns"]

        for _ in range(PAWN_TRIES):
            yield from self.clicks(clicked, event.player + 1)
            yield Until(moved, PAWN_WAIT_MS, None)
            if moved():
                return

    def draw(self, ref, player):
        """A draw pile tile into the hand; a tile still among the discards means the referee
        reshuffled them into a new draw pile: they go back there face down first."""
        t = self.tile_of[ref]
        if self.app.area_name(t) == "discard":
            yield from self.reshuffle()
        yield from self.to_hand(ref, player)

    def reshuffle(self):
        for t in [t for t in self.world.tiles if self.app.area_name(t) == "discard"]:
            self.move_to(t, self.free_cell("draw"))
            yield from self.turn(t, "card")
