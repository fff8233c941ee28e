"""Deal figures: how fast 18 tiles deal, and whether a deal is ever half applied.

Every world here runs its links at 4 kbit/s (`World(bit_rate=4000)`), whatever the default
becomes. A deal's time runs from the moment the 6-second hold fires to the last tile showing
face down (LOSTGEMS.md's deal_ms); the held tile varies with the seed (centre and edge tiles).

- deal_ms: median of an 18-tile blob deal at 10 % frame loss (goal <= 1200).
- deal_ms_line_0: the same for a line of 18, no loss (goal <= 2000).
- deal_ms_line_30: a line of 18 at 30 % loss, the worst case players meet (goal <= 6000).
- deal_redeals: re-deals tried: a clean deal, then a second one with the links made noisy
  (nothing moved), over the four shapes (blob, line, ring, random) and every mix of frame loss
  (10, 30, 45, 60 %) and bit flips (0, 0.1, 1, 3 %), on seeds 0, 1, 2...; 2,048 in a full
  run, 64 with --quick (both share the work out over 2 processes).
- deal_wrong_tables: how many of those left anything but the whole deck once (every tile face
  down) or exactly the old table: a duplicate, a missing shard, a tile still dealing or
  uncertain when nothing was moved (goal 0).
- deal_redeals_dealt: how many re-deals dealt a new table (the others failed cleanly).
- deal_longest_dealing_ms: the longest any tile showed `dealing` without a break in those
  re-deals (goal: at most runtime.deal's SHOW_LIMIT_MS, 45 s, seen every 100 ms), and
  deal_last_dealing_after_hold_ms: how long after its hold the last tile still showed it.
  `python bench/bench_deal.py --bound [N]` runs N (512) re-deals of two rounds each on 6, 12
  and 18 tiles for these figures alone (about N/100 minutes on two cores).
- deal_frames_flipped, deal_flipped_frames_accepted: frames the links corrupted during those
  re-deals, and how many of them a tile took for good ones (goal 0: runtime.link checks values
  with a distance-6 code and datagrams with a CRC-24).
- frames_corrupted_1pct / frames_passed_1pct (and _3pct): value frames (every value and flag)
  and datagram frames (random payloads of 0-16 bytes) put through the world's bit-flip model
  at 1 % and 3 %: how many came out corrupted, and how many of those still passed the checks
  (goal 0). 200,000 frames a rate with --quick, 1,000,000 in a full run.
- value_frame_air_ms, datagram_check_bytes: what the checks cost: a value frame's time on air
  at 4 kbit/s (2 bytes; 1 byte with the old parity bit), the bytes of a datagram's CRC.
"""

import os
import random
import statistics
import sys
from collections import Counter
from concurrent.futures import ProcessPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
for path in (ROOT, os.path.join(ROOT, "firmware")):
    if path not in sys.path:
        sys.path.insert(0, path)

from games.lostgems import LostGems, shards
from runtime import link
from runtime.deal import SHOW_LIMIT_MS

from simulator.world import World, shapes
from simulator.world.ir import IrModel

SHAPES = ("blob", "line", "ring", "random")
LOSSES = (0.1, 0.3, 0.45, 0.6)
FLIPS = (0.0, 0.001, 0.01, 0.03)
BIT_RATE = 4000
HOLD_MS = 6000
SETTLE_MS = 180000  # longest a deal may take to end everywhere (the root gives up after 45 s)


