"""The referee against DeepMind's Hanabi Learning Environment (HLE), move by move.

hle/hle_games.json.gz holds 100 games HLE played with the Lost Gems settings (recorded by
hle/record_hle_games.py, which says how): the deck HLE dealt, the moves, and HLE's state after
every move. The referee replays each game and must agree on everything a state holds, its
hint knowledge (negative information included) and the legal moves, which may only add our
hints that point at no shard (HLE offers none).
"""

import gzip
import json
import pathlib

import pytest

from host_tools.cli import main
from simulator.games.lostgems import GameState, parse_shard
from simulator.games.lostgems.moves import HINT
from simulator.games.lostgems.observation import describe_knowledge
from simulator.games.lostgems.script import parse_line

RECORDED = pathlib.Path(__file__).parent / "hle" / "hle_games.json.gz"
GAMES = json.loads(gzip.decompress(RECORDED.read_bytes()))["games"]


def move_of(text):
    """A recorded move (`play 1`, `hint colour red`), read as a script's move statement."""
    return parse_line(0, "A " + text).move


def state_of(g):
    """The referee's state in the terms the recording uses."""
    d = g.to_dict()
    d["current"] = None if g.over else "AB"[g.current]
    d["knowledge"] = {
        p: [describe_knowledge(k) for k in g.knowledge[i]] for i, p in enumerate("AB")
    }
    legal = g.legal_moves()
    partner = g.hands[1 - g.current]
    pointless = [m for m in legal if m.kind == HINT and not any(m.matches(s) for s in partner)]
    d["legal"] = sorted(str(m) for m in legal if m not in pointless)
    return d


def test_the_recording_covers_every_way_a_game_ends():
    ends = [g["states"][-1] for g in GAMES]
    assert any(e["score"] == 9 for e in ends)
    assert any(e["errors"] == 2 for e in ends)
    assert any(e["jungle"] == 0 and e["errors"] < 2 and e["score"] < 9 for e in ends)


@pytest.mark.parametrize("game", GAMES, ids=lambda g: f"hle-seed{g['seed']}")
def test_referee_agrees_with_hle_after_every_move(game):
    g = GameState(deck=[parse_shard(s) for s in game["deck"]])
    assert state_of(g) == game["states"][0]
    for turn, (text, want) in enumerate(zip(game["moves"], game["states"][1:]), 1):
        g.apply(move_of(text))
        assert state_of(g) == want, f"after turn {turn}: {text}"
    assert g.over and g.legal_moves() == []


def test_session_scripts_end_where_hle_ends(tmp_path, capsys):
    # The same games as session scripts through `blinks session run --rules-only --json`.
    for game in GAMES[::10]:
        lines = ["deck " + " ".join(game["deck"])]
        lines += [f"{'AB'[i % 2]} {text}" for i, text in enumerate(game["moves"])]
        path = tmp_path / f"hle{game['seed']}.lg"
        path.write_text("\n".join(lines) + "\n")
        assert main(["session", "run", str(path), "--rules-only", "--json"]) == 0
        got = json.loads(capsys.readouterr().out)
        want = dict(game["states"][-1], tiles=[], deal_ms=None)
        for key in ("current", "knowledge", "legal"):
            del want[key]
        assert got == want, path.name
