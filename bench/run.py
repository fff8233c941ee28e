"""Benchmarks: `python bench/run.py [--quick] [--json] [--markdown FILE] [--only NAME ...]`.

Every `bench/bench_*.py` module provides `run(quick: bool) -> dict` of named figures and
`FIGURES`, {key: (what it measures in one sentence, its goal)}, for every key it returns: a
figure without its sentence and goal fails its module, so the table in docs/benchmarks.md
(`--markdown`, bench/table.py) always says what each figure is. Figures are ratios or
simulated-time medians wherever a ratio fits, so they mean the same on any machine.

`--quick` keeps each module to a small budget (the whole run within 15 minutes on two cores);
the full run keeps the long, full-precision figures. Each module's wall seconds go into
`bench_seconds`, and its CPU seconds (its child processes' included) into `bench_cpu_seconds`.
The JSON of the modules that finished is printed even when a later one fails or the run is
interrupted (Ctrl-C or SIGTERM: listed under "interrupted", exit 130).

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


RUNNER_FIGURES = {
    "bench_left_running": (
        "Processes and threads the bench modules left running after they returned.",
        "0",
    ),
    "bench_seconds_total": (
        "Wall seconds of all the modules this run measured.",
        "≤ 900 with --quick",
    ),
}


MAIN_PID = os.getpid()


def _interrupt(signum, frame):
    if os.getpid() != MAIN_PID:  # a worker forked with this handler: end quietly
        signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)
    raise KeyboardInterrupt


def stop_children():
    """SIGTERM this process's children (an interrupted module's worker processes, which a
    SIGTERM or a Ctrl-C sent to this process alone would leave running)."""
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                parent = int(f.read().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        if parent == os.getpid():
            try:
                os.kill(int(entry), signal.SIGTERM)
            except OSError:
                pass


def cpu_used():
    """CPU seconds of this process and of the children it has waited for (a module's worker
    processes and emulators): unlike wall seconds, other work on a shared machine adds little."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def undescribed(module, got):
    """The keys a module returned that its FIGURES does not describe."""
    return sorted(set(got) - set(getattr(module, "FIGURES", {})))


def main(argv=None):
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument(
        "--quick", action="store_true", help="smaller samples (for CI and quick checks)"
    )
    ap.add_argument("--json", action="store_true", help="print one JSON object with every figure")
    ap.add_argument(
        "--only", nargs="*", help="run only the bench modules whose name contains one of these"
    )
    ap.add_argument(
        "--markdown",
        metavar="FILE",
        help="write the figures as one table (key, what it measures, goal, value); with --only,"
        " the other modules' rows already in FILE are kept",
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
    seconds = {}
    cpu_seconds = {}
    described = {}
    if args.markdown:  # every module's rows in their order, measured this run or kept
        for name in discover():
            try:
                described.update(importlib.import_module(name).FIGURES)
            except Exception:  # noqa: BLE001, S110  its own run below says what is wrong
                pass
    described.update(RUNNER_FIGURES)
    interrupted = None
    for name in discover(args.only):
        t0, cpu0 = time.perf_counter(), cpu_used()
        threads_before = _threads()
        try:
            module = importlib.import_module(name)
            described.update(getattr(module, "FIGURES", {}))
            got = module.run(args.quick)
            figures.update(got)
            missing = undescribed(module, got)
            if missing:
                failed[name] = "figures without a sentence and goal in FIGURES: " + ", ".join(
                    missing
                )
        except KeyboardInterrupt:
            interrupted = name
            stop_children()
        except Exception as exc:  # noqa: BLE001  one broken bench must not hide the others' figures
            if inputs_missing(exc):
                skipped[name] = str(exc)
            else:
                failed[name] = f"{type(exc).__name__}: {exc}"
                if not args.json:
                    traceback.print_exc()
        seconds[name] = round(time.perf_counter() - t0, 1)
        cpu_seconds[name] = round(cpu_used() - cpu0, 1)
        leftovers[name] = left_running(threads_before)
        if not args.json:
            print(f"{name} done in {seconds[name]:.1f} s", file=sys.stderr)
            for line in leftovers[name]:
                print(f"{name} left running: {line}", file=sys.stderr)
        if interrupted:
            break
    figures["left_running"] = leftovers
    figures["bench_left_running"] = sum(len(v) for v in leftovers.values())
    figures["bench_seconds"] = seconds
    figures["bench_cpu_seconds"] = cpu_seconds
    figures["bench_seconds_total"] = round(sum(seconds.values()), 1)
    if failed:
        figures["failed"] = failed
    if skipped:
        figures["skipped"] = skipped
    if interrupted:
        figures["interrupted"] = interrupted
    if args.markdown:
        import table

        table.write(args.markdown, figures, described, quick=args.quick, merge=bool(args.only))
    if args.json:
        print(json.dumps(figures, sort_keys=True))
    else:
        for key in sorted(figures):
            print(f"{key:<24} {figures[key]}")
    if interrupted:
        return 130
    return 1 if failed else 0


def inputs_missing(exc):
    """Whether a bench stopped for want of something this machine does not have."""
    from host_tools.emu.images import MissingImage

    return isinstance(exc, MissingImage)


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, _interrupt)  # a stopped run still prints what finished
    code = main()
    if code == 130:  # an interrupted pool's threads would hold the exit: leave at once
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    sys.exit(code)
