"""A board's REPL protocol (MicroPython's pyexec.c) as a state machine fed with host bytes.

Friendly REPL, deliberately plain: typed bytes are echoed, Backspace takes back the last one,
Enter runs the line, and a compound statement (or an open bracket, triple quote or trailing
backslash: continues()) goes on at a `... ` prompt until an empty line. There is no history,
no cursor movement (a terminal's escape sequences are dropped), no auto-indent and no Tab
completion: the real REPL, a board's line editor and all, is on emulated tiles (`blinks emu`,
the official firmware) and real boards; what the virtual tile is for is the protocol host tools
speak. On an empty line Ctrl-A enters the raw REPL, Ctrl-B prints the banner, Ctrl-D
soft-reboots (boot.py, then main.py) and Ctrl-E starts paste mode; Ctrl-C drops the input.
Raw REPL: bytes collect until Ctrl-D, which answers OK and runs them (output, Ctrl-D, error
text, Ctrl-D, '>'); Ctrl-D on an empty buffer soft-reboots running boot.py but not main.py (as
a board does in raw mode); Ctrl-B back to friendly; `Ctrl-E A Ctrl-A` starts raw-paste with
flow control (window PASTE_WINDOW bytes).
While code runs, its input is the serial input, as on a board: the interrupt byte (Ctrl-C, or
what micropython.kbd_intr set; none after kbd_intr(-1)) interrupts it, other bytes go to the
code, and what it leaves unread reaches the REPL when it ends.

The VirtualTile this is mixed into provides the interpreter side: _emit(bytes), _job(mode,
code), _code_input(bytes), _boot(run_main), _spawn(), and the attributes _lock, _busy,
_kbd_char, _mode, _line, _paste, _job_mode and _to_code. The friendly REPL keeps its own state
in _input, _typed, _continuing, _pasting, _escape and _last_key (see _fresh_prompt).
"""

PASTE_WINDOW = 128
BANNER = (
    b"MicroPython v1.29.0 on virtual tile; unix port behind a pty\r\n"
    b'Type "help()" for more information.\r\n'
)
RAW_BANNER = b"raw REPL; CTRL-B to exit\r\n"
KBD_TRACE = b'Traceback (most recent call last):\r\n  File "<stdin>"\r\nKeyboardInterrupt: \r\n'
ENTER = "enter"
COMPOUND_WORDS = (b"if", b"while", b"for", b"try", b"with", b"def", b"class", b"async")


def continues(text):
    """Whether the REPL asks for another line after `text` (the input so far, lines joined by
    \\n), as mp_repl_continue_with_input decides: an open triple quote or bracket, a trailing
    backslash, or a compound statement whose last line is not empty."""
    if not text:
        return False
    compound = text[:1] == b"@" or any(_starts_with_word(text, w) for w in COMPOUND_WORDS)
    depth = 0
    quote = b""  # the open quote: ', ", ''' or """
    i = 0
    while i < len(text):
        c = text[i : i + 1]
        if c in (b"'", b'"'):
            if text[i : i + 3] == c * 3 and quote in (b"", c * 3):
                quote = b"" if quote else c * 3
                i += 2
            elif quote in (b"", c):
                quote = b"" if quote else c
        elif c == b"\\" and text[i + 1 : i + 2] in (b"'", b'"', b"\\"):
            if quote:
                i += 1
        elif not quote:
            if c in b"([{":
                depth += 1
            elif c in b")]}":
                depth -= 1
        i += 1
    if len(quote) == 3:
        return True
    if depth > 0 and not quote:
        return True
    return text.endswith(b"\\") or (compound and not text.endswith(b"\n"))


def _starts_with_word(text, word):
    after = text[len(word) : len(word) + 1]
    return text.startswith(word) and not (after.isalnum() or after == b"_")


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
            self._emit(KBD_TRACE + self._fresh_prompt())

    def _boot_prompt(self):
        """How a boot ends on a board: the banner, then the prompt of the REPL mode it is in."""
        return RAW_BANNER + b">" if self._mode == "raw" else BANNER + self._fresh_prompt()

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
            self._emit(b"\r\n" + BANNER + self._fresh_prompt())
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

    def _fresh_prompt(self):
        """A new input at `>>> `."""
        self._input = b""  # the lines of a compound statement so far, each with its \n
        self._typed = b""  # the line being typed
        self._escape = False
        self._continuing = False
        self._pasting = None
        return b">>> "

    def _key(self, c):
        """One byte typed at the friendly prompt. Returns (what it ends, the echo): ENTER when
        the line is done, a control byte (1-5: Ctrl-A..E on an empty line; 3: Ctrl-C on any)
        for the REPL to act on, or None while the line is being typed."""
        after_cr, self._last_key = self._last_key == 13, c
        if self._escape:  # a cursor key's sequence (ESC [ A, ESC O H, ESC [ 3 ~): dropped
            self._escape = c in b"[O0123456789;"
            if c >= 32:
                return None, b""
        if c == 27:
            self._escape = True
            return None, b""
        if c == 3 or (1 <= c <= 5 and not self._typed):
            return c, b""
        if c == 10 and after_cr:
            return None, b""  # \r\n is one Enter
        if c in (13, 10):  # a lone \n too, as the unix port takes it
            return ENTER, b"\r\n"
        if c in (8, 127):
            if not self._typed:
                return None, b""
            self._typed = self._typed[:-1]
            return None, b"\x08\x1b[K"  # back one place, erase to the end of the line
        if 32 <= c <= 126:
            self._typed += bytes([c])
            return None, bytes([c])
        return None, b""

    def _next_line(self, text):
        """The input goes on at a `... ` prompt."""
        self._input, self._typed = text + b"\n", b""
        self._emit(b"... ")

    def _friendly_byte(self, c):
        if self._pasting is not None:
            self._paste_mode_byte(c)
            return
        ends, echo = self._key(c[0])
        self._emit(echo)
        if ends is None:
            return
        text = self._input + self._typed
        if self._continuing:
            # As pyexec.c: Ctrl-C drops the whole input, Ctrl-D runs it as it stands.
            if ends == 3:
                self._emit(b"\r\n" + self._fresh_prompt())
            elif ends != 4 and continues(text):
                self._next_line(text)
            else:
                self._job("F", text)
            return
        if ends == 1:
            self._mode = "raw"
            self._emit(b"\r\n" + RAW_BANNER + b">")
        elif ends == 2:
            self._emit(b"\r\n" + BANNER + self._fresh_prompt())
        elif ends == 3:
            self._emit(b"\r\n" + self._fresh_prompt())
        elif ends == 4:
            self._emit(b"\r\n")
            self._boot(run_main=True)
        elif ends == 5:
            self._pasting = b""
            self._emit(b"\r\npaste mode; Ctrl-C to cancel, Ctrl-D to finish\r\n=== ")
        elif not text:
            self._emit(self._fresh_prompt())
        elif continues(text):
            self._continuing = True
            self._next_line(text)
        else:
            self._job("F", text)

    def _paste_mode_byte(self, c):
        """Paste mode (Ctrl-E at the prompt): everything as typed, echoed, each CR shown as a
        new `=== ` line; Ctrl-D runs it all as a file, Ctrl-C drops it."""
        if c == b"\x03":
            self._emit(b"\r\n" + self._fresh_prompt())
        elif c == b"\x04":
            code, self._pasting = self._pasting, None
            self._emit(b"\r\n")
            self._job("P", code)
        else:
            self._pasting += c
            self._emit(b"\r\n=== " if c == b"\r" else c)
