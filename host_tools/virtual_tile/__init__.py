"""A virtual tile: the real `micropython` unix port behind a pseudo-terminal, acting like a board.

Host tools open `tile.port` with pyserial exactly as they open a real tile's USB serial port, so
every bridge test runs the real code path, fast and with no firmware image. The unix port has no
raw REPL of its own, so this module plays the board's REPL protocol (vt_repl.py: raw REPL,
raw-paste, Ctrl-A/B/C/D/E as pyexec.c does, and a deliberately plain friendly REPL: no history,
cursor keys or Tab completion; the real REPL is on emulated tiles, `blinks emu`, and real
boards) and runs the code in one persistent `micropython` process (host_tools/virtual_tile/agent.py) that
mounts the tile's directory at `/`, so the directory is the whole flash. Soft reset = a fresh
process on the same directory; Ctrl-C = a fresh process too (see _interrupt). As on a board,
every soft reset runs boot.py, and power-on and a friendly-REPL Ctrl-D then run main.py.

The interpreter gets its jobs on a pipe of their own; its stdin is the serial input. While code
runs, what arrives on the port goes to that stdin (sys.stdin, input(), select.poll read it, so
`mpremote mount` works), except the interrupt byte (Ctrl-C unless the code called
micropython.kbd_intr). Input the code left unread reaches the REPL when it ends, as on a board;
the agent's markers (see agent.py) tell the host when the code ended, which byte interrupts,
and which output is binary (sys.stdout.buffer, sent raw) rather than text (\\n sent as \\r\\n).

Board-like speed (defaults, for an RP2040 on USB full speed running MicroPython):
- BYTE_RATE 100 kB/s each way: USB FS bulk tops out near 1 MB/s, but MicroPython's CDC stdin
  path on a 125 MHz Cortex-M0+ handles about a tenth of that.
- FLASH_RATE 48 kB/s: QSPI NOR programs a 256-byte page in ~0.7 ms but erases a 4 KB sector in
  ~45 ms; littlefs adds metadata writes, so ~50 kB/s is what file writes see.
- EXEC_LATENCY 2 ms per executed command: compiling a short raw-REPL command on the M0+ plus the
  1 ms USB frame before the reply.
Pass 0 to any of them for full host speed.
"""

import argparse
import collections
import hashlib
import os
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import tty

from host_tools.virtual_tile.repl import BoardRepl
from simulator.mpy.host_micropython import (
    BOARD_HEAP,
    heap_bytes,
    micropython_command,
    not_found_message,
)

AGENT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "agent.py")
MARK = b"\x00\x17VT"  # an agent's marker: MARK, a kind byte, 8 hex digits of length, payload
MARK_HEAD = len(MARK) + 1 + 8
BYTE_RATE = 100_000
FLASH_RATE = 48_000
EXEC_LATENCY = 0.002
# Heap for the agent itself (its code, the mounted flash), on top of the tile's: on a board the
# REPL lives outside the heap. The agent holds back what it did not use (agent.hold_heap).
AGENT_HEAP = 64 * 1024
RESET_GAP = 0.05  # seconds the port is gone during a hard reset (a board's USB re-enumerates)


def _marker_start(buf):
    """Where a marker may begin at the end of buf (its first bytes only), else len(buf)."""
    for i in range(max(0, len(buf) - len(MARK) + 1), len(buf)):
        if MARK.startswith(buf[i:]):
            return i
    return len(buf)


class _Pacer:
    """Holds a byte stream to a rate, like a serial link of that throughput."""

    def __init__(self, rate):
        self.rate = rate
        self.free_at = 0.0

    def wait(self, n):
        if not self.rate:
            return
        now = time.monotonic()
        self.free_at = max(self.free_at, now) + n / self.rate
        if self.free_at > now:
            time.sleep(self.free_at - now)


