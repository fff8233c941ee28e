"""Open and close a tile's serial link through mpremote's transport, with the limits it lacks.

mpremote's SerialTransport is reused as is (the raw REPL protocol), but used as a library it has
four gaps that this module closes for every command:

- **Silent pseudo-terminals hang.** For a /dev/pts/N path mpremote reads with blocking
  `serial.read(1)` (its fix for QEMU, whose ptys under-report `in_waiting`), and it opens the
  port with no read timeout, so when nothing answers the read never returns and its own
  `timeout`/`timeout_overall` are never checked. The same port behind a symlink is polled and
  times out. We open every port with a read timeout (READ_TIMEOUT), so each read returns and
  mpremote's timeouts apply whatever the path, and add an overall deadline per connection.
- **Chatter on stdout.** When the raw REPL does not answer, mpremote `print()`s what it got
  (often `b''`) before raising; that broke `blinks ports --json`. It is kept for the error
  message instead (see _keep_chatter).
- **Left in the raw REPL.** mpremote's own disconnect leaves the raw REPL; a bare `close()`
  does not, and a tile left there no longer echoes what is typed. `leave()` always does.
- **Vague errors.** "could not enter raw repl" becomes a sentence saying how long we waited and
  what we heard; a missing port and a busy one are told apart.
"""

import os
import threading
import time

from mpremote import transport_serial
from mpremote.transport import TransportError

READ_TIMEOUT = 2.0  # s: longest single read; a board answers raw-REPL requests in milliseconds
CONNECT_TIMEOUT = 5.0  # s: for the tile to stop its program and show the raw REPL prompt
LEAVE_TIMEOUT = 2.0  # s: for the friendly prompt, and for a reboot to start
BUSY_WAIT = 2.0  # s: a port that exists but cannot be opened yet (a tile just reset) is retried
# s: a tile heard booting (its boot lines, or MicroPython's banner) is alive, only busy: it is
# given this long, all told, to reach its prompt. Emulated tiles on a loaded PC boot slowly.
BOOT_WAIT = 30.0
BOOT_SIGNS = (
    b"BLINKS boot",
    b"BLINKS crashes",
    b"BLINKS safe mode",
    b"MicroPython v",
    b"soft reboot",
)

_chatter = threading.local()


def _keep_chatter(*args, **kwargs):
    """Stands in for print() inside mpremote.transport_serial: remember, don't write to stdout.

    mpremote prints only diagnostics there (the bytes it got instead of a prompt); each thread
    talks to one tile, so the last one is kept per thread for the error that follows.
    """
    _chatter.last = args[0] if len(args) == 1 else " ".join(str(a) for a in args)


transport_serial.print = _keep_chatter


class LinkError(TransportError):
    """The tile on a port cannot be reached, or stopped answering; the message says which."""


class _Deadlined:
    """A pyserial port that refuses to read or write after `deadline` (time.monotonic())."""

    def __init__(self, link, deadline, seconds):
        object.__setattr__(self, "_link", link)
        object.__setattr__(self, "_deadline", deadline)
        object.__setattr__(
            self,
            "_what",
            f"no end after {seconds:.0f} s (the tile stopped answering, or is too slow)",
        )

    def lift(self):
        """No deadline any more: leaving the raw REPL must still be possible after it."""
        object.__setattr__(self, "_deadline", float("inf"))

    def _check(self):
        if time.monotonic() > self._deadline:
            raise LinkError(self._what)

    def read(self, size=1):
        self._check()
        return self._link.read(size)

    def write(self, data):
        self._check()
        return self._link.write(data)

    def inWaiting(self):  # pyserial's old name, the one mpremote calls
        self._check()
        return self._link.in_waiting

    def __getattr__(self, name):
        return getattr(self._link, name)

    def __setattr__(self, name, value):
        setattr(self._link, name, value)


def describe_failure(port, exc):
    """Why `port` could not be opened, in words: no such port, or in use / refused."""
    if not os.path.exists(port):
        return "no such port (unplugged, or a wrong path?)"
    if isinstance(exc, TransportError) and "failed to access" in str(exc):
        return "port not found or in use (another program has it open, or no permission)"
    return f"{type(exc).__name__}: {exc}"


