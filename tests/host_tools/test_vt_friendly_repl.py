"""The virtual tile's friendly REPL types as MicroPython's own: the same keys give the same bytes.

The reference is the real `micropython` REPL on a pseudo-terminal: the unix port uses the same
line editor (shared/readline) and the same rule for `... ` lines (py/repl.c) as an rp2 board.
Only what the two REPLs share is compared: editing keys, compound statements, history, Tab
completion, output.
(Where they differ, at the prompt's Ctrl-A/B/D/E, the board's behaviour is tested on its own.)
"""

import os
import re
import select
import subprocess
import time

import pytest
import serial
from test_virtual_tile import read_until
from vtile_helpers import FAST

from host_tools.host_micropython import micropython_command
from host_tools.vt_readline import continues

# Keys in chunks: an Enter or Ctrl-C ends a chunk (the next waits for the prompt, since the unix
# REPL leaves raw terminal mode while code runs, and a Ctrl-C then would interrupt it).
KEYS = [
    b"for i in range(2):\r",  # auto-indent after a colon
    b"print(i * 10)\r",
    b"\r",
    b"\r",  # two blank lines end the block
    b"\r",
    b"x = [1,\r",  # an open bracket continues
    b"2]\r",
    b"x\r",
    b"\x1b[A",  # Up: the history, newest first
    b"\x1b[A",
    b"\x1b[B",  # Down
    b"\x1b[A\x1b[D\x1b[D5",  # Left twice, insert
    b"\x01",  # Ctrl-A on a non-empty line: home
    b"\x05",  # Ctrl-E: end
    b"\x1b[H\x1b[3~",  # Home, Delete
    b"\x1b[F\x08",  # End, Backspace
    b"\x03",  # Ctrl-C drops the line
    b"y = 'abcdef'\x02\x02\x0b",  # Ctrl-B twice, Ctrl-K
    b"\x06\x06\x15",  # Ctrl-F twice, Ctrl-U
    b"y = 'a\\'b'\r",  # an escaped quote closes nothing
    b"y\r",
    b"def f(n):\r",
    b"if n:\r",  # indented twice now
    b"return 1\r",
    b"\x08return 2\r",  # Backspace takes a whole indent
    b"\r",
    b"\r",
    b"\r",
    b"f(0), f(1)\r",
    b"s = '''one\r",  # a triple quote continues
    b"two'''\r",
    b"s\r",
    b"if 1:\r",
    b" z = 3\r",  # a space after an auto-indent: the code brings its own indent
    b"\r",
    b"\r",
    b"z + \\\r",  # a backslash continues
    b"1\r",
    b"while True:\r",
    b"\x03",  # Ctrl-C drops the whole compound statement
    b"1/0\r",
    b"q = \t1\r",  # a tab after a space indents by 4
    b"q\r",
    b"\x10\x10\x0e",  # Ctrl-P twice, Ctrl-N
    b"\x03",
    b"gem_red = 1\r",
    b"gem_blue = 2\r",
    b"gem\t",  # Tab: the part all matches share
    b"\t",  # then the matches listed, and the line again below them
    b"r\t + 1\r",  # one match: the rest of it
    b"gem_red.\t\x03",  # attributes of an object
    b"str.\t\x03",  # only the REPL's globals are looked in, not the builtins
    b"op\t\x03",  # (the virtual tile's own `open` is not the REPL's)
    b"__\t\x03",  # names with underscores once one is typed
    b"im\t",  # nothing found on the first word: `import `
    b"mat\t\r",  # after `import `, the built-in modules
    b"import u\t\x03",  # (not `usys`: an old alias, no module of its own)
    b"import __m\t\x03",
    b"math.sq\t(4)\r",
    b"gem_b\x1b[D\t\x03",  # Tab mid-line completes what is before the cursor
    b"if 1:\r",
    b"gem_\t\x03",  # on a `... ` line
]
SENTINEL = b"print('EN' + 'D')\r"
DONE = b"END\r\n>>> "


def _at_prompt(out):
    """The output ends at a prompt (`>>> `, or `... ` and its auto-indent): the REPL waits for
    keys again, in raw terminal mode."""
    return re.search(rb"(>>> |\.\.\. (    )*)\Z", out) is not None


def type_keys(write, read):
    """Type KEYS then SENTINEL with write(bytes); everything read() gave back, up to DONE.
    After an Enter or Ctrl-C it waits for the next prompt before typing on."""
    out = b""
    for chunk in KEYS + [SENTINEL]:
        write(chunk)
        new = b""
        end = time.monotonic() + 10
        while chunk[-1:] in (b"\r", b"\x03") and not _at_prompt(new) and time.monotonic() < end:
            new += read()
        out += new
    end = time.monotonic() + 10
    while not out.endswith(DONE) and time.monotonic() < end:
        out += read()
    return out


