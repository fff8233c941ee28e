"""Batch playtests: many games between two copies of a bot (or a bot and a partner bot in
seat B, for cross-play), and their score statistics.

Game i is dealt from seed `seed + i`, so a run is reproducible and two bots can be compared
on the same deals; with several worker processes (`jobs`) the scores are the same, in the
same order.
"""

import gc
import math
import os
import signal
import threading
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from contextlib import contextmanager
from functools import partial

from simulator.games.lostgems.bots import bot_class, play_game
from simulator.games.lostgems.game_scripts import game_script, script_path
from simulator.games.lostgems.referee import IllegalMove
from simulator.play.spread import Interrupted, play_on_ray


@contextmanager
def no_cycle_collector():
    """Pause Python's cyclic garbage collector for a batch of games.

    The convention bot's memo caches grow to hundreds of thousands of long-lived entries,
    and every full collection walks them all again: about a third of a batch's time. Games
    make no reference cycles (a test checks), so reference counting alone frees them. What
    outlives the batch (the caches) is then moved out of the collector's sight (gc.freeze),
    or the first collection after it would walk everything the batch made. The price, in a
    long-lived process such as a notebook: objects alive at that moment that later become
    cyclic garbage stay in memory.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if was_enabled:
            gc.enable()


def final_score(state):
    """What a playtest keeps of a game by default: its score."""
    return state.score


def run_games(
    bot_name, games, seed=0, progress=None, jobs=1, outcome=final_score, partner=None, ray=None
):
    """Scores of `games` rules-only games, in seed order; `progress(done)` is called as games
    finish. `partner` names the bot in seat B (None: `bot_name` plays both seats). `jobs`
    worker processes share the games out (0: one per CPU); each worker keeps its own memo
    caches, so two workers give somewhat less than twice the speed. With `outcome`, a
    module-level function of a finished GameState (such as lost_points.score_and_losses), the
    list holds what it returns for each game instead."""
    play = partial(play_seeds, outcome=outcome, partner=partner)
    return share_out(
        play, bot_name, games, seed, progress, jobs, chunks=(25, 250), partner=partner, ray=ray
    )


def play_seeds(bot_name, games, seed, progress=None, outcome=final_score, partner=None):
    """outcome() of each rules-only game dealt from seeds seed .. seed + games - 1."""
    cls = bot_class(bot_name)
    partner_cls = partner and bot_class(partner)
    results = []
    with no_cycle_collector():
        try:
            for i in range(games):
                results.append(outcome(play_bot_game(cls, seed + i, partner_cls)))
                if progress:
                    progress(i + 1)
        except KeyboardInterrupt:
            raise Interrupted([(seed, results)] if results else []) from None
    return results


def play_bot_game(cls, seed, partner=None):
    """play_game, with the deal's seed in the message of a move the rules refuse (see
    naming_the_deal; spelt out here, as a context manager a game cost a batch 0.3%)."""
    try:
        return play_game(cls, seed=seed, partner=partner)
    except IllegalMove as exc:
        raise deal_named(exc, seed) from None


@contextmanager
def naming_the_deal(seed):
    """A move the rules refuse inside, raised again with the deal's seed in its message, so
    the author of a bot that broke a rule can replay that game."""
    try:
        yield
    except IllegalMove as exc:
        raise deal_named(exc, seed) from None


def deal_named(exc, seed):
    """The IllegalMove `exc`, its message naming the deal's seed."""
    return IllegalMove(f"in the game dealt from seed {seed}: {exc}")


def write_game_scripts(
    bot_name, games, seed, directory, progress=None, outcome=final_score, partner=None
):
    """Play the games in this process and write each as a session script into `directory`
    (see game_scripts.py); returns outcome() of each game (its score by default)."""
    cls = bot_class(bot_name)
    partner_cls = partner and bot_class(partner)
    os.makedirs(directory, exist_ok=True)
    results = []
    for i in range(games):
        state = play_bot_game(cls, seed + i, partner_cls)
        save_game_script(directory, state, bot_name, partner, seed + i)
        results.append(outcome(state))
        if progress:
            progress(i + 1)
    return results


def save_game_script(directory, state, bot_name, partner, seed, where=""):
    """Write a finished game into `directory` as `NAME-seedS.lg` (see game_scripts.py). Its
    `deck` line is the game's own draw order, so the script replays this very game, on the
    referee or on the tiles, whichever way it was dealt (`where` says how, in its title)."""
    title = f"{pairing(bot_name, partner)}, seed {seed}{where}: score {state.score}"
    name = bot_name if not partner else f"{bot_name}-{partner}"
    with open(script_path(directory, name, seed), "w") as f:
        f.write(game_script(state, title))


def pairing(bot_name, partner=None):
    """Who played, in words: "conventions playing both seats", or "conventions (A) with
    cautious (B)"."""
    if not partner or partner == bot_name:
        return f"{bot_name} playing both seats"
    return f"{bot_name} (A) with {partner} (B)"


