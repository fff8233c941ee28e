"""Issue 44, items 1-6: code of your own that fails is told in one line (its file and line, the
exception, what was running) with exit 1, the whole traceback only with --debug or
BLINKS_DEBUG=1; names, seeds and folders are refused alike by every command (exit 2)."""

import os
import sys
import textwrap

import games
import pytest
from sim_hands import Hands
from test_bot_play import wait_for

from host_tools.cli import main as blinks
from simulator.app.bot_game import BROKEN, PERSON

GREEDY = """\
from simulator.games.lostgems import Bot


class Greedy(Bot):
    def act(self, obs):
        if obs.turns >= 2:
            return obs.legal_moves()[1 // (obs.turns - obs.turns)]
        return obs.legal_moves()[0]
"""
STUBBORN = """\
from simulator.games.lostgems import Bot


class Stubborn(Bot):
    def __init__(self, player, seed=0):
        raise ValueError("no seat for me")
"""
BROKEN_SYNTAX = "from simulator.games.lostgems import Bot\n\nclass Broken(Bot)\n    pass\n"
BOOM = """\
class Boom:
    def __init__(self, tile):
        self.tile = tile

    def setup(self):
        pass

    def loop(self):
        if self.tile.millis() > 500:
            raise RuntimeError("the loop fell over")
"""


