# MicroPython script (unix port), not CPython: the interpreter inside a virtual tile.
"""Runs code sent by host_tools.virtual_tile in one persistent interpreter, like a board's VM.

Jobs come on their own pipe (the fd in argv[2]): a line `MODE LENGTH\\n` then LENGTH bytes. MODE
is `R` (raw REPL exec: output, then \\x04, error text, \\x04), `F` (friendly REPL line, compiled
as 'single'), `P` (paste mode's text, run as a file), `B` (boot.py, as a board's soft reset in
raw REPL mode) or `M` (boot.py then main.py, as a board's power-on or friendly soft reset).
There is no Tab completion job: the virtual tile's friendly REPL is deliberately plain, and the
real REPL is on emulated tiles (`blinks emu`) and real boards. stdin is the serial input, as on
a board: while a job runs the host writes into it what arrives on the port, so `sys.stdin`,
`sys.stdin.buffer`, `input()` and `select.poll` read the serial port natively.

What the agent tells the host travels in stdout between the code's output, as markers
`\\x00\\x17VT` + kind + 8 hex digits of length + payload (see board.marker()):
- `D`: the job is done, the prompt may be shown. The agent reads no stdin until the next job, so
  the host then takes back from the pipe the input the code left unread, for the REPL.
- `K`: micropython.kbd_intr(c) was called; the payload is c. The host interrupts on that byte
  (no byte for -1, which mpremote mount uses while the link carries binary data).
- `B`: bytes the code wrote to sys.stdout.buffer, passed on raw. Everything else (print,
  sys.stdout.write, errors) is text, and the host turns its \\n into \\r\\n as a board does.
- `H`: machine.reset() was called: the host power-cycles the tile (a hard reset).
- `T`: machine.RTC().datetime(t) set the clock; the payload is its offset from the host's clock
  in seconds, which the host hands to the next agent after a soft reset.
For these, `import sys`, `micropython`, `machine`, `time` and `os` give the tile's code thin
wrappers of the real modules (board.py).

File writes go through a throttled `open` so flash speed is board-like.

The process starts in the tile's directory; TileFlash then mounts that directory at `/`, so
`/`, `os.getcwd()` and every path a host tool names are the tile's flash, as on a board, and
the host's own filesystem is out of reach.
"""

import binascii
import gc
import io
import os
import sys
import time

import vfs

sys.path.insert(0, __file__.rsplit("/", 1)[0])  # for board, until mount_flash
from board import install, marker, out

FLASH_RATE = int(sys.argv[1]) if len(sys.argv) > 1 else 0  # bytes/s, 0 = unthrottled
JOB_FD = int(sys.argv[2]) if len(sys.argv) > 2 else 3  # the pipe the host sends jobs on
# Seconds the tile's RTC runs ahead of the host's clock (see board.RTC_OFFSET).
RTC_OFFSET = int(sys.argv[3]) if len(sys.argv) > 3 else 0
# Bytes of heap the tile's code finds free (a board's), 0 = all the interpreter has.
TILE_HEAP = int(sys.argv[4]) if len(sys.argv) > 4 else 0
# machine.unique_id(): 8 bytes, as an rp2 board's (its flash chip's id), in hex.
UNIQUE_ID = binascii.unhexlify(sys.argv[5]) if len(sys.argv) > 5 else bytes(8)

FLASH_BYTES = 1408 * 1024  # rp2's filesystem on a 2 MB Pico (MICROPY_HW_FLASH_STORAGE_BYTES)
BLOCK = 4096

real_open = open
AGENT_FILE = '"' + __file__ + '"'  # how tracebacks name this file


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


