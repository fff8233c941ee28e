"""Gem Match session scripts on 27 simulated tiles: every move made as people make it.

The deal is a 6 s hold on a tile of the cluster (the pile). The runner then decides which tile
is which referee token: with a script `deck` it picks tiles realising that order, otherwise the
tiles in an order shuffled from the seed. Each hand token is drawn (a double-click on the pile
tile), carried to its player's hand and, if it starts improved side up, double-clicked again.
A placement carries the token to its field cell, turned as the move says (on an empty field:
alone to the centre, then a triple-click); a token taken from a group is clicked (to the heap)
or double-clicked (to the hand) and, once the group is resolved, lifted, as a person marks the
tokens first and then picks them up; a token taken to the hand is turned over there if its side
should change. A draw double-clicks the pile's tile and carries it to the hand.

After every move the runner checks that the tiles show the referee's game: every field token
on its cell, turned as placed, its side up, and exactly the gems of the field's groups lit,
each with its group's size; hands face up with their sides; heaps; the pile face down.
"""

import random

from games.gemmatch import Gemmatch, tokens

from simulator.cosim import CosimError
from simulator.games.gemmatch.referee import GameState
from simulator.games.gemmatch.rules import SIDES, TIER_SIZES, cell_name, neighbour
from simulator.games.gemmatch.runner import RulesRunner, SessionResult
from simulator.sessions.runner import EXIT_EXPECT_FAILED
from simulator.sessions.script import ScriptError
from simulator.world import World, shapes

HOLD_DEAL_MS = 6000
DEAL_TIMEOUT_MS = 60000
LONE_WAIT_MS = 1000
SETTLE_MS = 10000  # longest wait for the tiles to show a move (a few hops on a noisy link)
FIELD = (0, -30)  # the field's centre cell in the world
HANDS = {0: (-30, 25), 1: (-30, -70)}  # each player's hand: a row of lone cells
HEAPS = {0: (10, 15), 1: (10, -80)}


class _Stop(Exception):
    """The tiles disagree with the referee: the session stops (exit 1)."""

    def __init__(self, line, message):
        Exception.__init__(self, message)
        self.line = line
        self.message = message


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


