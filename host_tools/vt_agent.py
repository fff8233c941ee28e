# MicroPython script (unix port), not CPython: the interpreter inside a virtual tile.
"""Runs code sent by host_tools.virtual_tile in one persistent interpreter, like a board's VM.

Job protocol on stdin: a line `MODE LENGTH\\n` then LENGTH bytes. MODE is `R` (raw REPL exec:
output, then \\x04, error text, \\x04), `F` (friendly REPL line, compiled as 'single') or `M`
(run main.py like a board at boot). After each job the agent writes DONE so the host knows the
prompt may be shown. File writes go through a throttled `open` so flash speed is board-like.
"""

import io
import sys
import time

DONE = b"\x00\x17VT-DONE\x17\x00"
FLASH_RATE = int(sys.argv[1]) if len(sys.argv) > 1 else 0  # bytes/s, 0 = unthrottled

sys.path.clear()
sys.path.extend(["", ".frozen", "lib"])
real_open = open
out = sys.stdout.buffer


class ThrottledFile:
    """A file whose writes take as long as they would on the tile's flash."""

    def __init__(self, f):
        self._f = f

    def write(self, data):
        if FLASH_RATE:
            time.sleep_ms(len(data) * 1000 // FLASH_RATE)
        return self._f.write(data)

    def __getattr__(self, name):
        return getattr(self._f, name)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self._f.close()

    def __iter__(self):
        return iter(self._f)


def throttled_open(path, mode="r", *args):
    f = real_open(path, mode, *args)
    if "w" in mode or "a" in mode or "+" in mode:
        return ThrottledFile(f)
    return f


def read_exact(n):
    data = b""
    while len(data) < n:
        chunk = sys.stdin.buffer.read(n - len(data))
        if not chunk:
            raise SystemExit
        data += chunk
    return data


def error_text(exc):
    buf = io.StringIO()
    sys.print_exception(exc, buf)
    return buf.getvalue().encode()


def run_job(mode, code, scope):
    err = b""
    try:
        if mode == "M":
            with real_open("main.py") as f:
                code = f.read()
            exec(compile(code, "main.py", "exec"), scope)  # noqa: S102  this is the REPL
        elif mode == "F":
            exec(compile(code, "<stdin>", "single"), scope)  # noqa: S102  this is the REPL
        else:
            exec(compile(code, "<stdin>", "exec"), scope)  # noqa: S102  this is the REPL
    except BaseException as exc:  # noqa: BLE001  the REPL reports everything, as a board does
        err = error_text(exc)
    if mode == "R":
        return b"\x04" + err + b"\x04"
    return err


def main():
    scope = {"__name__": "__main__", "open": throttled_open}
    tail = None
    while True:
        try:
            if tail is None:
                header = sys.stdin.buffer.readline()
                if not header:
                    return
                mode, n = header.decode().split()
                code = read_exact(int(n)).decode()
                tail = run_job(mode, code, scope) + DONE
            out.write(tail)
            tail = None
        except KeyboardInterrupt:  # SIGINT from a person at a terminal: keep serving
            pass


main()
