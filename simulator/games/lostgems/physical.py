"""The simulator runner: every move of a session done physically on 18 simulated tiles.

`Table` lays out a headless world the way players use a real table: the jungle cluster where
the deal happened, a hand area per player where shards lie alone and revealed to the partner,
the gem board growing as a line in the middle, and a discard area. Moves are made as a person
would make them (lift, place, double-click, triple-click, 2-second hold), then the runner checks
that every tile shows what the referee expects; a disagreement is a `Mismatch` (exit 1).

The firmware deals shards to tiles at random; the runner then decides which jungle tile is drawn
next: with a script `deck` it picks tiles realising that order, otherwise a shuffle of the tiles
from the seed. The referee plays that same order, so both always agree on every shard.
"""

import os
import random
from functools import partial

from games.lostgems import LostGems

from simulator.cosim import CosimError
from simulator.games.lostgems.playtest import final_score
from simulator.games.lostgems.referee import PLAYERS, GameState
from simulator.games.lostgems.runner import RulesRunner, SessionResult
from simulator.games.lostgems.shards import DECK_SIZE, full_deck, parse_shard, shard_name
from simulator.play.physical import Mismatch
from simulator.sessions.runner import EXIT_EXPECT_FAILED
from simulator.sessions.script import ScriptError
from simulator.world import World, shapes

HOLD_DEAL_MS = 6000
DEAL_TIMEOUT_MS = 60000
LONE_WAIT_MS = 1000  # a tile put down alone knows it is alone after 0.6 s
SETTLE_MS = 3000  # longest wait for a tile to show the outcome of a gesture
ERROR_MS = 3000  # an error flashes this long before the tile is discarded
DISCARD_HOLD_MS = 2100
HAND_CELLS = ((30, -20), (30, 20))  # where each player's hand starts; shards 3 cells apart
BOARD_CELL = (-40, 0)  # the gem board grows east from here
DISCARD_CELL = (0, 40)  # discarded shards lie 2 cells apart from here


