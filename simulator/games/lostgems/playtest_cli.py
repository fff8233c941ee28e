"""Lost Gems' `blinks playtest --bot NAME --games N --seed S [--json] [--plot FILE.png] [--physical]
[--jobs J] [--scripts DIR] [--ceiling] [--partner NAME] [--against NAME]`.

Runs N games between two copies of a bot (rules only, or with --physical through the simulated
tiles) and reports mean ± standard error, % perfect, % zero, the score histogram and where the
missing points went (lost_points.py); with --ceiling, also what each deal allowed at best
(deal_ceiling.py), so that points lost to the deal and to the play can be told apart. The
games can be shared out over J worker processes; the scores do not change. --scripts writes
each game as a session script that `blinks session run` replays.

--partner puts another bot in seat B: cross-play, how well a bot plays beside a partner who
does not share its conventions. --against plays the same deals with another bot in place of
--bot and compares the two deal by deal (a paired difference).
"""

import json
import os
import sys

from simulator.games.lostgems.bots import BEST_BOT, bot_class
from simulator.games.lostgems.deal_ceiling import deal_ceiling, first_player
from simulator.games.lostgems.lost_points import mean_losses, score_and_losses
from simulator.games.lostgems.playtest import (
    final_score,
    histogram_lines,
    paired_stats,
    pairing,
    plot_formats,
    run_games,
    save_plot,
    score_stats,
    write_game_scripts,
)
from simulator.games.lostgems.referee import IllegalMove
from simulator.output_path import output_problem
from simulator.play.figures import rounded
from simulator.play.playtest import problem
from simulator.play.spread import Interrupted


def add_arguments(options):
    """Lost Gems' options for `blinks playtest` (simulator.sessions.playtest_cli)."""
    options.standard("partner", "against", "physical", "scripts")
    options.add_argument(
        "--plot", metavar="FILE.png", help="save a histogram of the scores as a PNG"
    )
    options.add_argument(
        "--ceiling",
        action="store_true",
        help="also find each deal's ceiling, the best score players who knew the whole deck "
        "could make, to tell points the deal lost from points the play lost (a few ms a game)",
    )
    options.add_argument(
        "-j",
        "--jobs",
        type=int,
        default=1,
        metavar="J",
        help="worker processes to share the games out, 0 for one per CPU (default 1); "
        "the scores are the same whatever J",
    )
    options.add_argument(
        "--ray",
        metavar="ADDRESS",
        help="play the games as tasks on a Ray cluster at ADDRESS (`ray start --head` prints "
        "it), or `local` for a Ray instance of this machine with --jobs CPUs; the figures are "
        "those of -j 1 (pip install -e '.[cluster]')",
    )


def run(args, game):
    """Lost Gems' playtest (its descriptor's PLAYTEST): the options the driver checks for
    every game (simulator.play.playtest.problem), then Lost Gems' own batch."""
    if args.bot is None:
        args.bot = BEST_BOT
    wrong = problem(args, game, bot_class) or own_problem(args)
    if wrong:
        print(f"blinks playtest: {wrong}", file=sys.stderr)
        return 2
    try:
        return playtest(args)
    except IllegalMove as exc:  # a bot of your own broke a rule: say which, in which deal
        names = dict.fromkeys(n for n in (args.bot, args.partner, args.against) if n)
        print(
            f"blinks playtest: {' or '.join(names)} made a move the rules refuse ({exc})",
            file=sys.stderr,
        )
        return 1


def own_problem(args):
    """What is wrong with Lost Gems' own options, in one line, or None."""
    if args.jobs < 0:
        return f"--jobs must be 0 (one per CPU) or more, got {args.jobs}"
    if args.ray is not None:
        if args.physical or args.scripts:
            return "--ray plays rules-only games without --scripts (not --physical)"
        try:
            import ray  # noqa: F401
        except ImportError:
            return "--ray needs Ray: pip install -e '.[cluster]' (or pip install ray)"
    if args.plot is not None:
        return plot_problem(args.plot)
    return None


def plot_problem(path):
    """Why the histogram could not be saved at `path`, found before any game is played."""
    if not path:
        return "--plot needs a file name"
    unwritable = output_problem(path)
    if unwritable:
        return f"--plot {path}: {unwritable}"
    suffix = os.path.splitext(path)[1].lower()[1:]
    if suffix and suffix not in plot_formats():
        return f"--plot {path}: cannot write .{suffix} ({', '.join(sorted(plot_formats()))})"
    return None


