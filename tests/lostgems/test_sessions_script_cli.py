"""Session scripts through `blinks session run` (host_tools.cli.main): exit codes, the
`SCRIPT:LINE: message` errors and the JSON object of LOSTGEMS.md part 3."""

import json
import pathlib

import pytest

from host_tools.cli import main
from simulator.games.lostgems import GameState, shard_name

DECK = "deck R1 Y1 B1 R2 Y2 B2 R3 Y3 B3 R1 R1 Y1 Y1 B1 B1 R2 Y2 B2"
JSON_KEYS = {
    "score",
    "hints",
    "errors",
    "over",
    "turns",
    "jungle",
    "gems",
    "discards",
    "hands",
    "tiles",
    "deal_ms",
}


def run(tmp_path, capsys, text, *flags):
    path = tmp_path / "s.lg"
    path.write_text(text)
    code = main(["session", "run", str(path), "--rules-only", *flags])
    out, err = capsys.readouterr()
    return code, out, err, str(path)


MALFORMED = [
    ("dance 3", "expected a statement"),
    ("seed", "seed N"),
    ("seed abc", "seed N"),
    ("seed -4", "got '-4'"),
    ("deck R1 R2", "18 shards"),
    ("deck R1 Y1 B1 R2 Y2 B2 R3 Y3 B3 R1 R1 Y1 Y1 B1 B1 R2 Y2 Q9", "not a shard"),
    ("deck R1 R1 R1 R1 Y2 B2 R3 Y3 B3 R1 R1 Y1 Y1 B1 B1 R2 Y2 B2", "permutation"),
    ("deal hexagon", "SHAPE"),
    ("start C", "start A"),
    ("A hint colour green", "got colour"),
    ("A hint value 4", "got value"),
    ("A hint size 2", "hint colour"),
    ("A hint", "hint colour"),
    ("A play 3", "slot, 1 or 2"),
    ("A play one", "slot, 1 or 2"),
    ("B discard", "slot, 1 or 2"),
    ("A jump 1", "got 'jump'"),
    ("expect", "expect score"),
    ("expect score x", "expect score N"),
    ("expect colour 2", "then score"),
    ("expect over maybe", "expect over yes"),
    ("expect hints", "expect hints N"),
    ("expect tile x shows R1", "got 'x'"),
    ("expect tile 3 shows purple", "got 'purple'"),
    ("expect tile 3 is R1", "shows STATE"),
    ("expect score 1_0", "got '1_0'"),  # int() would read 10
    ("seed +5", "got '+5'"),
    ("expect jungle \u0661", "expect jungle N"),  # an Arabic-Indic digit
    ("expect score 10", "from 0 to 9"),
    ("expect hints 4", "from 0 to 3"),
    ("expect errors 3", "from 0 to 2"),
    ("expect jungle 15", "from 0 to 14"),
    ("expect score 0\u2028expect hints 3", "expect score N"),  # one line, two statements
]


@pytest.mark.parametrize("line,message", MALFORMED)
def test_each_malformed_statement_exits_2_naming_its_line(tmp_path, capsys, line, message):
    code, out, err, path = run(tmp_path, capsys, f"# a comment\n\n{DECK}\n{line}\nA play 1\n")
    assert code == 2
    assert err.startswith(f"{path}:4: ")
    assert message in err
    assert "turn" not in out  # nothing ran: the whole script is checked first


@pytest.mark.parametrize(
    "text,line,message",
    [
        (f"{DECK}\nA hint value 1\nseed 3\n", 3, "must come before the first move"),
        (f"{DECK}\ndeal\ndeck R1\n", 3, "18 shards"),
        (f"deal\n{DECK}\n", 2, "must come before `deal`"),
        ("deal\nseed 4\n", 2, "must come before `deal`"),
        ("seed 1\nseed 2\n", 2, "a second `seed`"),
        ("deal\ndeal line\n", 2, "a second `deal`"),
    ],
)
def test_setup_out_of_place_exits_2(tmp_path, capsys, text, line, message):
    code, _, err, path = run(tmp_path, capsys, text)
    assert code == 2 and err.startswith(f"{path}:{line}: ") and message in err


