"""The Gem Match referee (HLE's shape, as the other games' referees): GameState holds the whole
truth, `legal_moves()` lists what the player to move may do, `apply(move)` performs it or
raises IllegalMove naming the rule, and players look through `observation(player)`, which
hides the pile's order and the other side of every token but those of a group being resolved.
Pure rules: no world, no tiles.

The rules are docs/gemmatch.md's. A token is known by its id, its index in the deck's order;
`kinds[id]` is its kind (games.gemmatch.tokens), `sides[id]` the side it shows.

A turn: draw (while the hand holds fewer than HAND_LIMIT), place a token, resolve the groups
that made (the largest tier first, then any left), and after a group of 3 or more (the BIG
tier) the player may place again (or pass). A player who cannot place skips.
"""

from games.gemmatch import tokens

from simulator.games.gemmatch import moves as mv
from simulator.games.gemmatch.field import Field, Placed, merged, ring_cells
from simulator.games.gemmatch.observation import Observation
from simulator.games.gemmatch.rules import (
    BASIC,
    BIG,
    BOARD_RADIUS,
    CENTRE,
    HAND_IMPROVED,
    HAND_LIMIT,
    HAND_START,
    HUGE,
    IMPROVED,
    MAX_TURNS,
    PLAYERS,
    SIDES,
    SMALL,
    TIER_NAMES,
    cell_name,
)
from simulator.play.referee import PointsGame, deck_to_deal

PLACING, RESOLVING, EXTRA, OVER = "place", "resolve", "extra", "over"


class IllegalMove(Exception):
    """A move the rules forbid; the message names the rule."""


class Pending:
    """The group being resolved: its tier, the cells of its tokens still on the field, and how
    many of them must still go to the heap and to the hand (HUGE: every one, either place)."""

    __slots__ = ("cells", "colour", "gems", "hand", "heap", "tier")

    def __init__(self, tier, group):
        self.tier = tier
        self.cells = list(group.cells)
        self.colour = group.colour
        self.gems = group.size
        self.heap = 1 if tier in (SMALL, BIG) else 0
        self.hand = 1 if tier == BIG else 0

    def describe(self):
        return (
            f"a group of {TIER_NAMES[self.tier]} ({self.gems} {tokens.GEM_NAMES[self.colour]} "
            f"gems on {' '.join(cell_name(c) for c in self.cells)})"
        )


class Event:
    """What one move did. Everything in Gem Match is face up but the pile, so every player sees
    the same event."""

    __slots__ = ("drew", "groups", "move", "player", "skipped", "token", "turn_over")

    def __init__(self, player, move):
        self.player = player
        self.move = move
        self.token = None  # the token the move placed or took
        self.groups = []  # the groups the move left to resolve next, as Pending
        self.drew = []  # (player, token id) drawn at the start of the next turn
        self.skipped = False
        self.turn_over = False

    def describe(self):
        text = str(self.move)
        for pending in self.groups:
            text += f"; {pending.describe()}"
        if self.turn_over:
            text += "; turn over"
        for p, _ in self.drew:
            text += f"; {PLAYERS[p]} draws"
        return text