def score_losses_and_ceiling(state):
    """A finished game as (score, lost_points, its deal's ceiling): what --ceiling keeps."""
    return (*score_and_losses(state), deal_ceiling(state.deck, first_player(state)))


def ceiling_stats(results):
    """What the deals allowed, over (score, lost, ceiling) results: the mean ceiling, the %
    of deals that cannot reach 9, the % of games that made their deal's ceiling, and the
    points per game lost to the play (ceiling - score)."""
    n = len(results)
    ceilings = [ceiling for _, _, ceiling in results]
    return {
        "mean": sum(ceilings) / n,
        "below_9_pct": 100.0 * sum(c < 9 for c in ceilings) / n,
        "reached_pct": 100.0 * sum(score == c for score, _, c in results) / n,
        "lost_to_play": sum(c - score for score, _, c in results) / n,
    }


def worst_games(results, first_seed, count=5):
    """The `count` games that fell furthest below their deal's ceiling, as (seed, score,
    ceiling), the biggest loss first (then the lowest seed): the ones to replay."""
    short = [
        (score - ceiling, first_seed + i, score, ceiling)
        for i, (score, _, ceiling) in enumerate(results)
        if score < ceiling
    ]
    return [(seed, score, ceiling) for _, seed, score, ceiling in sorted(short)[:count]]


class BatchStopped(Exception):
    """A batch that cannot go on: what to print after "blinks playtest: ", and the exit code."""

    def __init__(self, message, code):
        Exception.__init__(self, message)
        self.message = message
        self.code = code


def play_batch(args, bot, outcome, scripts=None):
    """outcome() of each game of `bot` in seat A (args.partner in seat B, or itself): on the
    simulated tiles with --physical, written into the folder `scripts` as session scripts, or
    by the rules alone. Raises BatchStopped."""
    if args.physical:
        try:
            from simulator.games.lostgems.physical import Mismatch, run_physical_games
        except ImportError:
            raise BatchStopped(
                "--physical needs the simulator runner (simulator.world and the Lost Gems "
                "firmware), which is not available",
                2,
            ) from None
        try:
            return with_progress(
                run_physical_games,
                bot,
                args.games,
                args.seed,
                long_run=5,
                jobs=args.jobs,
                outcome=outcome,
                partner=args.partner,
                scripts=scripts,
            )
        except Mismatch as exc:
            raise BatchStopped(f"the tiles disagree with the referee: {exc}", 1) from None
        except OSError as exc:
            raise BatchStopped(f"cannot write the scripts to {scripts}: {exc}", 2) from None
    if scripts:
        try:
            return with_progress(
                write_game_scripts,
                bot,
                args.games,
                args.seed,
                directory=scripts,
                outcome=outcome,
                partner=args.partner,
            )
        except OSError as exc:
            raise BatchStopped(f"cannot write the scripts to {scripts}: {exc}", 2) from None
    try:
        return with_progress(
            run_games,
            bot,
            args.games,
            args.seed,
            jobs=args.jobs,
            outcome=outcome,
            partner=args.partner,
            ray=args.ray,
        )
    except RuntimeError as exc:  # Ray could not start or reach its cluster
        raise BatchStopped(str(exc), 1) from None


def playtest(args):
    outcome = score_losses_and_ceiling if args.ceiling else score_and_losses
    try:
        results = play_batch(args, args.bot, outcome, args.scripts)
        other = args.against and play_batch(args, args.against, final_score)
    except BatchStopped as stop:
        print(f"blinks playtest: {stop.message}", file=sys.stderr)
        return stop.code
    except Interrupted as stop:
        return report_interrupted(args, stop.finished)
    stats = score_stats([result[0] for result in results])
    if args.ceiling:
        stats["ceiling"] = ceiling_stats(results)
        stats["ceiling"]["worst"] = worst_games(results, args.seed)
    if args.against:
        scores = [result[0] for result in results]
        theirs = score_stats(other)
        stats["against"] = {
            "bot": args.against,
            **{key: theirs[key] for key in ("mean", "stderr", "perfect_pct", "zero_pct")},
            **paired_stats(scores, other, args.seed),
        }
    stats.update(
        lost=mean_losses([result[1] for result in results]),
        bot=args.bot,
        partner=args.partner or args.bot,
        seed=args.seed,
        physical=bool(args.physical),
    )
    report(args, stats)  # before the plot: a plot that fails at the end loses no figures
    if args.plot:
        where = " on the tiles" if args.physical else ""
        title = (
            f"{pairing(args.bot, args.partner)}: {args.games} games from seed {args.seed}{where}"
        )
        try:
            save_plot(stats, args.plot, title)
        except (OSError, ValueError) as exc:
            print(f"blinks playtest: cannot save the plot to {args.plot}: {exc}", file=sys.stderr)
            return 2
        if not args.json:
            print(f"histogram saved to {args.plot}")
    return 0


