"""The virtual tile behaves like a board's USB REPL, through pyserial and mpremote's transport."""

import ast
import datetime
import time
from contextlib import contextmanager

import pytest
import serial
from mpremote.transport_serial import SerialTransport
from vtile_helpers import FAST, run_mpremote

from host_tools.virtual_tile import VirtualTile
from host_tools.virtual_tile.repl import continues


def wait_for(predicate, timeout=10.0):
    """Poll until predicate() holds (False if it never does in time)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            if predicate():
                return True
        except OSError:
            pass
        time.sleep(0.02)
    return False


def read_until(port, marker, timeout=5.0):
    data = b""
    end = time.monotonic() + timeout
    while marker not in data and time.monotonic() < end:
        data += port.read(port.in_waiting or 1)
    return data


@contextmanager
def raw_repl(tile):
    """mpremote's transport on the tile's port, in the raw REPL (no reset); closed after."""
    t = SerialTransport(tile.port)
    try:
        t.enter_raw_repl(soft_reset=False)
        yield t
    finally:
        t.close()


def test_raw_repl_exec_and_errors(make_tile):
    tile = make_tile(**FAST)
    with raw_repl(tile) as t:
        assert t.eval("6 * 7") == 42
        t.exec("x = 5")
        assert t.eval("x + 1") == 6  # one persistent interpreter between commands
        try:
            t.exec("1/0")
            raise AssertionError("no error")
        except Exception as exc:  # noqa: BLE001
            assert "ZeroDivisionError" in str(exc)
        t.fs_writefile("hello.txt", b"tile flash")
        with open(tile.flash_dir + "/hello.txt", "rb") as f:
            assert f.read() == b"tile flash"


def test_soft_reset_gives_a_fresh_interpreter_on_the_same_flash(make_tile):
    tile = make_tile(**FAST)
    with raw_repl(tile) as t:
        t.exec("x = 5\nf = open('kept.txt', 'w')\nf.write('yes')\nf.close()")
        t.enter_raw_repl(soft_reset=True)  # Ctrl-D at the empty raw prompt
        assert t.eval("'x' in globals()") is False
        assert t.eval("open('kept.txt').read()") == "yes"


def test_ctrl_c_interrupts_running_code(make_tile):
    tile = make_tile(**FAST)
    with raw_repl(tile) as t:
        t.exec_raw_no_follow("while True:\n    pass")
        t.serial.write(b"\x03")
        _out, err = t.follow(timeout=5)
        assert b"KeyboardInterrupt" in err
        assert t.eval("1 + 1") == 2  # back at the prompt, answering


def test_friendly_repl_and_main_py_at_boot(make_tile, tmp_path):
    (tmp_path / "tile0").mkdir()
    (tmp_path / "tile0" / "main.py").write_text("print('main ran')\n")
    tile = make_tile(**FAST)
    with serial.Serial(tile.port, timeout=0.1) as port:
        port.write(b"\x04")  # Ctrl-D at the friendly prompt: soft reboot runs main.py
        out = read_until(port, b"soft reboot")
        assert b"soft reboot" in out
        out = read_until(port, b">>> ")
        assert b"main ran" in out
        port.write(b"21 * 2\r")
        assert b"42" in read_until(port, b">>> ")


def test_plain_friendly_repl_runs_lines_and_blocks_and_backspace_edits(make_tile):
    """The friendly REPL is plain (no history, cursor keys or completion: the real one is on
    emulated tiles), but a person can type at it: echo, Backspace, Enter runs the line, and a
    block goes on at `... ` until an empty line. A cursor key's escape sequence is dropped."""
    tile = make_tile(**FAST)
    with serial.Serial(tile.port, timeout=0.05) as port:
        read_until(port, b">>> ")
        port.write(b"6 * 8\x08\x7f7\r")  # Backspace (^H) and Delete (^?) each take one back
        assert read_until(port, b"42\r\n>>> ").endswith(b"6 * 8\x08\x1b[K\x08\x1b[K7\r\n42\r\n>>> ")
        port.write(b"for k in 'ab':\r")
        assert read_until(port, b"... ").endswith(b"for k in 'ab':\r\n... ")
        port.write(b"    print(k * 2)\r")
        assert read_until(port, b"... ").endswith(b"    print(k * 2)\r\n... ")
        port.write(b"\r")  # the empty line ends the block
        assert read_until(port, b"bb\r\n>>> ").endswith(b"\r\naa\r\nbb\r\n>>> ")
        port.write(b"\x1b[A\x1b[3~1 + 1\r")  # Up and Delete: nothing
        assert read_until(port, b"2\r\n>>> ") == b"1 + 1\r\n2\r\n>>> "


