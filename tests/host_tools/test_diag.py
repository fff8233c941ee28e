"""`blinks diag` without tiles: its usage errors, how it pairs faces and what it calls a failure.

The tiles' side runs on emulated tiles (tests/emu/test_emu_diag.py); here the judgement is fed
what tiles report, phase by phase, as host_tools/bridge/diag.py collects it.
"""

import json
from types import SimpleNamespace

import pytest

from host_tools import cli
from host_tools.bridge.diag import TileError, parse_result
from host_tools.bridge.diag_report import (
    build_report,
    check_expectations,
    failures,
    hearing,
    pairs_from,
    parse_expect,
    with_expected,
)

FRAMES = 50
SERIALS = ["aa" * 8, "bb" * 8, "cc" * 8]
GAP = 715.9


def session(index, heard=None, exchange=None, sweeps=None, echo=None, button="pressed"):
    """What a tile's phases returned: `heard` {face: [(tile, face, count)]}."""
    heard = heard or {}
    return SimpleNamespace(
        index=index,
        port=f"/dev/ttyACM{index}",
        error=None,
        probe={
            "serial": SERIALS[index],
            "micropython": "1.28.0",
            "board": "Raspberry Pi Pico with RP2040",
            "firmware": {"build": "abc"},
            "game": "games.lostgems:LostGems",
            "pass_us": 1900,
            "heap_free": 170000,
        },
        hello={
            "serial": SERIALS[index],
            "reply_gap_us_firmware": GAP,
            "deaf_us_firmware": 633.7,
            "gap_us": [44.5 + 26.9 * x for x in range(32)],
            "batch": 8,
        },
        echo=echo
        or {
            "faces": [
                {"face": f, "baseline_edges": 0, "echo_edges": 40, "own_bytes": 0} for f in range(6)
            ]
        },
        discover={
            "faces": [
                {
                    "face": f,
                    "heard": [[SERIALS[t], g, n] for t, g, n in heard.get(f, [])],
                    "other": 0,
                }
                for f in range(6)
            ]
        },
        exchange=exchange,
        sweeps=sweeps or {},
        pixels={"pixels": "shown"},
        button={"button": button},
    )


def counted(face, sent=FRAMES, received=FRAMES, bad=0, bit_errors=0):
    counts = {"face": face, "sent": sent, "received": received, "bad": bad}
    return {"faces": [{**counts, "bit_errors": bit_errors}]}


def swept(face, gap=313.1, answered=True):
    return {
        face: {
            "face": face,
            "answered": answered,
            "steps": [[31, 8, 1050]],
            "x_min": 10,
            "reply_gap_us_min": gap,
        }
    }


def judge(sessions, expect=()):
    heard, strangers = hearing([(s.index, s.hello["serial"], s.discover) for s in sessions])
    pairs = with_expected(pairs_from(heard), expect)
    return build_report(sessions, pairs, heard, strangers, expect, FRAMES)


def face(report, tile, f):
    return report["tiles"][tile]["faces"][f]


# ---- --expect ----------------------------------------------------------------------------------
def test_expect_names_two_faces_of_two_tiles_in_port_order():
    assert parse_expect("1:4-0:1", 2) == ((0, 1), (1, 4))
    for bad, words in [
        ("0:1", "TILE:FACE-TILE:FACE"),
        ("0:6-1:3", "TILE:FACE-TILE:FACE"),
        ("0:1-2:4", "there is no tile 2"),
        ("1:1-1:4", "cannot touch each other"),
    ]:
        with pytest.raises(ValueError, match=words):
            parse_expect(bad, 2)
    with pytest.raises(ValueError, match="both"):
        check_expectations([((0, 1), (1, 4)), ((0, 1), (2, 4))])


def test_bad_usage_exits_2_before_touching_a_tile(tmp_path, capsys):
    for argv, words in [
        (["diag"], "name each tile with --port"),
        (["diag", "--port", str(tmp_path)], "a folder"),
        (["diag", "--port", "/dev/null", "--port", "/dev/null"], "names the same tile"),
        (["diag", "--port", "/dev/ttyX0", "--expect", "0:1-1:4"], "no tile 1"),
        (["diag", "--port", "/dev/ttyX0", "--button-timeout", "0"], "--button-timeout"),
    ]:
        assert cli.main(argv) == 2
        assert words in capsys.readouterr().err


def test_a_tile_that_cannot_be_reached_fails_and_is_named(tmp_path, capsys):
    port = str(tmp_path / "ttyGONE")
    assert cli.main(["diag", "--port", port, "--json", "--no-button"]) == 1
    out, err = capsys.readouterr()
    report = json.loads(out)
    assert report["passed"] is False
    assert report["tiles"][0]["port"] == port and report["tiles"][0]["faces"] == []
    assert f"FAILED tile 0 ({port}): no such port" in err


