"""Benchmarks: `python bench/run.py [--quick] [--json]`.

Every `bench/bench_*.py` module provides `run(quick: bool) -> dict` of named figures; this
runner merges them into one object. Figures are ratios or simulated-time medians wherever a
ratio fits, so they mean the same on any machine. Goals are stated in each module.

A bench whose inputs are not on this machine (bench_rp2 without the emulator's two binaries)
is listed under "skipped", with what is missing, and does not change the exit code; one that
fails is listed under "failed" and makes it 1.

A bench must leave nothing running: a process or thread still busy would slow every bench after
it (the world's sim_speedup read ~60 after the others, 90-95 alone). After each module the
runner lists what it left (threads of this process; processes it started, found by a mark in
their environment even when they left this process's tree) under "left_running", counts them
in `bench_left_running` (goal: 0), and stops the processes before the next module.
"""

import argparse
import importlib
import json
import os
import signal
import sys
import threading
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
MARK = "BLINKS_BENCH_RUN"  # in the environment of every process a bench starts
GRACE_S = 3  # what a bench leaves has this long to end by itself


def _marked_processes():
    """{pid: command line} of the live processes carrying this run's mark, but this one."""
    token = f"{MARK}={os.environ[MARK]}".encode()
    found = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            with open(f"/proc/{entry}/environ", "rb") as f:
                if token not in f.read().split(b"\0"):
                    continue
            with open(f"/proc/{entry}/stat") as f:
                if f.read().rsplit(")", 1)[1].split()[0] == "Z":
                    continue  # exited, not yet reaped: uses nothing
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                found[int(entry)] = f.read().replace(b"\0", b" ").decode(errors="replace")[:120]
        except OSError:
            continue
    return found


def _threads():
    return {t.ident: t.name for t in threading.enumerate() if t is not threading.main_thread()}


def left_running(threads_before):
    """What a bench left running (after a grace period), as readable lines; its processes are
    stopped."""
    deadline = time.monotonic() + GRACE_S
    while True:
        procs = _marked_processes()
        threads = {k: v for k, v in _threads().items() if k not in threads_before}
        if (not procs and not threads) or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    for pid in procs:
        try:
            os.kill(pid, signal.SIGTERM)
        except OSError:
            pass
    return [f"thread {name}" for name in threads.values()] + [
        f"process {pid}: {cmd}" for pid, cmd in procs.items()
    ]


def discover(only=None):
    names = sorted(f[:-3] for f in os.listdir(HERE) if f.startswith("bench_") and f.endswith(".py"))
    if only:
        names = [n for n in names if any(o in n for o in only)]
    return names


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument(
        "--quick", action="store_true", help="smaller samples (for CI and quick checks)"
    )
    ap.add_argument("--json", action="store_true", help="print one JSON object with every figure")
    ap.add_argument(
        "--only", nargs="*", help="run only the bench modules whose name contains one of these"
    )
    args = ap.parse_args(argv)
    sys.path.insert(0, HERE)
    sys.path.insert(0, os.path.dirname(HERE))
    # The firmware by its tile names (`from games.lostgems import ...`), as tests/conftest.py.
    from simulator.mpy.firmware_tree import put_firmware_on_path

    put_firmware_on_path()
    os.environ[MARK] = f"{os.getpid()}-{time.time_ns()}"
    figures = {}
    failed = {}
    skipped = {}
    leftovers = {}
    for name in discover(args.only):
        t0 = time.perf_counter()
        threads_before = _threads()
        try:
            module = importlib.import_module(name)
            figures.update(module.run(args.quick))
        except Exception as exc:  # noqa: BLE001  one broken bench must not hide the others' figures
            if inputs_missing(exc):
                skipped[name] = str(exc)
            else:
                failed[name] = f"{type(exc).__name__}: {exc}"
                if not args.json:
                    traceback.print_exc()
        leftovers[name] = left_running(threads_before)
        if not args.json:
            print(f"{name} done in {time.perf_counter() - t0:.1f} s", file=sys.stderr)
            for line in leftovers[name]:
                print(f"{name} left running: {line}", file=sys.stderr)
    figures["left_running"] = leftovers
    figures["bench_left_running"] = sum(len(v) for v in leftovers.values())
    if failed:
        figures["failed"] = failed
    if skipped:
        figures["skipped"] = skipped
    if args.json:
        print(json.dumps(figures, sort_keys=True))
    else:
        for key in sorted(figures):
            print(f"{key:<24} {figures[key]}")
    return 1 if failed else 0


def inputs_missing(exc):
    """Whether a bench stopped for want of something this machine does not have."""
    from host_tools.emu.images import MissingImage

    return isinstance(exc, MissingImage)


if __name__ == "__main__":
    sys.exit(main())
