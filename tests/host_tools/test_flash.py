"""`blinks flash` against virtual tiles: parallel, idempotent, and never leaving a broken tile."""

import hashlib
import os
import random
import signal
import subprocess
import sys
import threading
import time

import pytest
from repl_checks import ANSWER, SilentPort, typed_answer
from vtile_helpers import FAST, ROOT, boot_check, run_blinks

from host_tools.cli.flash import flash_all
from simulator.mpy.build import BuildError, build, resolve_game
from simulator.mpy.host_micropython import native_arch


def tile_files(flash_dir):
    """{relative path: (sha256, mtime_ns)} of everything on a tile's flash (a write under way,
    a .tmp file, may be renamed while we look: it is left out)."""
    out = {}
    for dirpath, _, names in os.walk(flash_dir):
        for n in names:
            p = os.path.join(dirpath, n)
            if n.endswith(".tmp"):
                continue
            with open(p, "rb") as f:
                out[os.path.relpath(p, flash_dir)] = (
                    hashlib.sha256(f.read()).hexdigest(),
                    os.stat(p).st_mtime_ns,
                )
    return out


def installed_build(flash_dir, images):
    """Which of `images` the tile holds, complete: main.py and every file of its fw dir match
    (its native modules as compiled for the virtual tile's CPU, as the flash sent them)."""
    files = tile_files(flash_dir)
    for built in images:
        image = built.for_arch(native_arch())
        main_ok = files.get("main.py", ("",))[0] == hashlib.sha256(image.main_py).hexdigest()
        body_ok = all(
            files.get(image.fw_dir + "/" + p, ("",))[0] == hashlib.sha256(d).hexdigest()
            for p, d in image.files.items()
        )
        if main_ok and body_ok:
            return built
    return None


def test_flash_three_tiles_in_parallel(make_tile):
    tiles = [make_tile(f"tile{i}") for i in range(3)]  # board-like speed
    args = ["flash", "--quiet"]
    for t in tiles:
        args += ["--port", t.port]
    proc = run_blinks(*args)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    image = build()
    for t in tiles:
        assert installed_build(t.flash_dir, [image]) is image
        ok, out = boot_check(t.flash_dir)
        assert ok, out
    assert proc.stdout.count(" ok ") == 3


def test_reflash_of_unchanged_firmware_writes_nothing(make_tile):
    tile = make_tile(**FAST)
    image = build()
    first = flash_all([tile.port], image, quiet=True)[0]
    assert first.ok and first.files_written == len(image.files) + 1
    before = tile_files(tile.flash_dir)
    again = flash_all([tile.port], build(), quiet=True)[0]
    assert again.ok, again.error
    assert again.files_written == 0 and again.bytes_written == 0
    after = tile_files(tile.flash_dir)
    firmware = {p: v for p, v in before.items() if p == "main.py" or p.startswith("fw")}
    assert {p: after[p] for p in firmware} == firmware  # same contents, not even rewritten


def test_an_unchanged_reflash_asks_one_hash_and_verify_walks_every_file(make_tile):
    """A tile whose main.py names the build is left as it is, without hashing its files; a file
    changed behind the tools' back is found and mended only with --verify."""
    tile = make_tile(**FAST)
    image = build()
    assert flash_all([tile.port], image, quiet=True)[0].ok
    changed = min(p for p in image.files if p.endswith(".mpy"))
    with open(os.path.join(tile.flash_dir, image.fw_dir, changed), "r+b") as f:
        f.seek(10)
        f.write(b"\xff")
    again = flash_all([tile.port], image, quiet=True)[0]
    assert again.ok and again.unchanged and again.files_written == 0
    checked = flash_all([tile.port], image, quiet=True, verify=True)[0]
    assert checked.ok and not checked.unchanged
    assert checked.written == [changed]
    assert installed_build(tile.flash_dir, [image]) is image


def test_flash_switches_builds_and_removes_the_old_one(make_tile, firmware_copy):
    tile = make_tile(**FAST)
    a, b = build(firmware_dir=firmware_copy("a")), build(firmware_dir=firmware_copy("b"))
    assert a.build != b.build
    assert flash_all([tile.port], a, quiet=True)[0].ok
    result = flash_all([tile.port], b, quiet=True)[0]
    assert result.ok, (result.error, tile.events)
    assert installed_build(tile.flash_dir, [a, b]) is b
    assert os.listdir(os.path.join(tile.flash_dir, "fw")) == [b.build]
    # only what differs travels over the serial link; the rest is copied on the tile
    assert set(result.written) == {"hal/build_tag.mpy", "version.json", "main.py"}
    assert result.copied == len(b.files) - 2