# ---- what a tile prints ------------------------------------------------------------------------
def test_a_phase_result_is_the_json_line_after_the_dots():
    assert parse_result(b'....\r\n{"a": 1.5}\r\n') == {"a": 1.5}
    assert parse_result(b'{"b": [1, 2]}\r\n') == {"b": [1, 2]}
    for junk in (b"", b"...", b"..\r\nTraceback"):
        with pytest.raises(TileError):
            parse_result(junk)


# ---- neighbours --------------------------------------------------------------------------------
def test_faces_that_hear_each_other_pair_and_a_one_way_link_pairs_too():
    a = session(0, heard={2: [(1, 5, 40)], 3: [(2, 0, 9)]})
    b = session(1, heard={5: [(0, 2, 41)]})
    c = session(2, heard={})  # tile 2 face 0 hears nothing of tile 0 face 3
    heard, strangers = hearing([(s.index, s.hello["serial"], s.discover) for s in (a, b, c)])
    assert heard == {(0, 2): (1, 5), (1, 5): (0, 2), (0, 3): (2, 0)}
    assert strangers == {}
    assert pairs_from(heard) == [((0, 2), (1, 5)), ((0, 3), (2, 0))]


def test_frames_from_outside_the_diag_are_strangers_not_neighbours():
    a = session(0, heard={1: [(0, 4, 3)]})  # its own serial: not a neighbour
    a.discover["faces"][2]["heard"] = [["dd" * 8, 3, 7]]  # a tile not in this diag
    a.discover["faces"][4]["other"] = 5  # frames that are no ID frame (a game running)
    heard, strangers = hearing([(0, SERIALS[0], a.discover)])
    assert heard == {}
    assert strangers == {(0, 1): 3, (0, 2): 7, (0, 4): 5}


# ---- verdicts ----------------------------------------------------------------------------------
def test_a_good_pair_passes_and_lone_faces_are_not_judged():
    a = session(0, heard={2: [(1, 5, 40)]}, exchange=counted(2), sweeps=swept(2, 313.1))
    b = session(1, heard={5: [(0, 2, 40)]}, exchange=counted(5), sweeps=swept(5, 339.9))
    report = judge([a, b])
    assert report["passed"] is True and report["pairs"] == [[0, 2, 1, 5]]
    f = face(report, 0, 2)
    assert f["neighbour"] == {"tile": 1, "face": 5, "port": "/dev/ttyACM1"}
    assert (f["sent"], f["received"], f["bad"], f["bit_errors"]) == (50, 50, 0, 0)
    assert f["reply_gap_us_min"] == 313.1 and f["margin_us"] == round(GAP - 313.1, 1)
    assert f["passed"] is True and f["hears_itself"] is True
    lone = face(report, 0, 0)
    assert lone["neighbour"] is None and lone["passed"] is None and lone["sent"] is None
    assert report["tiles"][0]["heap_free_kb"] == 166.0
    assert failures(report) == []


def test_lost_and_bad_frames_and_a_short_margin_fail_the_face_and_say_how():
    a = session(
        0,
        heard={2: [(1, 5, 40)]},
        exchange=counted(2, received=47, bad=2, bit_errors=5),
        sweeps=swept(2, None),
    )
    b = session(1, heard={5: [(0, 2, 40)]}, exchange=counted(5), sweeps=swept(5, 740.0))
    report = judge([a, b])
    assert report["passed"] is False
    lines = failures(report)
    assert "tile 0 (/dev/ttyACM0) face 2: received 47 of 50 frames" in lines
    assert "tile 0 (/dev/ttyACM0) face 2: 2 bad frames, 5 bit errors" in lines
    assert (
        "tile 0 (/dev/ttyACM0) face 2: answers lost even at the longest reply gap, 878 us" in lines
    )
    assert (
        "tile 1 (/dev/ttyACM1) face 5: answers need a gap of 740 us, more than the "
        "firmware's 716 us" in lines
    )


def test_a_one_way_link_names_the_deaf_face_and_the_silent_one():
    a = session(0, heard={2: [(1, 5, 40)]}, exchange=counted(2, received=0), sweeps=swept(2))
    b = session(1, heard={}, exchange=counted(5, received=50), sweeps=swept(5))
    lines = failures(judge([a, b]))
    assert any(
        "tile 1 (/dev/ttyACM1) face 5: hears nothing from tile 0 face 2, which hears it" in line
        for line in lines
    )
    assert any(
        "tile 0 (/dev/ttyACM0) face 2: is not heard by tile 1 face 5, which it hears" in line
        for line in lines
    )


