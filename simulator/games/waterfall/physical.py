"""Waterfall session scripts on 27 simulated tiles: every move made as people make it.

The deal is a 6 s hold on a tile of the cluster (the draw pile). The runner then decides which
tile is which referee tile: with a script `deck` it picks tiles realising that order, otherwise
the tiles in an order shuffled from the seed. The first ADD is carried alone to the top of the
waterfall area and triple-clicked; hand tiles lie alone in the hand areas. A play carries the
tile to the discards; a step clicks the tile below (from above: the top tile, clicked 1-4 times
for A-D); falling out is a 2 s hold on the pawn's tile; an ADD carries the hand tile to its
place under the top, at a random rotation; a score carries it to the score pile; a draw
carries a pile tile into the hand. After every move the runner checks that the waterfall's
tiles show the referee's: their cards, each tile's up face pointing north, and every pawn.
"""

import random

from games.waterfall import Waterfall, cards

from simulator.games.waterfall.referee import GameState
from simulator.games.waterfall.rules import PLAYERS, cell_of, place_name
from simulator.games.waterfall.script import RulesRunner
from simulator.play.physical import SETTLE_MS, OnTiles, Stop

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

    def deal(self, setup):
        deck = self.deal_tiles(setup)
        if deck is None:
            return None
        seed = setup["seed"]
        w = self.world
        self.rng = random.Random(seed ^ 0x7117)
        state = GameState(
            players=setup["players"],
            seed=seed,
            deck=deck,
            start=setup["start"],
            rules=setup["rules"],
        )
        self.state = state
        top = self.tile_of[state.waterfall[(0, 0)]]
        w.place(top, *TOP, rotation=0)
        w.advance(LONE_WAIT_MS)
        w.triple_click(top)
        for p, hand in enumerate(state.hands):
            for t in hand:
                self._to_area(t, ("hand", p))
        self.check_tiles(0)
        return state

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
