"""Cross-play: a bot with a partner who does not share its conventions, as measured by
`blinks playtest --partner`."""

import json

from host_tools.cli import main
from simulator.sessions.bots.base import seated_bots
from simulator.sessions.playtest import run_games
from simulator.sessions.referee import GameState


def play_seated(a, b, seed, watch=None):
    """A game between bot classes a (seat A) and b (seat B); `watch(state, bots)` after every
    turn. Returns the state and the bots."""
    state = GameState(seed=seed)
    bots = seated_bots(a, b, seed)
    obs = (state.observation(0), state.observation(1))
    while not state.over:
        p = state.current
        state.apply(bots[p].act(obs[p]))
        for q in (0, 1):
            bots[q].observe(obs[q], obs[q].last_event)
        if watch:
            watch(state, bots)
    return state, bots


def test_playtest_partner_names_the_pairing_and_gives_the_same_scores_over_workers(capsys):
    assert main(["playtest", "--bot", "conventions", "--partner", "cautious", "--games", "60"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("conventions (A) with cautious (B): 60 games from seed 0\n")
    argv = ["playtest", "--bot", "conventions", "--partner", "cautious", "--games", "60", "--json"]
    assert main(argv) == 0
    one = json.loads(capsys.readouterr().out)
    assert main([*argv, "--jobs", "2"]) == 0
    two = json.loads(capsys.readouterr().out)
    assert one == two
    assert one["bot"] == "conventions" and one["partner"] == "cautious"
    expected = run_games("conventions", 60, partner="cautious")
    assert one["histogram"] == [expected.count(s) for s in range(10)]
    assert main(["playtest", "--bot", "cautious", "--games", "5", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["partner"] == "cautious"  # both seats


def test_an_unknown_partner_is_one_line_before_any_game(capsys):
    assert main(["playtest", "--partner", "nobody", "--games", "5"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("playtest: --partner: no bot called 'nobody'")


def test_partner_games_written_as_scripts_replay_to_their_scores(tmp_path, capsys):
    folder = tmp_path / "games"
    argv = ["playtest", "--bot", "cautious", "--partner", "conventions", "--games", "3"]
    assert main([*argv, "--seed", "5", "--scripts", str(folder), "--json"]) == 0
    scores = run_games("cautious", 3, seed=5, partner="conventions")
    capsys.readouterr()
    for i, score in enumerate(scores):
        path = folder / f"cautious-conventions-seed{5 + i}.lg"
        text = path.read_text()
        assert text.startswith(f"# cautious (A) with conventions (B), seed {5 + i}: score {score}")
        assert main(["session", "run", str(path), "--rules-only", "--json"]) == 0
        assert json.loads(capsys.readouterr().out)["score"] == score
