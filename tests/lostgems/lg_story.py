"""Helpers that let Lost Gems scenario tests read like stories: a table of tiles, people's moves,
and what every tile shows. Everything goes through the headless world, as a player's hands would.
"""

from collections import Counter

from games.lostgems import LostGems, shards

from simulator.world import World, shapes

HOLD_DEAL_MS = 6000
SETTLE_MS = 700  # after a move: the board value must hold 250 ms, then the news travels
LONE_WAIT_MS = 1000  # after moving a tile alone, before a gesture that needs it lone
HAND = (40, 0)  # a far corner of the table where a lone shard lies in a hand
BOARD = (-40, 0)  # the middle of the table where the gem board grows


def table(n, shape="blob", loss=0.0, seed=1, flips=0.0):
    """A world with n Lost Gems tiles joined in one cluster of that shape (4 kbit/s links)."""
    w = World(seed=seed, ir_loss=loss, bit_flip=flips, bit_rate=4000)
    for q, r in shapes.named(shape, n, seed):
        w.add_tile(LostGems, q=q, r=r)
    w.advance(300)  # faces find each other
    return w


def state(w, tid):
    return w.inspect(tid)["state"]


def shard(w, tid):
    return w.inspect(tid)["shard"]


def states(w):
    return [state(w, t) for t in w.tiles]


def hand_out(w):
    """Counter of the shards on all tiles."""
    return Counter(shard(w, t) for t in w.tiles)


def deck_counter(colours):
    return Counter(shards.name(s) for s in shards.deck(colours))


def hold_and_fire(w, tid):
    """Hold tile `tid` until its hold fires and starts a deal (6 s), then let go. Returns the
    simulated ms it fired."""
    before = w.inspect(tid)["deal"]["id"]
    w.press(tid)
    w.advance(HOLD_DEAL_MS - 100)
    assert w.run_until(lambda: w.inspect(tid)["deal"]["id"] != before, 1000), (
        "the hold did not deal"
    )
    w.release(tid)
    return w.now


def phase(w, tid):
    """Where the tile is in its deal (runtime.deal.PHASES)."""
    return w.inspect(tid)["deal"]["phase"]


def deal(w, tid, timeout_ms=90000):
    """Hold tile `tid` until it starts a deal (6 s), then wait for every tile of its cluster to
    leave `dealing` and for the held tile to learn the outcome. Returns the simulated ms from
    the moment the deal started to the last tile settling."""
    fired = hold_and_fire(w, tid)
    ok = w.run_until(lambda: "dealing" not in states(w), timeout_ms)
    assert ok, f"the deal never settled: {states(w)!r}"
    settled = w.now - fired
    # the held tile learns that everyone committed a moment later
    assert w.run_until(lambda: w.inspect(tid)["deal"]["result"], timeout_ms)
    return settled


def settle(w, held, timeout_ms=90000):
    """Run until the held tile knows how its deal ended and no tile shows `dealing`."""
    assert w.run_until(lambda: w.inspect(held)["deal"]["result"], timeout_ms), "no outcome"
    assert w.run_until(lambda: "dealing" not in states(w), timeout_ms), states(w)


def shown(w):
    """(state, shard) of every tile."""
    return [(state(w, t), shard(w, t)) for t in w.tiles]


def table_outcome(w, before):
    """'new' when every tile is face down and they hold the full deck once, 'old' when every
    tile shows what `before` (shown(w) then) says; AssertionError for anything else."""
    now = shown(w)
    if now == before:
        return "old"
    colours = len(w.tiles) // 6
    assert [s for s, _ in now] == ["face down"] * len(now), f"half a deal: {now}"
    assert hand_out(w) == deck_counter(colours), f"not the deck once: {sorted(hand_out(w))}"
    return "new"


def dealt_table(n=18, seed=1):
    """A cluster of n tiles, dealt (no frame loss: these stories are about what follows)."""
    w = table(n, "blob", 0.0, seed=seed)
    deal(w, 0)
    w.advance(1000)
    return w


def find(w, text, where=None):
    """A tile holding shard `text` (e.g. 'R1') in state `where` (any when None)."""
    for t in w.tiles:
        if shard(w, t) == text and (where is None or state(w, t) == where):
            return t
    raise AssertionError(f"no tile holds {text} ({where})")


def lift_to(w, tid, cell):
    """Take a tile out of its cluster and put it down alone at `cell` (offsets chosen free)."""
    w.lift(tid)
    q, r = cell
    while w.tile_at(q, r) is not None:
        q += 3
    w.place(tid, q, r)
    w.advance(LONE_WAIT_MS)
    return (q, r)


def take_into_hand(w, tid, slot=0):
    """A player takes a shard into their hand: it lies alone, away from everything."""
    return lift_to(w, tid, (HAND[0], HAND[1] + 3 * slot + 3 * tid))


def first_play(w, tid):
    """Put a shard alone in the middle and triple-click it."""
    lift_to(w, tid, BOARD)
    w.triple_click(tid)
    w.advance(SETTLE_MS)


def attach(w, tid, cell):
    """Attach a shard to the board at an empty cell next to it."""
    w.lift(tid)
    w.place(tid, *cell)
    w.advance(SETTLE_MS)


def east(cell, steps=1):
    """The cell `steps` along a straight line of the grid (boards in these stories are lines)."""
    return (cell[0] + steps, cell[1])


def board_of(w, tid):
    return w.inspect(tid)["board"]


def logs(w, tid):
    return list(w.logs(tid))


def state_log(w, tid):
    """(old, new, shard) of every `LG state` line of a tile, in order."""
    out = []
    for text in logs(w, tid):
        if text.startswith("LG state "):
            head, shard_part = text.rsplit(" shard=", 1)
            moves = head.split(" ", 4)[4]
            old, new = moves.split(" -> ")
            out.append((old, new, shard_part))
    return out


def play_like_the_runner(w, tid, cell, board_tiles, timeout_ms=3000):
    """The recipe a session runner follows for a play: attach, wait until the shard judged
    itself, then until every board tile agrees on the board. Returns the new state."""
    w.lift(tid)
    w.place(tid, *cell)
    assert w.run_until(lambda: state(w, tid) not in ("face down", "revealed"), timeout_ms)
    tiles = list(board_tiles) + ([tid] if state(w, tid) == "played" else [])
    assert w.run_until(lambda: len({str(board_of(w, t)) for t in tiles}) == 1, timeout_ms)
    return state(w, tid)
