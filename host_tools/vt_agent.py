# MicroPython script (unix port), not CPython: the interpreter inside a virtual tile.
"""Runs code sent by host_tools.virtual_tile in one persistent interpreter, like a board's VM.

Jobs come on their own pipe (the fd in argv[2]): a line `MODE LENGTH\\n` then LENGTH bytes. MODE
is `R` (raw REPL exec: output, then \\x04, error text, \\x04), `F` (friendly REPL line, compiled
as 'single'), `P` (paste mode's text, run as a file), `B` (boot.py, as a board's soft reset in
raw REPL mode), `M` (boot.py then main.py, as a board's power-on or friendly soft reset) or `C`
(Tab completion of a friendly REPL line, answered with a `C` marker). stdin is the serial input,
as on a board: while a job runs the host writes into it what arrives on the port, so
`sys.stdin`, `sys.stdin.buffer`, `input()` and `select.poll` read the serial port natively.

What the agent tells the host travels in stdout between the code's output, as markers
`\\x00\\x17VT` + kind + 8 hex digits of length + payload (see marker()):
- `D`: the job is done, the prompt may be shown. The agent reads no stdin until the next job, so
  the host then takes back from the pipe the input the code left unread, for the REPL.
- `K`: micropython.kbd_intr(c) was called; the payload is c. The host interrupts on that byte
  (no byte for -1, which mpremote mount uses while the link carries binary data).
- `B`: bytes the code wrote to sys.stdout.buffer, passed on raw. Everything else (print,
  sys.stdout.write, errors) is text, and the host turns its \\n into \\r\\n as a board does.
- `H`: machine.reset() was called: the host power-cycles the tile (a hard reset).
- `C`: the answer to a `C` job (Tab at the friendly REPL, the job's text is the line up to the
  cursor): `i` and the text to insert, `l` and the list of matches to print, or nothing.
- `T`: machine.RTC().datetime(t) set the clock; the payload is its offset from the host's clock
  in seconds, which the host hands to the next agent after a soft reset.
For these, `import sys`, `import micropython`, `import machine` and `import time` give thin
wrappers (TileSys, TileMicropython, TileMachine, TileTime) that delegate everything else to the
real modules; `import os` gives TileOs, for the os.uname() a board has.

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

import machine
import micropython
import vfs

sys.path.insert(0, __file__.rsplit("/", 1)[0])  # for vt_complete, until mount_flash
import vt_complete

MARK = b"\x00\x17VT"  # then a kind byte, 8 hex digits of payload length, the payload
FLASH_RATE = int(sys.argv[1]) if len(sys.argv) > 1 else 0  # bytes/s, 0 = unthrottled
JOB_FD = int(sys.argv[2]) if len(sys.argv) > 2 else 3  # the pipe the host sends jobs on
# Seconds the tile's RTC runs ahead of the host's clock: set by machine.RTC().datetime(t), kept
# by the host across soft resets (a fresh agent each), as a board's RTC runs on through them.
RTC_OFFSET = [int(sys.argv[3]) if len(sys.argv) > 3 else 0]
# Bytes of heap the tile's code finds free (a board's), 0 = all the interpreter has.
TILE_HEAP = int(sys.argv[4]) if len(sys.argv) > 4 else 0
# machine.unique_id(): 8 bytes, as an rp2 board's (its flash chip's id), in hex.
UNIQUE_ID = binascii.unhexlify(sys.argv[5]) if len(sys.argv) > 5 else bytes(8)

FLASH_BYTES = 1408 * 1024  # rp2's filesystem on a 2 MB Pico (MICROPY_HW_FLASH_STORAGE_BYTES)
BLOCK = 4096

real_open = open
AGENT_FILE = '"' + __file__ + '"'  # how tracebacks name this file
out = sys.stdout.buffer


def marker(kind, payload=b""):
    return MARK + kind + b"%08x" % len(payload) + payload


class TileStdoutBuffer:
    """sys.stdout.buffer: bytes the code writes go out raw (`B` marker), not as text."""

    def write(self, data, *args):  # write(buf), write(buf, max_len), write(buf, off, max_len)
        if isinstance(data, str):
            data = data.encode()
        data = memoryview(data)
        if len(args) == 1:
            data = data[: args[0]]
        elif len(args) == 2:
            data = data[args[0] : args[0] + args[1]]
        out.write(marker(b"B", bytes(data)))
        return len(data)

    def __getattr__(self, name):
        return getattr(out, name)


class TileStdout(io.IOBase):  # an IOBase, so print(file=sys.stdout) still takes it
    buffer = TileStdoutBuffer()

    def write(self, text):
        return sys.stdout.write(text)

    def __getattr__(self, name):
        return getattr(sys.stdout, name)


class TileSys:
    """What `import sys` gives the tile's code: the real sys, but for stdout.buffer."""

    stdout = TileStdout()

    def __getattr__(self, name):
        return getattr(sys, name)


