"""Bots: deterministic, honest (their knowledge always contains the truth), and the
convention bot well ahead of the cautious one on the same deals."""

import json
import re
import sys

import pytest

from host_tools.cli import main
from simulator.games.lostgems import (
    GameState,
    UnknownBot,
    bot_class,
    play_game,
    run_games,
    score_stats,
)
from simulator.games.lostgems.bots.conventions import ConventionBot


def test_games_are_deterministic_per_seed():
    for name in ("cautious", "conventions"):
        a = play_game(bot_class(name), seed=11)
        b = play_game(bot_class(name), seed=11)
        assert [str(e.move) for e in a.history] == [str(e.move) for e in b.history]


def test_convention_knowledge_always_contains_the_real_hands():
    # The common-knowledge sets are built from hints only; if a convention decoded a hint
    # wrongly, some real hand would drop out of its set.
    for seed in range(40):
        g = GameState(seed=seed)
        bots = (ConventionBot(0), ConventionBot(1))
        obs = (g.observation(0), g.observation(1))
        while not g.over:
            p = g.current
            g.apply(bots[p].act(obs[p]))
            for q in (0, 1):
                bots[q].observe(obs[q], obs[q].last_event)
                for h in (0, 1):
                    assert tuple(g.hands[h]) in bots[q].sets[h], (seed, g.turns)


def test_bots_only_ever_make_legal_moves_and_finish():
    for name in ("cautious", "conventions"):
        for seed in range(30):
            g = play_game(bot_class(name), seed=seed)  # apply() raises on an illegal move
            assert g.over


def test_convention_bot_beats_the_cautious_bot_on_the_same_deals():
    cautious = score_stats(run_games("cautious", 150, seed=500))
    conventions = score_stats(run_games("conventions", 150, seed=500))
    assert conventions["mean"] > cautious["mean"] + 1.5
    assert conventions["zero_pct"] < 2.0


def test_score_stats():
    stats = score_stats([9, 9, 0, 6])
    assert stats["mean"] == 6.0 and stats["perfect_pct"] == 50.0 and stats["zero_pct"] == 25.0
    assert stats["histogram"] == [1, 0, 0, 0, 0, 0, 1, 0, 0, 2]
    assert abs(stats["stderr"] - (sum((s - 6) ** 2 for s in [9, 9, 0, 6]) / 3 / 4) ** 0.5) < 1e-12


