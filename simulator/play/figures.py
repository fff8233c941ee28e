"""The figures every playtest reports, written once: means with their standard errors, each
seat's score and wins, each bot's when two meet, and JSON's rounding."""

import math
from collections import Counter

JSON_DECIMALS = 4  # figures in --json: 66.6667, not 66.66666666666667


def rounded(figures):
    """The figures with every float rounded to JSON_DECIMALS places, however deeply nested."""
    if isinstance(figures, float):
        return round(figures, JSON_DECIMALS)
    if isinstance(figures, dict):
        return {key: rounded(value) for key, value in figures.items()}
    if isinstance(figures, (list, tuple)):
        return [rounded(value) for value in figures]
    return figures


def mean_err(values):
    """(mean, standard error of the mean) of a list of numbers."""
    n = len(values)
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / (n - 1) if n > 1 else 0.0
    return mean, math.sqrt(var / n)


def seat_figures(name, states, seat_names):
    """A competitive game's opening figures over finished referees: each seat's mean score and
    its standard error, the winner's mean score, and wins by seat ("tie" when several won)."""
    n = len(states)
    figures = {"game": name, "games": n, "players": len(seat_names)}
    figures["mean"], figures["stderr"] = {}, {}
    for p, seat in enumerate(seat_names):
        figures["mean"][seat], figures["stderr"][seat] = mean_err([s.score(p) for s in states])
    figures["mean_winner"] = sum(max(s.scores) for s in states) / n
    wins = Counter()
    for s in states:
        w = s.winners()
        wins[seat_names[w[0]] if len(w) == 1 else "tie"] += 1
    figures["wins"] = {k: wins[k] for k in tuple(seat_names) + ("tie",)}
    return figures


def ended_fractions(states, ends):
    """{how a game ended: the fraction of games that ended so}, for each of `ends`."""
    counts = Counter(s.ended for s in states)
    return {e: counts[e] / len(states) for e in ends}


def with_bots(figures, games):
    """The figures, with by_bot's when several bots played."""
    bots = by_bot(games)
    if bots:
        figures["by_bot"] = bots
    return figures


def seats_words(args):
    """Who played, as a report's headline says it: the bot, or the two bots that met."""
    return f"{args.bot} against {args.against}" if args.against else args.bot


def by_bot(games):
    """When several bots played (games as (referee, bot name per seat)): {bot: its mean score,
    standard error and games won alone}, else None."""
    bots = sorted({b for _, seats in games for b in seats})
    if len(bots) < 2:
        return None
    out = {}
    for b in bots:
        scores, won = [], 0
        for s, seats in games:
            for p in range(len(seats)):
                if seats[p] == b:
                    scores.append(s.score(p))
                    won += s.winners() == [p]
        mean, err = mean_err(scores)
        out[b] = {"mean": mean, "stderr": err, "wins": won}
    return out


def seat_lines(figures):
    """The report's lines for seat_figures: each seat's mean and wins, the ties, and each bot's
    when several played (by_bot)."""
    lines = [
        f"seat {seat}: mean {mean:.3f} ± {figures['stderr'][seat]:.3f} (standard error), "
        f"won {figures['wins'][seat]}"
        for seat, mean in figures["mean"].items()
    ]
    lines.append(
        f"ties: {figures['wins']['tie']}; winner's mean score {figures['mean_winner']:.3f}"
    )
    return lines + bot_lines(figures)


def report_seats(args, head, figures, ends):
    """Print a points game's report up to its own figures: `head`, that the tiles agreed
    (--physical), each seat's figures (seat_lines) and how the games ended (`ends`: [(end,
    words)]) with the turns a game."""
    print(head)
    if getattr(args, "physical", False):
        print("every move also played on 27 simulated tiles: they agreed with the referee")
    for line in seat_lines(figures):
        print(line)
    ended = ", ".join(f"{words} {100 * figures['ended'][end]:.1f}%" for end, words in ends)
    print(f"ended: {ended}; turns a game {figures['mean_turns']:.1f}")


def bot_lines(figures):
    """The report's line for each bot of by_bot, if any."""
    return [
        f"{bot}: mean {f['mean']:.3f} ± {f['stderr']:.3f}, won {f['wins']}"
        for bot, f in sorted(figures.get("by_bot", {}).items())
    ]
