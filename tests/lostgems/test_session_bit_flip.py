"""`blinks session run ... --ir-bit-flip P`, and the deal of issue 33 from the command line: a
script holding only `deal line`, seed 17, half the frames lost, used to exit 1 with 11 tiles
dealt and 7 not."""

import json
from collections import Counter

from host_tools.cli import main
from simulator.games.lostgems.shards import full_deck, shard_name

KEYS = {"score", "hints", "errors", "over", "turns", "jungle", "gems", "discards", "hands"}


def run(tmp_path, capsys, text, *options):
    path = tmp_path / "s.lg"
    path.write_text(text)
    code = main(["session", "run", str(path), *options])
    out, err = capsys.readouterr()
    return code, out, err


def test_deal_line_at_half_the_frames_lost_deals_the_whole_deck(tmp_path, capsys):
    code, out, err = run(
        tmp_path, capsys, "deal line\n", "--seed", "17", "--ir-loss", "0.5", "--json"
    )
    assert code == 0, err
    data = json.loads(out)
    assert Counter(t["state"] for t in data["tiles"]) == {"face down": 14, "revealed": 4}
    assert Counter(t["shard"] for t in data["tiles"]) == Counter(map(shard_name, full_deck()))


def test_a_session_runs_with_bit_flips_and_keeps_its_json(tmp_path, capsys):
    script = "deal ring\nA hint colour red\nexpect hints 2\n"
    code, out, err = run(
        tmp_path, capsys, script, "--seed", "4", "--ir-bit-flip", "0.003", "--json"
    )
    assert code == 0, err
    data = json.loads(out)
    assert set(data) == KEYS | {"tiles", "deal_ms"}
    assert data["hints"] == 2 and isinstance(data["deal_ms"], int)


def test_bad_bit_flip_rates_exit_2_with_a_message(tmp_path, capsys):
    for bad in ("1.01", "-1", "inf"):
        code, out, err = run(tmp_path, capsys, "deal\n", "--ir-bit-flip", bad)
        assert code == 2 and out == ""
        assert "--ir-bit-flip must be a probability between 0 and 1" in err
    code, _, err = run(tmp_path, capsys, "deal\n", "--rules-only", "--ir-bit-flip", "2")
    assert code == 2 and "--ir-bit-flip" in err
