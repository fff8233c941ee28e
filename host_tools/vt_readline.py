"""A board's line editor at the friendly REPL (MicroPython's shared/readline and py/repl.c).

What a person at `mpremote repl` expects of an rp2 tile: echo, Backspace, cursor keys (also
Ctrl-B/F), Home/End (also Ctrl-A/E on a non-empty line), Delete (also Ctrl-D on a non-empty
line), Ctrl-K/Ctrl-U, a history of the last 8 lines (Up/Down, Ctrl-P/N), and compound
statements over several lines: a line that opens a block, a bracket, a triple quote or ends in a
backslash continues at a `... ` prompt, indented 4 spaces more after a colon; an empty line ends
the block. Tab after a space indents by 4; elsewhere it asks for completion (COMPLETE), which
needs the interpreter's names: the REPL gets them from the tile (vt_complete.py) and hands back
`completed()` or `listed()`. The bytes echoed are the board's: VT100 cursor moves and
erase-to-end-of-line.

Pure bytes in, bytes out: the virtual tile's REPL (vt_repl.py) feeds keys and writes the echo.
"""

HISTORY_SIZE = 8  # MICROPY_READLINE_HISTORY_SIZE on rp2
INDENT = b"    "
ENTER = "enter"
COMPLETE = "complete"  # Tab on a word: the REPL asks the interpreter, then calls completed/listed
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


def _back(n):
    """Move the terminal's cursor n places left."""
    if n <= 0:
        return b""
    return b"\x08" * n if n <= 4 else b"\x1b[%dD" % n


# The keys that move the cursor or edit the line, by the byte (a Ctrl key on a non-empty line)
# or the VT100 escape sequence a terminal sends for them.
EDITING_KEYS = {
    1: "home",  # Ctrl-A
    2: "left",  # Ctrl-B
    4: "delete",  # Ctrl-D
    5: "end",  # Ctrl-E
    6: "right",  # Ctrl-F
    11: "kill to end",  # Ctrl-K
    14: "newer",  # Ctrl-N
    16: "older",  # Ctrl-P
    21: "kill to start",  # Ctrl-U
    b"\x1b[A": "older",  # Up
    b"\x1b[B": "newer",  # Down
    b"\x1b[C": "right",
    b"\x1b[D": "left",
    b"\x1b[H": "home",
    b"\x1bOH": "home",
    b"\x1b[1~": "home",
    b"\x1b[7~": "home",
    b"\x1b[F": "end",
    b"\x1bOF": "end",
    b"\x1b[4~": "end",
    b"\x1b[8~": "end",
    b"\x1b[3~": "delete",
}