def share_out(
    play, bot_name, games, seed, progress=None, jobs=1, chunks=(1, 4), partner=None, ray=None
):
    """`play(bot_name, games, seed, progress)` for seeds seed .. seed + games - 1, over `jobs`
    worker processes (0: one per CPU), or on Ray (`ray`: an address, or "local" for an instance
    of this machine with `jobs` CPUs); the games' results come back in seed order, whatever
    order the chunks finish in. `play` is pickled: a module-level function, or a partial of
    one. Ctrl-C raises spread.Interrupted with the chunks that finished.

    A chunk is about a sixteenth of a worker's share, within `chunks` = (fewest, most) games:
    fewer would cost more in messages than they balance, more would keep Ctrl-C waiting for
    the chunks under way and the progress bar still."""
    bot_class(bot_name)  # an unknown name fails here, not in a worker
    if partner:
        bot_class(partner)
    if jobs == 0:
        jobs = os.cpu_count() or 1
    fewest, most = chunks
    if ray is not None:
        # a cluster's size is not known here (8 is a guess), and a Ray task costs little, so
        # a chunk may be a single game: slow bots (search) then spread over every worker
        workers = jobs if jobs > 1 else 8
        chunk = max(1, min(most, games // (workers * 16)))
        parts = [
            (start, (bot_name, min(chunk, seed + games - start), start))
            for start in range(seed, seed + games, chunk)
        ]
        got = play_on_ray(play, parts, ray, cpus=jobs, progress=progress)
        return [result for part in got for result in part]
    chunk = max(fewest, min(most, games // (jobs * 16)))
    if jobs <= 1 or games < 2 * chunk:
        return play(bot_name, games, seed, progress)
    starts = list(range(seed, seed + games, chunk))
    scores = {}
    done = 0
    pool = ProcessPoolExecutor(
        max_workers=min(jobs, len(starts)),
        initializer=_leave_interrupts_to_the_parent,
        initargs=(os.getpid(),),
    )
    try:
        futures = {
            pool.submit(play, bot_name, min(chunk, seed + games - start), start): start
            for start in starts
        }
        try:
            for future in as_completed(futures):
                got = future.result()
                scores[futures[future]] = got
                done += len(got)
                if progress:
                    progress(done)
        except KeyboardInterrupt:
            raise Interrupted(sorted(scores.items())) from None
    finally:
        # On an error or Ctrl-C, do not wait for the chunks still queued.
        pool.shutdown(cancel_futures=True)
    return [score for start in starts for score in scores[start]]


ORPHAN_CHECK_S = 0.2  # how often a worker looks whether its parent is still there


def _leave_interrupts_to_the_parent(parent):
    """Workers ignore Ctrl-C: the parent stops handing out chunks and reports it once. A
    worker whose parent is gone (killed by SIGTERM or SIGKILL, which no handler of the
    parent's can tidy up after) ends itself, so none is left holding the parent's stdout
    for a caller that reads it to its end. `parent` is the parent's pid as the parent read it:
    the worker's own os.getppid() may already be its new reaper's, when the parent was killed
    before the worker got to run this."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_end_with, args=(parent,), daemon=True).start()


def _end_with(parent):
    while os.getppid() == parent:
        time.sleep(ORPHAN_CHECK_S)
    os._exit(1)


def score_stats(scores):
    """Mean, standard error, % perfect (9), % zero, and the histogram of scores 0..9."""
    n = len(scores)
    if n == 0:
        raise ValueError("no games to summarise")
    mean = sum(scores) / n
    var = sum((s - mean) ** 2 for s in scores) / (n - 1) if n > 1 else 0.0
    histogram = [0] * 10
    for s in scores:
        histogram[s] += 1
    return {
        "games": n,
        "mean": mean,
        "stderr": math.sqrt(var / n),
        "perfect_pct": 100.0 * histogram[9] / n,
        "zero_pct": 100.0 * histogram[0] / n,
        "histogram": histogram,
    }


def paired_stats(scores, other_scores, first_seed, count=5):
    """Two bots on the same deals (game i dealt from first_seed + i): the mean difference per
    deal (scores - other_scores) and its standard error, which pairing makes far smaller than
    comparing two means would, as most of a score's spread is the deal's; how many deals came
    out better, the same and worse; and the `count` deals with the largest differences, as
    (seed, score, other score), largest first (then the lowest seed)."""
    if len(scores) != len(other_scores) or not scores:
        raise ValueError("paired_stats needs two equally long, non-empty lists of scores")
    n = len(scores)
    diffs = [a - b for a, b in zip(scores, other_scores)]
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1) if n > 1 else 0.0
    ranked = sorted((-abs(d), i) for i, d in enumerate(diffs) if d)
    return {
        "difference": mean,
        "difference_stderr": math.sqrt(var / n),
        "better": sum(d > 0 for d in diffs),
        "same": sum(d == 0 for d in diffs),
        "worse": sum(d < 0 for d in diffs),
        "largest": [(first_seed + i, scores[i], other_scores[i]) for _, i in ranked[:count]],
    }


def histogram_lines(histogram, width=40):
    """The score histogram as terminal bars, one line per score."""
    top = max(histogram) or 1
    total = sum(histogram) or 1
    lines = []
    for score, count in enumerate(histogram):
        bar = "█" * round(width * count / top)
        lines.append(f"{score} | {bar:<{width}} {count:>6} ({100.0 * count / total:5.1f}%)")
    return lines


def plot_formats():
    """The file suffixes save_plot can write (png, svg, pdf, ...)."""
    from matplotlib.backend_bases import FigureCanvasBase

    return set(FigureCanvasBase.get_supported_filetypes())


def save_plot(stats, path, title):
    """Save the score histogram at exactly `path` (matplotlib, Agg backend: no display needed):
    in the format its suffix names, PNG when it has none (matplotlib would add ".png")."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    fig, ax = plt.subplots(figsize=(6, 4))
    ax.bar(range(10), stats["histogram"], color="#3a7bd5")
    ax.set_xticks(range(10))
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))  # no half games
    ax.set_xlabel("score")
    ax.set_ylabel("games")
    ax.set_title(
        f"{title}\nmean {stats['mean']:.3f} ± {stats['stderr']:.3f}, "
        f"{stats['perfect_pct']:.1f}% perfect, {stats['zero_pct']:.1f}% zero"
    )
    fig.tight_layout()
    try:
        fig.savefig(path, format=os.path.splitext(path)[1][1:].lower() or "png")
    finally:
        plt.close(fig)
