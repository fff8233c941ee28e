"""The printed Gem Match's session scripts (`variant printed`): the header picks the language and
the runner, malformed lines and illegal moves exit 2 naming the line, expects exit 1, the
playtest's scripts replay green, and `--board-png` draws the field after each move."""

import json
import pathlib

import pytest
from script_refusal import refused

from host_tools.cli import main
from simulator.games.gemmatch import printed as pr
from simulator.games.gemmatch import printed_bots, printed_script

EXAMPLES = pathlib.Path(__file__).resolve().parents[2] / "examples" / "gemmatch"
HEADER = (
    "variant printed\nfield 8\n"
    "deck I3 O14 L10 S17 J5 I0 J7 T21 S19 S18 T23 Z25 J4 I2 T22 J6 L11 T20 L9 Z26 O15 S16 L8 "
    "I1 O13 Z24 O12 Z27\n"
)
# A's I3 on the top left, B's O14 at 5,0; A's T23 (drawn) turned makes a group of 3 G
OPENING = "A place 1 at 0,0 turn 0\nB place 1 at 5,0 turn 0\nA place 5 at 3,0 turn 1\n"


def write(tmp_path, text, name="game.gm"):
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def run(*args):
    return main(["session", "run", *args])


def test_the_header_picks_the_printed_language_and_its_runner_with_or_without_rules_only(
    tmp_path, capsys
):
    path = write(tmp_path, HEADER + OPENING + "expect resolving 3\nexpect field 3\n")
    assert run(path) == 0
    out = capsys.readouterr().out
    assert (
        "Gem Match, printed, field 8 by 8, seed 0 (on the referee: the printed game has no tiles)"
        in out
    )
    assert "A place 5 at 3,0 turn 1: a group of 3 G" in out
    assert "under the group: I3 RRPG, O14 RBGB, T23 PRGR" in out  # the player may look
    assert run("--rules-only", path) == 0
    assert "(rules only)" in capsys.readouterr().out
    assert printed_script.variant_of(HEADER) == "printed"
    assert printed_script.variant_of("seed 3\n") == "hex"


def test_looking_under_the_groups_tokens_and_taking_them(tmp_path, capsys):
    text = (
        HEADER
        + OPENING
        + (
            "expect under T23 PRGR\n"
            "expect cell 4,0 T23 basic\n"
            "A heap I3\n"
            "expect heap A 1\n"
            "expect cell 0,0 empty\n"
            "expect turn B\n"
            "expect resolving none\n"
        )
    )
    assert run("--json", write(tmp_path, text)) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["variant"] == "printed" and data["heaps"] == {"A": 1, "B": 0}
    hex_run = run("--json", "--rules-only", str(EXAMPLES / "rules-basics.gm"))
    hex_keys = set(json.loads(capsys.readouterr().out))
    assert hex_run == 0 and hex_keys <= set(data)  # the hex game's JSON keys, and the variant's


def test_a_failed_expect_exits_1_and_names_its_line(tmp_path, capsys):
    path = write(tmp_path, HEADER + OPENING + "expect under T23 PRGB\nexpect field 2\n")
    assert run(path) == 1
    err = capsys.readouterr().err
    assert f"{path}:7: expect under T23 PRGB: expected PRGB, got PRGR" in err
    assert f"{path}:8: expect field 2: expected 2, got 3" in err


@pytest.mark.parametrize(
    "text, line, message",
    [
        ("variant squares\n", 1, "expected `variant hex` or `variant printed`"),
        ("variant printed\nfield 5\n", 2, "expected `field N`, N from 6 to 12"),
        ("variant printed\ndeal\n", 2, "the printed game has no tiles to deal"),
        ("variant printed\ndeck I0 I1\n", 2, "a deck lists the 28 tokens"),
        ("variant printed\nA place 1 at 0,0\n", 2, "expected `place N at X,Y turn T`"),
        ("variant printed\nA place 1 at 0,-1 turn 0\n", 2, "expected a square X,Y like 3,0"),
        ("variant printed\nA heap I9\n", 2, "expected a token like L9"),
        ("variant printed\nA hand I3 shiny\n", 2, "expected a side, basic or improved"),
        ("variant printed\nA keep I3 basic\n", 2, "expected a move: place N at X,Y turn T"),
        ("variant printed\nexpect under I3 RRR\n", 2, "expected a side's four gems"),
        ("variant printed\nexpect resolving 2\n", 2, "resolving 3|4|5+|none"),
        ("variant printed\nA pass\nfield 8\n", 3, "`field` is setup"),
        ("seed 1\nA pass\nvariant printed\n", 3, "`variant` is setup"),
        ("variant hex\nvariant printed\n", 2, "expected `variant hex` (the tiles' game)"),
    ],
)
def test_a_malformed_line_names_its_line_and_exits_2(tmp_path, capsys, text, line, message):
    refused(tmp_path, capsys, text, line, message, ".gm")


