"""A move made on the window's tiles a few frames at a time, for a game's bot game.

A move is a generator of waits: an int (simulated ms) or an `Until` (a condition on the tiles
with a time limit). `Steps.poll()`, called every frame, runs it: waits up to EXACT_MS run at
once with exact timing (a click's down and up), so gestures work at any speed; longer ones are
spread over frames so a playtester watches every move. A failed `Until` raises `failure`
(the play layer's Mismatch). `Gestures` are a person's hand on the tiles as such steps, and a
`DeckTable` the window's table of a game dealt one piece a tile. Every game's bot game runs on
them.
"""

import random

from simulator.play.physical import DEAL_TIMEOUT_MS, HOLD_DEAL_MS, SETTLE_MS, Mismatch

EXACT_MS = 400  # waits up to this long run at once (gesture timing), longer ones over frames
CLICK_DOWN_MS = 60
CLICK_GAP_MS = 140


class Until:
    """Wait until `ready()` is true; after `timeout_ms`, fail with `what` (a text or a function
    giving it), or with `what` None just stop waiting."""

    def __init__(self, ready, timeout_ms, what):
        self.ready = ready
        self.timeout_ms = timeout_ms
        self.what = what


class Steps:
    """Runs one move generator over frames. `poll()` returns True once the move is done; a
    failed `Until` raises `failure`."""

    failure = Mismatch  # what a failed Until raises

    def __init__(self, app, gen):
        self.app = app
        self.gen = gen
        self.deadline = None
        self.until = None

    def poll(self) -> bool:
        world = self.app.world
        while True:
            if self.until is not None:
                if not self.until.ready():
                    if world.now < self.deadline:
                        return False
                    what = self.until.what
                    if what is not None:
                        raise self.failure(what() if callable(what) else what)
                self.until = None
            elif self.deadline is not None and world.now < self.deadline:
                return False
            self.deadline = None
            try:
                step = next(self.gen)
            except StopIteration:
                return True
            if isinstance(step, Until):
                self.until = step
                self.deadline = world.now + step.timeout_ms
            elif step <= EXACT_MS:
                self.app.advance(step)
            else:
                self.deadline = world.now + step


class Gestures:
    """A person's hand on the window's tiles, as move steps made through `self.ops` (so they
    are recorded); a game's table mixes it in beside its `ops` and `world`, and sets
    SETTLE_MS (how long a tile may take to show a gesture's outcome), HOLD_DEAL_MS and
    DEAL_TIMEOUT_MS (its firmware's deal hold, and how long a deal may take); `agreeing` needs
    its `problems(state)`."""

    SETTLE_MS = 3000
    HOLD_DEAL_MS = 6000
    DEAL_TIMEOUT_MS = 60000

    def state_of(self, t):
        return self.world.inspect(t).get("state")

    def wait_state(self, t, states, timeout=None):
        """Until tile `t` shows one of `states` (a state or a tuple of them)."""
        if isinstance(states, str):
            states = (states,)
        return Until(
            lambda: self.state_of(t) in states,
            self.SETTLE_MS if timeout is None else timeout,
            lambda: f"tile {t} shows {self.state_of(t)}, expected {' or '.join(states)}",
        )

    def gather(self, cells):
        """Every tile back into one cluster at `cells` [(q, r, rot)] (sorted ids), for a new
        deal; the firmware deals a cluster whatever its tiles showed before."""
        tiles = sorted(self.world.tiles)
        for t in tiles:
            if self.world.position(t) is not None:
                self.ops.lift(t)
        for t, (q, r, rot) in zip(tiles, cells):
            self.ops.place(t, q, r, rot)

    def hold_to_deal(self, held, dealt):
        """Hold `held` until its hold starts a deal, let go, and wait until every tile shows
        the state `dealt` (the game's face-down state)."""
        w = self.world

        def deal():
            return w.inspect(held).get("deal", {})

        before = deal().get("id")
        self.ops.press(held)
        yield Until(
            lambda: deal().get("id") != before,
            self.HOLD_DEAL_MS + 1000,
            "holding a tile for 6 s did not start a deal",
        )
        self.ops.release(held)
        yield Until(
            lambda: all(self.state_of(t) == dealt for t in w.tiles),
            self.DEAL_TIMEOUT_MS,
            lambda: f"the deal did not finish: {deal().get('result') or 'no result yet'}",
        )

    def agreeing(self, state):
        """Until the tiles agree with the referee's `state` (the table's `problems(state)`, a
        list of differences, is empty), SETTLE_MS at most; a failure names the first three."""
        found = []

        def agree():
            found[:] = self.problems(state)
            return not found

        return Until(agree, self.SETTLE_MS, lambda: "; ".join(found[:3]))

    def move_to(self, t, cell, rot=None):
        if rot is None:
            rot = self.world.position(t)[2] if self.world.position(t) is not None else 0
        self.ops.lift(t)
        self.ops.place(t, cell[0], cell[1], rot)

    def clicks(self, t, n):
        for i in range(n):
            if i:
                yield CLICK_GAP_MS
            self.ops.press(t)
            yield CLICK_DOWN_MS
            self.ops.release(t)

    def hold(self, t, ms):
        self.ops.press(t)
        yield ms
        self.ops.release(t)


