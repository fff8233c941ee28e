"""The playtest driver every game shares (`blinks playtest --game NAME`): checks the options,
plays game i from seed S+i with the bots in their seats, writes each game as a session script
(--scripts), replays it on the simulated tiles (--physical), and prints the game's figures.

A game's playtest module (its descriptor's PLAYTEST) gives the game's parts:
- `add_arguments(options)`: the options it takes (simulator.sessions.playtest_cli.Options);
- `BEST_BOT`, `bot_class(name)` (raises a KeyError whose message names the bots there are);
- `play(seats, seed, players)`: a finished referee, a bot (a name) in each seat; a game with
  options of its own gives `play_options(args)`, the keywords `play` then takes (it may set
  `args.bot` when the options choose another best bot);
- `IllegalMove`: what its referee raises for a move the rules refuse;
- `stats(games)`: the figures of finished games, each (referee, bot name per seat);
- `report(args, figures)`: the figures as text;
- `script_names(seats, players, seed)`: a saved game's file name and title, and
  `game_script(state, title, seed)`: the game written out as a session script.
Its descriptor gives NAME, TITLE (the game's name in words), the script grammar
(`parse_script`) and the runners (`session_runners()`), for --physical.
"""

import json
import os
import sys

from simulator.output_path import folder_problem
from simulator.play.figures import rounded
from simulator.play.options import takers
from simulator.sessions.script import ScriptError

MAX_GAMES = 10_000_000  # over an hour of the best bot; more only fills memory with scores


class TilesDisagree(Exception):
    """A bot game played on the simulated tiles did not go as on the referee."""


def player_counts(game):
    """The player counts a game's referee takes (its REFEREE_PLAYERS, else PLAYER_COUNTS)."""
    return getattr(game, "REFEREE_PLAYERS", None) or getattr(game, "PLAYER_COUNTS", None) or (2,)


def problem(args, game, bot_class):
    """What is wrong with the options, in one line, or None."""
    for option, name in (
        ("", args.bot),
        ("--partner: ", getattr(args, "partner", None)),
        ("--against: ", getattr(args, "against", None)),
    ):
        if name is not None:
            try:
                bot_class(name)
            except KeyError as exc:
                return option + exc.args[0]
    counts = player_counts(game)
    players = getattr(args, "players", None)
    if players is not None and players not in counts:
        if len(counts) == 1:
            return f"{game.TITLE} is for {counts[0]} players, not --players {players}"
        return f"--players must be from {min(counts)} to {max(counts)}, got {players}"
    if getattr(args, "against", None) and players not in (None, 2):
        return "--against pits two bots against each other: it takes --players 2"
    if not 1 <= args.games <= MAX_GAMES:
        return f"--games must be from 1 to {MAX_GAMES:,}, got {args.games}"
    scripts = getattr(args, "scripts", None)
    if scripts == "":
        return "--scripts needs a folder name"
    if scripts is not None and folder_problem(scripts):
        return f"--scripts {scripts}: {folder_problem(scripts)}"
    if getattr(args, "physical", False) and tiles_runner(game) is None:
        return f"--physical: {game.TITLE} is not played on the tiles (docs/{game.NAME}.md)"
    return None


def tiles_runner(game):
    """The game's session runner on the simulated tiles, or None."""
    runners = getattr(game, "session_runners", None)
    return runners and runners()[1]


def seats_of(args, i, players):
    """The bot in each seat of game i: --bot everywhere, --partner in B, or with --against the
    two bots taking seat A turn about."""
    against = getattr(args, "against", None)
    if against:
        return [args.bot, against] if i % 2 == 0 else [against, args.bot]
    partner = getattr(args, "partner", None)
    return [args.bot, partner or args.bot] + [args.bot] * (players - 2)


def write_script(parts, state, directory, name, title, seed):
    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, name)
    with open(path, "w") as f:
        f.write(parts.game_script(state, title, seed))
    return path


def play_on_tiles(game, parts, state, seed):
    """Play a finished game's moves again on the simulated tiles (--physical), from its deal on;
    raise TilesDisagree with the first thing the tiles did not show as the referee."""
    failures = []
    script = parts.game_script(state, f"seed {seed}", seed)
    runner = tiles_runner(game)(
        game.parse_script(script), failed=lambda line, msg: failures.append(msg)
    )
    try:
        runner.run()
    except ScriptError as exc:
        failures.append(exc.message)
    if failures:
        raise TilesDisagree(f"seed {seed}: {failures[0]}")


def run(args, game, parts):
    """Play the games and print the figures; the exit code."""
    options = parts.play_options(args) if hasattr(parts, "play_options") else {}
    if args.bot is None:
        args.bot = parts.BEST_BOT
    wrong = problem(args, game, parts.bot_class)
    if wrong:
        print(f"blinks playtest: {wrong}", file=sys.stderr)
        return 2
    players = getattr(args, "players", None) or player_counts(game)[0]
    scripts = getattr(args, "scripts", None)
    physical = bool(getattr(args, "physical", False))
    games = []
    try:
        for i in range(args.games):
            seed = args.seed + i
            seats = seats_of(args, i, players)
            state = parts.play(seats, seed, players, **options)
            games.append((state, seats))
            if physical:
                play_on_tiles(game, parts, state, seed)
            if scripts:
                write_script(parts, state, scripts, *parts.script_names(seats, players, seed), seed)
    except parts.IllegalMove as exc:
        names = dict.fromkeys(
            n
            for n in (args.bot, getattr(args, "partner", None), getattr(args, "against", None))
            if n
        )
        print(
            f"blinks playtest: {' or '.join(names)} made a move the rules refuse ({exc})",
            file=sys.stderr,
        )
        return 1
    except TilesDisagree as exc:
        print(f"blinks playtest: the tiles disagree with the referee ({exc})", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"blinks playtest: cannot write the scripts to {scripts}: {exc}", file=sys.stderr)
        return 2
    figures = parts.stats(games)
    figures["bot"] = args.bot
    for option in ("partner", "against"):  # the seats' options the game takes
        if game.NAME in takers(option):
            figures[option] = getattr(args, option)
    figures.update(options, seed=args.seed, physical=physical)
    if args.json:
        print(json.dumps(rounded(figures)))
        return 0
    parts.report(args, figures)
    return 0