def test_flash_killed_at_random_moments_leaves_a_tile_that_boots(make_tile, firmware_copy):
    rng = random.Random(7)
    # flash writes at 40 kB/s here, so the ~35 kB of firmware takes ~1 s to write
    tile = make_tile(byte_rate=0, flash_rate=40_000, exec_latency=0)
    dirs = [firmware_copy("a"), firmware_copy("b")]
    images = [build(firmware_dir=d) for d in dirs]
    assert flash_all([tile.port], images[0], quiet=True)[0].ok
    interrupted = 0
    for trial in range(20):
        target = images[(trial + 1) % 2]
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "host_tools.cli",
                "flash",
                "--quiet",
                "--firmware",
                dirs[(trial + 1) % 2],
                "--port",
                tile.port,
            ],
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        # kill it at a random moment once it has started writing the new build
        started = os.path.join(tile.flash_dir, "fw", target.build)
        while proc.poll() is None and not os.path.isdir(started):
            time.sleep(0.005)
        time.sleep(rng.uniform(0.0, 1.0))
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
        proc.wait()
        # the tile finishes the command it was given (a file write and rename) on its own
        assert tile.wait_for_command(), f"trial {trial}: the tile's last command never ended"
        held = installed_build(tile.flash_dir, images)
        assert held is not None, f"trial {trial}: tile holds neither build complete"
        interrupted += held is not target
        ok, out = boot_check(tile.flash_dir)
        assert ok, f"trial {trial}: {out}"
    assert interrupted >= 5  # most kills really landed before the switch to the new build


def test_a_port_that_vanishes_mid_flash_is_reported_and_the_others_finish(make_tile):
    tiles = [make_tile(f"tile{i}") for i in range(3)]  # board-like speed: a flash takes ~2 s
    image = build()
    victim = tiles[1]

    def pull_cable():
        # wait until the victim has started writing its new firmware, then unplug it
        fw = os.path.join(victim.flash_dir, "fw", image.build)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and not os.path.isdir(fw):
            time.sleep(0.01)
        time.sleep(0.2)
        victim.unplug()

    puller = threading.Thread(target=pull_cable)
    puller.start()
    results = flash_all([t.port for t in tiles], image, quiet=True)
    puller.join()
    by_port = {r.port: r for r in results}
    assert not by_port[victim.port].ok
    assert "vanished" in by_port[victim.port].error
    for t in (tiles[0], tiles[2]):
        assert by_port[t.port].ok, by_port[t.port].error
        assert installed_build(t.flash_dir, [image]) is image
    # plugged back, the half-flashed tile still boots (it never had firmware: no main.py yet)
    assert not os.path.exists(os.path.join(victim.flash_dir, "main.py"))
    victim.plug()
    again = flash_all([victim.port], image, quiet=True)[0]
    assert again.ok, again.error
    assert 0 < again.files_written <= len(image.files) + 1  # resumed: finished files are kept


def test_cli_names_the_failed_tile_and_exits_nonzero(make_tile, tmp_path):
    good = make_tile(**FAST)
    missing = str(tmp_path / "ttyNOPE")
    proc = run_blinks("flash", "--quiet", "--port", good.port, "--port", missing)
    assert proc.returncode == 1
    assert f"FAILED {missing}" in proc.stderr
    assert "no such port" in proc.stderr


def test_flash_no_reset_leaves_the_tile_at_its_friendly_repl(make_tile):
    tile = make_tile(**FAST)
    proc = run_blinks("flash", "--quiet", "--no-reset", "--port", tile.port)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert ANSWER in typed_answer(tile.port)  # echoed and run: not the raw REPL


def test_a_port_named_twice_is_flashed_once(make_tile, tmp_path):
    tile = make_tile(**FAST)
    alias = tmp_path / "alias"
    alias.symlink_to(tile.port)  # like /dev/serial/by-id/... pointing at /dev/ttyACM0
    proc = run_blinks("flash", "--quiet", "--port", tile.port, "--port", tile.port, "--port", alias)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.count(" ok ") == 1 and str(alias) not in proc.stdout


