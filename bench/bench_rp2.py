"""Figures of a real tile, measured on emulated RP2040s running the official MicroPython.

Emulated time is exact, so these do not swing with the machine's load (but for rp2_emu_speed).
They need the MicroPython UF2 and the RP2040 bootrom (docs/emulated-tiles.md); without them
this bench fails and says what is missing.

- rp2_pass_us: median loop pass (runtime + Lost Gems) of a face-down tile whose six faces all
  talk (a neighbour tile wired to every face), in us at 125 MHz. Goal: <= 3000.
- rp2_alloc_per_pass: bytes that pass allocates (gc.mem_alloc, collection off). Goal: 0.
- rp2_heap_free_kb: heap left after the game's setup, deployed .mpy form. Goal: >= 120.
- rp2_deal_ms: a 6-tile blob deal, from the 6-second hold firing to the last tile showing
  face down in its decoded LEDs, in emulated ms (no goal).
- rp2_emu_speed: emulated seconds per wall second with those six tiles face down. Goal: >= 0.6.
- rp2_emu_speed_cpu: the same per second of the emulator's own CPU time (user + system), which
  other work on a shared machine does not change as much (no goal: read it beside the other).
- rp2_emu_idle_cpu: the fraction of the whole machine's CPU that `blinks emu --tiles 6` uses
  while its six tiles sit at the MicroPython REPL (realtime mode, as a person runs it).
  Goal: <= 0.05.
- rp2_awake_busy / rp2_sleep_busy: the fraction of time that tile's CPU runs, awake (passes
  20 ms apart) and in warm sleep (passes 100 ms apart, no game loop; its neighbour falls asleep
  with it, as a cluster does). Between passes the CPU waits for an interrupt.
- tile_ma_awake, tile_ma_asleep, battery_hours_awake, battery_days_asleep: a tile's current
  mid-game (face down, its six faces talking, the CPU as busy as rp2_awake_busy) and in deep
  sleep, and what a 500 mAh cell gives: a model from the parts' datasheets and that measured
  duty (bench/power_model.py), not a measurement. Goals: asleep <= 2 mA, >= 14 days asleep,
  >= 10 hours awake.
"""

import os
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
PROBE = os.path.join(HERE, "rp2", "pass_probe.py")


# {figure: (what it measures, goal)}: docs/benchmarks.md's rows (bench/run.py checks every key).
FIGURES = {
    "rp2_pass_us": (
        "Median pass of a face-down Lost Gems tile, six faces talking, on an emulated 125 MHz RP2040, us.",
        "≤ 1500",
    ),
    "rp2_alloc_per_pass": ("Bytes that pass allocates (gc.mem_alloc, collection off).", "0"),
    "rp2_heap_free_kb": ("Heap free after the game's setup, deployed .mpy, kB.", "≥ 120"),
    "rp2_awake_busy": ("Fraction of time that tile's CPU runs awake (a pass every 20 ms).", "—"),
    "rp2_sleep_busy": (
        "Fraction of time it runs in warm sleep (a pass every 100 ms, no game loop).",
        "—",
    ),
    "tile_ma_awake": (
        "A tile's current mid-game from a datasheet model and rp2_awake_busy, mA.",
        "—",
    ),
    "tile_ma_asleep": ("A tile's current in deep sleep (DORMANT) from the same model, mA.", "≤ 2"),
    "battery_hours_awake": ("Hours a 500 mAh cell gives at tile_ma_awake.", "≥ 10"),
    "battery_days_asleep": ("Days a 500 mAh cell gives at tile_ma_asleep.", "≥ 14"),
    "rp2_deal_ms": (
        "A 6-tile blob deal on emulated tiles, hold firing to last tile face down, emulated ms.",
        "—",
    ),
    "rp2_emu_speed": ("Emulated s per wall s with six emulated tiles face down.", "≥ 0.6"),
    "rp2_emu_speed_cpu": ("The same per s of the emulator's own CPU time.", "—"),
    "rp2_emu_idle_cpu": (
        "The machine's CPU fraction `blinks emu --tiles 6` takes at the REPL in real time.",
        "≤ 0.05",
    ),
}


def _setup():
    sys.path.insert(0, ROOT)
    sys.path.insert(0, os.path.join(ROOT, "firmware"))
    # the emulated-tile tests' helpers, and the tests' own modules they import (as under pytest)
    sys.path.insert(0, os.path.join(ROOT, "tests"))
    sys.path.insert(0, os.path.join(ROOT, "tests", "emu"))


