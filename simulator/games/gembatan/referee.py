"""The Gembatan referee (HLE's shape, as the other games' referees): GameState holds the whole
truth, `legal_moves()` lists what the player to move may do, `apply(move)` performs it or
raises IllegalMove naming the rule, and players look through `observation(player)`, which hides
only the order of the gem tray and the tile pile (hands lie face up). Pure rules: no world.

A turn: lay a tile and at once a gem in a socket it made; then more tiles (each beside one laid
this turn, each with its gem) and gems in any open socket, in any order, and `done`. Or, in
place of all that, a trade. At the end of every turn the player draws back up to four gems and
four tiles. The rules are docs/gembatan.md's.
"""

import random

from simulator.games.gembatan import moves as mv
from simulator.games.gembatan.board import Board, gem_matches
from simulator.games.gembatan.rules import (
    BONUS,
    COLOUR_NAMES,
    ENDS,
    GEMS,
    HAND,
    MAX_PLAYERS,
    MAX_TURNS,
    MIN_PLAYERS,
    PLAYERS,
    TILES,
    edge_name,
    neighbour,
)
from simulator.play.referee import PointsGame

START, GEM, PLAY, OVER = "start", "gem", "play", "over"


class IllegalMove(Exception):
    """A move the rules forbid; the message names the rule."""


class Event:
    """What one move did: the points it scored, the chains it made, what was drawn."""

    __slots__ = ("bonus", "chains", "drew", "move", "player", "points", "turn_over")

    def __init__(self, player, move):
        self.player = player
        self.move = move
        self.points = 0
        self.chains = []  # (colour, length)
        self.bonus = False
        self.drew = (0, 0)  # gems, tiles drawn at the end of the turn
        self.turn_over = False

    def describe(self):
        text = str(self.move)
        if self.points:
            text += f": {self.points} point(s)"
            if self.chains:
                text += " (" + ", ".join(f"{c} chain of {n}" for c, n in self.chains) + ")"
        if self.bonus:
            text += f"; all four gems: a Gembatan, {BONUS} more"
        if self.turn_over:
            text += f"; turn over, draws {self.drew[0]} gem(s) and {self.drew[1]} tile(s)"
        return text


def check_order(kind, given, pieces):
    if sorted(given) != sorted(pieces):
        raise ValueError(f"the {kind} must be the game's {len(pieces)} {kind}, each once")


