"""A third game joins the platform by its descriptor alone: the session framework, the
playtest command and the simulator's checks reach it through `simulator.games` and know it by
nothing else (the house rule tests/test_architecture.py holds the imports to).

The game here is the smallest one a script can drive: two players take turns adding 1-3 to a
shared tally, the one who reaches 10 wins. Its host module is written to a temporary folder,
as a newcomer's would be, and registered the way docs/writing-a-game.md says.
"""

import json
import textwrap

import pytest

from host_tools.cli import main
from simulator import games

TALLY = '''
"""Tally: players A and B add 1-3 in turn; reaching 10 wins."""

from simulator.sessions.runner import EXIT_EXPECT_FAILED, EXIT_OK, SessionResult
from simulator.sessions.script import ScriptError, shown_word, whole_number

NAME = "tally"
FIRMWARE = ("games.demo", "Demo")
SCRIPT_SUFFIX = ".tly"


class Statement:
    def __init__(self, line, kind, player=None, value=None):
        self.line, self.kind, self.player, self.value = line, kind, player, value


def parse_script(text):
    out = []
    for number, raw in enumerate(text.split("\\n"), 1):
        words = raw.split("#", 1)[0].split()
        if not words:
            continue
        if len(words) == 3 and words[0] in ("A", "B") and words[1] == "add":
            value = whole_number(words[2])
            if value not in (1, 2, 3):
                raise ScriptError(number, f"expected 1, 2 or 3, got {shown_word(words[2])}")
            out.append(Statement(number, "move", "AB".index(words[0]), value))
        elif len(words) == 3 and words[:2] == ["expect", "tally"]:
            out.append(Statement(number, "expect", value=whole_number(words[2])))
        else:
            raise ScriptError(number, "expected `A add N`, `B add N` or `expect tally N`")
    return out


class State:
    def __init__(self):
        self.tally, self.turn = 0, 0

    @property
    def over(self):
        return self.tally >= 10

    def to_dict(self):
        return {"tally": self.tally, "over": self.over}


class Result(SessionResult):
    def outcome(self):
        return f"tally {self.state.tally}; {len(self.failures)} expect(s) failed"


class RulesRunner:
    result_class = Result

    def __init__(self, statements, seed=None, say=None, failed=None, **options):
        self.statements, self.say, self.failed = statements, say, failed
        self.state, self.failures, self.line, self.deal_ms = State(), [], 0, None

    def tiles_json(self):
        return []

    def run(self):
        for st in self.statements:
            self.line = st.line
            if st.kind == "move":
                if st.player != self.state.turn % 2:
                    raise ScriptError(st.line, "not your turn")
                self.state.tally += st.value
                self.state.turn += 1
                self.say(f"{'AB'[st.player]} adds {st.value}: {self.state.tally}")
            elif self.state.tally != st.value:
                self.failures.append((st.line, f"tally is {self.state.tally}"))
                self.failed(st.line, f"expected tally {st.value}, got {self.state.tally}")
        code = EXIT_EXPECT_FAILED if self.failures else EXIT_OK
        return Result(code, self.state, self.failures, self)


def session_runners():
    return RulesRunner, None
'''


@pytest.fixture
def tally(tmp_path, monkeypatch):
    """The tally game registered beside Lost Gems and Waterfall; its scripts' folder."""
    (tmp_path / "tally_host.py").write_text(textwrap.dedent(TALLY))
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setitem(games.HOST_MODULES, "tally", "tally_host")
    scripts = tmp_path / "scripts"
    scripts.mkdir()
    return scripts


def test_session_run_plays_a_third_games_script(tally, capsys):
    script = tally / "win.tly"
    script.write_text("A add 3\nB add 3\nA add 3\nB add 1\nexpect tally 10\n")
    assert main(["session", "run", str(script), "--rules-only", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out == {"tally": 10, "over": True, "tiles": [], "deal_ms": None}


def test_its_failed_expects_and_errors_are_the_frameworks(tally, capsys):
    (tally / "a_wrong.tly").write_text("A add 2\nexpect tally 3\n")
    (tally / "b_bad.tly").write_text("A add 2\nB add 7\n")
    (tally / "c_turn.tly").write_text("A add 2\nA add 1\n")
    code = main(["session", "run", str(tally), "--rules-only"])
    out, err = capsys.readouterr()
    assert code == 2  # the worst of the batch
    assert f"{tally / 'a_wrong.tly'}:2: expected tally 3, got 2" in err
    assert f"{tally / 'b_bad.tly'}:2: expected 1, 2 or 3, got '7'" in err
    assert f"{tally / 'c_turn.tly'}:2: not your turn" in err
    assert f"{tally / 'a_wrong.tly'}: tally 2; 1 expect(s) failed" in out
    assert "3 scripts: 0 passed, 1 failed (exit 1), 2 stopped by an error (exit 2)" in out


def test_a_game_without_tiles_runner_or_playtest_is_told_so(tally, capsys):
    script = tally / "one.tly"
    script.write_text("A add 1\n")
    assert main(["session", "run", str(script)]) == 2
    assert "the simulator runner is not available" in capsys.readouterr().err
    assert main(["playtest", "--game", "tally", "--games", "1"]) == 2
    assert "blinks playtest: tally has no playtests; games that do: " in capsys.readouterr().err
    assert main(["sim", "--game", "tally", "--bot", "anyone"]) == 2
    assert "--bot: tally has no bot to play against in the simulator" in capsys.readouterr().err


def test_the_lost_gems_api_still_answers_at_its_first_address():
    from simulator import sessions
    from simulator.games import lostgems

    assert sessions.GameState is lostgems.GameState
    assert sessions.run_games is lostgems.run_games
    with pytest.raises(AttributeError):
        sessions.NoSuchName  # noqa: B018
