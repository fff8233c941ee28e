"""Benchmarks: `python bench/run.py [--quick] [--json]`.

Every `bench/bench_*.py` module provides `run(quick: bool) -> dict` of named figures; this
runner merges them into one object. Figures are ratios or simulated-time medians wherever a
ratio fits, so they mean the same on any machine. Goals are stated in each module.

A bench whose inputs are not on this machine (bench_rp2 without the emulator's two binaries)
is listed under "skipped", with what is missing, and does not change the exit code; one that
fails is listed under "failed" and makes it 1.
"""

import argparse
import importlib
import json
import os
import sys
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))


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
    from host_tools.firmware_tree import put_firmware_on_path

    put_firmware_on_path()
    figures = {}
    failed = {}
    skipped = {}
    for name in discover(args.only):
        t0 = time.perf_counter()
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
        if not args.json:
            print(f"{name} done in {time.perf_counter() - t0:.1f} s", file=sys.stderr)
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