def report_interrupted(args, finished):
    """Ctrl-C: the figures of the games that finished (exit 130), or only the word when none
    did. Their seeds need not run on from --seed, so the paired and ceiling figures, which
    name deals by seed, are left out."""
    results = [result for _start, chunk in finished for result in chunk]
    print(
        f"blinks playtest: interrupted after {len(results)} of {args.games} games",
        file=sys.stderr,
    )
    if results:
        stats = score_stats([result[0] for result in results])
        stats.update(
            lost=mean_losses([result[1] for result in results]),
            bot=args.bot,
            partner=args.partner or args.bot,
            seed=args.seed,
            physical=bool(args.physical),
            interrupted=True,
        )
        report(args, stats)
    return 130


def report(args, stats):
    """The figures on stdout: one JSON object with --json, else text and a histogram."""
    if args.json:
        print(json.dumps(rounded(stats)))
        return
    who = args.bot if not args.partner else pairing(args.bot, args.partner)
    print(f"{who}: {stats['games']} games from seed {args.seed}")
    print(
        f"mean {stats['mean']:.3f} ± {stats['stderr']:.3f} (standard error)   "
        f"perfect {stats['perfect_pct']:.1f}%   zero {stats['zero_pct']:.1f}%"
    )
    for line in histogram_lines(stats["histogram"]):
        print(line)
    lost = stats["lost"]
    print(
        f"points lost per game: {lost['last_copy_discarded']:.3f} last copy discarded, "
        f"{lost['last_copy_misplayed']:.3f} last copy misplayed, "
        f"{lost['out_of_turns']:.3f} out of turns, {lost['two_errors']:.3f} two errors"
    )
    if "ceiling" in stats:
        ceiling = stats["ceiling"]
        print(
            f"deal ceiling (every shard known): mean {ceiling['mean']:.3f}, "
            f"{ceiling['below_9_pct']:.1f}% of deals cannot reach 9; "
            f"{ceiling['reached_pct']:.1f}% of games made their deal's ceiling, "
            f"{ceiling['lost_to_play']:.3f} points per game lost to the play"
        )
        if ceiling["worst"]:
            games = ", ".join(
                f"seed {seed} ({score} of {c})" for seed, score, c in ceiling["worst"]
            )
            print(f"furthest below their deal's ceiling: {games}")
            print("  replay one: " + replay_hint(args, ceiling["worst"][0][0]))
    if "against" in stats:
        report_against(args, stats["against"])


def replay_hint(args, seed):
    """The commands that replay the game dealt from `seed` as this run played it: the same
    bots, on the tiles with --physical (whose deals differ from rules-only ones), saved as a
    script whose deck line makes `session run` replay that very game."""
    partner = f" --partner {args.partner}" if args.partner else ""
    physical = " --physical" if args.physical else ""
    return (
        f"blinks playtest --bot {args.bot}{partner}{physical} --games 1 --seed {seed} "
        "--scripts DIR, then blinks session run DIR --rules-only --ceiling"
    )


def report_against(args, against):
    """The lines of --against: the other bot's figures on the same deals, and the paired
    difference."""
    who = pairing(args.against, args.partner) if args.partner else args.against
    print(
        f"against {who} on the same deals: mean {against['mean']:.3f} ± "
        f"{against['stderr']:.3f}   perfect {against['perfect_pct']:.1f}%   "
        f"zero {against['zero_pct']:.1f}%"
    )
    print(
        f"{args.bot} minus {args.against}: {against['difference']:+.3f} ± "
        f"{against['difference_stderr']:.3f} points a deal (paired); better in "
        f"{against['better']} deals, the same in {against['same']}, worse in {against['worse']}"
    )
    if against["largest"]:
        games = ", ".join(
            f"seed {seed} ({score} vs {theirs})" for seed, score, theirs in against["largest"]
        )
        print(f"largest differences: {games}")


def with_progress(runner, bot, games, seed, long_run=20, **options):
    """Run the games with a progress line on stderr when it is a terminal and the run is not
    short: games done, games a second, and the time left."""
    if games < long_run or not sys.stderr.isatty():
        return runner(bot, games, seed, **options)
    from simulator.play.progress import games_progress

    with games_progress() as bar:
        task = bar.add_task(f"{bot}", total=games)
        return runner(
            bot, games, seed, progress=lambda done: bar.update(task, completed=done), **options
        )
