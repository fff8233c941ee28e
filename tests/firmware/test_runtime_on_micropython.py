"""The runtime's unit tests pass on the real MicroPython, and a tile fits its heap budget."""

import os
import shutil
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
MICROPYTHON = shutil.which("micropython") or os.path.join(os.path.dirname(sys.executable),
                                                          "micropython")
needs_mpy = pytest.mark.skipif(not os.path.exists(MICROPYTHON),
                               reason="the micropython command is not installed")


def run_mpy(script, *args):
    env = dict(os.environ, MICROPYPATH=os.path.join(ROOT, "firmware") + ":" + HERE)
    return subprocess.run([MICROPYTHON, "-X", "heapsize=192K", os.path.join(HERE, script), *args],
                          check=False, env=env, capture_output=True, text=True, timeout=300)


def cpython_test_count():
    import mpy_runner

    total = 0
    for name in mpy_runner.modules_here():
        module = __import__(name)
        total += sum(1 for t in dir(module) if t.startswith("test_"))
    return total


@needs_mpy
def test_every_runtime_test_passes_on_micropython():
    out = run_mpy("mpy_runner.py")
    assert out.returncode == 0, out.stdout + out.stderr
    last = out.stdout.strip().splitlines()[-1]
    assert last == f"RESULT passed={cpython_test_count()} failed=0", out.stdout


@needs_mpy
def test_every_firmware_module_imports_on_micropython():
    names = []
    for folder in ("runtime", "games"):
        for f in sorted(os.listdir(os.path.join(ROOT, "firmware", folder))):
            if f.endswith(".py") and not f.startswith("_"):
                names.append(folder + "." + f[:-3])
    code = "\n".join("import " + n for n in names) + f"\nprint('imported', {len(names)})"
    env = dict(os.environ, MICROPYPATH=os.path.join(ROOT, "firmware"))
    out = subprocess.run([MICROPYTHON, "-c", code], check=False, env=env, capture_output=True,
                         text=True, timeout=60)
    assert out.stdout.strip() == f"imported {len(names)}", out.stdout + out.stderr


@needs_mpy
def test_a_tile_with_the_demo_game_fits_in_32_kb_of_heap():
    out = run_mpy("mpy_heap.py")
    assert out.returncode == 0, out.stdout + out.stderr
    used = int(out.stdout.strip().split("=")[1])
    assert 0 < used <= 32 * 1024, used
