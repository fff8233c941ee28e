"""A share over a bad link never delivers a corrupted byte: 2,000 shares of a small stand-in
build between two tiles, each link losing 30 % of its frames and flipping 1 % of its bits.

Every byte a receiver writes is compared with the sender's file at the same place, and every
build a receiver switched to with the sender's. At 1 % a 268-byte frame almost never arrives
whole, so the block size falls to 16 bytes and a share takes about a simulated minute: each
run stops at RUN_MS, and those that finished are counted (the rest must have written nothing
wrong either). The runs are shared out over worker processes.
"""

import os
from concurrent.futures import ProcessPoolExecutor

import pytest

RUNS = 2000
RUN_MS = 90000


def one_run(seed):
    """(finished, bytes written, wrong writes, wrong switch, frames flipped) of one share."""
    from share_world import NEW, cluster, outcome, share_from

    import simulator  # noqa: F401  puts the firmware on the path in a worker

    w, stores = cluster(2, "line", loss=0.3, flips=0.01, seed=seed, size=96, files=3)
    sender = stores[0].build_files(NEW)
    writes = stores[1].writes = []
    share_from(w, stores, 0)
    # outcome() reads the root's whole log: looking every 50 ms, not after every pass, is a
    # quarter of the CPU less
    w.run_until(lambda: outcome(w) is not None, RUN_MS, every_ms=50)
    wrong = 0
    for path, offset, data in writes:
        real = path.removesuffix(".tmp")
        if sender.get(real, b"")[offset : offset + len(data)] != data:
            wrong += 1
    switched = stores[1].running() == NEW
    bad_switch = switched and stores[1].build_files(NEW) != sender
    return switched, sum(len(d) for _, _, d in writes), wrong, bad_switch, w.ir.flipped


@pytest.mark.long
def test_two_thousand_shares_over_a_lossy_noisy_link_write_no_wrong_byte():
    workers = max(2, min(4, os.cpu_count() or 2))
    with ProcessPoolExecutor(workers) as pool:
        results = list(pool.map(one_run, range(RUNS), chunksize=25))
    finished = sum(r[0] for r in results)
    written = sum(r[1] for r in results)
    assert sum(r[2] for r in results) == 0, "a corrupted byte reached a store"
    assert sum(r[3] for r in results) == 0, "a tile switched to a build unlike the sender's"
    assert sum(r[4] for r in results) > 100000  # the link did corrupt frames, many of them
    assert written > 100000 and finished > RUNS // 4  # and shares did get through
