"""A game's session script played on simulated tiles, move by move as people would, written
once: the world, the 6-second hold that deals, which tile is which referee piece, the wait for
the tiles to show a move, and the stop when they disagree with the referee.

A game's tiles runner subclasses `OnTiles` and its own RulesRunner (in that order) and gives:
- FIRMWARE (the tile game's class), DECK (the firmware's deck module: DECK_SIZE, and parse(name)
  -> the referee's kind), DEALT (the state every tile shows once dealt) and PIECE (the
  inspect() key naming a tile's piece);
- `lay_out(state, setup)`: the first moves on the tiles once they are dealt and the referee
  made from the setup (the hands); or a `deal(setup)` of its own, over `deal_tiles(setup)`;
- `after_move`, `tile_json(t, seen)` and `problems()`: how the tiles differ from the referee
  ([] when they agree); `expect tile T shows STATE` reads a tile's state or its piece here.
"""

import random

from simulator.cosim import CosimError
from simulator.sessions.runner import EXIT_EXPECT_FAILED
from simulator.sessions.script import ScriptError
from simulator.world import World, shapes

HOLD_DEAL_MS = 6000
DEAL_TIMEOUT_MS = 60000
SETTLE_MS = 10000  # longest wait for the tiles to show a move (a few hops on a noisy link)


class Mismatch(Exception):
    """The tiles do not show what the referee says (or the app's table has no room for a
    move): a game's table raises it, a session or a bot game stops on it."""


class Stop(Exception):
    """The tiles disagree with the referee: the session stops (exit 1)."""

    def __init__(self, line, message):
        Exception.__init__(self, message)
        self.line = line
        self.message = message


class OnTiles:
    """The tiles half of a game's tiles runner (see the module docstring)."""

    FIRMWARE = None
    DECK = None
    DEALT = "card"
    PIECE = "card"
    PROBLEMS_SHOWN = None  # how many disagreements a stop names (None: all)

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
        super().__init__(statements, seed=seed, say=say, failed=failed, **options)
        self.ir_loss = ir_loss
        self.bit_flip = bit_flip
        self.mpy = mpy
        self.world = None
        self.tile_of = {}  # referee piece id -> world tile
        self.tiles = []
        self.free = {}  # area -> next free slot

    def validate(self):
        pass

    def tiles_json(self):
        return self.tiles

    def deal(self, setup):
        """The tiles dealt (deal_tiles), the referee of the setup with their deck, its pieces
        laid out on the tiles (`lay_out`) and checked; None if the deal failed."""
        deck = self.deal_tiles(setup)
        if deck is None:
            return None
        self.state = super().deal({**setup, "deck": deck})
        self.lay_out(self.state, setup)
        self.check_tiles(0)
        return self.state

    def lay_out(self, state, setup):
        raise NotImplementedError

    def deal_tiles(self, setup):
        """Lay the deck's tiles out in the setup's `deal` shape, deal them by a 6 s hold, and
        match tiles to the referee's pieces (`self.tile_of`): by the script's `deck`, else in
        an order shuffled from the `seed`. The deck (each piece's kind, in referee order), or
        None if the deal failed (said, and counted as a failed expect)."""
        shape, seed, deck = setup["deal"], setup["seed"], setup["deck"]
        size = self.DECK.DECK_SIZE
        w = self.world = World(seed=seed, ir_loss=self.ir_loss, bit_flip=self.bit_flip)
        runners = {}
        if self.mpy:
            from simulator.cosim import mpy_runners

            runners = mpy_runners(self.mpy, size)
        for i, (q, r) in enumerate(shapes.named(shape, size, seed)):
            w.add_tile(self.FIRMWARE, q=q, r=r, runner=runners.get(i))
        w.advance(300)
        held = w.tiles[0]
        before = w.inspect(held)["deal"]["id"]
        w.press(held)
        w.advance(HOLD_DEAL_MS - 100)
        w.run_until(lambda: w.inspect(held)["deal"]["id"] != before, 2000)
        w.release(held)
        fired = w.now
        if not w.run_until(
            lambda: all(self.tile_state(t) == self.DEALT for t in w.tiles), DEAL_TIMEOUT_MS
        ):
            self.failed(
                self.line, "the deal failed on the tiles: " + w.inspect(held)["deal"]["result"]
            )
            self.failures.append((self.line, "the deal failed"))
            return None
        self.deal_ms = w.now - fired
        kind_of = {t: self.DECK.parse(w.inspect(t)[self.PIECE]) for t in w.tiles}
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
        return deck

    def run(self):
        try:
            result = super().run()
        except Stop as stop:
            self.failures.append((stop.line, stop.message))
            self.failed(stop.line, "the tiles disagree with the referee: " + stop.message)
            result = self.result_class(EXIT_EXPECT_FAILED, self.state, self.failures, self)
        finally:
            if self.world is not None:
                self.tiles = self._tiles_now()
                if self.mpy:
                    from simulator.cosim import close_runners

                    close_runners(self.world)
        return result

    def tile_state(self, t):
        return self.world.inspect(t)["state"]

    def _tiles_now(self):
        out = []
        for t in sorted(self.world.tiles):
            try:
                seen = self.world.inspect(t)
            except CosimError:
                seen = None
            out.append(self.tile_json(t, seen))
        return out

    def expect_tile(self, st):
        """What `expect tile T shows STATE` reads: STATE if the tile shows it as its state or
        its piece, else what it shows."""
        if self.world is None or st.tile not in self.world.tiles:
            last = self.DECK.DECK_SIZE - 1
            raise ScriptError(st.line, f"there is no tile {st.tile} (tiles are 0-{last})")
        seen = self.world.inspect(st.tile)
        if st.value in (seen["state"], (seen[self.PIECE] or "").lower()):
            return st.value
        return f"{seen['state']} {seen[self.PIECE]}"

    def tile_json(self, t, seen):
        """Tile `t` in --json's `tiles`, from its inspect() (None if its process failed)."""
        raise NotImplementedError

    def check_tiles(self, line):
        """Wait (up to SETTLE_MS) until the tiles show the referee's game; else raise Stop."""
        problems = []

        def agree():
            problems[:] = self.problems()
            return not problems

        if not self.world.run_until(agree, SETTLE_MS):
            raise Stop(line, "; ".join(problems[: self.PROBLEMS_SHOWN]))

    def problems(self):
        raise NotImplementedError