def pass_figures(image, work):
    from emu_helpers import booted_build, flashed_image

    from host_tools.emu.cluster import EmuCluster

    flashed_image(image, work, tiles=2)
    with EmuCluster(tiles=2, shape="line", state_dir=work, mode="fast") as tiles:
        booted_build(tiles, 0)
        booted_build(tiles, 1)
        tiles.lift(0)
        for face in range(6):  # tile 1 talks to tile 0 on all six faces
            tiles._send(cmd="join", a=0, fa=face, b=1, fb=face)
        script = os.path.join(work, "probe.py")
        with open(PROBE) as src, open(script, "w") as dst:
            dst.write(f"FW = {image.fw_dir!r}\n" + src.read())
        proc = subprocess.run(
            [sys.executable, "-m", "mpremote", "connect", tiles.ports[0], "run", script],
            check=True,
            capture_output=True,
            text=True,
            timeout=1800,
        )
    out = dict(line.split("=", 1) for line in proc.stdout.split() if "=" in line)
    return {
        "rp2_pass_us": int(out["pass_us"]),
        "rp2_alloc_per_pass": int(out["alloc"]),
        "rp2_heap_free_kb": round(int(out["free"]) / 1024, 1),
        "rp2_awake_busy": float(out["awake_busy"]),
        "rp2_sleep_busy": float(out["sleep_busy"]),
    }


def deal_figures(image, work):
    from emu_helpers import deal, flashed_image

    from host_tools.emu.cluster import EmuCluster

    flashed_image(image, work, tiles=6)
    with EmuCluster(tiles=6, shape="blob", state_dir=work, mode="driven") as tiles:
        tiles.advance(2500)
        fires, done = deal(tiles)
        if len(done) < 6:
            raise RuntimeError("the emulated deal did not finish in 30 s")
        cpu = tiles.stats()["cpu_used_ms"]
        start = time.perf_counter()
        tiles.advance(5000)
        speed = 5.0 / (time.perf_counter() - start)
        cpu_speed = 5000 / (tiles.stats()["cpu_used_ms"] - cpu)
    return {
        "rp2_deal_ms": round(max(done.values()) - fires),
        "rp2_emu_speed": round(speed, 3),
        "rp2_emu_speed_cpu": round(cpu_speed, 3),
    }


def idle_cpu(seconds):
    """CPU fraction of the machine used by `blinks emu --tiles 6` (and its emulator) over
    `seconds` of wall time, its tiles at the REPL."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "host_tools.cli", "emu", "--tiles", "6"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    try:
        ports, deadline, buf = 0, time.monotonic() + 300, b""
        while ports < 6:
            if time.monotonic() > deadline or proc.poll() is not None:
                raise RuntimeError("blinks emu --tiles 6 did not bring its ports up")
            if select.select([proc.stdout], [], [], 1)[0]:
                buf += os.read(proc.stdout.fileno(), 4096)
                ports = buf.count(b"PORT ")
        time.sleep(3)  # the last boots settle
        cpu0, wall0 = _tree_cpu_s(proc.pid), time.monotonic()
        time.sleep(seconds)
        cpu1, wall1 = _tree_cpu_s(proc.pid), time.monotonic()
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(60)
    return (cpu1 - cpu0) / (wall1 - wall0) / os.cpu_count()


def _tree_cpu_s(root):
    """User and system CPU seconds of a process and all its descendants."""
    parent, used = {}, {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            parent[int(entry)] = int(fields[1])
            used[int(entry)] = int(fields[11]) + int(fields[12])
    tree, grew = {root}, True
    while grew:
        more = {pid for pid, pp in parent.items() if pp in tree} - tree
        tree |= more
        grew = bool(more)
    return sum(used.get(pid, 0) for pid in tree) / os.sysconf("SC_CLK_TCK")


def power_figures(awake_busy):
    import power_model
    from games.lostgems import display
    from hal.board import PIXEL_MAX

    pulses = power_model.value_pulses()  # what a face-down tile sends, a pass a face
    return power_model.figures(awake_busy, display.face_down(), PIXEL_MAX, pulses)


def run(quick: bool) -> dict:
    _setup()
    from simulator.mpy.build import build

    image = build()
    work = tempfile.mkdtemp(prefix="bench-rp2-")
    try:
        figures = pass_figures(image, os.path.join(work, "pass"))
        figures.update(power_figures(figures["rp2_awake_busy"]))
        figures.update(deal_figures(image, os.path.join(work, "deal")))
        figures["rp2_emu_idle_cpu"] = round(idle_cpu(10 if quick else 30), 3)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return figures