class VirtualTile(BoardRepl):
    """One tile: `start()`, then open `port`; `unplug()`/`plug()` make the port vanish/return."""

    def __init__(
        self,
        flash_dir,
        byte_rate=BYTE_RATE,
        flash_rate=FLASH_RATE,
        exec_latency=EXEC_LATENCY,
        port_dir=None,
        name="tile",
        heap=BOARD_HEAP,
        serial=None,
    ):
        self.heap = heap_bytes(heap)  # what code on the tile finds free, as on a board
        self.flash_dir = os.path.abspath(flash_dir)
        # machine.unique_id(): given, or made from the flash's path, so the tile keeps it when
        # started again on the same directory, as a board keeps its flash chip's id.
        self.serial = serial or hashlib.sha256(self.flash_dir.encode()).digest()[:8]
        os.makedirs(self.flash_dir, exist_ok=True)
        self.byte_rate = byte_rate
        self.flash_rate = flash_rate
        self.exec_latency = exec_latency
        self._own_port_dir = port_dir is None
        self.port_dir = port_dir or tempfile.mkdtemp(prefix="vtport-")
        # A stable path, like /dev/ttyACM0 that comes back after a replug.
        self.port = os.path.join(self.port_dir, "tty" + name)
        self._lock = threading.RLock()
        self._out_lock = threading.Lock()
        self._child = None
        self._jobs = None  # the pipe the interpreter takes its jobs from
        self._master = None
        self._alive = False
        self.pty_path = None
        self.events = []  # (what, ...) the tile did that a test may want to explain
        self.rtc_offset = 0  # seconds machine.RTC() runs ahead of the host's clock
        self._stopped = False
        self.trace = collections.deque(maxlen=200)  # recent bytes in and out, for debugging

    # ---- lifecycle -------------------------------------------------------------------------
    def start(self):
        self.plug()
        return self

    def plug(self):
        """Connect the USB cable: a new pty behind the same port path, and a power-on boot."""
        master, slave = os.openpty()
        tty.setraw(slave)  # settings stay when we close it: no echo, no line editing
        os.set_blocking(master, False)
        self.pty_path = os.ttyname(slave)
        os.close(slave)  # the host opens it; while nobody has it open, poll() says POLLHUP
        self._master = master
        self._in_poll = select.poll()  # one poll object per thread (they are not shareable)
        self._in_poll.register(master, select.POLLIN)
        self._out_poll = select.poll()
        self._out_poll.register(master, select.POLLOUT)
        tmp = self.port + ".new"
        if os.path.lexists(tmp):
            os.remove(tmp)
        os.symlink(self.pty_path, tmp)
        os.replace(tmp, self.port)
        self._alive = True
        self._in_pace = _Pacer(self.byte_rate)
        self._out_pace = _Pacer(self.byte_rate)
        self._mode = "friendly"
        self._line = b""
        self._busy = False
        self._to_code = b""
        self._kbd_char = 3
        self._cr_out = False
        self._paste = None
        self.rtc_offset = 0  # the RTC starts again from the host's clock at power-on
        self._boot(run_main=True, announce=False)
        self._reader = threading.Thread(target=self._read_host, daemon=True)
        self._reader.start()

    def unplug(self):
        """Pull the cable: the port disappears and the interpreter stops."""
        with self._lock:
            self._alive = False
            self._kill_child()
            if os.path.lexists(self.port):
                os.remove(self.port)
            try:
                os.close(self._master)
            except OSError:
                pass
        self._reader.join(2)

    def stop(self):
        with self._lock:
            self._stopped = True  # a hard reset under way must not plug the tile back in
        if self._alive:
            self.unplug()
        if self._own_port_dir:
            shutil.rmtree(self.port_dir, ignore_errors=True)

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()

    # ---- the interpreter process -------------------------------------------------------------
    def _boot(self, run_main, announce=True):
        if announce:
            self._emit(b"MPY: soft reboot\r\n")
        self._fresh_prompt()  # no input typed yet (the prompt comes when the boot is done)
        self._last_key = 0
        self._spawn()
        # The agent runs boot.py (and main.py for "M") if the flash has them; the banner and
        # prompt follow when it is done (_job_done).
        self._job("M" if run_main else "B", b"")

    def _spawn(self):
        """A fresh interpreter on the tile's flash (the old one, if any, is killed).

        Its stdin is a pipe of serial input: the host writes into it while code runs (without
        blocking: see _code_input) and keeps its read end too, to take back what the code left
        unread (_unread_input). Jobs go on a pipe of their own. It gets a session of its own,
        so a terminal's Ctrl-C (SIGINT to the foreground group) reaches only the host process,
        which then stops its tiles."""
        self._kill_child()
        command = micropython_command()
        if not command:
            raise RuntimeError(not_found_message())
        env = dict(os.environ, MICROPYPATH="")
        job_r, job_w = os.pipe()
        in_r, in_w = os.pipe()
        try:
            self._child = subprocess.Popen(
                [
                    command,
                    "-X",
                    f"heapsize={self.heap + AGENT_HEAP}",
                    AGENT,
                    str(self.flash_rate),
                    str(job_r),
                    str(self.rtc_offset),
                    str(self.heap),
                    self.serial.hex(),
                ],
                cwd=self.flash_dir,
                stdin=in_r,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                pass_fds=(job_r,),
                start_new_session=True,
                env=env,
            )
        except BaseException:
            for fd in (in_r, in_w, job_w):
                os.close(fd)
            raise
        finally:
            os.close(job_r)
        self._jobs = os.fdopen(job_w, "wb")
        # O_NONBLOCK on the write end only: the read end's open file is the child's stdin too.
        os.set_blocking(in_w, False)
        self._stdin_r, self._stdin_w = in_r, in_w
        self._stdin_poll = select.poll()
        self._stdin_poll.register(in_r, select.POLLIN)
        self._to_code = b""
        threading.Thread(target=self._read_child, args=(self._child,), daemon=True).start()

    def wait_for_command(self, timeout=10.0):
        """Wait until the REPL command the host sent last has finished, as when that host was
        killed and the tile completes it alone (a running game is no command); returns whether
        it finished in time."""
        end = time.monotonic() + timeout
        while self._running_command() and time.monotonic() < end:
            time.sleep(0.01)
        return not self._running_command()

    def _running_command(self):
        return self._busy and self._job_mode in ("R", "F")

    def _kill_child(self):
        child, self._child = self._child, None
        jobs, self._jobs = self._jobs, None
        if child and child.poll() is None:
            child.kill()
            child.wait()
        if jobs:
            try:
                jobs.close()
            except OSError:
                pass
            for fd in (self._stdin_r, self._stdin_w):
                os.close(fd)
        self._busy = False
        self._to_code = b""

    def _job(self, mode, code):
        self.trace.append(("job", mode))
        self._busy = True
        self._kbd_char = 3  # as pyexec.c: Ctrl-C interrupts each command, whatever came before
        self._job_mode = mode
        if self.exec_latency:
            time.sleep(self.exec_latency)
        try:
            self._jobs.write(b"%s %d\n" % (mode.encode(), len(code)) + code)
            self._jobs.flush()
        except (OSError, AttributeError, ValueError):
            self._busy = False

    def _code_input(self, data):
        """Serial input while code runs: into the interpreter's stdin, as fast as it takes it
        (what its pipe cannot take yet waits in _to_code; _read_host retries)."""
        self._to_code += data
        self._flush_code_input()

    def _flush_code_input(self):
        with self._lock:
            if not self._to_code or not self._busy or not self._child:
                return
            try:
                n = os.write(self._stdin_w, self._to_code)
                self._to_code = self._to_code[n:]
            except BlockingIOError:
                pass
            except OSError:
                self._to_code = b""

    def _unread_input(self):
        """Take back what the code left in its stdin. Only once it has ended: the agent reads
        no stdin between jobs, so these reads find the bytes at once and race with nobody."""
        data = b""
        while self._stdin_poll.poll(0):
            chunk = os.read(self._stdin_r, 65536)  # what the pipe holds, without waiting
            if not chunk:
                break
            data += chunk
        return data

    def _read_child(self, child):
        buf = b""
        while True:
            data = child.stdout.read1(65536)
            if not data:
                break
            buf += data
            while buf:
                i = buf.find(MARK)
                if i < 0:
                    cut = _marker_start(buf)
                    self._emit_cooked(buf[:cut])
                    buf = buf[cut:]
                    break
                if i:
                    self._emit_cooked(buf[:i])
                    buf = buf[i:]
                if len(buf) < MARK_HEAD:
                    break
                try:
                    n = int(buf[len(MARK) + 1 : MARK_HEAD], 16)
                except ValueError:  # not a marker after all: output
                    self._emit_cooked(buf[:1])
                    buf = buf[1:]
                    continue
                if len(buf) < MARK_HEAD + n:
                    break
                kind, payload = buf[len(MARK) : len(MARK) + 1], buf[MARK_HEAD : MARK_HEAD + n]
                buf = buf[MARK_HEAD + n :]
                self._marker(child, kind, payload)
        self._emit_cooked(buf)
        child.stdout.close()
        with self._lock:
            if child is self._child and self._alive:  # the interpreter died on its own: reboot
                self.events.append(("interpreter died", child.wait(), buf[-300:]))
                self._boot(run_main=self._mode == "friendly")

    def _marker(self, child, kind, payload):
        if kind == b"B":  # the code's sys.stdout.buffer: binary, as it wrote it
            self._cr_out = False
            self._emit(payload)
            return
        with self._lock:
            if child is not self._child or not self._busy:
                return
            if kind == b"K":
                self._kbd_char = int(payload)
            elif kind == b"T":
                self.rtc_offset = int(payload)
            elif kind == b"H":
                self._busy = False
                threading.Thread(target=self.hard_reset, daemon=True).start()
            elif kind == b"D":
                self._job_done()

    def hard_reset(self):
        """machine.reset(): as on a board, the USB port drops, then comes back with a power-on
        boot (boot.py, main.py). A host that had the port open must open it again."""
        self.events.append(("hard reset",))
        if self._alive:
            self.unplug()
            time.sleep(RESET_GAP)
            with self._lock:
                if not self._stopped:
                    self.plug()

    def _job_done(self):
        """The code has ended. Input it did not read (in its pipe, then what the pipe could not
        take yet) goes to the REPL after the prompt, before what arrives later, as on a board."""
        unread, self._to_code = self._unread_input() + self._to_code, b""
        self._busy = False
        if self._job_mode in ("B", "M"):  # a boot ends with the banner, as on a board
            self._emit(self._boot_prompt())
        elif self._mode == "raw":
            self._emit(b">")
        else:
            self._emit(self._fresh_prompt())
        if unread:
            self._feed(unread)  # under the lock: input arriving meanwhile waits its turn

    # ---- bytes to and from the host ----------------------------------------------------------
    def _emit_cooked(self, data):
        """Text output: every \\n as \\r\\n, as a board's stdout does (also when \\r\\n came
        split across two reads)."""
        if data:
            cooked = data.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
            if self._cr_out and data[:1] == b"\n":
                cooked = cooked[1:]
            self._cr_out = data[-1:] == b"\r"
            self._emit(cooked)

    def _emit(self, data):
        self.trace.append(("out", data[:200]))
        with self._out_lock:
            for i in range(0, len(data), 64):
                chunk = data[i : i + 64]
                self._out_pace.wait(len(chunk))
                self._write_master(chunk)

    def _host_connected(self):
        try:
            events = self._out_poll.poll(0)
        except (OSError, ValueError):
            return False
        return not any(ev & select.POLLHUP for _, ev in events)

    def _write_master(self, chunk):
        # A board drops USB output while no host has the port open; a connected but slow host
        # gets everything (it may stall us, as a full USB buffer stalls a board's print).
        deadline = time.monotonic() + 10
        while chunk and self._alive:
            if not self._host_connected():
                return
            try:
                n = os.write(self._master, chunk)
                chunk = chunk[n:]
            except BlockingIOError:
                if time.monotonic() > deadline:
                    return
                time.sleep(0.002)
            except OSError:
                return

    def _read_host(self):
        while self._alive:
            if self._to_code:
                self._flush_code_input()
            try:
                events = self._in_poll.poll(5 if self._to_code else 200)
                if not any(ev & select.POLLIN for _, ev in events):
                    if events:  # POLLHUP: nobody has the port open
                        time.sleep(0.02)
                    continue
                data = os.read(self._master, 4096)
            except (OSError, ValueError):
                if not self._alive:
                    return
                time.sleep(0.01)
                continue
            if data:
                self._in_pace.wait(len(data))
                self._feed(data)