def test_an_expected_face_that_hears_nothing_is_cut_not_alone():
    a = session(0, exchange=counted(2, received=0), sweeps=swept(2, None, answered=False))
    b = session(1, exchange=counted(5, sent=0, received=0), sweeps=swept(5, None, answered=False))
    expect = [((0, 2), (1, 5))]
    report = judge([a, b], expect)
    assert report["passed"] is False and report["pairs"] == [[0, 2, 1, 5]]
    f = face(report, 0, 2)
    assert f["neighbour"] is None and f["expected"] == {"tile": 1, "face": 5}
    assert f["sent"] == 50 and f["received"] == 0 and f["passed"] is False
    lines = failures(report)
    assert "tile 0 (/dev/ttyACM0) face 2: expected to touch tile 1 face 5, heard nothing" in lines
    assert "tile 1 (/dev/ttyACM1) face 5: expected to touch tile 0 face 2, heard nothing" in lines
    # without --expect the same silence is no neighbour: nothing to judge
    alone = judge([session(0), session(1)])
    assert alone["passed"] is True and face(alone, 0, 2)["passed"] is None


def test_a_face_that_hears_its_own_frames_fails_even_alone_and_no_echo_is_a_note():
    echo = {
        "faces": [
            {"face": f, "baseline_edges": 0, "echo_edges": 0 if f == 1 else 30, "own_bytes": 0}
            for f in range(6)
        ]
    }
    echo["faces"][3]["own_bytes"] = 4
    echo["faces"][4]["baseline_edges"] = 2  # something lit it before it sent: not told
    report = judge([session(0, echo=echo)])
    assert report["passed"] is False
    assert face(report, 0, 3)["hears_own_frames"] is True
    assert face(report, 0, 3)["passed"] is False
    assert any("face 3: hears its own frames (4 bytes)" in line for line in failures(report))
    assert face(report, 0, 1)["hears_itself"] is False and face(report, 0, 1)["passed"] is None
    assert "no echo while it sends" in face(report, 0, 1)["notes"][0]
    assert face(report, 0, 4)["hears_itself"] is None


def test_the_button_and_a_dropped_tile_fail_the_tile():
    report = judge([session(0, button="not pressed"), session(1, button="held")])
    lines = failures(report)
    assert "tile 0 (/dev/ttyACM0): button not pressed within 15 s" in lines
    assert any(
        line.startswith("tile 1 (/dev/ttyACM1): button pressed but not let go") for line in lines
    )
    dropped = session(0)
    dropped.error = "the tile went silent for 60 s (hung?)"
    report = judge([dropped])
    assert report["tiles"][0]["passed"] is False
    assert failures(report) == ["tile 0 (/dev/ttyACM0): the tile went silent for 60 s (hung?)"]


# ---- the tile's side, its pure parts -----------------------------------------------------------
def test_the_pattern_counts_bit_errors_and_every_frame_fits_a_frame():
    from hal.diag import PATTERN, X_FRAME, bit_errors
    from hal.ir_frames import BOF, EOF, ESC, MAX_FRAME

    assert {BOF, EOF, ESC} <= set(PATTERN)  # the escapes are exercised too
    assert len(X_FRAME) <= MAX_FRAME and len(b"S..") + len(PATTERN) <= MAX_FRAME
    assert bit_errors(X_FRAME, X_FRAME) == 0
    flipped = bytearray(X_FRAME)
    flipped[3] ^= 0x81
    assert bit_errors(bytes(flipped), X_FRAME) == 2
    assert bit_errors(X_FRAME[:-2], X_FRAME) == 16


def test_the_table_names_each_face_its_neighbour_figures_and_verdict(capsys):
    from host_tools.cli.diag import print_report

    a = session(0, heard={2: [(1, 5, 40)]}, exchange=counted(2, received=47), sweeps=swept(2))
    b = session(1, heard={5: [(0, 2, 40)]}, exchange=counted(5), sweeps=swept(5, 339.9))
    print_report(judge([a, b]))
    out = capsys.readouterr().out
    assert "tile 1 face 5" in out and "313 us" in out and "403 us" in out
    assert "FAIL: received 47 of 50 frames" in out and "no neighbour" in out
    assert "pairs checked (found, or named by --expect): tile 0 face 2 - tile 1 face 5" in out


def test_a_missing_port_is_said_before_any_banner_or_table(tmp_path, capsys):
    port = str(tmp_path / "ttyNOPE")
    assert cli.main(["diag", "--port", port]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err == f"blinks diag: --port {port}: no such port (unplugged, or a wrong path?)\n"
