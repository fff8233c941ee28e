"""Tally, the smallest whole game the platform runs on the host: two players, A and B, add 1, 2
or 3 in turn to a shared tally; whoever brings it to 10 wins. docs/writing-a-game.md walks
through it, file by file:

- `rules.py`: the referee (GameState: legal_moves, apply, observation), its moves and what a
  player may see: the whole truth here, as nothing is hidden;
- `bots.py`: two bots, and play_game;
- `script.py`: the `.tly` session scripts, parsed and played on the referee;
- `playtest.py`: `blinks playtest --game tally`;
- this module: the descriptor the platform reads (simulator/games/__init__.py).

Try it from the repository's root (BLINKS_GAMES registers a game's host package by its folder):

    BLINKS_GAMES=examples/tally blinks session run examples/tally/win.tly --rules-only
    BLINKS_GAMES=examples/tally blinks playtest --game tally --bot perfect --games 100
"""

NAME = "tally"
FIRMWARE = ("games.demo", "Demo")  # no firmware of its own: the demo runs on the tiles
TILES = 7
SCRIPT_SUFFIX = ".tly"


def parse_script(text):
    from tally.script import parse_script as parse

    return parse(text)


def session_runners():
    """(rules runner class, tiles runner class): Tally has no tiles runner."""
    from tally.script import RulesRunner

    return RulesRunner, None


def bot_names():
    from tally.bots import BOTS

    return sorted(BOTS)


def run_playtest(args):
    from tally.playtest import run

    return run(args)