@pytest.fixture
def own_code(tmp_path, monkeypatch):
    """A folder of your own, the current one: bot modules, and firmware games that `games`
    (firmware/games/) finds there too."""
    (tmp_path / "mybots.py").write_text(GREEDY)
    (tmp_path / "stubborn.py").write_text(STUBBORN)
    (tmp_path / "badbots.py").write_text(BROKEN_SYNTAX)
    mine = tmp_path / "mygames"
    mine.mkdir()
    (mine / "boom.py").write_text(BOOM)
    (mine / "bad.py").write_text("class Bad:\n    def loop(self)\n        pass\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(games, "__path__", [*games.__path__, str(mine)])
    monkeypatch.delenv("BLINKS_DEBUG", raising=False)
    for name in ("mybots", "stubborn", "badbots", "divide", "games.boom", "games.bad"):
        monkeypatch.delitem(sys.modules, name, raising=False)  # each test its own folder's
    return tmp_path


def one_message(capsys, prefix):
    err = capsys.readouterr().err
    assert "Traceback" not in err
    lines = err.splitlines()
    assert lines[1] == f"{prefix}: (the whole traceback: add --debug, or set BLINKS_DEBUG=1)"
    return lines[0]


# --- 1. a bot or a game of your own that fails ---------------------------------------------------
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_bot_whose_act_raises_is_named_by_its_line_in_a_playtest(own_code, capsys, jobs):
    code = blinks(["playtest", "--bot", "mybots:Greedy", "--games", "40", "--jobs", jobs])
    assert code == 1
    line = one_message(capsys, "blinks playtest")
    assert line.startswith(
        "blinks playtest: mybots.py:7: ZeroDivisionError: integer division or modulo"
    )
    assert "(in bot mybots:Greedy; game seed " in line and ", turn 3, seat " in line


def test_debug_or_the_environment_gives_the_whole_traceback(own_code, capsys, monkeypatch):
    assert blinks(["playtest", "--bot", "mybots:Greedy", "--games", "1", "--debug"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("Traceback (most recent call last):")
    assert 'mybots.py", line 7, in act' in err
    assert err.rstrip().endswith("turn 3, seat A)")
    monkeypatch.setenv("BLINKS_DEBUG", "1")
    assert blinks(["playtest", "--bot", "mybots:Greedy", "--games", "1"]) == 1
    assert capsys.readouterr().err.startswith("Traceback (most recent call last):")


def test_a_bot_module_with_a_syntax_error_is_named_by_its_line(own_code, capsys):
    assert blinks(["playtest", "--bot", "badbots:Broken", "--games", "1"]) == 1
    assert one_message(capsys, "blinks playtest") == (
        "blinks playtest: badbots.py:3: SyntaxError: expected ':' (in bot badbots:Broken; loading "
        "its module)"
    )
    assert blinks(["sim", "--bot", "badbots:Broken", "--run-for", "1"]) == 1
    assert one_message(capsys, "blinks sim").startswith("blinks sim: badbots.py:3: SyntaxError")


def test_a_game_whose_loop_raises_names_its_line_the_tile_and_the_time(own_code, capsys):
    assert blinks(["sim", "--game", "boom", "--tiles", "3", "--seed", "4", "--run-for", "2"]) == 1
    line = one_message(capsys, "blinks sim")
    assert line.startswith(
        f"blinks sim: {os.path.join('mygames', 'boom.py')}:10: RuntimeError: the loop fell "
        "over (in game boom; world seed 4, tile "
    )
    assert line.endswith(" s simulated)")


def test_a_game_module_that_fails_to_import_names_its_line(own_code, capsys):
    assert blinks(["sim", "--game", "bad", "--run-for", "1"]) == 1
    assert one_message(capsys, "blinks sim") == (
        f"blinks sim: {os.path.join('mygames', 'bad.py')}:2: SyntaxError: expected ':' (in "
        "game bad; importing its module)"
    )


def test_a_bot_game_whose_bot_raises_stops_and_says_so_at_exit(own_code, make_app, capsys):
    from simulator.app.cli import _tell_at_exit

    app = make_app(seed=3, bot="stubborn:Stubborn")
    game = app.controllers[0]
    assert game.phase == BROKEN
    assert game.messages[-1][0].startswith(
        "The bot failed as it was made: stubborn.py:6: ValueError: no seat for me (in bot "
        "stubborn:Stubborn; game seed 3, the deal)"
    )
    assert _tell_at_exit(app, None, 0) == 1
    assert "blinks sim: the bot failed as it was made: stubborn.py:6" in capsys.readouterr().err

    app = make_app(seed=3, bot="mybots:Greedy")
    hands = Hands(app)
    game = app.controllers[0]
    wait_for(app, hands, lambda: game.phase == PERSON)
    while game.phase != BROKEN:  # the person gives hints; the bot fails on its second turn
        game.choose(next(m for m in game.state.legal_moves() if m.kind == "hint"))
        wait_for(app, hands, lambda: game.phase in (PERSON, BROKEN))
    assert (
        "The bot failed as it chose its move: mybots.py:7: ZeroDivisionError"
        in (game.messages[-1][0])
    )


# --- 2. a game's name ----------------------------------------------------------------------------
@pytest.mark.parametrize("command", [["sim", "--run-for", "1"], ["playtest", "--games", "1"]])
def test_a_game_name_that_is_no_name_is_refused_listing_the_games(command, capsys):
    assert blinks([*command, "--game", "../etc"]) == 2
    err = capsys.readouterr().err
    assert "--game: '../etc' is not a game's name; the games: " in err
    assert "demo, gembatan, gemmatch, lostgems, waterfall" in err and "No module named" not in err


def test_a_game_that_does_not_exist_lists_the_ones_that_do(capsys):
    assert blinks(["sim", "--game", "nosuch", "--run-for", "1"]) == 2
    err = capsys.readouterr().err
    assert (
        "--game: there is no game 'nosuch'; the games: demo, gembatan, gemmatch, lostgems, waterfall"
        in err
    )


def test_a_rules_only_game_is_refused_by_sim_and_the_emulated_table(capsys, monkeypatch):
    """Gembatan has no tiles: its window would be the demo's under another name."""
    monkeypatch.delenv("DISPLAY", raising=False)  # the refusal comes before the display's
    assert blinks(["sim", "--game", "gembatan", "--run-for", "1"]) == 2
    err = capsys.readouterr().err
    assert "Gembatan is played by the rules only, not on the tiles" in err
    assert "blinks playtest --game gembatan" in err and "display" not in err
    assert blinks(["emu", "--window", "--table", "gembatan"]) == 2
    assert "--table gembatan: Gembatan is played by the rules only" in capsys.readouterr().err


@pytest.mark.parametrize(
    "where, says", [("folder", "a folder, not a recording"), ("gone", "no such file")]
)
def test_a_replay_that_is_no_file_is_said_before_the_display(
    tmp_path, capsys, monkeypatch, where, says
):
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("SDL_VIDEODRIVER", raising=False)
    path = tmp_path if where == "folder" else tmp_path / "gone.jsonl"
    assert blinks(["sim", "--replay", str(path)]) == 2
    assert capsys.readouterr().err == f"blinks sim: --replay {path}: {says}\n"


# --- 3. folders and seeds: one rule --------------------------------------------------------------
@pytest.mark.parametrize(
    "command",
    [
        ["sim", "--bot", "cautious", "--run-for", "0", "--scripts"],
        ["playtest", "--games", "1", "--scripts"],
        ["playtest", "--game", "waterfall", "--games", "1", "--scripts"],
        ["emu", "--state"],
    ],
)
def test_an_output_folder_is_made_only_in_a_folder_that_exists(command, tmp_path, capsys):
    deep = tmp_path / "no" / "such" / "x"
    assert blinks([*command, str(deep)]) == 2
    err = capsys.readouterr().err
    assert (
        f"{deep}: there is no folder {deep.parent} (only the last folder of a path is made)" in err
    )
    assert not (tmp_path / "no").exists()
    if command[0] != "emu":
        assert blinks([*command, str(tmp_path / "new")]) == 0
        assert (tmp_path / "new").is_dir()


@pytest.mark.parametrize(
    "command, option",
    [(["emu"], "--seed"), (["sim", "--run-for", "0"], "--seed"), (["playtest"], "--seed")],
)
def test_a_negative_seed_is_refused_by_every_command(command, option, capsys):
    with pytest.raises(SystemExit) as exit_:
        code = blinks([*command, option, "-1"])
        raise SystemExit(code)
    assert exit_.value.code == 2
    assert ">= 0" in capsys.readouterr().err


# --- 4. a replay with nothing in it ---------------------------------------------------------------
def test_replaying_a_physical_log_with_no_tile_in_it_says_there_is_nothing(tmp_path, capsys):
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    assert blinks(["sim", "--replay-log", str(empty)]) == 2
    assert capsys.readouterr().err == (
        f"blinks sim --replay-log: {empty}: nothing to replay: it holds no record (a tile's "
        "`LG ...` or `WF ...` log lines)\n"
    )
    quiet = tmp_path / "quiet.jsonl"
    quiet.write_text('{"time": 0.5, "port": "/dev/ttyACM0", "line": "hello"}\n')
    assert blinks(["sim", "--replay-log", str(quiet)]) == 2
    assert "nothing to replay: its 1 records name no tile" in capsys.readouterr().err


# --- 6. a Python API's errors name its arguments ---------------------------------------------------
def test_the_game_list_and_the_name_check_are_the_platforms():
    from simulator.games import game_names, name_problem

    assert {"demo", "lostgems", "waterfall"} <= set(game_names())
    assert name_problem("lostgems") is None and name_problem(None) is None
    assert name_problem("a/b").startswith("'a/b' is not a game's name; the games: ")


def test_the_emu_seed_message(capsys):
    assert blinks(["emu", "--seed", "-1"]) == 2
    assert capsys.readouterr().err == "blinks emu: --seed must be a whole number >= 0, got -1\n"


def test_a_message_is_one_line_whatever_the_path(own_code):
    from simulator.sessions.user_code import user_code_error

    (own_code / "divide.py").write_text("def by_zero():\n    return 1 / 0\n")
    import divide

    try:
        divide.by_zero()
    except ZeroDivisionError as exc:
        assert user_code_error(exc, "bot x", "seed 1") == (
            "divide.py:2: ZeroDivisionError: division by zero (in bot x; seed 1)"
        )
    assert "\n" not in textwrap.dedent(user_code_error(ValueError("a"), "b", "c"))