class Table:
    """18 Lost Gems tiles on a simulated table, and where each shard is in the game."""

    def __init__(self, seed=0, ir_loss=0.0, shape="blob", mpy=0, bit_flip=0.0):
        """`mpy`: how many tiles (the first ones) run on real MicroPython (co-simulation)."""
        self.world = World(seed=seed, ir_loss=ir_loss, bit_flip=bit_flip)
        runners = {}
        if mpy:
            from simulator.cosim import mpy_runners

            runners = mpy_runners(mpy, DECK_SIZE)  # ValueError for a count that does not fit
        for i, (q, r) in enumerate(shapes.named(shape, DECK_SIZE, seed)):
            self.world.add_tile(LostGems, q=q, r=r, runner=runners.get(i))
        self.mpy = mpy
        self.world.advance(300)  # faces find each other
        self.shards = {}  # tile -> shard, read after the deal
        self.order = []  # tiles in draw order
        self.next_draw = 0
        self.hands = ([], [])
        self.board = []
        self.discards = []
        self.hand_cells = [0, 0]

    def close(self):
        """End the MicroPython processes of co-simulated tiles (nothing to do in-process)."""
        if self.mpy:
            from simulator.cosim import close_runners

            close_runners(self.world)

    # --- the deal ---------------------------------------------------------------------------
    def deal(self, held=0):
        """Hold one tile for 6 s and let the firmware deal. Returns deal_ms: simulated ms from
        the hold firing to the last tile showing face down."""
        w = self.world
        before = w.inspect(held).get("deal", {}).get("id")
        w.press(held)
        w.advance(HOLD_DEAL_MS - 100)
        if not w.run_until(lambda: w.inspect(held).get("deal", {}).get("id") != before, 1000):
            w.release(held)
            raise Mismatch("holding a tile for 6 s did not start a deal")
        fired = w.now
        w.release(held)
        done = w.run_until(
            lambda: all(w.inspect(t)["state"] == "face down" for t in w.tiles), DEAL_TIMEOUT_MS
        )
        if not done:
            raise Mismatch(
                "the deal did not finish: tiles show "
                + ", ".join(sorted({w.inspect(t)["state"] for t in w.tiles}))
            )
        deal_ms = w.now - fired
        self.shards = {t: parse_shard(w.inspect(t)["shard"]) for t in w.tiles}
        if sorted(self.shards.values()) != full_deck():
            raise Mismatch("the tiles do not hold the 18 shards exactly once")
        return deal_ms

    def choose_order(self, deck=None, seed=0):
        """Tiles in draw order: realising `deck` if given, else shuffled from the seed.
        Returns the deck (shards) the referee should play."""
        tiles = sorted(self.world.tiles)
        if deck is None:
            random.Random(seed).shuffle(tiles)
            self.order = tiles
        else:
            free = list(tiles)
            self.order = []
            for s in deck:
                t = next(t for t in free if self.shards[t] == s)
                free.remove(t)
                self.order.append(t)
        return [self.shards[t] for t in self.order]

    # --- moves ------------------------------------------------------------------------------
    def draw(self, player):
        """Take the next jungle tile into a player's hand and double-click it to reveal it."""
        t = self.order[self.next_draw]
        self.next_draw += 1
        q, r = HAND_CELLS[player]
        cell = (q + 3 * self.hand_cells[player], r)
        self.hand_cells[player] += 1
        self._put_alone(t, cell)
        self.world.double_click(t)
        self._wait_for(t, ("revealed",))
        self.hands[player].append(t)
        return t

    def play(self, player, slot):
        t = self.hands[player].pop(slot - 1)
        if not self.board:
            self._put_alone(t, BOARD_CELL)
            self.world.triple_click(t)
        else:
            self.world.lift(t)
            self.world.place(t, BOARD_CELL[0] + len(self.board), BOARD_CELL[1])
        outcome = self._wait_for(t, ("played", "error"))
        if outcome == "played":
            self.board.append(t)
        else:
            self._wait_for(t, ("discarded",), ERROR_MS + SETTLE_MS)
            self._to_discards(t)
        return t

    def discard(self, player, slot):
        t = self.hands[player].pop(slot - 1)
        self.world.hold(t, DISCARD_HOLD_MS)
        self._wait_for(t, ("discarded",))
        self._to_discards(t)
        return t

    def perform(self, event):
        """Do physically what the referee's Event says happened."""
        p, m = event.player, event.move
        if m.kind == "play":
            self.play(p, m.slot)
        elif m.kind == "discard":
            self.discard(p, m.slot)
        else:
            self.world.advance(500)  # a hint moves no tile
            return
        if event.drew is not None:
            self.draw(p)

    # --- checking ---------------------------------------------------------------------------
    def expected(self):
        """tile -> state the referee's game implies."""
        want = {t: "face down" for t in self.world.tiles}
        for hand in self.hands:
            for t in hand:
                want[t] = "revealed"
        for t in self.board:
            want[t] = "played"
        for t in self.discards:
            want[t] = "discarded"
        return want

    def check(self, state):
        """Raise Mismatch unless every tile shows what it should and the hands, board and
        discards hold the referee's shards."""
        problems = []
        for t, want in sorted(self.expected().items()):
            seen = self.world.inspect(t)
            if seen["state"] != want or seen["shard"] != shard_name(self.shards[t]):
                problems.append(
                    f"tile {t} shows {seen['state']} {seen['shard']}, expected "
                    f"{want} {shard_name(self.shards[t])}"
                )
        for p in (0, 1):
            if [self.shards[t] for t in self.hands[p]] != state.hands[p]:
                problems.append(f"{PLAYERS[p]}'s hand tiles hold {self.names(self.hands[p])}")
        if [self.shards[t] for t in self.discards] != state.discards:
            problems.append(f"the discard tiles hold {self.names(self.discards)}")
        if len(self.board) != sum(state.gems):
            problems.append(
                f"the gem board has {len(self.board)} tiles, the score is {sum(state.gems)}"
            )
        if problems:
            raise Mismatch("; ".join(problems))

    def tiles_json(self):
        """Every tile's shard and state; a co-simulated tile whose MicroPython process failed
        cannot say, and shows null for both."""
        out = []
        for t in sorted(self.world.tiles):
            try:
                seen = self.world.inspect(t)
            except CosimError:
                seen = {"shard": None, "state": None}
            out.append({"id": t, "shard": seen["shard"], "state": seen["state"]})
        return out

    def names(self, tiles):
        return " ".join(shard_name(self.shards[t]) for t in tiles) or "nothing"

    # --- helpers ----------------------------------------------------------------------------
    def _put_alone(self, t, cell):
        w = self.world
        w.lift(t)
        w.place(t, *cell)
        w.advance(LONE_WAIT_MS)

    def _to_discards(self, t):
        q, r = DISCARD_CELL
        self.world.lift(t)
        self.world.place(t, q + 2 * len(self.discards), r)
        self.discards.append(t)

    def _wait_for(self, t, states, timeout=SETTLE_MS):
        w = self.world
        if not w.run_until(lambda: w.inspect(t)["state"] in states, timeout):
            seen = w.inspect(t)
            raise Mismatch(
                f"tile {t} ({seen['shard']}) shows {seen['state']}, expected {' or '.join(states)}"
            )
        return w.inspect(t)["state"]


def physical_game(seed=0, deck=None, start=0, ir_loss=0.0, shape="blob", mpy=0, bit_flip=0.0):
    """Deal on the tiles and return (table, GameState, deal_ms) with the opening hands drawn.
    The caller closes the table (it may hold MicroPython processes)."""
    table = Table(seed=seed, ir_loss=ir_loss, shape=shape, mpy=mpy, bit_flip=bit_flip)
    try:
        deal_ms = table.deal()
    except BaseException as exc:
        if isinstance(exc, (Mismatch, CosimError)):
            exc.tiles = table.tiles_json()  # what the tiles show after the failed deal
        table.close()
        raise
    order = table.choose_order(deck, seed)
    state = GameState(deck=order, start=start)
    for p in (0, 1):
        for _ in range(2):
            table.draw(p)
    table.check(state)
    return table, state, deal_ms