class TilesRunner(RulesRunner):
    mode = "on 27 simulated tiles"

    def __init__(
        self,
        statements,
        seed=None,
        say=None,
        failed=None,
        ir_loss=0.0,
        bit_flip=0.0,
        mpy=0,
        **options,
    ):
        RulesRunner.__init__(self, statements, seed=seed, say=say, failed=failed, **options)
        self.ir_loss = ir_loss
        self.bit_flip = bit_flip
        self.mpy = mpy
        self.world = None
        self.tile_of = {}  # referee token id -> world tile
        self.tiles = []
        self.free = {}  # area -> next free slot
        self.marked = []  # (token, player, to_hand, side): taken, to lift once resolved

    # --- hooks -----------------------------------------------------------------------------
    def validate(self):
        pass

    def deal(self, shape, seed, deck, start):
        w = self.world = World(seed=seed, ir_loss=self.ir_loss, bit_flip=self.bit_flip)
        runners = {}
        if self.mpy:
            from simulator.cosim import mpy_runners

            runners = mpy_runners(self.mpy, tokens.DECK_SIZE)
        for i, (q, r) in enumerate(shapes.named(shape, tokens.DECK_SIZE, seed)):
            w.add_tile(Gemmatch, q=q, r=r, runner=runners.get(i))
        w.advance(300)
        held = w.tiles[0]
        before = w.inspect(held)["deal"]["id"]
        w.press(held)
        w.advance(HOLD_DEAL_MS - 100)
        w.run_until(lambda: w.inspect(held)["deal"]["id"] != before, 2000)
        w.release(held)
        fired = w.now
        if not w.run_until(lambda: all(self._state(t) == "pile" for t in w.tiles), DEAL_TIMEOUT_MS):
            self.failed(
                self.line, "the deal failed on the tiles: " + w.inspect(held)["deal"]["result"]
            )
            self.failures.append((self.line, "the deal failed"))
            return None
        self.deal_ms = w.now - fired
        kind_of = {t: tokens.parse(w.inspect(t)["token"]) for t in w.tiles}
        if deck is None:
            order = list(w.tiles)
            random.Random(seed).shuffle(order)
            deck = [kind_of[t] for t in order]
        else:
            order, taken = [], set()
            for kind in deck:
                t = next(t for t in w.tiles if kind_of[t] == kind and t not in taken)
                taken.add(t)
                order.append(t)
        self.tile_of = dict(enumerate(order))
        state = GameState(seed=seed, deck=deck, start=start)
        self.state = state
        for p, hand in enumerate(state.hands):
            for ref in hand:
                self._draw(ref, p, SIDES[state.sides[ref]])
        self._check_tiles(0)
        return state

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
            self._check_tiles(st.line)

    def expect_tile(self, st):
        if self.world is None or st.tile not in self.world.tiles:
            raise ScriptError(st.line, f"there is no tile {st.tile} (tiles are 0-26)")
        seen = self.world.inspect(st.tile)
        if st.value in (seen["state"], (seen["token"] or "").lower()):
            return st.value
        return f"{seen['state']} {seen['token']}"

    def tiles_json(self):
        return self.tiles

    def run(self):
        try:
            result = RulesRunner.run(self)
        except _Stop as stop:
            self.failures.append((stop.line, stop.message))
            self.failed(stop.line, "the tiles disagree with the referee: " + stop.message)
            result = SessionResult(EXIT_EXPECT_FAILED, self.state, self.failures, self)
        finally:
            if self.world is not None:
                self.tiles = self._tiles_now()
                if self.mpy:
                    from simulator.cosim import close_runners

                    close_runners(self.world)
        return result

    # --- moves on the table ----------------------------------------------------------------
    def _state(self, t):
        return self.world.inspect(t)["state"]

    def _tiles_now(self):
        out = []
        for t in sorted(self.world.tiles):
            try:
                seen = self.world.inspect(t)
            except CosimError:
                seen = {"token": None, "side": None, "state": None}
            out.append(
                {"id": t, "token": seen["token"], "side": seen["side"], "state": seen["state"]}
            )
        return out

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
        if not w.run_until(lambda: self._state(t) == "field", SETTLE_MS):
            raise _Stop(st.line, f"tile {t} put on {cell_name(cell)} did not join the field")

    def _mark(self, st, ref, p, to_hand, side):
        """Click a group's token to take it (twice: to the hand); lift it later."""
        w = self.world
        t = self.tile_of[ref]
        (w.double_click if to_hand else w.click)(t)
        if self._state(t) != "taken":
            raise _Stop(st.line, f"tile {t} was not taken: it shows {self._state(t)}")
        self.marked.append((ref, p, to_hand, side))

    def _lift_marked(self, st):
        w = self.world
        for ref, p, to_hand, side in self.marked:
            t = self.tile_of[ref]
            self._to_area(t, "hand" if to_hand else "heap", p)
            want = "hand" if to_hand else "heap"
            if not w.run_until(lambda t=t, want=want: self._state(t) == want, SETTLE_MS):
                raise _Stop(st.line, f"tile {t}, lifted, shows {self._state(t)}, not {want}")
            if to_hand and w.inspect(t)["side"] != SIDES[side]:
                w.double_click(t)
        self.marked = []

    def _check_tiles(self, line):
        """Wait (up to SETTLE_MS) until the tiles show the referee's game; else raise _Stop."""
        problems = []

        def agree():
            problems[:] = tile_problems(self.world, self.state, self.tile_of)
            return not problems

        if not self.world.run_until(agree, SETTLE_MS):
            raise _Stop(line, "; ".join(problems[:3]))


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
