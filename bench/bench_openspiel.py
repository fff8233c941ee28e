"""OpenSpiel's bots on Lost Gems (simulator/envs/bots.py), the long runs the suite leaves out.

For each of openspiel:mcts and openspiel:ismcts, and our conventions bot beside them, both
seats the same bot, over the deals of seeds 0..N-1 (N = 20, 1 with --quick):
- vs_openspiel_<bot>_mean: mean score of 9, and vs_openspiel_<bot>_perfect_pct: % of 9-point
  games (machine-independent; docs/research.md keeps the 20-game figures);
- vs_openspiel_<bot>_s_per_game: wall-clock seconds a game on this machine.
No goal: these figures say where general-purpose search stands against our conventions.
"""

import time

from simulator.games.lostgems.playtest import run_games

BOTS = {"conventions": "conventions", "mcts": "openspiel:mcts", "ismcts": "openspiel:ismcts"}
WORDS = {
    "conventions": "our conventions bot",
    "mcts": "OpenSpiel's MCTS",
    "ismcts": "OpenSpiel's IS-MCTS",
}

FIGURES = {}
for _key, _words in WORDS.items():
    FIGURES[f"vs_openspiel_{_key}_mean"] = (
        f"Lost Gems' mean score with {_words} in both seats.",
        "—",
    )
    FIGURES[f"vs_openspiel_{_key}_perfect_pct"] = (
        f"% of those games that scored 9 ({_words}).",
        "—",
    )
    FIGURES[f"vs_openspiel_{_key}_s_per_game"] = (f"Wall s a game takes {_words}.", "—")


def run(quick):
    games = 1 if quick else 20
    out = {}
    for key, name in BOTS.items():
        start = time.perf_counter()
        scores = run_games(name, games, seed=0)
        seconds = (time.perf_counter() - start) / games
        out[f"vs_openspiel_{key}_mean"] = round(sum(scores) / games, 2)
        out[f"vs_openspiel_{key}_perfect_pct"] = round(100 * scores.count(9) / games, 1)
        out[f"vs_openspiel_{key}_s_per_game"] = round(seconds, 3)
    return out