class GameState(PointsGame):
    IllegalMove = IllegalMove
    Event = Event

    def __init__(self, players=2, seed=0, tiles=None, gems=None, start=0):
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ValueError(f"Gembatan is for {MIN_PLAYERS} to {MAX_PLAYERS} players")
        rng = random.Random(seed)
        if tiles is None:
            tiles = list(TILES)
            rng.shuffle(tiles)
        else:
            tiles = list(tiles)
            check_order("tiles", tiles, TILES)
        if gems is None:
            gems = list(GEMS)
            rng.shuffle(gems)
        else:
            gems = list(gems)
            check_order("gems", gems, GEMS)
        self.rng = random.Random(seed ^ 0x6E3B)  # where traded pieces go back in
        self.tile_order, self.gem_order = list(tiles), list(gems)
        self.players = players
        self.pile = tiles  # top first
        self.tray = gems
        self.board = Board()
        self.board.tiles[(0, 0)] = (self.pile.pop(0), 0)  # the first tile starts the board
        self.hand_tiles = [[] for _ in range(players)]
        self.hand_gems = [[] for _ in range(players)]
        for _ in range(HAND):
            for p in range(players):
                self.hand_gems[p].append(self.tray.pop(0))
                self.hand_tiles[p].append(self.pile.pop(0))
        self.points = [0] * players
        self.start = self.current = start
        self.turns = 0
        self.idle = 0  # turns in a row without a tile or a gem laid
        self.ended = None
        self.history = []
        self.moves = 0
        self._start_turn(None)

    # --- reading ---------------------------------------------------------------------------
    def score(self, player):
        """Points scored, less a point for each gem still held once the game is over."""
        left = len(self.hand_gems[player]) if self.over else 0
        return self.points[player] - left

    def observation(self, player):
        from simulator.games.gembatan.observation import Observation

        return Observation(self, player)

    def tile_moves(self):
        """The tiles the player to move may lay now: on an open cell (after the turn's first
        tile, beside a tile laid this turn), making a socket one of their gems fits."""
        p = self.current
        gems = self.hand_gems[p]
        if not gems:
            return []
        cells = self.board.open_cells()
        if self.laid:
            beside = {neighbour(c, d) for c in self.laid for d in range(4)}
            cells = [c for c in cells if c in beside]
        out = []
        for slot, sides in enumerate(self.hand_tiles[p], 1):
            for cell in cells:
                for rotation in range(4):
                    if self._tile_ok(sides, cell, rotation, gems):
                        out.append(mv.tile(slot, cell, rotation))
        return out

    def _tile_ok(self, sides, cell, rotation, gems):
        """Whether a tile may lie there: it makes a socket that one of `gems` fits."""
        made = self.board.sockets_made(cell, sides, rotation)
        return bool(made) and any(gem_matches(g, c) for _, c in made for g in gems)

    def gem_moves(self, sockets=None):
        """Gems the player to move may put in `sockets` (every open socket by default)."""
        if sockets is None:
            sockets = self.board.open_sockets()
        out = []
        for slot, g in enumerate(self.hand_gems[self.current], 1):
            for e in sockets:
                if self.board.gem_fits(g, e):
                    out.append(mv.gem(slot, e))
        return out

    def trade_moves(self):
        n_tiles = len(self.hand_tiles[self.current])
        n_gems = len(self.hand_gems[self.current])
        out = []
        for tmask in range(1 << n_tiles):
            tiles = [i + 1 for i in range(n_tiles) if tmask >> i & 1]
            for gmask in range(1 << n_gems):
                gems = [i + 1 for i in range(n_gems) if gmask >> i & 1]
                out.append(mv.trade(tiles, gems))
        return out

    def legal_moves(self):
        phase = self.phase
        if phase == START:
            return self.tile_moves() + self.trade_moves()
        if phase == GEM:
            return self.gem_moves(self.new_sockets)
        if phase == PLAY:
            return self.tile_moves() + self.gem_moves() + [mv.done()]
        return []

    # --- changing --------------------------------------------------------------------------
    def _apply(self, move, ev):
        p = ev.player
        if move.kind == mv.TILE:
            sides = self.hand_tiles[p].pop(move.slot - 1)
            self.new_sockets = self.board.fits(move.cell, sides, move.rotation)
            self.board.tiles[move.cell] = (sides, move.rotation)
            self.laid.append(move.cell)
            self.phase = GEM
        elif move.kind == mv.GEM:
            g = self.hand_gems[p].pop(move.slot - 1)
            self.board.gems[move.edge] = self.board.gem_fits(g, move.edge)
            chains = self.board.chains_through(move.edge)
            ev.points = 1 + sum(len(line) for _, line in chains)
            ev.chains = [(colour, len(line)) for colour, line in chains]
            self.points[p] += ev.points
            self.gems_laid += 1
            self.phase = PLAY
        elif move.kind == mv.DONE:
            if self.gems_laid >= HAND:
                ev.bonus = True
                self.points[p] += BONUS
            self._end_turn(ev, played=True)
        else:  # trade
            ev.drew = self._trade(move)
            self._end_turn(ev, played=False)

    def is_legal(self, move):
        """Whether `move` is one of legal_moves(), found without listing them all."""
        if not isinstance(move, mv.Move):
            return False
        phase = self.phase
        p = self.current
        if move.kind == mv.TRADE:
            return phase == START and move in self.trade_moves()
        if move.kind == mv.DONE:
            return phase == PLAY
        if move.kind == mv.GEM:
            if phase == START or not 1 <= move.slot <= len(self.hand_gems[p]):
                return False
            if phase == GEM and move.edge not in self.new_sockets:
                return False
            return self.board.gem_fits(self.hand_gems[p][move.slot - 1], move.edge) is not None
        if phase == GEM or not 1 <= move.slot <= len(self.hand_tiles[p]):
            return False
        if move.cell in self.board.tiles or not 0 <= move.rotation < 4:
            return False
        if self.laid and not any(neighbour(move.cell, d) in self.laid for d in range(4)):
            return False
        sides = self.hand_tiles[p][move.slot - 1]
        return self._tile_ok(sides, move.cell, move.rotation, self.hand_gems[p])

    def _why_not(self, move):
        if not isinstance(move, mv.Move):
            return f"not a move: {move!r}"
        p = self.current
        phase = self.phase
        if phase == GEM and move.kind != mv.GEM:
            return "a tile laid needs its gem, in a socket it made (gem N at X,Y SIDE)"
        if move.kind == mv.TRADE:
            if phase != START:
                return "a trade is made in place of a turn, before any tile"
            return "trade lists hand slots: tiles 1-4, gems 1-4"
        if move.kind == mv.DONE:
            return "lay at least one tile (with its gem) before ending the turn"
        if move.kind == mv.GEM:
            if phase == START:
                return "lay a tile first: gems in open sockets come after the turn's first tile"
            if not 1 <= move.slot <= len(self.hand_gems[p]):
                return f"{PLAYERS[p]} holds {len(self.hand_gems[p])} gem(s): no gem {move.slot}"
            if self.board.socket_colours(move.edge) is None:
                return f"no socket at {edge_name(move.edge)}: two facing cutouts make one"
            if move.edge in self.board.gems:
                return f"the socket at {edge_name(move.edge)} holds a gem already"
            if phase == GEM and move.edge not in self.new_sockets:
                made = ", ".join(edge_name(e) for e in sorted(self.new_sockets))
                return f"the tile just laid needs its gem in a socket it made ({made})"
            gem = self.hand_gems[p][move.slot - 1]
            cutouts = self.board.socket_colours(move.edge)
            return (
                f"gem {move.slot} is {colour_words(gem)}; the socket at {edge_name(move.edge)} "
                f"takes {colour_words(cutouts)}: a gem's colours meet the cutouts of their colour"
            )
        if not 1 <= move.slot <= len(self.hand_tiles[p]):
            return f"{PLAYERS[p]} holds {len(self.hand_tiles[p])} tile(s): no tile {move.slot}"
        if move.cell in self.board.tiles:
            return f"{move.cell[0]},{move.cell[1]} holds a tile already"
        if self.laid and not any(neighbour(move.cell, d) in self.laid for d in range(4)):
            return "each tile after the first of a turn goes beside a tile laid this turn"
        sides = self.hand_tiles[p][move.slot - 1]
        made = self.board.fits(move.cell, sides, move.rotation)
        if made is None:
            return "a tile goes beside the board, cutout to cutout and plain side to plain side"
        if not made:
            return "a tile must make a socket (a cutout facing a cutout)"
        return "a tile is laid only with a gem for one of the sockets it makes"

    def _trade(self, move):
        p = self.current
        tiles = [self.hand_tiles[p][i - 1] for i in move.tiles]
        gems = [self.hand_gems[p][i - 1] for i in move.gems]
        for i in sorted(move.tiles, reverse=True):
            self.hand_tiles[p].pop(i - 1)
        for i in sorted(move.gems, reverse=True):
            self.hand_gems[p].pop(i - 1)
        drew = self._refill(p)
        for t in tiles:
            self.pile.insert(self.rng.randrange(len(self.pile) + 1), t)
        for g in gems:
            self.tray.insert(self.rng.randrange(len(self.tray) + 1), g)
        return drew

    def _refill(self, p):
        gems = tiles = 0
        while len(self.hand_gems[p]) < HAND and self.tray:
            self.hand_gems[p].append(self.tray.pop(0))
            gems += 1
        while len(self.hand_tiles[p]) < HAND and self.pile:
            self.hand_tiles[p].append(self.pile.pop(0))
            tiles += 1
        return gems, tiles

    def _end_turn(self, ev, played):
        p = self.current
        ev.turn_over = True
        gems, tiles = self._refill(p)
        ev.drew = (ev.drew[0] + gems, ev.drew[1] + tiles)
        self.turns += 1
        self.idle = 0 if played else self.idle + 1
        if not self.tray:
            if not self.hand_gems[p]:
                self.ended = "gems"
            elif self.idle >= self.players:
                self.ended = "stuck"
        if self.ended is None and self.turns >= MAX_TURNS:
            self.ended = "turns"
        self.turn_ended(ev)

    def _start_turn(self, ev):
        self.next_seat(ev)
        self.phase = START
        self.laid = []
        self.new_sockets = []
        self.gems_laid = 0

    # --- output ----------------------------------------------------------------------------
    def to_dict(self):
        names = PLAYERS[: self.players]
        out = self.summary("gembatan", names)
        out.update(
            {
                "board": {
                    f"{c[0]},{c[1]}": {"tile": s, "turn": r}
                    for c, (s, r) in sorted(self.board.tiles.items())
                },
                "gems": {edge_name(e): "".join(g) for e, g in sorted(self.board.gems.items())},
                "open_sockets": [edge_name(e) for e in self.board.open_sockets()],
                "hand_tiles": {n: list(self.hand_tiles[p]) for p, n in enumerate(names)},
                "hand_gems": {n: list(self.hand_gems[p]) for p, n in enumerate(names)},
                "pile": len(self.pile),
                "tray": len(self.tray),
            }
        )
        return out


def colour_words(colours):
    """ "red and blue" for ("R", "B"), "red and red" for a gem of one colour."""
    return " and ".join(COLOUR_NAMES[c] for c in colours)


__all__ = ["ENDS", "Event", "GameState", "IllegalMove"]