# {figure: (what it measures, goal)}: docs/benchmarks.md's rows (bench/run.py checks every key).
FIGURES = {
    "deal_ms": (
        "Median simulated ms of an 18-tile blob deal at 10 % frame loss, hold firing to last tile face down (4 kbit/s).",
        "≤ 1200",
    ),
    "deal_ms_line_0": ("The same for a line of 18 tiles with no loss.", "≤ 2000"),
    "deal_ms_line_30": (
        "The same for a line of 18 tiles at 30 % loss, the worst case players meet.",
        "≤ 6000",
    ),
    "deal_redeals": (
        "Noisy re-deals tried (blob, line, ring, random; 10-60 % loss, 0-3 % bit flips).",
        "2048 (64 with --quick)",
    ),
    "deal_redeals_dealt": (
        "Of those re-deals, how many dealt a new table (the others failed cleanly).",
        "—",
    ),
    "deal_wrong_tables": (
        "Re-deals that left anything but the whole deck once or exactly the old table.",
        "0",
    ),
    "deal_wrong_examples": ("Up to five of those wrong tables, described.", "[]"),
    "deal_longest_dealing_ms": (
        "Longest time any tile showed `dealing` without a break in those re-deals, ms.",
        "≤ 45000",
    ),
    "deal_last_dealing_after_hold_ms": (
        "How long after its hold the last tile still showed `dealing`, ms.",
        "—",
    ),
    "deal_show_limit_ms": (
        "runtime.deal's SHOW_LIMIT_MS: the longest a tile may show the deal under way.",
        "—",
    ),
    "deal_frames_flipped": ("Frames the links corrupted during the re-deals.", "—"),
    "deal_flipped_frames_accepted": (
        "Of those corrupted frames, how many a tile took for good ones.",
        "0",
    ),
    "value_frame_air_ms": ("A value frame's time on the air at 4 kbit/s, ms.", "—"),
    "datagram_check_bytes": ("Bytes of a datagram's check (CRC-24).", "—"),
    "frames_corrupted_1pct": (
        "Value frames and datagrams corrupted by the world's bit-flip model at 1 %.",
        "—",
    ),
    "frames_passed_1pct": (
        "Of those corrupted frames, how many still pass the runtime's checks.",
        "0",
    ),
    "frames_corrupted_3pct": ("The same frames corrupted at 3 % bit flips.", "—"),
    "frames_passed_3pct": ("Of those, how many still pass the runtime's checks.", "0"),
}


def cluster(shape, seed, loss=0.0, flips=0.0, n=18):
    """A world of n Lost Gems tiles joined in one cluster of `shape`, faces found (300 ms)."""
    w = World(seed=seed, ir_loss=loss, bit_flip=flips, bit_rate=BIT_RATE)
    for q, r in shapes.named(shape, n, seed):
        w.add_tile(LostGems, q=q, r=r)
    w.advance(300)
    return w


def hold(w, held):
    """Hold tile `held` until its hold fires, then let go; returns the simulated ms it fired."""
    before = w.inspect(held)["deal"]["id"]
    w.press(held)
    w.advance(HOLD_MS - 100)
    if not w.run_until(lambda: w.inspect(held)["deal"]["id"] != before, 1000):
        raise RuntimeError("the hold did not start a deal")
    fired = w.now
    w.release(held)
    return fired


def states(w):
    return [w.inspect(t)["state"] for t in w.tiles]


def settled(w, held):
    """The held tile's deal is over (it knows the outcome, or was reset since) and no tile
    shows the deal under way or uncertain."""
    if w.inspect(held)["deal"]["phase"] not in ("committed", "aborted", "idle"):
        return False
    return all(s not in ("dealing", "uncertain") for s in states(w))


def one_deal(shape, loss, seed):
    """Simulated ms from the hold firing to the last tile face down, for one seeded deal."""
    w = cluster(shape, seed, loss)
    held = random.Random(seed).randrange(18)
    fired = hold(w, held)
    if not w.run_until(lambda: states(w) == ["face down"] * 18, SETTLE_MS):
        raise RuntimeError(f"the deal failed (seed {seed}): {w.inspect(held)['deal']}")
    return w.now - fired


def table(w):
    """(state, shard) of every tile."""
    return [(i["state"], i["shard"]) for i in map(w.inspect, w.tiles)]


