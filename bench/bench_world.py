"""World and runtime speed.

`sim_speedup`: simulated seconds per wall second for 18 tiles in a blob, headless, each running
`Busy` (below): every pass it changes its colours and the values it sends on all six faces and
reads all six faces, so ping-pong runs on every link; a few tiles also keep datagrams moving.
Default world (loop 20 ms, the board's 115.2 kbit/s IR, no loss). Timed with this process's CPU time, best of
several runs, so other load on a shared machine disturbs it less (on an idle machine CPU time
and wall time agree). Goal: >= 100 (the reference simulator runs in real time, 1x).

`runtime_pass_us_mpy`: microseconds for one `Tile.step()` of the same busy game on the real
MicroPython unix port, with a neighbour talking on two faces (median of 2000 passes). The tile
budget is 60 us per pass; the unix port on a PC runs faster than an RP2350, so read it as a
relative figure. Absent when the `micropython` command is missing.
"""

import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)


# {figure: (what it measures, goal)}: docs/benchmarks.md's rows (bench/run.py checks every key).
FIGURES = {
    "sim_speedup": (
        "Simulated s per CPU s for 18 busy tiles in a blob, headless (loop 20 ms, 115.2 kbit/s IR).",
        "≥ 100",
    ),
    "runtime_pass_us_mpy": (
        "Median us of one Tile.step() of that busy game on the MicroPython unix port.",
        "—",
    ),
}


class Busy:
    """Changes colours and face values every pass; tiles 0-2 also send datagrams."""

    def __init__(self, tile):
        self.tile = tile
        self.n = 0
        self.sender = tile.serial_number()[0] % 3 == 0
        self.got = 0

    def setup(self):
        pass

    def loop(self):
        t = self.tile
        self.n = n = self.n + 1
        t.set_value_sent_on_all_faces(n & 63)
        for f in range(6):
            if t.is_value_received_on_face_expired(f):
                t.set_color_on_face((n * 97 + f) & 0x7FFF, f)
            else:
                t.set_color_on_face(t.get_last_value_received_on_face(f) << 5, f)
            if t.is_datagram_ready_on_face(f):
                self.got += 1
                t.mark_datagram_read_on_face(f)
            elif self.sender and n % 16 == f and not t.is_datagram_pending_on_face(f):
                t.send_datagram_on_face(b"busy", f)


def sim_speedup(sim_ms, repeats):
    from simulator.world import World, shapes

    best = None
    for seed in range(repeats):
        w = World(seed=seed)
        for q, r in shapes.blob(18):
            w.add_tile(Busy, q, r)
        w.advance(200)  # let links come up before timing
        t0 = time.process_time()
        w.advance(sim_ms)
        wall = time.process_time() - t0
        best = wall if best is None or wall < best else best
    return sim_ms / 1000.0 / best


MPY_SCRIPT = """
import time
from rt_hal import make
from runtime import link
import bench_world_game
hal, tile = make(bench_world_game.Busy)
samples = []
for i in range(2200):
    hal.t += 20
    if i % 2 == 0:
        hal.rx[1].append((hal.t - 3, link.VALUE_FRAME[5]))
        hal.rx[4].append((hal.t - 1, link.VALUE_FRAME[9]))
    t0 = time.ticks_us()
    tile.step()
    samples.append(time.ticks_diff(time.ticks_us(), t0))
    if len(hal.sent) > 50:
        hal.sent = []
samples = samples[200:]
samples.sort()
print("median_us", samples[len(samples) // 2])
"""


def runtime_pass_us_mpy():
    mpy = shutil.which("micropython") or os.path.join(
        os.path.dirname(sys.executable), "micropython"
    )
    if not os.path.exists(mpy):
        return None
    with open(__file__) as f:
        game_src = f.read()
    game_src = game_src[game_src.index("class Busy") : game_src.index("def sim_speedup")]
    tmp = tempfile.mkdtemp(prefix="bench_world_")  # private: see run_in
    try:
        return run_in(tmp, mpy, game_src)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def run_in(tmp, mpy, game_src):
    """The median pass from the script written in `tmp`, a folder of the bench's own: MicroPython
    puts a script's folder first on its import path, so a shared /tmp holding a `games` or
    `runtime` folder would hide the firmware."""
    with open(os.path.join(tmp, "bench_world_game.py"), "w") as f:
        f.write(game_src)
    with open(os.path.join(tmp, "bench_world_mpy.py"), "w") as f:
        f.write(MPY_SCRIPT)
    path = ":".join((os.path.join(ROOT, "firmware"), os.path.join(ROOT, "tests", "firmware"), tmp))
    out = subprocess.run(
        [mpy, os.path.join(tmp, "bench_world_mpy.py")],
        capture_output=True,
        text=True,
        env=dict(os.environ, MICROPYPATH=path),
        timeout=120,
        check=False,
    )
    for line in out.stdout.splitlines():
        if line.startswith("median_us"):
            return int(line.split()[1])
    raise RuntimeError("micropython bench failed: " + out.stdout + out.stderr)


def run(quick: bool) -> dict:
    figures = {"sim_speedup": round(sim_speedup(5000 if quick else 20000, 3 if quick else 5), 1)}
    us = runtime_pass_us_mpy()
    if us is not None:
        figures["runtime_pass_us_mpy"] = us
    return figures


if __name__ == "__main__":
    print(run("--quick" in sys.argv))
