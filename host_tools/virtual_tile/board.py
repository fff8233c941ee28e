# MicroPython module (unix port), imported by agent.py inside a virtual tile.
"""What `import sys`, `micropython`, `machine`, `time` and `os` give a virtual tile's code: the
unix port's modules, wrapped where a board's differ in what host tools use.

- sys.stdout.buffer writes bytes as they are (`B` marker), as mpremote mount needs;
- micropython.kbd_intr(c) tells the host which byte interrupts (`K`);
- machine.reset() is a hard reset (`H`), machine.RTC() the board's clock (`T` when it is set),
  machine.unique_id() the tile's 8 bytes;
- time's calendar clock is the RTC's, which runs on through soft resets;
- os.uname(), which the unix port lacks, answers as a board's does.

Each wrapper delegates everything else to the real module. The markers travel in stdout between
the code's output (agent.py lists them).
"""

import io
import os
import sys
import time

import machine
import micropython

MARK = b"\x00\x17VT"  # then a kind byte, 8 hex digits of payload length, the payload
out = sys.stdout.buffer
# Seconds the tile's RTC runs ahead of the host's clock: set by machine.RTC().datetime(t), kept
# by the host across soft resets (a fresh agent each), as a board's RTC runs on through them.
RTC_OFFSET = [0]
UNIQUE_ID = [bytes(8)]  # machine.unique_id(): 8 bytes, as an rp2 board's (its flash chip's id)


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
        return UNIQUE_ID[0]

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


def install(rtc_offset, unique_id):
    """Make `import sys` (and the others) give the tile's code these wrappers, from now on."""
    RTC_OFFSET[0] = rtc_offset
    UNIQUE_ID[0] = unique_id
    sys.modules["sys"] = TileSys()
    sys.modules["micropython"] = TileMicropython()
    sys.modules["machine"] = TileMachine()
    sys.modules["time"] = TILE_TIME
    sys.modules["os"] = TileOs()
