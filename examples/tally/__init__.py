"""Tally, the smallest whole game the platform runs on the host: two players, A and B, add 1, 2
or 3 in turn to a shared tally; whoever brings it to 10 wins. It is three files on the play
layer (simulator/play), and docs/writing-a-game.md walks through them:

- `rules.py`: the referee (GameState: legal_moves, apply, observation, score), its moves, and
  its `.tly` script grammar (read, played on the play layer's runner, written out);
- `bots.py`: its bots on the play layer's bot table, and its part of `blinks playtest`;
- this module: the descriptor the platform reads (simulator/games/__init__.py).

Try it from the repository's root (BLINKS_GAMES registers a game's host package by its folder):

    BLINKS_GAMES=examples/tally blinks session run examples/tally/win.tly --rules-only
    BLINKS_GAMES=examples/tally blinks playtest --game tally --partner random --games 100
"""

NAME = "tally"
TITLE = "Tally"
FIRMWARE = ("games.demo", "Demo")  # no firmware of its own: the demo runs on the tiles
TILES = 7
SCRIPT_SUFFIX = ".tly"
PLAYTEST = "tally.bots"  # `blinks playtest --game tally`: its options and figures
RETURNS = (0, 1)  # the play layer's returns: 1 to the winner


def parse_script(text):
    from tally.rules import parse_script as parse

    return parse(text)


def session_runners():
    """(rules runner class, tiles runner class): Tally has no tiles runner."""
    from tally.rules import RulesRunner

    return RulesRunner, None


def bot_names():
    from tally.bots import TABLE

    return TABLE.names()


def dealt(seed, players=2):
    """A new game (simulator.play.state): Tally deals nothing, so every seed is the same."""
    from tally.rules import GameState

    return GameState()