class PhysicalRunner(RulesRunner):
    """Runs a session on the simulated tiles, checking them against the referee after every
    move. A disagreement stops the session with exit 1 naming the line."""

    mode = "simulator"

    def __init__(
        self,
        statements,
        seed=None,
        say=None,
        ir_loss=0.0,
        mpy=0,
        ceiling=False,
        failed=None,
        bit_flip=0.0,
    ):
        RulesRunner.__init__(self, statements, seed=seed, say=say, ceiling=ceiling, failed=failed)
        self.ir_loss = ir_loss
        self.bit_flip = bit_flip
        self.mpy = mpy
        self.table = None
        self.tiles = []

    def validate(self):
        pass

    def deal(self, seed, deck, start, shape, line):
        self.line = line
        try:
            self.table, self.state, self.deal_ms = physical_game(
                seed, deck, start, self.ir_loss, shape, self.mpy, self.bit_flip
            )
        except Mismatch as exc:
            self.tiles = getattr(exc, "tiles", [])
            raise _Stop(line, f"the deal: {exc}")
        except CosimError as exc:  # a tile's process failed: the command line says so (exit 3)
            self.tiles = getattr(exc, "tiles", [])
            raise
        self.say(f"dealt on {DECK_SIZE} tiles in {self.deal_ms} simulated ms")

    def after_move(self, st, event):
        try:
            self.table.perform(event)
            self.table.check(self.state)
        except Mismatch as exc:
            raise _Stop(st.line, f"the tiles disagree with the referee after `{st.text}`: {exc}")

    def expect_tile(self, st):
        tiles = self.table.world.tiles
        if st.tile not in tiles:
            raise ScriptError(st.line, f"there is no tile {st.tile} (tiles are 0-{len(tiles) - 1})")
        seen = self.table.world.inspect(st.tile)
        if st.value in (seen["state"], seen["shard"]):
            return
        self.fail(
            st.line,
            f"expect tile {st.tile} shows {st.value} failed: it shows {seen['state']} "
            f"{seen['shard']}",
        )

    def tiles_json(self):
        return self.tiles

    def run(self):
        try:
            result = RulesRunner.run(self)
        except _Stop as stop:
            self.fail(stop.line, stop.message)
            result = SessionResult(EXIT_EXPECT_FAILED, self.state, self.failures, self)
        finally:
            # read the tiles while they still run (co-simulated ones live in processes), then stop them
            if self.table is not None:
                self.tiles = self.table.tiles_json()
                self.table.close()
        return result


class _Stop(Exception):
    def __init__(self, line, message):
        Exception.__init__(self, message)
        self.line = line
        self.message = message


def run_physical_games(
    bot_name, games, seed=0, progress=None, jobs=1, outcome=final_score, partner=None, scripts=None
):
    """Scores of bot games played on the simulated tiles, in seed order, over `jobs` worker
    processes (0: one per CPU), or `outcome` of each game as in run_games (`partner`: the bot
    in seat B, as there); raises Mismatch on a disagreement. With `scripts` (a folder), each
    game is also saved there as a session script that replays it (raises OSError)."""
    from simulator.games.lostgems.playtest import share_out

    if scripts:
        os.makedirs(scripts, exist_ok=True)
    play = partial(play_physical_seeds, outcome=outcome, partner=partner, scripts=scripts)
    return share_out(play, bot_name, games, seed, progress, jobs, partner=partner)


def play_physical_seeds(
    bot_name, games, seed, progress=None, outcome=final_score, partner=None, scripts=None
):
    """outcome() of each game dealt from seeds seed .. seed + games - 1, played on the tiles
    (its score by default), each saved as a session script into the folder `scripts` if given."""
    from simulator.games.lostgems.bots import bot_class
    from simulator.games.lostgems.bots.base import seated_bots
    from simulator.games.lostgems.playtest import naming_the_deal, save_game_script

    cls = bot_class(bot_name)
    partner_cls = partner and bot_class(partner)
    results = []
    for i in range(games):
        table, state, _ = physical_game(seed + i)
        bots = seated_bots(cls, partner_cls, seed + i)
        obs = (state.observation(0), state.observation(1))
        while not state.over:
            p = state.current
            with naming_the_deal(seed + i):
                event = state.apply(bots[p].act(obs[p]))
            try:
                table.perform(event)
                table.check(state)
            except Mismatch as exc:
                raise Mismatch(
                    f"game {i} (seed {seed + i}), turn {event.turn} "
                    f"({PLAYERS[p]} {event.move}): {exc}"
                ) from None
            for q in (0, 1):
                bots[q].observe(obs[q], obs[q].last_event)
        if scripts:
            save_game_script(scripts, state, bot_name, partner, seed + i, " on the tiles")
        results.append(outcome(state))
        if progress:
            progress(i + 1)
    return results