def open_port(port, busy_wait=BUSY_WAIT):
    """The SerialTransport on `port`, or LinkError saying why not. A port that is there but
    refused is tried again for `busy_wait` s: a tile that has just been reset (by the flash
    before, say) can hold it for a moment, and a second command should not fail for that."""
    give_up = time.monotonic() + busy_wait
    while True:
        try:
            return transport_serial.SerialTransport(port, timeout=READ_TIMEOUT)
        except (TransportError, OSError, ValueError) as exc:
            busy = os.path.exists(port) and "failed to access" in str(exc)
            if not busy or time.monotonic() >= give_up:
                raise LinkError(describe_failure(port, exc)) from None
        time.sleep(0.1)


def connect(port, overall=60.0, connect_timeout=CONNECT_TIMEOUT):
    """An open SerialTransport in the raw REPL (the tile's program stopped), or LinkError.

    Every read and write after `overall` seconds raises LinkError, so no tile, silent or
    chattering, can hold a command for longer.
    """
    t = open_port(port)
    t.serial = _Deadlined(t.serial, time.monotonic() + overall, overall)
    booting_until = None
    while True:
        _chatter.last = None
        try:
            t.enter_raw_repl(soft_reset=False, timeout_overall=connect_timeout)
            return t
        except TransportError as exc:
            got = _chatter.last
            if "could not enter raw repl" not in str(exc):
                close(t)
                raise
            if booting_until is None and heard_booting(got):
                booting_until = time.monotonic() + BOOT_WAIT - connect_timeout
            if booting_until is not None and time.monotonic() < booting_until:
                continue  # still booting: ask again (Ctrl-C, Ctrl-A) once it may listen
            close(t)
            heard = "nothing" if not got else f"{got!s:.80}"
            if booting_until is not None:
                raise LinkError(
                    f"heard the tile boot, but no MicroPython prompt within {BOOT_WAIT:.0f} s "
                    f"(last heard {heard})"
                ) from None
            raise LinkError(
                f"no MicroPython prompt within {connect_timeout:.0f} s (heard {heard}; "
                "is it a MicroPython board, and is no other program using it?)"
            ) from None
        except OSError as exc:
            close(t)
            raise LinkError(f"port vanished or unplugged ({exc})") from None


def heard_booting(got):
    """True when what a tile said instead of a prompt shows it booting (alive, only busy)."""
    if not got:
        return False
    data = got if isinstance(got, (bytes, bytearray)) else str(got).encode("utf-8", "replace")
    return any(sign in data for sign in BOOT_SIGNS)


def leave(transport, restart=False):
    """Back to the friendly REPL (and, with `restart`, reboot into main.py); never raises.

    A command still running on the tile (we gave up waiting, or were interrupted) is stopped
    with Ctrl-C first: every write of a flash is atomic on the tile, so this cannot break it.
    """
    lift = getattr(transport.serial, "lift", None)
    if lift is not None:
        lift()
    try:
        if transport.in_raw_repl:
            transport.serial.write(b"\x03")  # stop a command still running; at the prompt: no-op
            transport.exit_raw_repl()
            # Wait for the tile's answer before the port is closed: bytes still in flight when
            # a pseudo-terminal (or some USB drivers) closes can be dropped.
            transport.read_until(1, b">>> ", timeout=LEAVE_TIMEOUT)
        if restart:
            transport.serial.write(b"\x04")  # Ctrl-D at the friendly prompt: soft reboot
            transport.read_until(1, b"soft reboot\r\n", timeout=LEAVE_TIMEOUT)
    except Exception:  # noqa: BLE001, S110  the port may be gone; nothing more can be done
        pass


def close(transport, restart=False):
    """leave() then close the port; never raises."""
    leave(transport, restart)
    try:
        transport.close()
    except Exception:  # noqa: BLE001, S110  the port may already be gone
        pass
