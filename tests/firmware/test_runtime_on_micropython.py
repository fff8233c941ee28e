"""The runtime's unit tests pass on the real MicroPython, and a tile fits its heap budget."""

import os
import shutil
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
MICROPYTHON = shutil.which("micropython") or os.path.join(
    os.path.dirname(sys.executable), "micropython"
)
needs_mpy = pytest.mark.skipif(
    not os.path.exists(MICROPYTHON), reason="the micropython command is not installed"
)


def run_mpy(script, tmp, *args):
    """Every runtime test module in one process, compiled from source (native code too): more
    heap than a tile's 192K, which imports .mpy files (bench mpy_heap_kb and rp2_heap_free_kb
    hold the tile's own figure)."""
    env = dict(os.environ, MICROPYPATH=os.path.join(ROOT, "firmware") + ":" + HERE)
    env["BLINKS_RT_TMP"] = str(tmp)  # rt_share's build folders (MicroPython has no tempfile)
    return subprocess.run(
        [MICROPYTHON, "-X", "heapsize=256K", os.path.join(HERE, script), *args],
        check=False,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def cpython_test_count():
    import mpy_runner

    total = 0
    for name in mpy_runner.modules_here():
        module = __import__(name)
        total += sum(1 for t in dir(module) if t.startswith("test_"))
    return total


@needs_mpy
def test_every_runtime_test_passes_on_micropython(tmp_path):
    out = run_mpy("mpy_runner.py", tmp_path)
    assert out.returncode == 0, out.stdout + out.stderr
    last = out.stdout.strip().splitlines()[-1]
    assert last == f"RESULT passed={cpython_test_count()} failed=0", out.stdout


BOARD_ONLY = ("machine", "rp2", "neopixel")  # modules only a real board has


def firmware_modules():
    names = []
    base = os.path.join(ROOT, "firmware")
    for folder, _dirs, files in sorted(os.walk(base)):
        rel = os.path.relpath(folder, base)
        package = "" if rel == "." else rel.replace(os.sep, ".")
        for f in sorted(files):
            if f.endswith(".py"):
                name = f[:-3] if f != "__init__.py" else ""
                full = ".".join(p for p in (package, name) if p)
                if full:
                    names.append(full)
    return names


IMPORT_ALL = """
import sys
for name in sys.argv[1:]:
    try:
        __import__(name)
        print("ok", name)
    except ImportError as exc:
        print("missing", name, exc)
    except Exception as exc:
        print("broken", name, type(exc).__name__, exc)
"""


@needs_mpy
def test_every_firmware_module_imports_on_micropython():
    """Every module under firmware/ imports; a board module may only miss the board's own."""
    names = firmware_modules()
    assert "runtime.tile" in names and "games.demo" in names
    env = dict(os.environ, MICROPYPATH=os.path.join(ROOT, "firmware"))
    out = subprocess.run(
        [MICROPYTHON, "-c", IMPORT_ALL, *names],
        check=False,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    lines = out.stdout.strip().splitlines()
    assert len(lines) == len(names), out.stdout + out.stderr
    for line in lines:
        status, name = line.split()[:2]
        if status == "missing" and name.startswith("hal."):
            assert any(f"'{m}'" in line for m in BOARD_ONLY), line
        else:
            assert status == "ok", line


@needs_mpy
def test_a_tile_with_the_demo_game_fits_in_32_kb_of_heap(tmp_path):
    out = run_mpy("mpy_heap.py", tmp_path)
    assert out.returncode == 0, out.stdout + out.stderr
    used = int(out.stdout.strip().split("=")[1])
    assert 0 < used <= 32 * 1024, used