def test_playtest_cli_json_text_and_plot(tmp_path, capsys):
    assert main(["playtest", "--bot", "cautious", "--games", "20", "--seed", "3", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["games"] == 20 and sum(data["histogram"]) == 20
    assert data["mean"] == score_stats(run_games("cautious", 20, seed=3))["mean"]
    png = tmp_path / "h.png"
    assert main(["playtest", "--bot", "conventions", "--games", "10", "--plot", str(png)]) == 0
    out = capsys.readouterr().out
    assert "mean" in out and "perfect" in out and "9 |" in out
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_playtest_cli_refuses_bad_input(capsys):
    assert main(["playtest", "--bot", "nobody", "--games", "5"]) == 2
    assert "known bots" in capsys.readouterr().err
    assert main(["playtest", "--games", "0"]) == 2
    assert main(["playtest", "--games", "5", "--jobs", "-1"]) == 2
    assert "--jobs" in capsys.readouterr().err


def test_worker_processes_give_the_same_scores_in_seed_order(capsys):
    # 130 games in chunks of 25 over 2 workers: the last chunk is short, and chunks finish
    # in any order; the scores must come back exactly as one process plays them.
    alone = run_games("conventions", 130, seed=40)
    done = []
    assert run_games("conventions", 130, seed=40, jobs=2, progress=done.append) == alone
    assert done[-1] == 130 and done == sorted(done)
    assert main(["playtest", "--games", "130", "--seed", "40", "--jobs", "0", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["mean"] == round(score_stats(alone)["mean"], 4)


def test_convention_bot_survives_a_partner_who_ignores_the_conventions():
    # A person (here: random legal moves) breaks the common knowledge; the bot falls back to
    # reading hints literally and keeps making legal moves with non-empty beliefs.
    import random

    for seed in range(25):
        rng = random.Random(seed)
        g = GameState(seed=seed)
        bot = ConventionBot(0)
        obs = g.observation(0)
        while not g.over:
            move = bot.act(obs) if g.current == 0 else rng.choice(g.legal_moves())
            g.apply(move)
            bot.observe(obs, obs.last_event)
            assert all(bot.sets[h] for h in (0, 1))


def test_rules_only_games_leave_no_reference_cycles():
    # run_games pauses the cycle collector, which is only safe while games make no cycles:
    # anything left for the collector here would leak in a long playtest.
    import gc

    run_games("cautious", 2, seed=1)
    assert gc.isenabled()  # restored after the batch
    gc.collect()
    gc.disable()
    try:
        for name in ("cautious", "conventions"):
            for seed in range(30):
                play_game(bot_class(name), seed=seed + 7)
            assert gc.collect() == 0, name
    finally:
        gc.enable()


def test_ctrl_c_stops_a_playtest_with_workers_cleanly():
    # Ctrl-C reaches the whole process group; workers leave it to the parent, which stops
    # handing out chunks, says so in one line and exits 130, leaving no worker behind.
    import os
    import signal
    import subprocess
    import sys
    import time

    # Python ignores SIGINT if its parent did (a test runner may): restore the usual handler.
    blinks = (
        "import signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler); "
        "from host_tools.cli import main; sys.exit(main(sys.argv[1:]))"
    )
    cmd = [sys.executable, "-c", blinks, "playtest", "--games", "100000", "--jobs", "2"]
    proc = subprocess.Popen(
        cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True
    )
    deadline = time.monotonic() + 60
    while not _children(proc.pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    workers = _children(proc.pid)
    assert workers, "the workers never started"
    time.sleep(0.5)  # let them get into their chunks
    os.killpg(proc.pid, signal.SIGINT)
    err = proc.communicate(timeout=60)[1]
    assert proc.returncode == 130, err
    said = err.decode().strip()
    assert said.startswith("blinks playtest: interrupted after ") and said.endswith(" games")
    for pid in workers:
        assert not os.path.exists(f"/proc/{pid}") or _is_zombie(pid)


def _children(pid):
    import subprocess

    found = subprocess.run(
        ["pgrep", "-P", str(pid)], check=False, capture_output=True, text=True
    ).stdout
    return [int(p) for p in found.split()]


def _is_zombie(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] == "Z"
    except FileNotFoundError:
        return True


MY_BOT = '''
from simulator.games.lostgems import Bot, Move


class HintThenPlay(Bot):
    """Hints while it can, then plays slot 1: a designer's first try."""

    def act(self, obs):
        if obs.hints > 0:
            return Move.hint_colour(0)
        return Move.play(1)
'''


def test_playtest_runs_a_bot_of_your_own_by_module_and_class(tmp_path, monkeypatch, capsys):
    (tmp_path / "mybots.py").write_text(MY_BOT)
    monkeypatch.chdir(tmp_path)  # found beside you, as `python -m` would
    monkeypatch.setattr(sys, "path", list(sys.path))  # the lookup adds the directory
    monkeypatch.delitem(sys.modules, "mybots", raising=False)
    for jobs in ("1", "2"):
        args = ["playtest", "--bot", "mybots:HintThenPlay", "--games", "60", "--jobs", jobs]
        assert main([*args, "--json"]) == 0
        data = json.loads(capsys.readouterr().out)
        assert data["bot"] == "mybots:HintThenPlay" and sum(data["histogram"]) == 60
    # It hints three times, then plays blind: every game ends early, mostly with two errors.
    scores = run_games("mybots:HintThenPlay", 60, seed=0)
    assert scores.count(0) > 30
    assert bot_class("mybots:HintThenPlay").__name__ == "HintThenPlay"


def test_a_bot_of_your_own_that_cannot_be_found_is_refused_clearly(tmp_path, monkeypatch, capsys):
    (tmp_path / "notmybots.py").write_text(MY_BOT + "\nNotABot = int\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", list(sys.path))
    monkeypatch.delitem(sys.modules, "notmybots", raising=False)
    for spec, says in (
        ("nosuchmodule:Bot", "cannot import 'nosuchmodule'"),
        ("notmybots:Missing", "notmybots has no Bot subclass called 'Missing'"),
        ("notmybots:NotABot", "no Bot subclass called 'NotABot'"),
        (":Bot", "name the module in full, not ''"),
        (".notmybots:Bot", "name the module in full, not '.notmybots'"),
    ):
        assert main(["playtest", "--bot", spec, "--games", "5"]) == 2
        assert says in capsys.readouterr().err, spec
        with pytest.raises(UnknownBot, match=says.replace("'", ".")):
            bot_class(spec)


def test_a_reader_that_goes_away_stops_blinks_quietly():
    # `blinks playtest | head -1`: the pipe closes under the report; no traceback, exit 141.
    import subprocess

    cmd = [sys.executable, "-m", "host_tools.cli", "playtest", "--bot", "cautious", "--games", "5"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.close()  # gone before the first line is written
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=60) == 141, err
    assert "Traceback" not in err


def test_playtest_writes_each_game_as_a_script_that_replays_it(tmp_path, capsys):
    # The script holds the deck, every turn and how the game ended: replayed by the session
    # runner on the referee, and on the simulated tiles, every expect holds.
    out = tmp_path / "games"
    assert main(["playtest", "--games", "3", "--seed", "11", "--scripts", str(out), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["games"] == 3
    scripts = sorted(out.glob("*.lg"))
    assert [p.name for p in scripts] == [f"conventions-seed{s}.lg" for s in (11, 12, 13)]
    for path, seed in zip(scripts, (11, 12, 13)):
        assert main(["session", "run", str(path), "--rules-only", "--json"]) == 0
        replayed = json.loads(capsys.readouterr().out.splitlines()[-1])
        played = play_game(ConventionBot, seed=seed)
        assert replayed["score"] == played.score and replayed["turns"] == played.turns
    assert main(["session", "run", str(scripts[0])]) == 0  # on the tiles too
    capsys.readouterr()
    assert main(["session", "run", str(out), "--rules-only", "-q"]) == 0  # the folder, a batch
    assert capsys.readouterr().out.splitlines()[-1].startswith("3 scripts: 3 passed")


def test_a_physical_game_is_saved_and_its_replay_hint_replays_that_very_game(tmp_path, capsys):
    # On the tiles the firmware shuffles, so seed 3 deals another game than rules-only; the
    # hint and the script must both be of the game that was played.
    out = tmp_path / "games"
    args = ["playtest", "--bot", "cautious", "--games", "1", "--seed", "3", "--physical"]
    assert main([*args, "--ceiling", "--scripts", str(out)]) == 0
    report = capsys.readouterr().out
    hint = report.split("replay one: ", 1)[1].splitlines()[0]
    assert hint.startswith("blinks playtest --bot cautious --physical --games 1 --seed 3 ")
    played = re.search(r"seed 3 \((\d) of 9\)", report).group(1)
    script = out / "cautious-seed3.lg"
    assert "on the tiles" in script.read_text().splitlines()[0]
    assert main(["session", "run", str(script), "--rules-only", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["score"] == int(played)
    assert main(["playtest", "--bot", "cautious", "--games", "1", "--seed", "3", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["mean"] != int(played)  # rules-only: another deal


def test_a_bot_never_gets_the_deal_seed_so_its_own_randomness_cannot_replay_the_shuffle():
    import random

    from simulator.games.lostgems.bots.base import Bot, bot_seed
    from simulator.games.lostgems.shards import full_deck, shuffled_deck

    seen = set()

    class Shuffler(Bot):
        """Remembers its seed, as a bot that shuffles with random.Random(self.seed) would."""

        def act(self, obs):
            seen.add((self.player, self.seed))
            return obs.legal_moves()[0]

    for seed in range(20):
        seen.clear()
        play_game(Shuffler, seed=seed)
        assert seen == {(0, bot_seed(seed, 0)), (1, bot_seed(seed, 1))}
        for _, own in seen:
            replay = full_deck()
            random.Random(own).shuffle(replay)
            assert replay != shuffled_deck(seed), seed
    assert bot_seed(7, 0) != bot_seed(7, 1)