@pytest.mark.parametrize(
    "text,line,message",
    [
        (f"{DECK}\nB play 1\n", 2, "out of turn: it is A's turn"),
        (f"{DECK}\nstart B\nA play 1\n", 3, "out of turn: it is B's turn"),
        (f"{DECK}\nA discard 1\n", 2, "needs a spent hint token"),
        (
            f"{DECK}\nA hint value 1\nB hint value 1\nA hint value 1\nB hint value 1\n",
            5,
            "none is left",
        ),
        (
            (
                "deck R2 Y2 B1 R3 R1 Y1 B2 B3 Y3 R1 R1 Y1 Y1 B1 B1 R2 Y2 B2\n"
                "A play 1\nB play 2\nA hint value 1\n"
            ),
            4,
            "the game is over",
        ),
        (f"{DECK}\nexpect tile 0 shows face down\n", 2, "needs the simulator"),
    ],
)
def test_illegal_and_out_of_turn_moves_exit_2_naming_line_and_rule(
    tmp_path, capsys, text, line, message
):
    code, _, err, path = run(tmp_path, capsys, text)
    assert code == 2 and err.startswith(f"{path}:{line}: ") and message in err


def test_failed_expects_exit_1_and_the_session_goes_on(tmp_path, capsys):
    text = f"{DECK}\nexpect hints 2\nA hint value 1\nexpect hints 2\nexpect score 5\nB play 1\nexpect score 1\n"
    code, out, err, path = run(tmp_path, capsys, text)
    assert code == 1
    assert f"{path}:2: expect hints 2 failed: it is 3" in err
    assert f"{path}:5: expect score 5 failed: it is 0" in err
    assert f"{path}:4:" not in err and f"{path}:7:" not in err
    assert "turn 2" in out  # B's play still ran


def test_json_object_has_exactly_the_contract_keys_and_types(tmp_path, capsys):
    text = f"{DECK}\nA hint value 1\nB play 1\nA play 1\nB hint colour red\nA discard 1\nexpect jungle 11\n"
    code, out, err, _ = run(tmp_path, capsys, text, "--json")
    assert code == 0
    data = json.loads(out)  # stdout is the JSON alone; the transcript went to stderr
    assert set(data) == JSON_KEYS
    assert data == {
        "score": 2,
        "hints": 2,
        "errors": 0,
        "over": False,
        "turns": 5,
        "jungle": 11,
        "gems": {"R": 1, "Y": 0, "B": 1},
        "discards": ["Y1"],
        "hands": {"A": ["B2", "R3"], "B": ["R2", "Y2"]},
        "tiles": [],
        "deal_ms": None,
    }
    assert "turn 5" in err


def test_start_may_follow_the_deal(tmp_path, capsys):
    code, out, err, _ = run(tmp_path, capsys, f"{DECK}\ndeal\nstart B\nB hint value 1\n", "--json")
    assert code == 0, err
    assert json.loads(out)["turns"] == 1


def test_seed_flag_overrides_the_script_seed(tmp_path, capsys):
    code, out, _, _ = run(tmp_path, capsys, "seed 1\ndeal\n", "--seed", "2", "--json")
    hands = json.loads(out)["hands"]
    g = GameState(seed=2)
    assert code == 0 and hands["A"] == [shard_name(s) for s in g.hands[0]]
    assert hands["B"] == [shard_name(s) for s in g.hands[1]]
    code, out, _, _ = run(tmp_path, capsys, "seed 1\ndeal\n", "--json")
    assert json.loads(out)["hands"]["A"] == [shard_name(s) for s in GameState(seed=1).hands[0]]