@pytest.mark.parametrize(
    "moves, line, message",
    [
        ("A place 1 at 7,7 turn 0\n", 4, "may not cross the field's edge (8 by 8)"),
        ("A place 1 at 0,0 turn 4\n", 4, "never flipped"),
        ("B place 1 at 0,0 turn 0\n", 4, "it is A's turn, not B's"),
        ("A pass\n", 4, "a pass follows only a group of 4 or more"),
        ("A place 1 at 0,0 turn 0\nB place 1 at 0,0 turn 0\n", 5, "tokens may not overlap"),
        (OPENING + "A heap L10\n", 7, "L10 is not in the group of 3 (its tokens: I3 O14 T23)"),
        (
            OPENING + "A hand I3 basic\n",
            7,
            "a group of 3: one of its tokens goes to the victory heap",
        ),
        (OPENING + "expect under S19 RGBY\n", 7, "only the tokens of the group being resolved"),
    ],
)
def test_an_illegal_move_exits_2_naming_the_line_and_the_rule(
    tmp_path, capsys, moves, line, message
):
    out = refused(tmp_path, capsys, HEADER + moves, line, message, ".gm", "--json")
    assert json.loads(out)["game"] == "gemmatch"  # the game as it stood


def test_playtest_scripts_replay_green_with_blinks_session_run(tmp_path, capsys):
    args = ["playtest", "--game", "gemmatch", "--variant", "printed", "--field", "7"]
    assert main([*args, "--games", "3", "--seed", "4", "--scripts", str(tmp_path)]) == 0
    capsys.readouterr()
    scripts = sorted(tmp_path.glob("*.gm"))
    assert [p.name for p in scripts] == [f"greedy-greedy-seed{s}.gm" for s in (4, 5, 6)]
    text = scripts[0].read_text()
    assert "variant printed\nfield 7\nseed 4\n" in text
    state = printed_bots.play_game("greedy", seed=4, size=7)
    assert f"expect score A {state.score(0)}\n" in text
    assert text.count("\nA ") + text.count("\nB ") == len(state.history)
    assert run("-q", str(tmp_path)) == 0
    assert "3 scripts: 3 passed" in capsys.readouterr().out


def test_board_png_draws_the_printed_field_after_each_move_and_the_hex_game_draws_none(
    tmp_path, capsys
):
    folder = tmp_path / "boards"
    path = write(tmp_path, HEADER + OPENING)
    assert run("-q", "--board-png", str(folder), path) == 0
    names = sorted(p.name for p in folder.iterdir())
    assert names == [f"board-{n:03d}.png" for n in range(1, 5)]  # the deal and three moves
    assert (folder / "board-004.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    hex_script = str(EXAMPLES / "rules-basics.gm")
    assert run("--rules-only", "--board-png", str(tmp_path / "none"), hex_script) == 2
    assert "gemmatch scripts of this variant draw no board picture" in capsys.readouterr().err


def test_tiles_options_are_refused_for_the_printed_game(tmp_path, capsys):
    assert run("--ir-loss", "0.1", write(tmp_path, HEADER + OPENING)) == 2
    assert "the printed Gem Match is played on the referee only" in capsys.readouterr().err


def test_a_printed_move_reads_as_the_script_writes_it():
    for move in (pr.place(2, 3, (4, 1)), pr.heap(9), pr.keep(20, 1), pr.PASS, pr.SKIP_MOVE):
        (st,) = printed_script.parse_script(f"variant printed\nA {move}\n")[1:]
        assert st.move == move


@pytest.mark.parametrize("name", ["printed-game.gm", "printed-group-of-4.gm"])
def test_the_printed_examples_run_green(name, capsys):
    assert run(str(EXAMPLES / name)) == 0
    assert "0 expect(s) failed" in capsys.readouterr().out


def test_the_examples_folder_runs_both_variants_green(capsys):
    assert run("-q", "--rules-only", str(EXAMPLES)) == 0
    assert "4 scripts: 4 passed" in capsys.readouterr().out
