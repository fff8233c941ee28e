"""Worlds of tiles that hold builds in memory (simulator/world/build_store.py), for the share tests."""

from games.demo import Demo

from simulator.world import World, shapes
from simulator.world.build_store import MemoryStore, give_store, stand_in_build

OLD = "0a0a0a0a0a0a"
NEW = "0b0b0b0b0b0b"


def cluster(n=3, shape="line", loss=0.0, flips=0.0, seed=1, size=60000, files=41, holders=(0,)):
    """A world of n Demo tiles in `shape`; the tiles in `holders` hold build NEW, the others
    OLD (stand-ins of `size` bytes in `files` files). Returns (world, stores)."""
    w = World(seed=seed, ir_loss=loss, bit_flip=flips)
    cells = shapes.named(shape, n, seed) if shape == "random" else getattr(shapes, shape)(n)
    tiles = [w.add_tile(Demo, q, r) for q, r in cells]
    old = stand_in_build(OLD, size=size, files=files, seed=1)
    new = stand_in_build(NEW, size=size, files=files, seed=2)
    stores = [
        give_store(w, t, MemoryStore(w, t, files=new if t in holders else old)) for t in tiles
    ]
    w.advance(400)  # the faces find each other
    return w, stores


def share_from(w, stores, tid=0):
    """`blinks share` on tile tid: the request it leaves, then a restart."""
    stores[tid].state = {"root": 1}
    w.reset_tile(tid)


def settled(w, stores):
    return all(not w.runner(t).sharing for t in w.tiles)


def share_lines(w, tid, word=""):
    return [line for line in w.logs(tid) if line.startswith("BLINKS share") and word in line]


def outcome(w, tid=0):
    """The root's `BLINKS share done` line as a dict, or None."""
    for line in reversed(w.logs(tid)):
        if line.startswith("BLINKS share done "):
            return dict(part.split("=", 1) for part in line.split()[3:])
    return None
