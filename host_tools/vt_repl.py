"""A board's REPL protocol (MicroPython's pyexec.c) as a state machine fed with host bytes.

Friendly REPL: line editing, Enter runs the line, Ctrl-A raw REPL, Ctrl-B banner, Ctrl-C clears
the line, Ctrl-D on an empty line soft-reboots (boot.py, then main.py). Raw REPL: bytes collect
until Ctrl-D, which answers OK and runs them (output, Ctrl-D, error text, Ctrl-D, '>'); Ctrl-D on
an empty buffer soft-reboots running boot.py but not main.py (as a board does in raw mode);
Ctrl-B back to friendly; `Ctrl-E A Ctrl-A` starts raw-paste with flow control (window PASTE_WINDOW bytes).
While code runs, its input is the serial input, as on a board: the interrupt byte (Ctrl-C, or
what micropython.kbd_intr set; none after kbd_intr(-1)) interrupts it, other bytes go to the
code, and what it leaves unread reaches the REPL when it ends.

The VirtualTile this is mixed into provides the interpreter side: _emit(bytes), _job(mode,
code), _code_input(bytes), _boot(run_main), _spawn(), and the attributes _lock, _busy,
_kbd_char, _mode, _line, _paste and _job_mode.
"""

PASTE_WINDOW = 128
BANNER = (
    b"MicroPython v1.29.0 on virtual tile; unix port behind a pty\r\n"
    b'Type "help()" for more information.\r\n'
)
RAW_BANNER = b"raw REPL; CTRL-B to exit\r\n"
KBD_TRACE = b'Traceback (most recent call last):\r\n  File "<stdin>"\r\nKeyboardInterrupt: \r\n'


class BoardRepl:
    """The REPL side of a virtual tile (see the module docstring for what it needs)."""

    def _feed(self, data):
        self.trace.append(("in", data[:200], self._busy))
        with self._lock:
            skip_to = 0
            for i in range(len(data)):
                if i < skip_to:
                    continue
                c = data[i : i + 1]
                if self._busy:
                    rest = data[i:]
                    if 0 <= self._kbd_char < 256 and self._kbd_char in rest:
                        # As a board's USB stdin: the interrupt byte stops the code and drops
                        # the input before it; what follows it is for the prompt.
                        self._interrupt()
                        self._feed(rest[rest.rindex(self._kbd_char) + 1 :])
                    else:
                        self._code_input(rest)
                    return
                if self._paste is not None:
                    # raw-paste data comes in bulk: take everything up to the next control byte
                    j = i
                    while j < len(data) and data[j] not in (3, 4):
                        j += 1
                    if j > i:
                        self._paste_bytes(data[i:j])
                        skip_to = j
                        continue
                    self._paste_byte(c)
                elif self._mode == "raw":
                    self._raw_byte(c)
                else:
                    self._friendly_byte(c)

    def _interrupt(self):
        """Ctrl-C while code runs: the code stops with KeyboardInterrupt, back at the prompt.

        The unix port raises KeyboardInterrupt straight from its SIGINT handler (async), which
        can leave its qstr lock held and deadlock the next compile; so instead of a signal the
        virtual tile starts a fresh interpreter. Unlike a board, REPL globals are lost.
        """
        mode = self._job_mode
        self._spawn()
        self._busy = False
        if mode == "R" and self._mode == "raw":
            self._emit(b"\x04" + KBD_TRACE + b"\x04>")
        elif mode in ("B", "M"):  # boot.py or main.py stopped: the boot ends with the banner
            self._emit(KBD_TRACE + self._boot_prompt())
        else:
            self._emit(KBD_TRACE + b">>> ")

    def _boot_prompt(self):
        """How a boot ends on a board: the banner, then the prompt of the REPL mode it is in."""
        return RAW_BANNER + b">" if self._mode == "raw" else BANNER + b">>> "

    def _raw_byte(self, c):
        if c == b"\x01":
            if self._line == b"\x05A":
                self._line = b""
                self._paste = b""
                self._paste_count = 0
                self._emit(b"R\x01" + PASTE_WINDOW.to_bytes(2, "little"))
            else:
                self._line = b""
                self._emit(b"\r\n" + RAW_BANNER + b">")
        elif c == b"\x02":
            self._line = b""
            self._mode = "friendly"
            self._emit(b"\r\n" + BANNER + b">>> ")
        elif c == b"\x03":
            self._line = b""
        elif c == b"\x04":
            line, self._line = self._line, b""
            self._emit(b"OK")
            if not line:
                self._emit(b"\r\n")
                self._boot(run_main=False)
            else:
                self._job("R", line)
        else:
            self._line += c

    def _paste_bytes(self, chunk):
        """Data bytes of a raw paste; the window is re-opened every PASTE_WINDOW bytes."""
        before = self._paste_count
        self._paste += chunk
        self._paste_count += len(chunk)
        for _ in range(self._paste_count // PASTE_WINDOW - before // PASTE_WINDOW):
            self._emit(b"\x01")

    def _paste_byte(self, c):
        if c == b"\x03":  # the host gave up mid-paste: drop it, back at the raw prompt
            self._paste = None
            return
        if c == b"\x04":
            code, self._paste = self._paste, None
            self._emit(b"\x04")
            self._job("R", code)
            return
        self._paste += c
        self._paste_count += 1
        if self._paste_count % PASTE_WINDOW == 0:
            self._emit(b"\x01")

    def _friendly_byte(self, c):
        if c == b"\x01":
            self._line = b""
            self._mode = "raw"
            self._emit(b"\r\n" + RAW_BANNER + b">")
        elif c == b"\x02":
            self._line = b""
            self._emit(b"\r\n" + BANNER + b">>> ")
        elif c == b"\x03":
            self._line = b""
            self._emit(b"\r\n>>> ")
        elif c == b"\x04":
            if not self._line:
                self._emit(b"\r\n")
                self._boot(run_main=True)
        elif c in (b"\r", b"\n"):
            line, self._line = self._line, b""
            self._emit(b"\r\n")
            if line.strip():
                self._job("F", line)
            else:
                self._emit(b">>> ")
        elif c in (b"\x7f", b"\x08"):
            if self._line:
                self._line = self._line[:-1]
                self._emit(b"\x08 \x08")
        elif c >= b" ":
            self._line += c
            self._emit(c)
