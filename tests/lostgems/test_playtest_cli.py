"""`blinks playtest` from a user's seat: a bad option is one line and exit 2 before any game is
played, and a long run's figures are never lost to a plot that cannot be saved."""

import os
import sys

import pytest

from host_tools.cli import main
from simulator.games.lostgems import playtest_cli


@pytest.fixture
def no_games(monkeypatch):
    """Fail the test if a game is played: the options should have been refused first."""

    def refuse(*args, **kwargs):
        raise AssertionError("games were played before the options were checked")

    monkeypatch.setattr(playtest_cli, "run_games", refuse)


def one_line_error(capsys):
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("blinks playtest: ") and captured.err.count("\n") == 1, (
        captured.err
    )
    return captured.err


@pytest.mark.parametrize("bot", [":", ":Greedy", ".mybots:Greedy"])
def test_a_bot_name_importlib_refuses_is_one_line(bot, capsys, no_games):
    assert main(["playtest", "--bot", bot, "--games", "5"]) == 2
    assert "name the module in full" in one_line_error(capsys)


def test_a_negative_seed_is_refused_before_the_games(capsys, no_games):
    # Seeds -n and n deal alike, so a batch from a negative seed would count deals twice.
    with pytest.raises(SystemExit) as stop:
        main(["playtest", "--games", "5", "--seed", "-1000"])
    assert stop.value.code == 2
    assert "--seed: expected a whole number >= 0, got '-1000'" in capsys.readouterr().err


def test_a_plot_that_cannot_be_saved_is_refused_before_the_games(tmp_path, capsys, no_games):
    for plot, says in (
        ("", "--plot needs a file name"),
        (str(tmp_path), "is a folder: give a file name"),
        (str(tmp_path / "missing" / "scores.png"), "there is no folder"),
        (str(tmp_path / "scores.txt"), "cannot write .txt"),
    ):
        assert main(["playtest", "--games", "500", "--plot", plot]) == 2, plot
        assert says in one_line_error(capsys), plot


def test_the_plot_is_written_at_exactly_the_name_given(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["playtest", "--bot", "cautious", "--games", "5", "--plot", "scores"]) == 0
    assert (tmp_path / "scores").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert not (tmp_path / "scores.png").exists()  # matplotlib's own habit: add ".png"
    assert capsys.readouterr().out.endswith("histogram saved to scores\n")
    assert main(["playtest", "--bot", "cautious", "--games", "5", "--plot", "s.svg"]) == 0
    assert b"<svg" in (tmp_path / "s.svg").read_bytes()[:500]


def test_a_plot_failing_at_the_end_still_reports_the_figures(tmp_path, monkeypatch, capsys):
    def disk_full(stats, path, title):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(playtest_cli, "save_plot", disk_full)
    plot = str(tmp_path / "scores.png")
    assert main(["playtest", "--bot", "cautious", "--games", "7", "--plot", plot]) == 2
    captured = capsys.readouterr()
    assert "cautious: 7 games from seed 0" in captured.out and "mean " in captured.out
    assert (
        captured.err
        == f"blinks playtest: cannot save the plot to {plot}: [Errno 28] No space left on device\n"
    )


RULE_BREAKER = """
from simulator.games.lostgems import Bot, Move


class DiscardAtOnce(Bot):
    def act(self, obs):
        return Move.discard(1)  # every hint token is available at first: not allowed
"""


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_bot_that_breaks_a_rule_is_one_line_naming_the_deal(jobs, tmp_path, monkeypatch, capsys):
    (tmp_path / "rulebreakers.py").write_text(RULE_BREAKER)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", list(sys.path))
    monkeypatch.delitem(sys.modules, "rulebreakers", raising=False)
    args = ["playtest", "--bot", "rulebreakers:DiscardAtOnce", "--games", "60", "--seed", "7"]
    assert main([*args, "--jobs", jobs]) == 1
    err = one_line_error(capsys)
    assert "made a move the rules refuse (in the game dealt from seed " in err
    assert "a discard needs a spent hint token" in err