class TileFlash:
    """The tile's directory as a filesystem mounted at `/`, through MicroPython's VFS protocol.

    Why not a plain `vfs.VfsPosix(root)`: its relative paths follow the process's cwd and its
    getcwd() at the root is '', and its ilistdir gives no sizes (so `mpremote fs ls` shows 0).
    Here every path is made absolute against our own cwd ('..' stops at `/`, as nothing above
    the flash exists), handed to a VfsPosix without a root as root + path, and ilistdir
    yields (name, type, 0, size) like littlefs on an rp2 board.
    """

    def __init__(self, root):
        self._root = root.rstrip("/")
        self._host = vfs.VfsPosix()
        self._cwd = "/"

    def _path(self, path):
        """A tile path (absolute, or relative to the tile's cwd) as a clean absolute one."""
        parts = []
        for part in ((self._cwd + "/" if path[:1] != "/" else "") + path).split("/"):
            if part == "..":
                if parts:
                    parts.pop()
            elif part and part != ".":
                parts.append(part)
        return "/" + "/".join(parts)

    def _host_path(self, path):
        return self._root + self._path(path)

    def mount(self, readonly, mkfs):
        pass

    def umount(self):
        pass

    def open(self, path, mode):
        return self._host.open(self._host_path(path), mode)

    def ilistdir(self, path):
        base = self._host_path(path)
        for name, kind, _inode in self._host.ilistdir(base):
            size = self._host.stat(base + "/" + name)[6] if kind == 0x8000 else 0
            yield (name, kind, 0, size)

    def stat(self, path):
        return self._host.stat(self._host_path(path))

    def statvfs(self, path):
        """The flash of a Raspberry Pi Pico's MicroPython: 352 littlefs blocks of 4 KB (the host
        disk's figures would be absurd in `mpremote df`). Writes are not refused when it is full."""
        total = FLASH_BYTES // BLOCK
        free = max(0, total - self._blocks_used(self._root))
        return (BLOCK, BLOCK, total, free, free, 0, 0, 0, 0, 255)

    def _blocks_used(self, host_dir):
        """Blocks the files under a directory take, whole blocks per file, one per directory
        (littlefs keeps small files inline, but close enough for a free-space figure)."""
        used = 1
        for name, kind, _inode in self._host.ilistdir(host_dir):
            path = host_dir + "/" + name
            if kind == 0x4000:
                used += self._blocks_used(path)
            else:
                used += (self._host.stat(path)[6] + BLOCK - 1) // BLOCK or 1
        return used

    def __repr__(self):
        return "<TileFlash>"

    def mkdir(self, path):
        self._host.mkdir(self._host_path(path))

    def rmdir(self, path):
        self._host.rmdir(self._host_path(path))

    def remove(self, path):
        self._host.remove(self._host_path(path))

    def rename(self, old, new):
        self._host.rename(self._host_path(old), self._host_path(new))

    def chdir(self, path):
        if not self.stat(path)[0] & 0x4000:
            raise OSError(20)  # ENOTDIR, as littlefs says
        self._cwd = self._path(path)

    def getcwd(self):
        return self._cwd


def mount_flash():
    """Make the tile's directory (the process's cwd at start) the whole filesystem, at `/`."""
    flash = TileFlash(os.getcwd())
    vfs.umount("/")
    vfs.mount(flash, "/")
    os.chdir("/")
    sys.path.clear()
    sys.path.extend(["", ".frozen", "/lib"])  # a board's default path


def read_exact(f, n):
    data = f.read(n) if n else b""
    if len(data) < n:
        raise SystemExit  # the host closed the job pipe
    return data


def error_text(exc):
    """The traceback a board prints: without the agent's own frames (run_job's exec)."""
    buf = io.StringIO()
    sys.print_exception(exc, buf)
    lines = buf.getvalue().split("\n")
    return "\n".join(line for line in lines if AGENT_FILE not in line).encode()


def run_file(name, scope):
    """Run a script from the flash if it is there, as pyexec_file_if_exists does on a board."""
    try:
        with real_open(name) as f:
            code = f.read()
    except OSError:
        return
    exec(compile(code, name, "exec"), scope)  # noqa: S102  this is the board's boot


def run_job(mode, code, scope):
    err = b""
    try:
        if mode in ("B", "M"):
            # As rp2's main.c: boot.py on every soft reset; main.py only in the friendly REPL,
            # and not after a boot.py that raised (its exception skips it here too).
            run_file("boot.py", scope)
            if mode == "M":
                run_file("main.py", scope)
        elif mode == "F":
            exec(compile(code, "<stdin>", "single"), scope)  # noqa: S102  this is the REPL
        else:
            exec(compile(code, "<stdin>", "exec"), scope)  # noqa: S102  this is the REPL
    except BaseException as exc:  # noqa: BLE001  the REPL reports everything, as a board does
        err = error_text(exc)
    if mode == "R":
        return b"\x04" + err + b"\x04"
    return err


def hold_heap(tile_heap):
    """Keep what the interpreter has beyond `tile_heap` free bytes out of the code's reach, so
    gc.mem_free() and MemoryError come as on a board. The host starts the interpreter with room
    for this agent too (virtual_tile.AGENT_HEAP), as a board's REPL lives outside its heap."""
    gc.collect()
    spare = gc.mem_free() - tile_heap
    return bytearray(spare - 64) if tile_heap and spare > 64 else None  # less a block header


def main():
    jobs = open(JOB_FD, "rb")  # noqa: SIM115  open for the life of the process
    mount_flash()
    install(RTC_OFFSET, UNIQUE_ID)
    scope = {"__name__": "__main__", "open": throttled_open}
    held = hold_heap(TILE_HEAP)  # noqa: F841  kept for the life of the process
    while True:
        header = jobs.readline()
        if not header:
            return
        mode, n = header.decode().split()
        code = read_exact(jobs, int(n)).decode()
        out.write(run_job(mode, code, scope) + marker(b"D"))


main()