class LineEditor:
    """One REPL input being typed: the lines so far, the cursor, and the history (kept)."""

    def __init__(self):
        self.history = []
        self.last_key = 0
        self.length_before = 0
        self.start()

    def start(self):
        """A fresh input at the `>>> ` prompt (which the caller writes)."""
        self.text = bytearray()
        self.line_start = 0  # where the line being edited starts (after earlier lines)
        self.cursor = 0
        self.escape = b""  # an escape sequence under way
        self.recalled = -1  # the history entry shown, -1 for none
        self.auto_indent = True
        self.just_indented = False

    @property
    def line_empty(self):
        return len(self.text) == self.line_start

    def next_line(self):
        """Continue the input on a new line: the echo (`... ` and the auto-indent)."""
        self.text += b"\n"
        self.line_start = self.cursor = len(self.text)
        self.recalled = -1
        self.just_indented = False
        return b"... " + self._indent()

    def _indent(self):
        """Indent a continuation line as the previous one, 4 more after a colon; none after
        two blank lines (so two Enters end a block)."""
        if not self.auto_indent:
            return b""
        lines = bytes(self.text).split(b"\n")[:-1]
        last = lines[-1]
        if not last.strip(b" ") and len(lines) > 1 and not lines[-2].strip(b" "):
            return b""
        level = (len(last) - len(last.lstrip(b" "))) // 4 + last.endswith(b":")
        if not level:
            return b""
        self.text += INDENT * level
        self.cursor = len(self.text)
        self.just_indented = True
        return INDENT * level

    def key(self, c):
        """Take one byte typed. Returns (what it ends, the echo): ENTER when the line is done,
        a control byte (1-5: Ctrl-A..E on an empty line; 3: Ctrl-C on any) for the REPL to
        act on, COMPLETE for Tab on a word, or None while the line is being edited."""
        after_cr, self.last_key = self.last_key == 13, c
        self.length_before = len(self.text)  # what is on screen, for _redraw to erase
        if self.escape:
            return None, self._escape_key(c)
        if 1 <= c <= 5 and self.line_empty:
            return c, b""
        if c == 3:
            return c, b""
        if c == 10 and after_cr:
            return None, b""  # \r\n is one Enter
        if c in (13, 10):  # a lone \n too, as the unix port takes it
            self._remember(bytes(self.text[self.line_start :]))
            return ENTER, b"\r\n"
        if c == 27:
            self.escape = b"\x1b"
            return None, b""
        if c == 9 and not self.just_indented and not self._after_space():
            return COMPLETE, b""
        echo = self._edit_key(c)
        self.just_indented = False
        return None, echo

    def _edit_key(self, c):
        if c in EDITING_KEYS:
            return self._edit(EDITING_KEYS[c])
        if c in (8, 127):
            return self._backspace()
        if self.just_indented and c in (9, 32):
            # Typed indentation right after an auto-indent (pasted code brings its own): stop
            # indenting; a space takes back 3 of the 4 spaces added, a tab keeps them.
            self.auto_indent = False
            if c == 32:
                del self.text[-3:]
                return self._redraw(back=3)
            return b""
        if c == 9:
            return self._insert(INDENT)  # after a space (else key() asked for completion)
        if 32 <= c <= 126:
            return self._insert(bytes([c]))
        return b""

    def _after_space(self):
        return self.cursor > 0 and self.text[self.cursor - 1 : self.cursor] in (b" ", b"\n")

    def word_before_cursor(self):
        """What completion looks at: this line up to the cursor."""
        return bytes(self.text[self.line_start : self.cursor])

    def completed(self, rest):
        """Tab found one completion (or a longer common prefix): insert `rest`; the echo."""
        self.length_before = len(self.text)
        return self._insert(rest)

    def listed(self, prompt):
        """Tab listed several matches below the line: the line again under them, after
        `prompt`, with the cursor where it was; the echo."""
        self.length_before = len(self.text)
        return prompt + self.word_before_cursor() + self._redraw(from_cursor=True)

    def _escape_key(self, c):
        seq = self.escape + bytes([c])
        if seq in (b"\x1b[", b"\x1bO") or (len(seq) == 3 and seq[:2] == b"\x1b[" and 48 <= c <= 57):
            self.escape = seq
            return b""
        self.escape = b""
        return self._edit(EDITING_KEYS[seq]) if seq in EDITING_KEYS else b""

    def _edit(self, action):
        """Do one of the EDITING_KEYS actions; returns the echo."""
        if action == "home":
            return self._redraw(back=self.cursor - self.line_start)
        if action == "end":
            return self._redraw(forward=len(self.text) - self.cursor)
        if action == "left":
            return self._redraw(back=1 if self.cursor > self.line_start else 0)
        if action == "right":
            return self._redraw(forward=1 if self.cursor < len(self.text) else 0)
        if action == "older":
            return self._recall(1)
        if action == "newer":
            return self._recall(-1)
        if action == "delete":
            if self.cursor >= len(self.text):
                return b""
            del self.text[self.cursor]
            return self._redraw(from_cursor=True)
        if action == "kill to end":
            del self.text[self.cursor :]
            return self._redraw(from_cursor=True)
        assert action == "kill to start", action
        n = self.cursor - self.line_start
        del self.text[self.line_start : self.cursor]
        return self._redraw(back=n, from_cursor=True)

    def _insert(self, data):
        self.text[self.cursor : self.cursor] = data
        return self._redraw(from_cursor=True, forward=len(data))

    def _backspace(self):
        if self.cursor <= self.line_start:
            return b""
        before = bytes(self.text[self.line_start : self.cursor])
        n = 4 if len(before) >= 4 and not before.strip(b" ") else 1  # an indent goes at once
        del self.text[self.cursor - n : self.cursor]
        return self._redraw(back=n, from_cursor=True)

    def _recall(self, step):
        """Show an older (step 1) or newer (step -1) history line in place of this one."""
        to = self.recalled + step
        if step > 0 and to >= len(self.history):
            return b""
        if step < 0 and self.recalled < 0:
            return b""
        back = self.cursor - self.line_start
        del self.text[self.line_start :]
        self.recalled = to
        if to >= 0:
            self.text += self.history[to]
        return self._redraw(back=back, from_cursor=True, forward=len(self.text) - self.line_start)

    def _redraw(self, back=0, forward=0, from_cursor=False):
        """The echo that moves the cursor `back`, redraws from it if asked (erasing what a line
        shorter than before this key left on screen) and leaves it `forward` places on, as
        readline.c does."""
        out = _back(back)
        self.cursor -= back
        if from_cursor:
            if len(self.text) < self.length_before:
                out += b"\x1b[K"
            tail = bytes(self.text[self.cursor :])
            out += tail + _back(len(tail) - forward)
            self.cursor += forward
        elif forward > 0:
            out += bytes(self.text[self.cursor : self.cursor + forward])
            self.cursor += forward
        return out

    def _remember(self, line):
        """Keep a line in the history: not empty, and not the same as the last one."""
        if line and (not self.history or self.history[0] != line):
            self.history.insert(0, line)
            del self.history[HISTORY_SIZE:]
