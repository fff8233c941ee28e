"""The recording file: written as events happen, read back with clear errors on bad input."""

import json

import pytest

from simulator.app.recorder import Recorder, RecordingError, Replay, load


def test_round_trip(tmp_path):
    path = str(tmp_path / "run.jsonl")
    rec = Recorder(
        path,
        {"game": "demo", "seed": 3, "tiles": 2, "ir_loss": 0.0, "layout": [[0, 0, 0], [1, 0, 0]]},
    )
    rec.record(100, "press", tile=1)
    rec.record(180, "release", tile=1)
    rec.record(200, "place", tile=0, q=2, r=-1, rot=3)
    rec.close(500)
    header, events = load(path)
    assert header["seed"] == 3 and header["layout"] == [[0, 0, 0], [1, 0, 0]]
    assert [(e["t"], e["op"]) for e in events] == [
        (100, "press"),
        (180, "release"),
        (200, "place"),
        (500, "end"),
    ]
    replay = Replay(events)
    assert replay.next_time() == 100 and replay.end_time == 500
    assert replay.pop()["tile"] == 1
    assert not replay.done


def _write(tmp_path, lines):
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return str(path)


HEADER = json.dumps(
    {"kind": "blinks-sim", "version": 1, "seed": 0, "tiles": 1, "layout": [[0, 0, 0]]}
)


@pytest.mark.parametrize(
    "lines, message",
    [
        (["not json"], ":1: not JSON"),
        ([json.dumps({"kind": "other"})], "not a blinks sim recording"),
        ([HEADER, json.dumps({"t": 5, "op": "explode"})], ":2: unknown op 'explode'"),
        ([HEADER, json.dumps({"t": 5, "op": "press"})], ":2: 'press' needs an integer 'tile'"),
        (
            [HEADER, json.dumps({"t": 9, "op": "end"}), json.dumps({"t": 5, "op": "end"})],
            ":3: time 5 goes back",
        ),
        ([], "empty recording"),
        ([HEADER.replace(', "layout": [[0, 0, 0]]', "")], ":1: the header needs a 'layout'"),
        ([HEADER.replace("[[0, 0, 0]]", "[[0, 0]]")], ":1: the header needs a 'layout'"),
        ([HEADER.replace("[[0, 0, 0]]", "[[0, 0, 0.5]]")], ":1: the header needs a 'layout'"),
        (
            [HEADER.replace("[[0, 0, 0]]", "[[0, 0, 0], [0, 0, 1]]")],
            ":1: the layout puts two tiles on one cell",
        ),
        ([HEADER.replace('"seed": 0', '"seed": 0, "ir_loss": "x"')], ":1: 'ir_loss' must be"),
        ([HEADER.replace('"seed": 0', '"seed": 0, "ir_loss": 2')], ":1: 'ir_loss' must be"),
        ([HEADER.replace('"seed": 0', '"seed": 0, "game": 5')], ":1: 'game' must be"),
        ([HEADER.replace('"seed": 0', '"seed": "0"')], ":1: the header needs an integer 'seed'"),
    ],
)
def test_bad_files_name_the_line(tmp_path, lines, message):
    with pytest.raises(RecordingError) as err:
        load(_write(tmp_path, lines))
    assert message in str(err.value)


def test_missing_file_is_a_clear_error(tmp_path):
    with pytest.raises(RecordingError, match="cannot read"):
        load(str(tmp_path / "nope.jsonl"))


def test_a_file_that_is_not_text_is_a_clear_error(tmp_path):
    picture = tmp_path / "shot.png"
    picture.write_bytes(b"\x89PNG\r\n\x1a\n\x00")
    with pytest.raises(RecordingError, match=r"shot.png: not a blinks sim recording \(not UTF-8"):
        load(str(picture))


def test_unknown_op_cannot_be_recorded(tmp_path):
    rec = Recorder(str(tmp_path / "r.jsonl"), {"seed": 0, "tiles": 0})
    with pytest.raises(ValueError):
        rec.record(0, "teleport", tile=1)