def test_a_bot_that_breaks_a_rule_on_the_tiles_names_the_deal_too(tmp_path, monkeypatch, capsys):
    (tmp_path / "rulebreakers.py").write_text(RULE_BREAKER)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", list(sys.path))
    monkeypatch.delitem(sys.modules, "rulebreakers", raising=False)
    args = ["playtest", "--bot", "rulebreakers:DiscardAtOnce", "--games", "1", "--seed", "4"]
    assert main([*args, "--physical"]) == 1
    err = one_line_error(capsys)
    assert "made a move the rules refuse (in the game dealt from seed 4: " in err


def test_games_beyond_the_bound_are_refused_before_any_game(capsys, no_games):
    assert main(["playtest", "--games", "99999999999999999999"]) == 2
    assert "--games must be from 1 to 10,000,000" in one_line_error(capsys)


def test_the_json_figures_are_rounded(capsys):
    import json

    assert main(["playtest", "--bot", "cautious", "--games", "3", "--json"]) == 0
    stats = json.loads(capsys.readouterr().out)
    floats = [stats["mean"], stats["stderr"], stats["perfect_pct"], *stats["lost"].values()]
    assert all(round(value, 4) == value for value in floats)
    assert stats["histogram"] and sum(stats["histogram"]) == 3


def children(pid):
    """The process ids of a process's children (Linux /proc)."""
    with open(f"/proc/{pid}/task/{pid}/children") as f:
        return [int(c) for c in f.read().split()]


def running(pid):
    """Whether a process still runs (a zombie waiting for its reaper does not)."""
    try:
        with open(f"/proc/{pid}/status") as f:
            return "\nState:\tZ" not in f.read()
    except FileNotFoundError:
        return False


WORKER_OUTLIVES_ITS_PARENT = """
import os, sys, time
from simulator.games.lostgems.playtest import _leave_interrupts_to_the_parent
parent = os.getpid()
ready, gone = os.pipe()
if os.fork() == 0:  # a worker, held back until its parent has died
    os.close(gone)
    os.read(ready, 1)  # end of file: the parent is exiting
    while os.getppid() == parent:  # ... and, once this changes, gone
        time.sleep(0.01)
    print("orphaned", flush=True)
    _leave_interrupts_to_the_parent(parent)  # as a worker's first instructions
    time.sleep(120)
    os._exit(0)
sys.exit(0)
"""


@pytest.mark.skipif(not hasattr(os, "fork"), reason="forks a worker")
def test_a_worker_whose_parent_died_before_it_started_still_ends_itself():
    # The race behind a rare orphan after SIGTERM (seen under load): the parent killed between
    # forking a worker and the worker's first instructions. The worker, holding the output,
    # must still notice and end, or a caller reading to the end waits for ever.
    import subprocess

    worker = [sys.executable, "-c", WORKER_OUTLIVES_ITS_PARENT]
    # The output ends only when the worker, which holds it too, has ended.
    done = subprocess.run(worker, capture_output=True, timeout=60, check=True)
    assert (done.stdout, done.stderr) == (b"orphaned\n", b"")


@pytest.mark.skipif(not os.path.exists("/proc/self/task"), reason="reads /proc (Linux)")
def test_sigterm_leaves_no_worker_holding_the_output(tmp_path):
    # A caller reading the output to its end (a CI step, `$(...)`) must get it when the
    # playtest is terminated: no orphaned worker may keep the pipe open.
    import signal
    import subprocess
    import time

    cmd = [sys.executable, "-m", "host_tools.cli", "playtest", "--games", "1000000", "--jobs", "2"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 120
        while len(children(proc.pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        workers = children(proc.pid)
        assert len(workers) >= 2, "the workers never started"
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=60)  # returns only once every holder of the pipes is gone
        assert proc.returncode == -signal.SIGTERM
        deadline = time.monotonic() + 30
        while any(running(w) for w in workers) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not [w for w in workers if running(w)]
    finally:
        if proc.poll() is None:
            proc.kill()
