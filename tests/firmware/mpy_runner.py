"""Run plain test modules under the real MicroPython (also works under CPython).

    MICROPYPATH=firmware:tests/firmware micropython -X heapsize=256K tests/firmware/mpy_runner.py \
        [module ...]

With no arguments it runs every `test_rt_*` module in this folder. A test module is a plain file
of `test_*` functions using bare asserts and importing only firmware and helpers from this folder.
Prints one line per test (`PASS name` / `FAIL name: error`), then `RESULT passed=N failed=M`;
exits 1 when anything failed. The co-simulation and Lost Gems checks can reuse it with their own
module names.
"""

import gc
import os
import sys


def modules_here():
    here = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
    names = [n[:-3] for n in os.listdir(here) if n.startswith("test_rt_") and n.endswith(".py")]
    names.sort()
    return names


def run(names):
    passed = 0
    failed = 0
    for name in names:
        kept = set(sys.modules)
        module = __import__(name)
        tests = [t for t in dir(module) if t.startswith("test_")]
        tests.sort()
        for t in tests:
            gc.collect()
            try:
                getattr(module, t)()
                passed += 1
                print("PASS", name + "." + t)
            except Exception as exc:  # noqa: BLE001 -- report and go on: one failure must not hide the rest
                failed += 1
                print("FAIL", name + "." + t + ":", type(exc).__name__, exc)
        # each test module starts from the modules the runner had: what one imported (compiled
        # from source, its bytecode on MicroPython's small test heap) does not crowd the next
        for other in list(sys.modules):
            if other not in kept:
                del sys.modules[other]
        module = None
    print(f"RESULT passed={passed} failed={failed}")
    return failed


if __name__ == "__main__":
    sys.exit(1 if run(sys.argv[1:] or modules_here()) else 0)