class DeckTable(Gestures):
    """The window's table of a game dealt from a deck, one piece a tile (Waterfall's cards,
    Gem Match's tokens): which world tile is which referee piece, the deal, and the free cells
    of an area. The game's table sets DECK (the firmware's module with parse(name), deck() and
    DECK_SIZE), PIECE and PIECES (the inspect() key naming a tile's piece, and its plural),
    DEALT (the state every tile shows once dealt) and SALT (its rotations' seed), and gives
    `area_cells(name, **how)`."""

    SETTLE_MS = SETTLE_MS
    HOLD_DEAL_MS = HOLD_DEAL_MS
    DEAL_TIMEOUT_MS = DEAL_TIMEOUT_MS
    DECK = None
    PIECE = PIECES = DEALT = None
    SALT = 0

    def __init__(self, app, seed, players=2):
        self.app = app
        self.players = players
        self.world = app.world
        self.ops = app.ops
        self.rng = random.Random(seed ^ self.SALT)  # the rotations of pieces put down
        self.tile_of = {}  # referee piece id -> world tile
        self.ref_of = {}

    @staticmethod
    def area_of(player, kind="hand"):
        """The name of seat `player`'s area of `kind` ("hand_a", "score_b"...)."""
        return f"{kind}_{'abcd'[player]}"

    def free_cell(self, name, **how):
        """The first cell of area `name` (`area_cells(name, **how)`) with no tile on it."""
        for cell in self.area_cells(name, **how):
            if self.world.tile_at(*cell) is None:
                return cell
        raise Mismatch(f"no free cell left in the {name.replace('_', ' ')} area")

    def deal(self, held):
        """Hold `held` for 6 s, let the cluster deal itself; every tile then shows its back."""
        yield from self.hold_to_deal(held, self.DEALT)
        w, deck = self.world, self.DECK
        if sorted(deck.parse(w.inspect(t)[self.PIECE]) for t in w.tiles) != deck.deck():
            raise Mismatch(f"the tiles do not hold the {deck.DECK_SIZE} {self.PIECES} exactly once")

    def choose_order(self, seed):
        """The referee's deck: the dealt tiles in an order shuffled from the seed (as the
        session runner does), so the tiles hold the very pieces the referee deals."""
        w = self.world
        order = list(w.tiles)
        random.Random(seed).shuffle(order)
        self.tile_of = dict(enumerate(order))
        self.ref_of = {t: ref for ref, t in self.tile_of.items()}
        return [self.DECK.parse(w.inspect(t)[self.PIECE]) for t in order]
