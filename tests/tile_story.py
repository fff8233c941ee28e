"""What the games' tile stories share (tests/<game>/<g>_story.py): a table of tiles in the
headless world, what a tile shows, the 6-second hold that deals, and the tile dealt a given
piece. (Imported by name: tests/ is on sys.path, as tests/conftest.py's folder.)"""

from simulator.world import World, shapes

HOLD_DEAL_MS = 6000
LONE_WAIT_MS = 1000


def table(game, n=27, seed=1, loss=0.0):
    """`n` tiles of the firmware class `game` in a blob, settled."""
    w = World(seed=seed, ir_loss=loss)
    for q, r in shapes.blob(n):
        w.add_tile(game, q=q, r=r)
    w.advance(300)
    return w


def info(w, tid):
    return w.inspect(tid)


def state(w, tid):
    return w.inspect(tid)["state"]


def deal(w, tid, dealt, timeout=30000):
    """Hold a tile until it deals; run until every tile shows `dealt` (its back). Returns the
    ms it took from the hold firing."""
    before = w.inspect(tid)["deal"]["id"]
    w.press(tid)
    w.advance(HOLD_DEAL_MS - 100)
    assert w.run_until(lambda: w.inspect(tid)["deal"]["id"] != before, 1000), "no deal"
    w.release(tid)
    fired = w.now
    assert w.run_until(lambda: all(state(w, t) == dealt for t in w.tiles), timeout), [
        state(w, t) for t in w.tiles
    ]
    return w.now - fired


def tile_with(w, piece, name, taken=()):
    """A tile dealt the piece (inspect()'s `piece`) called `name` that is not in `taken`
    (lowest id first)."""
    for t in w.tiles:
        if w.inspect(t)[piece] == name and t not in taken:
            return t
    raise AssertionError(f"no tile holds {name}")
