"""The example game of docs/writing-a-game.md, examples/tally/: a host package outside the
simulator joins the platform (BLINKS_GAMES, or simulator.games.register), and its referee,
bots, scripts and playtest run through the platform's commands."""

import json
import os
import subprocess
import sys

import pytest

from host_tools.cli import main as blinks
from simulator import games

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TALLY = os.path.join(ROOT, "examples", "tally")


@pytest.fixture
def tally(monkeypatch):
    monkeypatch.setattr(games, "HOST_MODULES", dict(games.HOST_MODULES))
    assert games.register(TALLY) == "tally"
    return TALLY


def test_its_script_replays_and_its_expects_hold(tally, capsys):
    assert blinks(["session", "run", os.path.join(tally, "win.tly"), "--rules-only"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Tally, seed 0 (rules only)\n")
    assert "A adds 3: the tally is 10" in out
    assert out.endswith("win.tly: tally 10, won by A; 0 expect(s) failed\n")


def test_its_failed_expects_and_illegal_moves_are_the_frameworks(tally, tmp_path, capsys):
    (tmp_path / "a.tly").write_text("A add 3\nexpect tally 4\n")
    (tmp_path / "b.tly").write_text("A add 3\nA add 1\n")
    (tmp_path / "c.tly").write_text("A add 4\n")
    assert blinks(["session", "run", str(tmp_path), "--rules-only", "--json"]) == 2
    err = capsys.readouterr().err
    assert f"{tmp_path / 'a.tly'}:2: expect tally 4: expected 4, got 3" in err
    assert f"{tmp_path / 'b.tly'}:2: it is B's turn, not A's" in err
    assert f"{tmp_path / 'c.tly'}:1: expected 1, 2 or 3, got '4'" in err


def test_the_rules_and_the_perfect_bot(tally):
    from tally.bots import PerfectBot, RandomBot, play_game
    from tally.rules import GameState, IllegalMove, Move

    state = GameState()
    state.apply(Move(3))
    assert state.observation(1).legal_moves() == [Move(1), Move(2), Move(3)]
    assert state.observation(0).legal_moves() == []  # not A's turn
    with pytest.raises(IllegalMove, match="would pass 10"):
        GameState().apply(Move(4))
    # moving first, the perfect bot always wins; a random partner never stops it
    assert {play_game(PerfectBot, RandomBot, seed=s).winner for s in range(200)} == {0}


def test_its_playtest_and_a_bot_of_your_own(tally, tmp_path, monkeypatch, capsys):
    assert (
        blinks(["playtest", "--game", "tally", "--partner", "random", "--games", "50", "--json"])
        == 0
    )
    figures = json.loads(capsys.readouterr().out)
    assert figures["games"] == 50 and figures["wins"] == {"A": 50, "B": 0, "tie": 0}
    assert (figures["bot"], figures["partner"]) == ("perfect", "random")
    assert figures["mean"] == {"A": 1.0, "B": 0.0}
    (tmp_path / "mine.py").write_text(
        "from tally.bots import Bot\n\nclass Stuck(Bot):\n    def act(self, obs):\n"
        "        return obs.legal_moves()[5]\n"
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.delitem(sys.modules, "mine", raising=False)
    assert blinks(["playtest", "--game", "tally", "--bot", "mine:Stuck", "--games", "3"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("playtest: mine.py:5: IndexError: list index out of range (in bot ")
    assert "game seed 0, turn 1, seat A)" in err


def test_blinks_games_registers_it_from_the_command_line():
    env = {**os.environ, "BLINKS_GAMES": os.path.join("examples", "tally")}
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "host_tools.cli",
            "session",
            "run",
            "examples/tally/win.tly",
            "--rules-only",
            "-q",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.endswith("won by A; 0 expect(s) failed\n")


def test_its_playtest_writes_scripts_that_replay(tally, tmp_path, capsys):
    """The play layer's driver with the tiniest game: --scripts writes each game out, and
    `session run` replays every one with its expects holding."""
    folder = tmp_path / "games"
    args = ["playtest", "--game", "tally", "--partner", "random", "--games", "4"]
    assert blinks(args + ["--seed", "9", "--scripts", str(folder)]) == 0
    assert "perfect (A) against random (B), 4 games: A won 4, B won 0" in capsys.readouterr().out
    assert sorted(p.name for p in folder.iterdir()) == [
        f"perfect-random-seed{s}.tly" for s in (10, 11, 12, 9)
    ]
    assert blinks(["session", "run", str(folder), "--rules-only", "-q"]) == 0
    assert "4 scripts: 4 passed" in capsys.readouterr().out


def test_options_it_does_not_take_are_refused_by_name(tally, capsys):
    assert blinks(["playtest", "--game", "tally", "--players", "3"]) == 2
    assert "--players is not for --game tally (only waterfall, gembatan)" in capsys.readouterr().err
    assert blinks(["playtest", "--game", "tally", "--ceiling"]) == 2
    assert "--ceiling is not for --game tally (only lostgems)" in capsys.readouterr().err


def test_it_is_an_openspiel_style_game(tally):
    from simulator.play.state import TERMINAL, Game

    state = Game("tally").dealt_state(0)
    assert state.legal_actions() == [0, 1, 2] and state.action_to_string(2) == "add 3"
    for action in (1, 2, 0, 0, 2):  # A 2, B 3, A 1, B 1, A 3: the script win.tly
        state.apply_action(action)
    assert state.current_player() == TERMINAL and state.returns() == [1, 0]
    assert "tally: 10" in state.observation_string(1)
