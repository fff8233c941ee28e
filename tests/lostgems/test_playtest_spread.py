"""Playtests spread out: on a local Ray instance (`--ray local`), the progress line on a
terminal, and Ctrl-C part way, which keeps the figures of the games that finished and leaves
nothing running."""

import json
import os
import pty
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time

import pytest

BLINKS = [sys.executable, "-m", "host_tools.cli", "playtest", "--bot", "conventions"]

ray = pytest.importorskip("ray", reason="Ray is not installed (the cluster extra)")


def processes_mentioning(marker):
    """The pids whose command line holds `marker`."""
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                if marker.encode() in f.read():
                    found.append(int(pid))
        except OSError:
            continue
    return found


def wait_until(ready, timeout_s):
    end = time.monotonic() + timeout_s
    while not ready():
        if time.monotonic() > end:
            return False
        time.sleep(0.2)
    return True


@pytest.fixture
def ray_home():
    """RAY_TMPDIR for one test: short (Ray's sockets live there) and private, so the test can
    tell its Ray processes from any other's."""
    folder = tempfile.mkdtemp(prefix="ray", dir="/tmp")
    yield folder
    wait_until(lambda: not processes_mentioning(folder), 30)
    subprocess.run(["rm", "-rf", folder], check=False)


def test_ray_local_gives_the_same_figures_as_one_process_and_ends_its_instance(ray_home):
    args = ["--games", "120", "--seed", "11", "--json"]
    alone = subprocess.run(BLINKS + args, capture_output=True, text=True, check=False)
    assert alone.returncode == 0, alone.stderr
    spread = subprocess.run(
        BLINKS + args + ["--ray", "local", "-j", "2"],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
        env=dict(os.environ, RAY_TMPDIR=ray_home),
    )
    assert spread.returncode == 0, spread.stderr
    assert json.loads(spread.stdout) == json.loads(alone.stdout)
    assert wait_until(lambda: not processes_mentioning(ray_home), 30), "Ray left running"


class Terminal:
    """A pseudo-terminal for a command's stderr, read as it comes: the progress line tells how
    many games have finished."""

    def __init__(self):
        self.master, self.slave = pty.openpty()
        self.seen = b""
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        while True:
            try:
                chunk = os.read(self.master, 65536)
            except OSError:
                return
            if not chunk:
                return
            self.seen += chunk

    def games_done(self):
        counts = re.findall(rb"(\d+)/200000", self.seen)
        return int(counts[-1]) if counts else 0

    def close(self):
        os.close(self.slave)
        self.reader.join(5)
        os.close(self.master)


def interrupted_playtest(args, env=None, start_s=240, end_s=120):
    """Run `blinks playtest ARGS` with stderr on a terminal, Ctrl-C it once its progress line
    shows finished games, and return (exit status, stdout, what the terminal showed)."""
    terminal = Terminal()
    proc = subprocess.Popen(
        BLINKS + args, stdout=subprocess.PIPE, stderr=terminal.slave, text=True, env=env
    )
    try:
        assert wait_until(lambda: terminal.games_done() > 0, start_s), terminal.seen[-300:]
        proc.send_signal(signal.SIGINT)
        out, _ = proc.communicate(timeout=end_s)
    finally:
        if proc.poll() is None:
            proc.kill()
        terminal.close()
    return proc.returncode, out, terminal.seen


def test_ctrl_c_on_ray_keeps_the_finished_games_figures_and_leaves_nothing_running(ray_home):
    code, out, seen = interrupted_playtest(
        ["--games", "200000", "--seed", "0", "--json", "--ray", "local", "-j", "2"],
        env=dict(os.environ, RAY_TMPDIR=ray_home),
    )
    assert code == 130, seen[-300:]
    assert b"blinks playtest: interrupted after " in seen
    figures = json.loads(out)
    assert figures["interrupted"] is True and 0 < figures["games"] < 200000
    assert figures["games"] % 250 == 0  # whole chunks only
    assert wait_until(lambda: not processes_mentioning(ray_home), 30), "Ray left running"


def test_ctrl_c_in_one_process_keeps_the_finished_games_figures():
    code, out, seen = interrupted_playtest(["--games", "200000", "--json"], start_s=120, end_s=60)
    assert code == 130, seen[-300:]
    figures = json.loads(out)
    assert figures["interrupted"] is True and figures["games"] > 0


def test_a_long_playtest_shows_its_progress_on_a_terminal():
    master, slave = pty.openpty()
    proc = subprocess.Popen(
        BLINKS + ["--games", "400", "--json"], stdout=subprocess.PIPE, stderr=slave
    )
    os.close(slave)
    seen = b""
    out = proc.stdout.read()
    proc.wait(timeout=120)
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # the terminal's other end is closed and drained
            break
        if not chunk:
            break
        seen += chunk
    os.close(master)
    assert proc.returncode == 0
    assert b"games/s" in seen and b"/400" in seen
    assert json.loads(out)["games"] == 400  # the figures stay on stdout, whole
