"""Helpers for the serial-bridge tests: speeds, running `blinks`, checking that a tile boots."""

import os
import shutil
import subprocess
import sys
import tempfile

from simulator.mpy.host_micropython import micropython_command

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FAST = {"byte_rate": 0, "flash_rate": 0, "exec_latency": 0}

# Imports every firmware module the unix port can load, then the game class, like a boot.
BOOT_CHECK = """
import os, sys
import main
main.use_firmware_dir()
def mods(d, pre):
    out = []
    for e in os.ilistdir(d):
        n = e[0]
        if e[1] & 0x4000:
            out += mods(d + '/' + n, pre + n + '.')
        elif n.endswith('.mpy') or n.endswith('.py'):
            out.append(pre + n.rsplit('.', 1)[0])
    return out
skip = ('main', 'hal.rp2_hal', 'hal.ir_pio', 'hal.ir_links')  # need the rp2 port
names = sorted(m.replace('.__init__', '') for m in mods(main.FIRMWARE_DIR or '.', ''))
for name in names:
    if name not in skip:
        __import__(name)
cls = main.load_game_class(main.read_config()['game'])
hal = main.make_hal()
print('BOOTS', main.FIRMWARE_DIR, cls.__name__, len(names))
"""


def boot_check(flash_dir):
    """Run micropython on a copy of a tile's flash: (ok, output) for 'main.py and modules import'.

    A copy, because the tile may be running its game on the same files, saving its state as the
    check's own boot would (two interpreters renaming one .tmp file race); a state save under
    way (a .tmp file) is left out, as a board's boot would ignore it."""
    with tempfile.TemporaryDirectory() as copy:
        shutil.copytree(flash_dir, copy, dirs_exist_ok=True, ignore=shutil.ignore_patterns("*.tmp"))
        proc = run_micropython(BOOT_CHECK, cwd=copy)
    out = proc.stdout + proc.stderr
    return proc.returncode == 0 and "BOOTS" in out, out


def run_micropython(code, cwd, micropypath=""):
    """Run `code` in a fresh `micropython` in `cwd` (its flash), with MICROPYPATH `micropypath`."""
    return subprocess.run(
        [micropython_command(), "-c", code],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
        env=dict(os.environ, MICROPYPATH=micropypath),
    )


def run_mpremote(port, *args, cwd=None, timeout=30):
    """The official mpremote client against a port, as a person would run it: (exit code, output)."""
    proc = subprocess.run(
        [sys.executable, "-m", "mpremote", "connect", port, *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    return proc.returncode, proc.stdout + proc.stderr


def run_blinks(*args, timeout=120, env=None):
    return subprocess.run(
        [sys.executable, "-m", "host_tools.cli", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