def main(argv=None):
    """Run virtual tiles until interrupted, printing one port path per tile (for bench and demos)."""
    ap = argparse.ArgumentParser(description="Run virtual tiles on pseudo-terminals.")
    ap.add_argument("flash_dirs", nargs="+", help="one directory per tile: its flash filesystem")
    ap.add_argument(
        "--byte-rate",
        type=int,
        default=BYTE_RATE,
        metavar="B",
        help=f"serial bytes a second, as a board's USB REPL carries them "
        f"(default {BYTE_RATE}; 0: full speed)",
    )
    ap.add_argument(
        "--flash-rate",
        type=int,
        default=FLASH_RATE,
        metavar="B",
        help=f"bytes a second written to its flash (default {FLASH_RATE}, an RP2040's; "
        "0: full speed)",
    )
    ap.add_argument(
        "--exec-latency-ms",
        type=float,
        default=EXEC_LATENCY * 1000,
        metavar="MS",
        help=f"milliseconds each raw-REPL command takes before it runs (default "
        f"{EXEC_LATENCY * 1000:g}; 0: none)",
    )
    ap.add_argument(
        "--heap",
        default=BOARD_HEAP,
        help=f"heap the tile's code finds free, e.g. 256K or 1M (default {BOARD_HEAP}, a tile's)",
    )
    args = ap.parse_args(argv)
    try:
        heap_bytes(args.heap)
    except ValueError as exc:
        ap.error(str(exc))
    if not micropython_command():
        print(f"virtual_tile: {not_found_message()}", file=sys.stderr)
        return 2
    # `kill`/terminate() must stop the tiles' interpreters too, as Ctrl-C does: without this the
    # default SIGTERM ends the process at once and leaves every interpreter orphaned.
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(0))
    tiles = []
    for i, d in enumerate(args.flash_dirs):
        t = VirtualTile(
            d,
            args.byte_rate,
            args.flash_rate,
            args.exec_latency_ms / 1000,
            name=f"VT{i}",
            heap=args.heap,
        )
        tiles.append(t.start())
        print(t.port, flush=True)
    try:
        while True:
            time.sleep(3600)
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        for t in tiles:
            t.stop()
    return 0