def judge(w, old):
    """'new' (every tile face down, the whole deck once), 'old' (the table as it was), or what
    is wrong with it."""
    now = table(w)
    if now == old:
        return "old"
    if [s for s, _ in now] != ["face down"] * len(now):
        return "half a deal: " + ", ".join(sorted({s for s, _ in now}))
    deck = Counter(shards.name(s) for s in shards.deck(len(now) // 6))
    got = Counter(shard for _, shard in now)
    if got != deck:
        return f"not the deck once: twice {sorted(got - deck)}, missing {sorted(deck - got)}"
    return "new"


def wait(w, done, limit_ms, step_ms=100, watch=None):
    """Advance in steps until done() (checking every pass would cost more than the tiles);
    `watch` (a Watch) looks at the tiles at every step."""
    end = w.now + limit_ms
    while not done():
        if w.now >= end:
            return False
        w.advance(step_ms)
        if watch is not None:
            watch.look(w)
    return True


class Watch:
    """How long tiles show the deal under way (`dealing`), seen every step of `wait`: the
    longest any tile showed it without a break (`longest_ms`), and how long after the hold
    fired the last tile still showed it (`last_ms`)."""

    def __init__(self, fired):
        self.fired = fired
        self.since = {}  # tile -> when it began to show `dealing`
        self.longest_ms = 0
        self.last_ms = 0

    def look(self, w):
        for t in w.tiles:
            if w.inspect(t)["state"] == "dealing":
                began = self.since.setdefault(t, w.now)
                self.longest_ms = max(self.longest_ms, w.now - began)
                self.last_ms = max(self.last_ms, w.now - self.fired)
            else:
                self.since.pop(t, None)


def flips_accepted(w):
    """Frames the links flipped that a tile took for good: stop flipping, let what is on the
    way arrive and be read, then every flipped frame is either dropped or was accepted."""
    w.ir.bit_flip = 0.0
    w.advance(200)
    return w.ir.flipped - sum(w.inspect(t)["frames_dropped"] for t in w.tiles)


def redeal(shape, loss, flips, seed, rounds=1, disturb=None, n=18, watch=None):
    """A clean deal of `n` tiles, then `rounds` re-deals with the links at `loss` and `flips`.
    Returns (outcome of the last round, frames flipped, flipped frames accepted); an outcome is
    'new', 'old' or what went wrong (the first round that went wrong), such as the held tile
    taking its 6-second hold for a lone tile's 2-second discard. `watch`, a list, gets each
    round's Watch (how long tiles showed the deal under way).

    `disturb` = ("lift" or "reset", ms): in each re-deal, that long after the hold fires, a
    random tile is lifted (and put back 20 s later) or reset. Meanwhile no other tile may show
    `uncertain`; the outcome is judged once every tile knows it."""
    rng = random.Random(seed * 7919 + 11)
    w = cluster(shape, seed, n=n)
    first = rng.randrange(n)
    hold(w, first)
    if not wait(w, lambda: settled(w, first), SETTLE_MS) or judge(w, []) != "new":
        raise RuntimeError(f"the clean first deal failed ({shape}, seed {seed})")
    w.ir.loss, w.ir.bit_flip = loss, flips
    outcome = "new"
    for _ in range(rounds):
        w.advance(500)
        old = table(w)
        held = rng.randrange(n)
        pressed = w.now
        try:
            fired = hold(w, held)
        except RuntimeError:  # the held tile is still in a count it never heard the end of
            fired = w.now
        seen = Watch(fired)
        if watch is not None:
            watch.append(seen)
        if any(t >= pressed and "-> discarded" in line for t, line in w.hal(held).log_lines):
            outcome = f"the held tile {held} discarded itself"
        if disturb and outcome == "new":
            outcome = shake(w, rng, disturb, fired)
        if outcome in ("new", "old"):
            if not wait(w, lambda held=held: settled(w, held), SETTLE_MS, watch=seen):
                outcome = "unsettled: " + ", ".join(sorted(set(states(w))))
            else:
                outcome = judge(w, old)
        if outcome not in ("new", "old"):
            break
    return outcome, w.ir.flipped, flips_accepted(w)


def shake(w, rng, disturb, fired):
    """Lift (and put back 20 s later) or reset a random tile `disturb[1]` ms after the hold
    fired, watching that no other tile shows `uncertain` meanwhile. Returns 'new' when all went
    as it should, else what went wrong."""
    how, after = disturb
    tile = rng.randrange(len(w.tiles))
    w.advance(max(0, fired + after - w.now))
    if how == "reset":
        w.reset_tile(tile)
        back = w.now
    else:
        cell = w.position(tile)[:2]
        w.lift(tile)
        back = w.now + 20000
    while w.now < back + 2000:
        if w.now >= back and how == "lift" and w.position(tile) is None:
            w.place(tile, *cell)
        others = [t for t in w.tiles if t != tile and w.inspect(t)["state"] == "uncertain"]
        if others:
            return f"tiles {others} uncertain, {how} of tile {tile} only"
        w.advance(100)
    return "new"


def conditions(count, sizes=(18,), rounds=1):
    """`count` re-deals: (shape, loss, flips, seed, rounds, n), every shape, noise mix and
    cluster size in turn."""
    mixes = [(s, lo, fl, n) for n in sizes for lo in LOSSES for fl in FLIPS for s in SHAPES]
    out = []
    for i in range(count):
        shape, loss, flips, n = mixes[i % len(mixes)]
        out.append((shape, loss, flips, i // len(mixes), rounds, n))
    return out


def _redeal(args):
    """One re-deal's (outcome, frames flipped, flipped frames accepted, the longest any tile
    showed `dealing`, how long after its hold the last tile did), in ms (the worst round)."""
    shape, loss, flips, seed, rounds, n = args
    watch = []
    outcome, flipped, accepted = redeal(shape, loss, flips, seed, rounds, n=n, watch=watch)
    longest = max((seen.longest_ms for seen in watch), default=0)
    last = max((seen.last_ms for seen in watch), default=0)
    return outcome, flipped, accepted, longest, last


def redeals(count, jobs=2, sizes=(18,), rounds=1):
    """Outcomes of `count` noisy re-deals (see _redeal), shared out over `jobs` processes."""
    todo = conditions(count, sizes, rounds)
    if jobs <= 1:
        return list(map(_redeal, todo))
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        return list(pool.map(_redeal, todo, chunksize=4))


def bound_figures(outcomes, prefix="deal_"):
    """What re-deals say of the deal's bound on `dealing` (runtime.deal: no tile shows it
    longer than SHOW_LIMIT_MS) and of the tables they left."""
    wrong = [o for o, *_ in outcomes if o not in ("new", "old")]
    return {
        prefix + "redeals": len(outcomes),
        prefix + "redeals_dealt": sum(1 for o, *_ in outcomes if o == "new"),
        prefix + "wrong_tables": len(wrong),
        prefix + "wrong_examples": sorted(set(wrong))[:5],
        prefix + "longest_dealing_ms": max(longest for *_, longest, _ in outcomes),
        prefix + "last_dealing_after_hold_ms": max(last for *_, last in outcomes),
        prefix + "show_limit_ms": SHOW_LIMIT_MS,
    }


def frames_past_the_checks(p, count, seed=1):
    """(corrupted, passed): of `count` frames flipped at rate p by the world's model, how many
    came out corrupted and how many of those the runtime would still take for good."""
    rng = random.Random(seed)
    ir = IrModel(None, rng, bit_flip=p)
    corrupted = passed = 0
    for i in range(count):
        if i & 1:
            frame = link.VALUE_FRAME[i >> 1 & 127]
        else:
            body = bytes(rng.getrandbits(8) for _ in range(rng.randrange(17)))
            frame = link.encode_datagram(link.KIND_DATA, link.VALUE_BYTE[5], 7, 9, 3, 2, body)
        bad = ir._flip(frame)
        if bad != frame:
            corrupted += 1
            if link.is_value_frame(bad) or link.check_datagram(bad) or bad == link.SLEEP_FRAME:
                passed += 1
    return corrupted, passed


def run(quick: bool) -> dict:
    samples = 7 if quick else 31
    count = 64 if quick else 2048
    outcomes = redeals(count)
    checks = {}
    for p, name in ((0.01, "1pct"), (0.03, "3pct")):
        corrupted, passed = frames_past_the_checks(p, 200000 if quick else 1000000)
        checks["frames_corrupted_" + name] = corrupted
        checks["frames_passed_" + name] = passed
    return {
        "deal_ms": statistics.median(one_deal("blob", 0.1, s) for s in range(samples)),
        "deal_ms_line_0": statistics.median(one_deal("line", 0.0, s) for s in range(samples)),
        "deal_ms_line_30": statistics.median(one_deal("line", 0.3, s) for s in range(samples)),
        **bound_figures(outcomes),
        "deal_frames_flipped": sum(o[1] for o in outcomes),
        "deal_flipped_frames_accepted": sum(o[2] for o in outcomes),
        "value_frame_air_ms": World(bit_rate=BIT_RATE).ir.frame_airtime(bytes(link.VALUE_LEN)),
        "datagram_check_bytes": link.TRAILER,
        **checks,
    }


def bound_run(count=512, jobs=2):
    """`python bench/bench_deal.py --bound [N]`: N noisy re-deals (two rounds each, after a clean
    deal) on 6, 12 and 18 tiles of every shape, every noise mix: no wrong table, no held tile
    discarding itself, no tile showing `dealing` longer than SHOW_LIMIT_MS."""
    return bound_figures(redeals(count, jobs, sizes=(6, 12, 18), rounds=2), prefix="bound_")


if __name__ == "__main__":
    if "--bound" in sys.argv:
        rest = sys.argv[sys.argv.index("--bound") + 1 :]
        print(bound_run(int(rest[0]) if rest else 512))
    else:
        print(run("--quick" in sys.argv))