def reference_transcript():
    """What the real `micropython` REPL writes back for the keys, after its banner."""
    fd, tty = os.openpty()
    repl = subprocess.Popen(
        [micropython_command()], stdin=tty, stdout=tty, stderr=tty, start_new_session=True
    )

    def read():
        return os.read(fd, 4096) if select.select([fd], [], [], 0.05)[0] else b""

    try:
        banner = b""
        while not banner.endswith(b">>> "):
            banner += read()
        out = type_keys(lambda b: os.write(fd, b), read)
        # the terminal turns each \n the REPL writes into \r\n, so its own \r\n read \r\r\n
        return out.replace(b"\r\r\n", b"\r\n")
    finally:
        repl.kill()
        repl.wait()
        os.close(tty)
        os.close(fd)


def tile_transcript(tile):
    """What the virtual tile writes back for the keys, after its banner."""
    with serial.Serial(tile.port, timeout=0.05) as port:
        read_until(port, b">>> ")  # the boot's banner and first prompt
        return type_keys(port.write, lambda: port.read(port.in_waiting or 1))


def test_friendly_repl_echoes_keys_as_micropythons_own_repl(make_tile):
    expected = reference_transcript()
    assert b"0\r\n10\r\n>>> " in expected and expected.endswith(DONE)  # it ran the blocks
    assert tile_transcript(make_tile(**FAST)).split(b"\r\n") == expected.split(b"\r\n")


def test_board_keys_at_the_friendly_prompt(make_tile):
    """What a board does and the unix REPL does not: Ctrl-E paste mode runs the text as a file,
    Ctrl-C in paste mode drops it, and Ctrl-D in a compound statement runs it as it stands."""
    tile = make_tile(**FAST)
    with serial.Serial(tile.port, timeout=0.05) as port:
        read_until(port, b">>> ")
        port.write(b"\x05")
        assert read_until(port, b"=== ").endswith(
            b"\r\npaste mode; Ctrl-C to cancel, Ctrl-D to finish\r\n=== "
        )
        port.write(b"def g():\r    return 6\r\rprint(g() * 7)\r")
        assert read_until(port, b"print(g() * 7)\r\n=== ").endswith(
            b"def g():\r\n===     return 6\r\n=== \r\n=== print(g() * 7)\r\n=== "
        )
        port.write(b"\x04")
        assert read_until(port, b">>> ") == b"\r\n42\r\n>>> "
        port.write(b"\x05print('never')\x03")
        out = read_until(port, b"\r\n>>> ")
        assert out.endswith(b"print('never')\r\n>>> ") and b"never\r\n" not in out
        port.write(b"for k in 'ab':\rprint(k)\r\x08\x04")
        out = read_until(port, b"b\r\n>>> ")
        assert out.endswith(b"...     print(k)\r\n...     \x08\x08\x08\x08\x1b[Ka\r\nb\r\n>>> "), (
            out
        )


def test_ctrl_c_frees_a_tab_that_never_comes_back(make_tile):
    """Completing `hang.` asks the object for its attributes, and this one never answers; a
    Ctrl-C typed with the Tab waits for it, but one after it has hung interrupts it, as a board's
    Ctrl-C would, and the REPL works on."""
    tile = make_tile(**FAST)
    with serial.Serial(tile.port, timeout=0.05) as port:
        read_until(port, b">>> ")
        port.write(b"class Hang:\r    def __getattr__(self, name):\r        while True: pass\r\r\r")
        read_until(port, b"\r\n>>> ")
        port.write(b"hang = Hang()\r")
        read_until(port, b"hang = Hang()\r\n>>> ")  # not a prompt the Enters above left
        port.write(b"hang.\t")
        assert read_until(port, b"\r\n>>> ", timeout=1.5) == b"hang."  # still hanging
        port.write(b"\x03")
        assert read_until(port, b"\r\n>>> ").endswith(b"KeyboardInterrupt: \r\n>>> ")
        port.write(b"6 * 7\r")
        assert read_until(port, b"42\r\n>>> ").endswith(b"6 * 7\r\n42\r\n>>> ")


@pytest.mark.parametrize(
    ("text", "more"),
    [
        (b"print('(')", False),  # a bracket in a string opens nothing
        (b"x = (1,", True),
        (b'x = """a', True),
        (b"x = '\\''", False),  # an escaped quote
        (b"iffy = 1", False),  # a compound keyword only as a whole word
        (b"if x:\n    y", True),
        (b"if x:\n    y\n", False),  # an empty last line ends it
        (b"@decorator", True),
        (b"async def f():", True),
        (b"1 + \\", True),
        (b"", False),
    ],
)
def test_which_input_continues_at_a_dots_prompt(text, more):
    assert continues(text) is more
