"""Sessions on the simulated tiles: every move made with lifts, clicks and holds in the headless
world, and the tiles checked against the referee after each one."""

import json
import pathlib

import pytest

from host_tools.cli import main
from simulator.games.lostgems import physical
from simulator.games.lostgems.bots import bot_class, play_game
from simulator.games.lostgems.lost_points import score_and_losses
from simulator.games.lostgems.physical import Table, physical_game, run_physical_games
from simulator.games.lostgems.playtest_cli import score_losses_and_ceiling

EXAMPLES = pathlib.Path(__file__).resolve().parents[2] / "examples"
DECK = "deck R1 Y1 B1 R2 Y2 B2 R3 Y3 B3 R1 R1 Y1 Y1 B1 B1 R2 Y2 B2"


@pytest.mark.parametrize("script", sorted(p.name for p in EXAMPLES.glob("*.lg")))
def test_every_example_passes_on_the_tiles(script, capsys):
    code = main(["session", "run", str(EXAMPLES / script), "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    data = json.loads(out)
    assert len(data["tiles"]) == 18
    assert all(set(t) == {"id", "shard", "state"} for t in data["tiles"])
    assert sorted(t["id"] for t in data["tiles"]) == list(range(18))
    assert isinstance(data["deal_ms"], int) and 0 < data["deal_ms"] < 60000
    states = [t["state"] for t in data["tiles"]]
    # the tiles agree with the referee's counts
    assert states.count("played") == sum(data["gems"].values())
    assert states.count("discarded") == len(data["discards"])
    assert states.count("revealed") == len(data["hands"]["A"]) + len(data["hands"]["B"])
    assert states.count("face down") == data["jungle"]


def test_deck_is_realised_by_the_tiles_picked(tmp_path, capsys):
    path = tmp_path / "s.lg"
    path.write_text(f"{DECK}\ndeal ring\nA play 1\nexpect score 1\n")
    assert main(["session", "run", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["hands"] == {"A": ["Y1", "Y2"], "B": ["B1", "R2"]}
    played = [t for t in data["tiles"] if t["state"] == "played"]
    assert [t["shard"] for t in played] == ["R1"]


def test_a_failed_deal_reports_no_made_up_game(tmp_path, capsys):
    path = tmp_path / "s.lg"
    path.write_text(f"{DECK}\nA play 1\n")
    assert main(["session", "run", str(path), "--ir-loss", "1.0", "--json"]) == 1
    out, err = capsys.readouterr()
    assert f"{path}:2: the deal:" in err
    data = json.loads(out)
    assert data["hands"] == {"A": [], "B": []} and data["jungle"] == 18 and data["turns"] == 0
    assert data["deal_ms"] is None
    assert [t["state"] for t in data["tiles"]] == ["undealt"] * 18  # the tiles as they are


def test_a_disagreement_between_tiles_and_referee_exits_1_naming_the_line(
    tmp_path, capsys, monkeypatch
):
    perform = Table.perform

    def sabotaged(self, event):
        perform(self, event)
        jungle_tile = self.order[self.next_draw]
        self.world.double_click(jungle_tile)  # a stray double-click reveals a jungle shard
        self.world.advance(500)

    monkeypatch.setattr(Table, "perform", sabotaged)
    path = tmp_path / "s.lg"
    path.write_text(f"{DECK}\nA hint value 1\nB play 1\n")
    assert main(["session", "run", str(path)]) == 1
    err = capsys.readouterr().err
    assert f"{path}:2: the tiles disagree with the referee after `A hint value 1`" in err
    assert "shows revealed" in err


def test_expect_tile_checks_state_or_shard_and_names_bad_tiles(tmp_path, capsys):
    table, _, _ = physical_game(seed=0, deck=None)
    first = table.hands[0][0]
    name = physical.shard_name(table.shards[first])
    path = tmp_path / "s.lg"
    path.write_text(
        f"expect tile {first} shows revealed\nexpect tile {first} shows {name}\n"
        f"expect tile {first} shows played\n"
    )
    assert main(["session", "run", str(path)]) == 1
    err = capsys.readouterr().err
    assert f"{path}:3: expect tile {first} shows played failed: it shows revealed {name}" in err
    assert f"{path}:1:" not in err and f"{path}:2:" not in err
    path.write_text("expect tile 40 shows played\n")
    assert main(["session", "run", str(path)]) == 2
    assert "there is no tile 40" in capsys.readouterr().err


def test_a_bot_game_on_the_tiles_matches_the_referee_move_by_move():
    # run_physical_games checks every tile after every move and raises on a disagreement
    scores = run_physical_games("conventions", 1, seed=2)
    assert len(scores) == 1 and 0 <= scores[0] <= 9


def test_physical_games_shared_out_over_workers_score_as_the_rules_do():
    # Two worker processes, one game each: the tiles agree with the referee in each, and the
    # outcomes come back in seed order, as the same bots score the same decks by the rules
    # alone, with where their missing points went and their deals' ceilings (what `blinks
    # playtest --physical --ceiling` reports). The tiles shuffle as the firmware does, so each
    # deck is read off its deal; seed 10 scores 9, seed 11 scores 8.
    outcome = score_losses_and_ceiling
    outcomes = run_physical_games("conventions", 2, seed=10, jobs=2, outcome=outcome)
    expected = []
    for seed in (10, 11):
        table, state, _ = physical_game(seed)
        table.close()
        expected.append(outcome(play_game(bot_class("conventions"), seed=seed, deck=state.deck)))
    assert outcomes == expected
    assert len({score for score, _, _ in outcomes}) == 2  # not two perfect games alike
    assert all(sum(lost) == 9 - score and score <= ceiling for score, lost, ceiling in outcomes)


def test_a_cross_play_game_on_the_tiles_scores_as_the_rules_do():
    # `blinks playtest --physical --partner cautious`: the cautious bot sits in seat B.
    outcome = score_and_losses
    got = run_physical_games("conventions", 1, seed=4, partner="cautious", outcome=outcome)
    table, state, _ = physical_game(4)
    table.close()
    conventions, cautious = bot_class("conventions"), bot_class("cautious")
    expected = outcome(play_game(conventions, seed=4, deck=state.deck, partner=cautious))
    assert got == [expected]
    assert expected != outcome(play_game(conventions, seed=4, deck=state.deck))


def test_physical_playtest_reports_a_disagreement_with_exit_1(capsys, monkeypatch):
    perform = Table.perform

    def sabotaged(self, event):
        perform(self, event)
        if self.board:
            self.world.lift(self.board[-1])  # a played shard taken off the board
            self.world.place(self.board[-1], 60, 60)
            self.world.advance(SABOTAGE_SETTLE_MS)

    monkeypatch.setattr(Table, "perform", sabotaged)
    code = main(["playtest", "--physical", "--games", "1", "--seed", "2"])
    err = capsys.readouterr().err
    assert code == 1, err
    assert "the tiles disagree with the referee: game 0 (seed 2), turn" in err


SABOTAGE_SETTLE_MS = 500


def test_a_session_on_the_tiles_says_when_the_ceiling_drops(capsys):
    script = EXAMPLES / "second-error.lg"
    assert main(["session", "run", str(script), "--ceiling"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "the deal can make 9 at best (every shard known)" in lines
    assert lines[-2].strip() == "the game can now make 0 at best, not 9"  # the second error
