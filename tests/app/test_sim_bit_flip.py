"""`blinks sim --ir-bit-flip P`: the world's links flip bits, a recording keeps the rate and its
replay uses it again; bad values exit 2 with a message."""

import json

import pytest

from host_tools.cli import main as blinks
from simulator.app import recorder


def test_bad_bit_flip_rates_exit_2_with_a_message(capsys):
    for bad in ("1.5", "-0.1", "nan"):
        assert blinks(["sim", "--ir-bit-flip", bad]) == 2
        assert "--ir-bit-flip must be a probability between 0 and 1" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exc:
        blinks(["sim", "--ir-bit-flip", "often"])
    assert exc.value.code == 2
    assert "--ir-bit-flip" in capsys.readouterr().err


def test_the_world_flips_bits_and_a_replay_flips_them_the_same(make_app, tmp_path):
    path = str(tmp_path / "run.jsonl")
    app = make_app(seed=3, ir_bit_flip=0.01, record=path)
    app.advance(2000)
    assert app.world.ir.bit_flip == 0.01 and app.world.ir.flipped > 0
    leds = [app.world.leds(t) for t in app.world.tiles]
    flipped = app.world.ir.flipped
    app.close()
    with open(path) as f:
        assert json.loads(f.readline())["ir_bit_flip"] == 0.01
    again = make_app(replay=path)
    again.advance(2000)
    assert again.world.ir.bit_flip == 0.01 and again.world.ir.flipped == flipped
    assert [again.world.leds(t) for t in again.world.tiles] == leds


def test_a_recording_with_a_bad_bit_flip_rate_is_refused(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text(
        '{"kind": "blinks-sim", "version": 1, "seed": 0, "tiles": 1, "ir_bit_flip": 2,'
        ' "layout": [[0, 0, 0]]}\n'
    )
    with pytest.raises(recorder.RecordingError, match="'ir_bit_flip' must be a probability"):
        recorder.load(str(bad))