def test_a_tile_named_by_its_dev_pts_path_is_flashed_like_any_other(make_tile):
    tile = make_tile(**FAST)  # mpremote reads /dev/pts/N with blocking reads, not polling
    proc = run_blinks("flash", "--quiet", "--no-reset", "--port", tile.pty_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert installed_build(tile.flash_dir, [build()]) is not None
    assert ANSWER in typed_answer(tile.port)


def test_a_silent_port_fails_with_a_clear_error_and_nothing_on_stdout_but_the_table():
    silent = SilentPort()  # a /dev/pts/N path: mpremote reads it with blocking reads
    try:
        proc = run_blinks("flash", "--quiet", "--port", silent.path, timeout=60)
    finally:
        silent.close()
    assert proc.returncode == 1
    assert f"FAILED {silent.path}: no MicroPython prompt within 5 s" in proc.stderr
    assert "b''" not in proc.stdout and proc.stdout.lstrip().startswith("flash ")


# `blinks` with Python's own Ctrl-C handler, even if this test runs where SIGINT is ignored
# (a process started from a shell always has it).
AS_FROM_A_SHELL = (
    "import signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler); "
    "from host_tools.cli import main; sys.exit(main())"
)


def test_ctrl_c_stops_every_tile_on_a_complete_build_out_of_the_raw_repl(make_tile, firmware_copy):
    tiles = [make_tile(f"tile{i}") for i in range(2)]  # board-like speed: a flash takes ~1 s
    dirs = [firmware_copy("a"), firmware_copy("b")]
    a, b = (build(firmware_dir=d) for d in dirs)
    first = flash_all([t.port for t in tiles], a, quiet=True, reset=False)
    assert all(r.ok for r in first), [r.error for r in first]
    proc = subprocess.Popen(
        [sys.executable, "-c", AS_FROM_A_SHELL, "flash", "--quiet", "--no-reset"]
        + ["--firmware", dirs[1], "--port", tiles[0].port, "--port", tiles[1].port],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    started = os.path.join(tiles[0].flash_dir, "fw", b.build)
    while proc.poll() is None and not os.path.isdir(started):
        time.sleep(0.005)
    proc.send_signal(signal.SIGINT)  # what Ctrl-C in the terminal sends
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, out + err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert err.startswith("blinks flash: interrupted;")
    for t in tiles:
        held = installed_build(t.flash_dir, [a, b])
        assert held is not None, f"{t.port} holds neither build complete"
        assert t.port in err.split("old firmware kept on" if held is a else "new firmware on")[1]
        ok, text = boot_check(t.flash_dir)
        assert ok, text
        assert ANSWER in typed_answer(t.port)  # out of the raw REPL


def test_unknown_game_is_a_clear_error_and_touches_no_tile(make_tile):
    tile = make_tile(**FAST)
    proc = run_blinks("flash", "--quiet", "--port", tile.port, "--game", "nosuchgame")
    assert proc.returncode == 2
    assert "no game module 'games.nosuchgame'" in proc.stderr
    assert not os.path.exists(os.path.join(tile.flash_dir, "main.py"))


def test_game_names_resolve_to_the_game_class():
    assert resolve_game("lostgems") == "games.lostgems:LostGems"
    assert resolve_game("games.lostgems:LostGems") == "games.lostgems:LostGems"
    with pytest.raises(BuildError, match="no game class 'Nope'"):
        resolve_game("games.lostgems:Nope")
    with pytest.raises(BuildError, match="no game module 'games.nope'"):
        resolve_game("nope")


def test_no_compile_flashes_sources_that_boot(make_tile):
    tile = make_tile(**FAST)
    image = build(compile=False)
    assert "runtime/tile.py" in image.files and not any(p.endswith(".mpy") for p in image.files)
    result = flash_all([tile.port], image, quiet=True)[0]
    assert result.ok, result.error
    ok, out = boot_check(tile.flash_dir)
    assert ok, out


def with_mpy_version(image, version):
    """The image as an mpy-cross of another .mpy format version would have built it for the
    virtual tile's CPU (a test stand-in: only the version byte of each .mpy header differs)."""
    image = image.for_arch(native_arch())
    for path, data in image.files.items():
        if path.endswith(".mpy"):
            image.files[path] = data[:1] + bytes([version]) + data[2:]
    return image


def test_a_build_the_tile_cannot_import_is_refused_and_the_old_firmware_kept(
    make_tile, firmware_copy
):
    tile = make_tile(**FAST)
    old = build()
    assert flash_all([tile.port], old, quiet=True)[0].ok
    new = with_mpy_version(build(firmware_dir=firmware_copy("b")), 5)  # the tile loads v6
    result = flash_all([tile.port], new, quiet=True, reset=False)[0]
    assert not result.ok
    assert "the tile loads .mpy v6 but this build's .mpy files are v5" in result.error
    assert "old firmware kept" in result.error and result.files_written == 0
    assert installed_build(tile.flash_dir, [old, new]) is old
    assert not os.path.exists(os.path.join(tile.flash_dir, "fw", new.build))
    ok, out = boot_check(tile.flash_dir)
    assert ok, out
    assert ANSWER in typed_answer(tile.port)  # a failed flash leaves the raw REPL too


def test_mpy_compatibility_follows_micropythons_rules():
    from host_tools.bridge.mpy_compat import incompatibility

    def tile(version, sub=3, arch=2):  # sys.implementation._mpy
        return version | sub << 8 | arch << 10

    bytecode = {"a.mpy": b"M\x06\x00\x1f", "b.json": b"{}"}
    assert incompatibility(bytecode, tile(6)) is None  # sub-version and arch: native code only
    assert incompatibility(bytecode, tile(5)).startswith("the tile loads .mpy v5 but")
    assert "cannot import .mpy files" in incompatibility(bytecode, None)
    assert incompatibility({"a.py": b"x = 1"}, None) is None  # --no-compile: sources only
    native = {"n.mpy": b"M\x06" + bytes([3 | 2 << 2]) + b"\x1f"}  # v6.3, native arch 2
    assert incompatibility(native, tile(6, 3, 2)) is None
    assert "native code" in incompatibility(native, tile(6, 3, 3))
    # bytecode modules load beside native ones (MicroPython checks each file): the native
    # modules' architecture is what must match
    assert incompatibility({**bytecode, **native}, tile(6, 3, 2)) is None
    assert "native code" in incompatibility({**bytecode, **native}, tile(6, 3, 4))
    other = {"m.mpy": b"M\x06" + bytes([3 | 4 << 2]) + b"\x1f"}  # native arch 4 (armv6m)
    assert "mixes .mpy formats" in incompatibility({**native, **other}, tile(6, 3, 2))
    assert "mixes .mpy formats" in incompatibility(
        {**bytecode, "v5.mpy": b"M\x05\x00\x1f"}, tile(6)
    )


def test_a_bad_option_shows_the_subcommands_usage():
    proc = run_blinks("flash", "--bogus")
    assert proc.returncode == 2
    assert proc.stderr.startswith("usage: blinks flash ")
    assert "blinks flash: error: unrecognized arguments: --bogus" in proc.stderr


def test_all_with_no_tile_found_says_so(monkeypatch, capsys):
    from host_tools import cli
    from host_tools.bridge import ports

    monkeypatch.setattr(ports.list_ports, "comports", list)  # no USB tile plugged in
    monkeypatch.delenv("BLINKS_PORTS", raising=False)
    for command in ("flash", "monitor"):
        assert cli.main([command, "--all"]) == 1
        assert f"blinks {command}: no tile found (plug one in" in capsys.readouterr().err
    assert cli.main(["flash"]) == 2
    assert "no tile named (use --port P or --all)" in capsys.readouterr().err


def test_many_parallel_flashes_never_parse_python_in_two_threads_at_once(
    make_tile, firmware_copy, monkeypatch
):
    """Six tiles flashed at once, over and over, between two builds. On CPython 3.11 the ast
    module keeps one recursion count for every thread (python/cpython#106905): two ast parses
    that overlap can fail one tile's flash with "SystemError: AST constructor recursion depth
    mismatch", rarely and at random. So the parse is watched instead (ast.literal_eval goes
    through ast.parse too), held open a little to widen the window, and no two may overlap."""
    import ast

    real_parse = ast.parse
    guard = threading.Lock()
    inside = []
    overlaps = []

    def watched_parse(*args, **kwargs):
        with guard:
            inside.append(threading.current_thread().name)
            if len(inside) > 1:
                overlaps.append(list(inside))
        try:
            time.sleep(0.002)
            return real_parse(*args, **kwargs)
        finally:
            with guard:
                inside.remove(threading.current_thread().name)

    monkeypatch.setattr(ast, "parse", watched_parse)
    tiles = [make_tile(f"tile{i}", **FAST) for i in range(6)]
    images = [build(firmware_dir=firmware_copy("a")), build(firmware_dir=firmware_copy("b"))]
    for round_ in range(4):
        image = images[round_ % 2]
        results = flash_all([t.port for t in tiles], image, quiet=True)
        failed = [(r.port, r.error) for r in results if not r.ok]
        assert not failed, f"round {round_}: {failed}"
        for t in tiles:
            assert installed_build(t.flash_dir, images) is image
    assert not overlaps, f"ast parses overlapped in threads {overlaps[0]}"


def test_a_wrong_game_or_firmware_folder_says_what_exists(tmp_path):
    proc = run_blinks("flash", "--game", "nosuch", "--port", "/dev/null")
    assert proc.returncode == 2
    assert "games there: demo, " in proc.stderr and ", lostgems" in proc.stderr
    proc = run_blinks("flash", "--firmware", str(tmp_path), "--port", "/dev/null")
    assert proc.returncode == 2
    assert f"{tmp_path} is no firmware tree (no main.py" in proc.stderr
    assert "Errno" not in proc.stderr


def test_a_pico_2_is_refused_by_name_and_rp2040_boards_and_the_host_are_not():
    from host_tools.bridge.deploy import unsupported_board

    refused = unsupported_board("Raspberry Pi Pico 2 with RP2350")
    assert refused and "RP2350" in refused and "RP2040" in refused
    assert unsupported_board("Raspberry Pi Pico with RP2040") is None
    assert unsupported_board("linux [GCC 12.2.0] version") is None  # a virtual tile