class GameState(PointsGame):
    IllegalMove = IllegalMove
    Event = Event

    def __init__(self, seed=0, deck=None, start=0):
        deck = deck_to_deal(
            deck,
            seed,
            tokens.deck(),
            f"a deck is the {tokens.DECK_SIZE} tokens of the game, each once",
        )
        self.kinds = deck
        self.players = len(PLAYERS)
        self.sides = [BASIC] * len(deck)
        # the first HAND_START * 2 tokens go round the players, A first; each hand's first
        # HAND_START - HAND_IMPROVED show their basic side, the rest their improved side
        self.hands = [[], []]
        for n in range(HAND_START * 2):
            hand = self.hands[n % 2]
            if len(hand) >= HAND_START - HAND_IMPROVED:
                self.sides[n] = IMPROVED
            hand.append(n)
        self.pile = list(range(HAND_START * 2, len(deck)))
        self.heaps = [[], []]
        self.field = Field(ring_cells(BOARD_RADIUS))
        self.start = self.current = start
        self.turns = 0
        self.moves = 0
        self.skips = 0  # skipped turns in a row
        self.ended = None
        self.pending = None
        self.bonus = False  # the placement being resolved made a group of the BIG tier or more
        self.history = []
        self.last_turn = None  # the player whose turn ends the game (the round is finished)
        self._start_turn(None)

    # --- reading ---------------------------------------------------------------------------
    def score(self, player):
        """One point a token in the victory heap, one an improved token in the hand."""
        return len(self.heaps[player]) + sum(1 for t in self.hands[player] if self.sides[t])

    def observation(self, player):
        return Observation(self, player)

    def gems_of(self, token, side=None):
        return tokens.side_of(self.kinds[token], self.sides[token] if side is None else side)

    def token_at(self, cell):
        placed = self.field.cells.get(cell)
        return None if placed is None else placed.token

    def placements(self):
        """Every legal placement of the player to move, as moves."""
        hand = self.hands[self.current]
        if not hand:
            return []
        out = []
        for cell in self.field.open_cells():
            for slot in range(1, len(hand) + 1):
                for rotation in range(6):
                    out.append(mv.place(slot, cell, rotation))
        return out

    def can_place(self):
        return bool(self.hands[self.current]) and bool(self.field.open_cells())

    def legal_moves(self):
        phase = self.phase
        if phase == PLACING:
            return self.placements() or [mv.skip()]
        if phase == EXTRA:
            return self.placements() + [mv.pass_()]
        if phase == RESOLVING:
            p = self.pending
            room = len(self.hands[self.current]) < HAND_LIMIT
            out = []
            for cell in p.cells:
                if p.heap or p.tier == HUGE or (p.hand and not room):
                    out.append(mv.heap(cell))
                if room and (p.hand or p.tier == HUGE):
                    out += [mv.hand(cell, side) for side in (BASIC, IMPROVED)]
            return out
        return []

    # --- changing --------------------------------------------------------------------------
    def _apply(self, move, ev):
        if move.kind == mv.PLACE:
            self._place(move, ev)
        elif move.kind in (mv.HEAP, mv.HAND):
            self._take(move, ev)
        elif move.kind == mv.PASS:
            self._end_turn(ev)
        else:  # skip
            ev.skipped = True
            self.skips += 1
            self._end_turn(ev)

    def _why_not(self, move):
        if not isinstance(move, mv.Move):
            return f"not a move: {move!r}"
        phase = self.phase
        who = PLAYERS[self.current]
        if phase in (PLACING, EXTRA):
            if move.kind == mv.SKIP:
                return "a token can be placed, so it must be: no skipping"
            if move.kind == mv.PASS:
                return (
                    f"only after a group of {TIER_NAMES[BIG]} or more may a player pass "
                    "instead of placing"
                )
            if move.kind != mv.PLACE:
                return f"{who} places a token now (place N at Q,R turn T)"
            return self._why_not_place(move)
        p = self.pending
        if move.kind not in (mv.HEAP, mv.HAND):
            return f"{who} resolves {p.describe()} first (heap Q,R or hand Q,R SIDE)"
        if move.cell not in p.cells:
            return f"the token on {cell_name(move.cell)} is not in {p.describe()}"
        if move.kind == mv.HAND:
            if len(self.hands[self.current]) >= HAND_LIMIT:
                return f"a hand holds at most {HAND_LIMIT} tokens"
            if p.tier == SMALL:
                return f"{p.describe()} sends its token to the victory heap, not the hand"
            return f"{p.describe()} has sent a token to the hand: the rest go to the heap"
        return "this group's token goes to the hand now (hand Q,R SIDE)"

    def _why_not_place(self, move):
        hand = self.hands[self.current]
        if not 1 <= move.slot <= len(hand):
            return f"{PLAYERS[self.current]} holds {len(hand)} token(s): no token {move.slot}"
        cell = move.cell
        if cell not in self.field.board:
            return f"{cell_name(cell)} is off the field (a hexagon of radius {BOARD_RADIUS})"
        if cell in self.field.cells:
            return f"{cell_name(cell)} already holds a token"
        if not self.field.cells:
            return f"the first token of an empty field goes on its centre, {cell_name(CENTRE)}"
        return "a token is placed touching a token on the field"

    def _place(self, move, ev):
        t = self.hands[self.current].pop(move.slot - 1)
        self.field.put(move.cell, Placed(t, self.gems_of(t), move.rotation))
        ev.token = t
        self.skips = 0
        self.bonus = False
        self._next_group(ev)

    def _take(self, move, ev):
        p = self.pending
        placed = self.field.remove(move.cell)
        t = placed.token
        ev.token = t
        p.cells.remove(move.cell)
        if move.kind == mv.HAND:
            self.sides[t] = move.side
            self.hands[self.current].append(t)
            p.hand = max(0, p.hand - 1)
        else:
            if p.heap:
                p.heap -= 1
            else:
                p.hand = max(0, p.hand - 1)  # a full hand: its token goes to the heap
            self.heaps[self.current].append(t)
        if p.tier == HUGE and p.cells or p.heap or p.hand:
            return
        self.pending = None
        self._next_group(ev)

    def _next_group(self, ev):
        """After a placement or a resolved group: the next group to resolve (the largest tier of
        those on the field, several of one tier counting as one of the next), else the extra
        placement a group of 3 or more (the BIG tier) earned, else the end of the turn."""
        found = merged(self.field.groups())
        if found:
            tier, group = found[0]
            self.pending = Pending(tier, group)
            self.bonus = self.bonus or tier >= BIG
            self.phase = RESOLVING
            ev.groups.append(self.pending)
            return
        if self.bonus and self.can_place():
            self.bonus = False
            self.phase = EXTRA
            return
        self._end_turn(ev)

    def _end_turn(self, ev):
        ev.turn_over = True
        self.turns += 1
        if self.ended is None:
            if self.skips >= 2:
                self.ended = "skips"
            elif self.turns >= MAX_TURNS:
                self.ended = "turns"
            elif not self.pile and self.last_turn is None:
                # no token left to draw: the round is played out, so both have as many turns
                self.last_turn = (self.start + self.players - 1) % self.players
            if self.ended is None and self.current == self.last_turn:
                self.ended = "pile"
        self.turn_ended(ev)

    def _start_turn(self, ev):
        self.next_seat(ev)
        self.pending = None
        self.bonus = False
        self.phase = PLACING
        hand = self.hands[self.current]
        if len(hand) < HAND_LIMIT and self.pile:
            t = self.pile.pop(0)
            self.sides[t] = BASIC
            hand.append(t)
            if ev is not None:
                ev.drew.append((self.current, t))

    # --- output ----------------------------------------------------------------------------
    def token_json(self, t):
        return {
            "token": tokens.name(self.kinds[t]),
            "side": SIDES[self.sides[t]],
            "gems": tokens.side_name(self.gems_of(t)),
        }

    def to_dict(self):
        names = PLAYERS

        def field_json():
            out = {}
            for cell, placed in sorted(self.field.cells.items()):
                entry = self.token_json(placed.token)
                entry["turn"] = placed.rotation
                out[cell_name(cell)] = entry
            return out

        out = self.summary("gemmatch", names)
        out.update(
            {
                "field": field_json(),
                "hands": {
                    n: [self.token_json(t) for t in self.hands[p]] for p, n in enumerate(names)
                },
                "heaps": {n: len(self.heaps[p]) for p, n in enumerate(names)},
                "pile": len(self.pile),
                "resolving": None if self.pending is None else self.pending.describe(),
            }
        )
        return out


__all__ = ["Event", "GameState", "IllegalMove", "merged"]
