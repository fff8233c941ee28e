"""What the games' co-simulation tests share: the micropython command (and the mark that skips a
test without it), a cluster whose first tiles run on MicroPython, and the firmware's pure parts
run there. (Imported by name: tests/ is on sys.path, as tests/conftest.py's folder.)"""

import os
import shutil
import subprocess
from contextlib import contextmanager

import pytest

from simulator.world import World, shapes

MICROPYTHON = shutil.which("micropython")
needs_micropython = pytest.mark.skipif(MICROPYTHON is None, reason="no micropython command")
FIRMWARE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "firmware")


@contextmanager
def cluster(game, on_micropython, tiles=27, seed=12):
    """A world of `tiles` tiles of the firmware class `game` in a blob, the first
    `on_micropython` of them run by MicroPython (the rest in CPython); closed after."""
    cosim = pytest.importorskip("simulator.cosim.cluster")
    w = World(seed=seed)
    runners = cosim.mpy_runners(on_micropython, tiles=tiles)
    try:
        for i, (q, r) in enumerate(shapes.blob(tiles)):
            w.add_tile(game, q=q, r=r, runner=runners.get(i))
        w.advance(300)
        yield w
    finally:
        cosim.close_runners(w)


def run_checks(checks):
    """What `checks` (Python with the firmware on its path) prints on MicroPython, stripped;
    the test fails if it raises."""
    out = subprocess.run(
        [MICROPYTHON, "-c", checks],
        env=dict(os.environ, MICROPYPATH=os.path.abspath(FIRMWARE)),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    return out.stdout.strip()
