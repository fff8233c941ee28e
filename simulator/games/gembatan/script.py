"""Gembatan session scripts (`*.gb`): the language of docs/gembatan.md#session-scripts, read
(`parse_script`), played on the referee (`RulesRunner`, on the play layer's runner) and written
(`game_script`, a finished game as a script that replays it).

The whole script is parsed before anything runs; a malformed line raises ScriptError(line,
what was expected), exit 2, as the other games' scripts do.
"""

from simulator.games.gembatan import moves as mv
from simulator.games.gembatan.referee import GameState, IllegalMove
from simulator.games.gembatan.rules import (
    DIRECTION_NAMES,
    ENDS,
    GEMS,
    PLAYERS,
    TILES,
    edge,
    parse_cell,
    parse_gem,
    parse_tile,
)
from simulator.play import runner, scripts_out
from simulator.sessions.script import ScriptError, Statement, Words, number_word

SETUP_KINDS = ("players", "seed", "tiles", "gems", "start")
MOVES_HELP = (
    "expected a move: tile N at X,Y turn T, gem N at X,Y SIDE, done, or trade [tiles N...] "
    "[gems N...]"
)
EXPECTS_HELP = (
    "expected expect score P N, gems P N, tiles P N, board N, sockets N, tray N, pile N, "
    f"turn P, socket X,Y SIDE GEM|empty, over yes|no, or ended {'|'.join(ENDS)}|no"
)


ERROR = "expected players, seed, tiles, gems, start, a move (A tile 1 at 1,0 turn 0) or expect"
WORDS = Words(
    "".join(PLAYERS),
    "Gembatan",
    SETUP_KINDS,
    ENDS,
    counts=("gems", "tiles"),
    totals=("board", "sockets", "tray", "pile"),
)


def parse_script(text):
    return WORDS.read(text, _move, _expect, _pieces, ERROR)


def _cell(line, word):
    return WORDS.parsed(line, word, parse_cell, "a cell X,Y like 1,-1")


def _edge(line, cell_word, side_word):
    side = side_word.lower()
    if side not in DIRECTION_NAMES:
        raise ScriptError(line, f"expected a side: north, east, south or west, not {side_word!r}")
    return edge(_cell(line, cell_word), DIRECTION_NAMES.index(side))


def _pieces(line, code, words):
    head = words[0].lower()
    if head == "tiles":
        like = "a tile like RB-G (north east south west)"
        listing = (
            f"`tiles` lists the game's {len(TILES)} tiles, each once, the first starting the board"
        )
        return WORDS.pieces(line, code, words, parse_tile, TILES, like, listing)
    if head == "gems":
        like = "a gem like RB (two of R, B, G, Y)"
        listing = f"`gems` lists the game's {len(GEMS)} gems, each once"
        return WORDS.pieces(line, code, words, parse_gem, GEMS, like, listing)
    return None


def _move(line, words):
    kind = words[0].lower()
    n = len(words)
    if kind == mv.TILE:
        return mv.tile(*WORDS.placement(line, words, _cell, "X,Y", 4, 3))
    if kind == mv.GEM:
        if n != 5 or words[2].lower() != "at":
            raise ScriptError(line, "expected `gem N at X,Y SIDE`")
        return mv.gem(
            number_word(line, words[1], "a hand slot (1-4)"), _edge(line, words[3], words[4])
        )
    if kind == mv.DONE and n == 1:
        return mv.done()
    if kind == mv.TRADE:
        lists = {"tiles": [], "gems": []}
        current = None
        for w in words[1:]:
            if w.lower() in lists:
                current = lists[w.lower()]
                continue
            if current is None:
                raise ScriptError(line, "expected `trade tiles N... gems N...`")
            slot = number_word(line, w, "a hand slot (1-4)")
            if slot in current:
                raise ScriptError(line, f"slot {slot} listed twice")
            current.append(slot)
        return mv.trade(lists["tiles"], lists["gems"])
    raise ScriptError(line, MOVES_HELP)


def _expect(line, code, words):
    n = len(words)
    what = words[1].lower() if n > 1 else ""
    if what == "socket" and n == 5:
        e = _edge(line, words[2], words[3])
        value = words[4].lower()
        if value != "empty":
            gem = parse_gem(value)
            if gem is None:
                raise ScriptError(line, f"expected a gem like RB, or empty, not {words[4]!r}")
            value = gem
        return Statement(line, "expect", code, value, what=what, at=e)
    raise ScriptError(line, EXPECTS_HELP)


class RulesRunner(runner.RefereeOnly):
    """A Gembatan script on the referee. Gembatan is not played on the tiles (docs/gembatan.md,
    "why not on the tiles"), so this runner serves `blinks session run` with or without
    --rules-only, and says so. With --board-png DIR it draws the board after every move."""

    NAME, TITLE = "gembatan", "Gembatan"
    SETUP = (("players", 2), ("seed", 0), ("tiles", None), ("gems", None), ("start", 0))
    IllegalMove = IllegalMove
    GameState = GameState
    COUNTED = (("gems", "hand_gems"), ("tiles", "hand_tiles"), ("tray", "tray"), ("pile", "pile"))
    BOARD_PICTURE = "simulator.games.gembatan.board_png"
    DEAL_WORDS = "the start"
    CALLED, NO_TILES = "Gembatan", "Gembatan is not played on the tiles"

    def opening(self):
        s = self.state
        self.say(f"the board starts with {s.board.tiles[(0, 0)][0]} on 0,0")
        for p in range(s.players):
            self.say(
                f"{PLAYERS[p]} holds tiles {' '.join(s.hand_tiles[p])}, gems "
                f"{' '.join(s.hand_gems[p])}"
            )

    def read(self, st):
        s = self.state
        what = st.what
        if what == "board":
            return len(s.board.tiles)
        if what == "sockets":
            return len(s.board.open_sockets())
        if what == "socket":
            gem = s.board.gems.get(st.at)
            return "empty" if gem is None else parse_gem("".join(gem))
        raise ValueError(f"no expect reads {what!r}")


def game_script(state, title, seed=0):
    """A finished Gembatan game as a `.gb` script: its players, the order of the tiles and
    gems, every move, then `expect` lines for how it ended, so `blinks session run` replays
    that very game."""
    setup = [
        f"players {state.players}",
        f"seed {seed}",
        "tiles " + " ".join(state.tile_order),
        "gems " + " ".join(state.gem_order),
        f"start {PLAYERS[state.start]}",
    ]
    ends = [f"expect score {PLAYERS[p]} {state.score(p)}" for p in range(state.players)]
    ends += [f"expect board {len(state.board.tiles)}", f"expect tray {len(state.tray)}"]
    return scripts_out.game_script(
        state, title, setup, ends + scripts_out.how_it_ended(state), "[--board-png DIR]"
    )