def test_a_game_played_to_the_end_reports_over(tmp_path, capsys):
    # hint at 3 tokens, discard otherwise (legal whatever the shards) until the deck runs out
    from simulator.games.lostgems import Move, parse_shard

    g = GameState(deck=[parse_shard(x) for x in DECK.split()[1:]])
    lines = [DECK]
    while not g.over:
        move = Move.hint_value(3) if g.hints == 3 else Move.discard(1)
        lines.append(f"{'AB'[g.current]} {move}")
        g.apply(move)
    lines += ["expect over yes", "expect score 0", "expect jungle 0", f"expect turns {g.turns}"]
    code, out, err, path = run(tmp_path, capsys, "\n".join(lines[:-1]) + "\n", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["over"] is True and data["turns"] == g.turns and len(data["discards"]) == 15
    assert len(data["hands"]["A"]) + len(data["hands"]["B"]) == 3
    lines.append("A hint value 1")
    code, _, err, path = run(tmp_path, capsys, "\n".join(lines[:-2] + lines[-1:]) + "\n")
    assert code == 2 and f"{path}:{len(lines) - 1}: the game is over" in err


def test_line_numbers_count_newlines_only(tmp_path, capsys):
    # a form feed or vertical tab is whitespace inside a line, not a line break
    code, _, err, path = run(tmp_path, capsys, f"{DECK}\n\fexpect hints 3\nexpect jungle 99\n")
    assert code == 2 and err.startswith(f"{path}:3: ")


def test_a_byte_order_mark_and_crlf_line_ends_are_read_as_text(tmp_path, capsys):
    path = tmp_path / "s.lg"
    path.write_bytes(b"\xef\xbb\xbfexpect hints 3\r\nA hint value 1\r\nexpect hints 2\r\n")
    assert main(["session", "run", str(path), "--rules-only"]) == 0


def test_seed_flag_takes_what_the_seed_statement_takes(tmp_path, capsys):
    path = tmp_path / "s.lg"
    path.write_text("deal\n")
    with pytest.raises(SystemExit) as stop:
        main(["session", "run", str(path), "--rules-only", "--seed", "-1"])
    assert stop.value.code == 2 and "whole number" in capsys.readouterr().err


def test_an_illegal_move_mid_game_still_reports_earlier_failures_and_the_json(tmp_path, capsys):
    text = f"{DECK}\nexpect score 1\nA discard 1\n"
    code, out, err, path = run(tmp_path, capsys, text, "--json")
    assert code == 2
    assert err.index(f"{path}:2: expect score 1 failed") < err.index(f"{path}:3: illegal move")
    data = json.loads(out)  # the game as it stood when the script went wrong
    assert data["turns"] == 0 and data["hands"] == {"A": ["R1", "Y1"], "B": ["B1", "R2"]}
    # a script malformed before anything ran prints no JSON: there is no game to show
    code, out, _, _ = run(tmp_path, capsys, "A jump 1\n", "--json")
    assert code == 2 and out == ""


def test_unreadable_script_and_bad_ir_loss_exit_2(tmp_path, capsys):
    assert main(["session", "run", str(tmp_path / "none.lg"), "--rules-only"]) == 2
    assert "cannot read" in capsys.readouterr().err
    path = tmp_path / "s.lg"
    path.write_text("deal\n")
    assert main(["session", "run", str(path), "--rules-only", "--ir-loss", "2"]) == 2
    assert "--ir-loss" in capsys.readouterr().err


def test_examples_pass_rules_only(capsys):
    import pathlib

    root = pathlib.Path(__file__).resolve().parents[2] / "examples"

    def needs_tiles(path):
        code = [line.split("#", 1)[0] for line in path.read_text().splitlines()]
        return any(line.split()[:2] == ["expect", "tile"] for line in code)

    scripts = [p for p in sorted(root.glob("*.lg")) if not needs_tiles(p)]
    assert len(scripts) >= 2
    assert scripts
    for script in scripts:
        assert main(["session", "run", str(script), "--rules-only"]) == 0, capsys.readouterr().err


EXAMPLES = pathlib.Path(__file__).resolve().parents[2] / "examples"


@pytest.mark.parametrize("script", sorted(p.name for p in EXAMPLES.glob("*.lg")))
def test_every_example_runs_on_the_referee_alone_unless_it_checks_tiles(script, capsys):
    path = EXAMPLES / script
    checks_tiles = any(
        line.split("#")[0].split()[:2] == ["expect", "tile"]
        for line in path.read_text().splitlines()
    )
    code = main(["session", "run", str(path), "--rules-only"])
    err = capsys.readouterr().err
    assert code == (2 if checks_tiles else 0), err


def write_batch(folder):
    """Three scripts: one that holds, one whose expect fails, one with an illegal move."""
    folder.mkdir()
    (folder / "a-holds.lg").write_text(f"{DECK}\nA hint value 1\nexpect hints 2\n")
    (folder / "b-fails.lg").write_text(f"{DECK}\nexpect score 3\n")
    (folder / "c-illegal.lg").write_text(f"{DECK}\nA discard 1\n")
    (folder / "notes.txt").write_text("not a script\n")
    return [str(folder / n) for n in ("a-holds.lg", "b-fails.lg", "c-illegal.lg")]


def test_a_batch_runs_each_script_as_alone_and_exits_with_the_worst(tmp_path, capsys):
    holds, fails, illegal = write_batch(tmp_path / "scripts")
    code = main(["session", "run", str(tmp_path / "scripts"), "--rules-only"])  # the *.lg files
    out, err = capsys.readouterr()
    assert code == 2
    assert [line for line in out.splitlines() if line.startswith("== ")] == [
        f"== {holds}",
        f"== {fails}",
        f"== {illegal}",
    ]
    assert f"{holds}: score 0, not over; 0 expect(s) failed" in out
    assert f"{fails}:2: expect score 3 failed: it is 0" in err
    assert f"{illegal}:2: illegal move `A discard 1`" in err
    assert out.rstrip().endswith(
        "3 scripts: 1 passed, 1 failed (exit 1), 1 stopped by an error (exit 2)"
    )
    assert main(["session", "run", holds, fails, "--rules-only"]) == 1
    assert main(["session", "run", holds, holds, "--rules-only"]) == 0


def test_a_batch_with_json_prints_each_scripts_object_on_its_own_line(tmp_path, capsys):
    paths = write_batch(tmp_path / "scripts")
    alone = []
    for path in paths:
        main(["session", "run", path, "--rules-only", "--json"])
        alone.append(json.loads(capsys.readouterr().out))
    main(["session", "run", *paths, "--rules-only", "--json"])
    out, err = capsys.readouterr()
    assert [json.loads(line) for line in out.splitlines()] == alone
    assert "3 scripts: 1 passed" in err  # stdout holds only the JSON


def test_a_batch_with_no_script_is_an_error_naming_the_folder(tmp_path, capsys):
    (tmp_path / "empty").mkdir()
    assert main(["session", "run", str(tmp_path / "empty")]) == 2
    said = capsys.readouterr().err
    assert f"no session scripts (*.lg, *.wf, *.gm, *.gb) in {tmp_path / 'empty'}" in said


@pytest.mark.parametrize("suffix", [".lg", ".wf", ".gm", ".gb"])
@pytest.mark.parametrize("text", ["", "\n\n", "# a title and nothing else\n"])
def test_an_empty_script_says_so_and_exits_2(tmp_path, capsys, suffix, text):
    script = tmp_path / f"nothing{suffix}"
    script.write_text(text)
    assert main(["session", "run", str(script)]) == 2
    out, err = capsys.readouterr()
    assert err == f"{script}:1: the script is empty: expected a move or an expect line\n"
    assert "dealt" not in out


def test_quiet_leaves_out_the_transcript_but_not_what_went_wrong(tmp_path, capsys):
    holds, fails, illegal = write_batch(tmp_path / "scripts")
    assert main(["session", "run", holds, fails, illegal, "--rules-only", "-q"]) == 2
    out, err = capsys.readouterr()
    assert out.splitlines() == [
        f"{holds}: score 0, not over; 0 expect(s) failed",
        f"{fails}: score 0, not over; 1 expect(s) failed",
        "3 scripts: 1 passed, 1 failed (exit 1), 1 stopped by an error (exit 2)",
    ]
    assert f"{fails}:2: expect score 3 failed: it is 0" in err
    assert f"{illegal}:2: illegal move `A discard 1`" in err


def test_a_bad_option_in_a_batch_is_said_once_and_runs_nothing(tmp_path, capsys):
    paths = write_batch(tmp_path / "scripts")
    assert main(["session", "run", *paths, "--ir-loss", "2"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == "blinks session run: --ir-loss must be a probability between 0 and 1, got 2.0\n"


def test_ceiling_says_what_the_deal_allows_and_each_move_that_lowers_it(tmp_path, capsys):
    deck = "deck B3 R1 Y1 B1 R2 Y2 B2 R3 Y3 R1 R1 Y1 Y1 B1 B1 R2 Y2 B2"
    moves = "A hint value 1\nB hint value 1\nA discard 1\nB play 1\nexpect score 1\n"
    code, out, _, _ = run(tmp_path, capsys, f"{deck}\n{moves}", "--ceiling")
    assert code == 0
    lines = out.splitlines()
    assert lines[1] == "the deal can make 9 at best (every shard known)"
    drops = [i for i, line in enumerate(lines) if "can now make" in line]
    assert len(drops) == 1  # A's discard of the only B3, and nothing else, cost a point
    assert lines[drops[0] - 1].startswith("turn 3  A discard 1: B3 discarded")
    assert lines[drops[0]].strip() == "the game can now make 8 at best, not 9"
    code, plain, _, _ = run(tmp_path, capsys, f"{deck}\n{moves}")
    assert code == 0 and "at best" not in plain  # only when asked: a search per move
    _, with_ceiling, _, _ = run(tmp_path, capsys, f"{deck}\n{moves}", "--ceiling", "--json")
    _, without, _, _ = run(tmp_path, capsys, f"{deck}\n{moves}", "--json")
    assert json.loads(with_ceiling) == json.loads(without)  # the JSON of the contract, as it is


def test_a_start_after_the_deal_is_said_once_with_the_ceiling_for_who_starts(tmp_path, capsys):
    # This deal makes 8 at best when A starts, 9 when B does (B's first play is B1). Setup
    # comes before the first move, so the deal's line already knows that B starts.
    deck = "deck B3 R3 Y2 B1 Y3 Y1 Y1 Y2 R1 B1 R1 R2 B2 Y1 R1 R2 B2 B1"
    code, out, _, _ = run(tmp_path, capsys, f"{deck}\ndeal\nstart B\nB play 2\n", "--ceiling")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].endswith("; B starts")
    assert lines[1] == "the deal can make 9 at best (every shard known)"
    assert not any(line.endswith("A starts") or "8 at best" in line for line in lines)
    assert not any("can now make" in line for line in lines)  # B1 played: 9 still in reach


def test_a_failed_expect_is_said_once_whether_or_not_the_transcript_shares_the_terminal(
    tmp_path, capsys
):
    code, out, err, path = run(tmp_path, capsys, f"{DECK}\nexpect hints 2\n")
    assert code == 1
    assert (out + err).count("expect hints 2 failed") == 1
    assert f"{path}:2: expect hints 2 failed: it is 3" in err
    code, out, err, _ = run(tmp_path, capsys, f"{DECK}\nexpect hints 2\n", "--json")
    assert code == 1 and err.count("expect hints 2 failed") == 1  # the transcript is on stderr too


@pytest.mark.parametrize(
    "text, line",
    [
        ("expect score " + "0" * 5000, 2),  # zeros only: too long all the same
        ("seed " + "9" * 5000, 1),
        ("expect tile " + "7" * 4400 + " shows R1", 2),
    ],
)
def test_a_number_of_thousands_of_digits_is_malformed_not_a_crash(tmp_path, capsys, text, line):
    path = tmp_path / "s.lg"
    path.write_text(("" if text.startswith("seed") else "deal\n") + text + "\n")
    code = main(["session", "run", str(path)] + ([] if "tile" in text else ["--rules-only"]))
    err = capsys.readouterr().err
    assert code == 2
    assert err.startswith(f"{path}:{line}: ") and "more than 100 digits" in err
    assert len(err) < 400  # the number is not printed back whole


def test_a_seed_flag_of_thousands_of_digits_is_refused_by_the_option(tmp_path, capsys):
    path = tmp_path / "s.lg"
    path.write_text("deal\n")
    with pytest.raises(SystemExit) as stop:
        main(["session", "run", str(path), "--rules-only", "--seed", "9" * 5000])
    assert stop.value.code == 2
    assert "more than 100 digits" in capsys.readouterr().err


def test_a_script_that_is_not_utf8_is_refused_naming_its_line(tmp_path, capsys):
    path = tmp_path / "latin1.lg"
    path.write_bytes(f"{DECK}\nA hint value 1\n# caf\xe9 au lait\n".encode("latin-1"))
    assert main(["session", "run", str(path), "--rules-only"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"{path}:3: not UTF-8 text: byte 0xe9 at column 6")


def test_the_readmes_batch_of_the_examples_folder_succeeds_rules_only(capsys):
    assert main(["session", "run", str(EXAMPLES), "--rules-only"]) == 0
    out = capsys.readouterr().out
    assert "physical-deal-shapes.lg: skipped" in out
    assert out.rstrip().endswith("1 skipped (they check tiles: not with --rules-only)")
    # named on its own, a script that checks tiles is still refused with --rules-only
    named = str(EXAMPLES / "physical-deal-shapes.lg")
    assert main(["session", "run", named, "--rules-only"]) == 2


def test_blinks_session_alone_shows_the_whole_usage(capsys):
    assert main(["session"]) == 2
    usage = " ".join(capsys.readouterr().err.split())
    assert usage.startswith("usage: blinks session run")
    for option in ("--rules-only", "--seed", "--ir-loss", "--json", "-q", "--ceiling", "--mpy"):
        assert option in usage


def test_expect_tile_names_every_state_a_tile_can_show():
    # `uncertain` (a tile that voted in a deal and reset before it learned the outcome) is a
    # state the tiles show, so a script may expect it; a state no tile has is still refused
    from simulator.games.lostgems.script import ScriptError, parse_line

    st = parse_line(7, "expect tile 4 shows uncertain")
    assert (st.kind, st.tile, st.value) == ("expect_tile", 4, "uncertain")
    with pytest.raises(ScriptError) as err:
        parse_line(8, "expect tile 4 shows unsure")
    assert "uncertain" in str(err.value) and "unsure" in str(err.value)