class TileMicropython:
    """What `import micropython` gives: kbd_intr tells the host which byte interrupts (the
    unix port's own kbd_intr only concerns SIGINT, which nobody sends here)."""

    def kbd_intr(self, c):
        out.write(marker(b"K", b"%d" % c))

    def __getattr__(self, name):
        return getattr(micropython, name)


class TileTime:
    """What `import time` gives: the real time module, but its calendar clock is the RTC's.
    The rest (ticks_ms, sleep_ms, ...) is copied onto the instance: a game calls them on
    every pass, and __getattr__ would slow each call down."""

    def __init__(self):
        for name in dir(time):
            if not hasattr(self, name):
                setattr(self, name, getattr(time, name))

    def time(self):
        return time.time() + RTC_OFFSET[0]

    def time_ns(self):
        return time.time_ns() + RTC_OFFSET[0] * 1_000_000_000

    def localtime(self, secs=None):
        return time.localtime(self.time() if secs is None else secs)

    def gmtime(self, secs=None):
        return time.gmtime(self.time() if secs is None else secs)


class TileRtc:
    """machine.RTC() as on rp2: datetime() reads (year, month, day, weekday, hours, minutes,
    seconds, subseconds) and datetime(t) sets it (what `mpremote rtc [--set]` does)."""

    def datetime(self, t=None):
        if t is None:
            y, mo, d, h, mi, s, wd = TILE_TIME.localtime()[:7]
            return (y, mo, d, wd, h, mi, s, 0)
        y, mo, d, _weekday, h, mi, s = t[:7]
        RTC_OFFSET[0] = time.mktime((y, mo, d, h, mi, s, 0, 0)) - time.time()
        out.write(marker(b"T", b"%d" % RTC_OFFSET[0]))


class TileMachine:
    """What `import machine` gives: the unix port's module, plus what an rp2 board has that
    host tools use: machine.reset() (`mpremote reset`), machine.RTC (`mpremote rtc`) and
    machine.unique_id() (`blinks ports`, and the game's serial number)."""

    RTC = TileRtc

    def unique_id(self):
        return UNIQUE_ID

    def reset(self):
        """A hard reset, as on a board: the USB port drops and comes back, then boot.py and
        main.py run as at power-on. The host does it (`H` marker); this never returns."""
        out.write(marker(b"H"))
        while True:
            time.sleep_ms(1000)

    def __getattr__(self, name):
        return getattr(machine, name)


TILE_TIME = TileTime()


def uname():
    """os.uname() as a board answers it (the unix port has none): the release and build of the
    interpreter that runs the tile, its platform, and what the machine is."""
    v = sys.implementation.version
    release = f"{v[0]}.{v[1]}.{v[2]}" + ("-" + v[3] if len(v) > 3 and v[3] else "")
    build = sys.version.split("MicroPython ", 1)[-1]  # git tag and build date, as a board's
    return UnameResult((sys.platform, sys.platform, release, build, UNAME_MACHINE))


UNAME_MACHINE = "virtual tile with unix port"  # a board says e.g. "Raspberry Pi Pico with RP2040"
UNAME_FIELDS = ("sysname", "nodename", "release", "version", "machine")


class UnameResult(tuple):
    """os.uname()'s result: a tuple whose fields have names, printed as a board prints it."""

    def __getattr__(self, name):
        if name in UNAME_FIELDS:
            return self[UNAME_FIELDS.index(name)]
        raise AttributeError(name)

    def __repr__(self):
        return "(" + ", ".join(f"{name}={value!r}" for name, value in zip(UNAME_FIELDS, self)) + ")"

    __str__ = __repr__  # MicroPython's print() of a tuple subclass does not ask __repr__


class TileOs:
    """What `import os` gives: the unix port's os (the flash is mounted at `/`), plus uname()."""

    uname = staticmethod(uname)

    def __getattr__(self, name):
        return getattr(os, name)


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
    if mode == "C":
        # Tab at the friendly REPL: the answer, for the host's line editor.
        hidden = ("open",) if scope.get("open") is throttled_open else ()  # not the board's
        got = vt_complete.complete(code, scope, hidden)
        return marker(b"C", (got[0][0] + got[1]).encode() if got else b"")
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
    sys.modules["sys"] = TileSys()
    sys.modules["micropython"] = TileMicropython()
    sys.modules["machine"] = TileMachine()
    sys.modules["time"] = TILE_TIME
    sys.modules["os"] = TileOs()
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