def test_board_keys_at_the_friendly_prompt(make_tile):
    """Ctrl-E paste mode runs the text as a file, Ctrl-C in paste mode drops it, and Ctrl-D in a
    compound statement runs it as it stands, as on a board."""
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
        port.write(b"for k in 'ab':\r print(k)\r\x04")
        out = read_until(port, b"b\r\n>>> ")
        assert out.endswith(b"... " + b" print(k)\r\n... a\r\nb\r\n>>> "), out
        port.write(b"while True:\r\x03")  # Ctrl-C drops the whole compound statement
        assert read_until(port, b"\r\n>>> ").endswith(b"while True:\r\n... \r\n>>> ")


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


def test_terminating_the_virtual_tile_command_ends_its_interpreters(tmp_path):
    """`python -m host_tools.virtual_tile` stopped with SIGTERM (as a bench or a service manager
    stops it) takes its MicroPython interpreters with it: none is left orphaned."""
    import os
    import subprocess
    import sys

    flash = tmp_path / "flash"
    flash.mkdir()
    proc = subprocess.Popen(
        [sys.executable, "-m", "host_tools.virtual_tile", str(flash)],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout.readline().strip()  # the port: the tile is up
        children = subprocess.run(
            ["pgrep", "-P", str(proc.pid)], check=False, capture_output=True, text=True
        ).stdout.split()
        assert children, "the tile runs its interpreter as a child process"
        proc.terminate()
        assert proc.wait(10) == 0
        end = time.monotonic() + 5
        alive = [c for c in children if os.path.exists(f"/proc/{c}")]
        while alive and time.monotonic() < end:
            time.sleep(0.05)
            alive = [c for c in children if os.path.exists(f"/proc/{c}")]
        assert alive == []
    finally:
        if proc.poll() is None:
            proc.kill()


def test_the_flash_is_the_whole_filesystem_as_on_a_board(make_tile, tmp_path):
    """`/` is the tile's directory: mpremote lists, reads and writes there, never on the host."""
    flash = tmp_path / "tile0"
    flash.mkdir()
    (flash / "main.py").write_text("print('main ran')\n")
    tile = make_tile(**FAST)
    code, out = run_mpremote(tile.port, "fs", "ls", ":/")
    assert code == 0, out
    assert [line.split() for line in out.splitlines()[1:]] == [["18", "main.py"]]  # with size
    code, out = run_mpremote(tile.port, "fs", "cat", ":/main.py")
    assert (code, out) == (0, "print('main ran')\n")
    (tmp_path / "new_main.py").write_text("print('new')\n")
    code, out = run_mpremote(tile.port, "cp", str(tmp_path / "new_main.py"), ":/main.py")
    assert code == 0, out
    assert (flash / "main.py").read_text() == "print('new')\n"
    (flash / "fw").mkdir()
    code, out = run_mpremote(
        tile.port,
        "exec",
        "import os; print(os.getcwd()); os.chdir('fw')\n"
        "print(os.getcwd(), sorted(os.listdir('../..')))",
    )
    # Nothing above the flash: '..' stops at `/`.
    assert (code, out) == (0, "/\n/fw ['fw', 'main.py']\n")


def test_df_reports_a_picos_flash_not_the_host_disk(make_tile, tmp_path):
    """`mpremote df`: 1408 KB in 4 KB blocks, as MicroPython has on a Pico; files use blocks."""
    flash = tmp_path / "tile0"
    flash.mkdir()
    tile = make_tile(**FAST)

    def df():
        code, out = run_mpremote(tile.port, "df")
        assert code == 0, out
        size, used, avail = (int(x) for x in out.splitlines()[1].split()[1:4])
        assert size == 1408 * 1024 and used + avail == size
        return used

    empty = df()
    (flash / "big.bin").write_bytes(bytes(10_000))  # three 4 KB blocks
    assert df() == empty + 3 * 4096


def test_code_on_the_tile_has_a_boards_heap_not_the_unix_ports(make_tile):
    """gc.mem_free() shows the tile's heap (192 KB by default, --heap to change it), and a
    firmware that needs more fails with MemoryError, as it would on the tile."""
    check = "import gc\ngc.collect()\nfree = gc.mem_free()\n"
    big = "b = bytearray(200_000)"
    with raw_repl(make_tile(**FAST)) as t:
        t.exec(check)
        assert 192 * 1024 - 2048 <= t.eval("free") <= 192 * 1024
        try:
            t.exec(big)
            raise AssertionError("allocated more than a tile has")
        except Exception as exc:  # noqa: BLE001
            assert "MemoryError" in str(exc)
    with raw_repl(make_tile("tile1", heap="512K", **FAST)) as t:
        t.exec(check)
        assert 510 * 1024 <= t.eval("free") <= 512 * 1024
        t.exec(big)
        t.enter_raw_repl(soft_reset=True)  # a fresh interpreter holds the same heap back
        t.exec(check)
        assert 510 * 1024 <= t.eval("free") <= 512 * 1024


def test_cp_r_of_a_directory_creates_it_as_on_a_board(make_tile, tmp_path):
    """`mpremote cp -r fw :` makes `:fw` (mpremote asks os.stat('') whether `:` exists)."""
    src = tmp_path / "src"
    (src / "fw" / "sub").mkdir(parents=True)
    (src / "fw" / "a.py").write_text("A = 1\n")
    (src / "fw" / "sub" / "b.py").write_text("B = 2\n")
    tile = make_tile(**FAST)
    code, out = run_mpremote(tile.port, "cp", "-r", "fw", ":", cwd=src)
    assert code == 0, out
    flash = tmp_path / "tile0"
    files = sorted(str(p.relative_to(flash)) for p in flash.rglob("*") if p.is_file())
    assert files == ["fw/a.py", "fw/sub/b.py"]


def test_boot_py_runs_on_every_soft_reset_before_main_py(make_tile, tmp_path):
    """As on a board: a raw-REPL soft reset runs boot.py (its globals stay for the REPL); a
    friendly one runs boot.py then main.py; a boot.py that raises skips main.py."""
    src = tmp_path / "src"
    src.mkdir()
    (src / "boot.py").write_text("X_FROM_BOOT = 42\nprint('boot ran')\n")
    tile = make_tile(**FAST)
    code, out = run_mpremote(tile.port, "fs", "cp", "boot.py", ":boot.py", cwd=src)
    assert code == 0, out
    code, out = run_mpremote(tile.port, "soft-reset", "exec", "print(globals().get('X_FROM_BOOT'))")
    assert (code, out) == (0, "42\n")
    flash = tmp_path / "tile0"
    (flash / "main.py").write_text("print('main ran', globals().get('X_FROM_BOOT'))\n")
    with serial.Serial(tile.port, timeout=0.1) as port:
        port.write(b"\x02")  # back at the friendly prompt (mpremote leaves it there too)
        read_until(port, b">>> ")
        port.write(b"\x04")  # friendly soft reboot
        out = read_until(port, b"soft reboot") + read_until(port, b">>> ")
        assert b"boot ran\r\nmain ran 42\r\n" in out
        (flash / "boot.py").write_text("raise ValueError('bad boot')\n")
        port.write(b"\x04")
        out = read_until(port, b"soft reboot") + read_until(port, b">>> ")
        assert b"ValueError: bad boot" in out
        assert b"main ran" not in out


def test_mpremote_mount_lets_the_tile_import_a_host_module(make_tile, tmp_path):
    """`mpremote mount DIR exec ...`: the tile reads mpremote's binary replies on sys.stdin.buffer
    (with select.poll and kbd_intr(-1)) and writes its requests raw on sys.stdout.buffer. The
    module is 259 bytes, so the size in the stat reply holds a 0x03 byte, which is data here."""
    host = tmp_path / "host"
    host.mkdir()
    source = "X = 42\n"
    (host / "hostmod.py").write_text(source + "#" * (258 - len(source)) + "\n")
    assert (host / "hostmod.py").stat().st_size == 259  # 0x103
    tile = make_tile(**FAST)
    code, out = run_mpremote(
        tile.port, "mount", str(host), "exec", "import hostmod; print(hostmod.X)"
    )
    assert code == 0, out
    assert out.splitlines()[-1] == "42", out
    assert not (tmp_path / "tile0" / "hostmod.py").exists()  # read from the host, not the flash


def test_running_code_reads_the_serial_input(make_tile):
    """As on a board, bytes written to the port while code runs reach its sys.stdin.buffer,
    which select.poll sees, and input() in the friendly REPL."""
    tile = make_tile(**FAST)
    with raw_repl(tile) as t:
        t.exec_raw_no_follow(
            "import select, sys\n"
            "p = select.poll()\n"
            "p.register(sys.stdin.buffer, select.POLLIN)\n"
            "print(p.poll(3000) != [], sys.stdin.buffer.read(5))"
        )
        t.serial.write(b"hello")
        out, err = t.follow(timeout=3)
        assert (out, err) == (b"True b'hello'\r\n", b"")
        t.exit_raw_repl()
        t.serial.timeout = 0.1
        read_until(t.serial, b">>> ")
        t.serial.write(b"print(input('name' + '? ').upper())\r")
        assert read_until(t.serial, b"name? ", timeout=3).endswith(b"name? ")
        t.serial.write(b"bob\r")
        assert b"bob\r\nBOB\r\n>>> " in read_until(t.serial, b">>> ", timeout=3)


def test_ctrl_c_is_data_while_kbd_intr_is_off(make_tile):
    """After micropython.kbd_intr(-1), 0x03 reaches the code as data (mpremote mount relies on
    it); with interrupts on, it interrupts the same read."""
    tile = make_tile(**FAST)
    with raw_repl(tile) as t:
        t.exec_raw_no_follow(
            "import micropython, sys\n"
            "micropython.kbd_intr(-1)\n"
            "print('ready')\n"
            "print(sys.stdin.buffer.read(3))\n"
            "micropython.kbd_intr(3)"
        )
        t.serial.timeout = 0.1
        assert read_until(t.serial, b"ready\r\n", timeout=3).endswith(b"ready\r\n")
        t.serial.write(b"a\x03b")
        out, err = t.follow(timeout=3)
        assert (out, err) == (b"b'a\\x03b'\r\n", b"")
        t.exec_raw_no_follow("import sys\nprint(sys.stdin.buffer.read(3))")
        t.serial.write(b"a\x03")
        out, err = t.follow(timeout=3)
        assert out == b"" and b"KeyboardInterrupt" in err
        assert t.eval("1 + 1") == 2


def test_input_the_code_left_unread_reaches_the_repl(make_tile):
    """Typed while code runs: what the code reads is its, the rest is a REPL line afterwards."""
    tile = make_tile(**FAST)
    with serial.Serial(tile.port, timeout=0.1) as port:
        port.write(b"\r")
        read_until(port, b">>> ")
        port.write(b"import sys; print(sys.stdin.read(3))\r")
        read_until(port, b"read(3))\r\n")
        port.write(b"abc6 * 7\r")
        out = read_until(port, b"42\r\n>>> ", timeout=3)
        assert out.endswith(b"abc\r\n>>> 6 * 7\r\n42\r\n>>> "), out


def test_stdout_buffer_is_binary_and_print_is_text(make_tile):
    """A board's sys.stdout.buffer writes bytes as they are; print's \\n becomes \\r\\n."""
    tile = make_tile(**FAST)
    with raw_repl(tile) as t:
        out = t.exec("import sys\nprint('a')\nsys.stdout.buffer.write(b'\\n\\x00\\xff\\r\\n')")
        assert out == b"a\r\n\n\x00\xff\r\n"


def test_mpremote_reset_power_cycles_the_tile_as_a_board_does(make_tile, tmp_path):
    """machine.reset(): the port drops and comes back, and main.py runs again, as at power-on."""
    flash = tmp_path / "tile0"
    flash.mkdir()
    (flash / "main.py").write_text("with open('boots.txt', 'a') as f:\n    f.write('b')\n")
    tile = make_tile(**FAST)
    assert wait_for(lambda: (flash / "boots.txt").exists())
    code, out = run_mpremote(tile.port, "reset")
    assert code == 0, out
    assert wait_for(lambda: (flash / "boots.txt").read_text() == "bb")
    assert ("hard reset",) in tile.events
    code, out = run_mpremote(tile.port, "exec", "print('back')")  # the port is back
    assert (code, out) == (0, "back\n")


def test_mpremote_rtc_sets_the_clock_and_it_runs_on_through_soft_resets(make_tile):
    tile = make_tile(**FAST)
    code, out = run_mpremote(tile.port, "rtc", "--set")
    assert code == 0, out
    code, out = run_mpremote(tile.port, "rtc")
    y, mo, d, wd, h, mi, s, _ = ast.literal_eval(out.strip())
    read = datetime.datetime(y, mo, d, h, mi, s)
    assert abs((read - datetime.datetime.now()).total_seconds()) < 5 and wd == read.weekday()
    set_to = "(2030, 1, 2, 2, 3, 4, 5, 0)"  # a Wednesday
    code, out = run_mpremote(tile.port, "exec", f"import machine; machine.RTC().datetime({set_to})")
    assert code == 0, out
    # Every mpremote run soft-resets the tile (a fresh interpreter): the clock runs on.
    code, out = run_mpremote(tile.port, "exec", "import time; print(time.localtime()[:5])")
    assert (code, out) == (0, "(2030, 1, 2, 3, 4)\n")
    code, out = run_mpremote(tile.port, "rtc")
    assert out.startswith("(2030, 1, 2, 2, 3, 4, ")


def test_machine_unique_id_is_the_tiles_own_and_outlives_a_restart(make_tile, tmp_path):
    """8 bytes, as an rp2 board's; kept when the tile is started again on the same flash."""
    show = "import machine, binascii; print(binascii.hexlify(machine.unique_id()).decode())"
    first, other = make_tile("tile0", **FAST), make_tile("tile1", **FAST)
    code, out = run_mpremote(first.port, "exec", show)
    assert (code, out) == (0, first.serial.hex() + "\n") and len(first.serial) == 8
    assert run_mpremote(other.port, "exec", show)[1] == other.serial.hex() + "\n" != out
    first.stop()
    again = VirtualTile(first.flash_dir, port_dir=str(tmp_path), name="again", **FAST).start()
    try:
        assert run_mpremote(again.port, "exec", show) == (0, out)
    finally:
        again.stop()


def test_os_uname_names_the_release_and_machine_as_a_board_does(make_tile):
    """The unix port has no os.uname(); a board answers it, and people ask it for the release."""
    tile = make_tile(**FAST)
    code, out = run_mpremote(
        tile.port,
        "exec",
        "import os, sys; u = os.uname(); print(u); print(sys.implementation.version);"
        "print(u.release, u.machine, u[2] == u.release, len(u), os.listdir('/'))",
    )
    assert code == 0, out
    shown, version, fields = out.splitlines()
    assert shown.startswith("(sysname='linux', nodename='linux', release='")
    assert shown.endswith(", machine='virtual tile with unix port')")
    major, minor, micro, pre = ast.literal_eval(version)
    release = f"{major}.{minor}.{micro}" + (f"-{pre}" if pre else "")
    assert fields == f"{release} virtual tile with unix port True 5 []"


def test_an_error_reads_as_on_a_board_without_the_virtual_tiles_own_frames(make_tile):
    tile = make_tile(**FAST)
    code, out = run_mpremote(tile.port, "exec", "x = 1\n1/0")
    assert code == 1
    assert out.splitlines() == [
        "Traceback (most recent call last):",
        '  File "<stdin>", line 2, in <module>',
        "ZeroDivisionError: divide by zero",
    ]
