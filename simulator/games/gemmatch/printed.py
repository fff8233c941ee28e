"""Gem Match as printed (`--variant printed`), rules only: two-sided tetromino tokens on a square
field the players choose, groups of 3, 4 and 5 or more gems alike (docs/gemmatch.md, "the
printed game"). The hex game (referee.py) stays the tiles' game; this one is what an owner of
the cardboard game knows.

A token is known by its id, its index in the deck's order. A side is four cells of a tetromino
and a gem on each; a basic side's four gems differ, an improved side has two gems alike in
neighbouring cells. Turning the token over mirrors its shape, so a token may be rotated but
never flipped when placed: flipping it would show its other side.
"""

import random

from simulator.games.gemmatch.rules import BASIC, IMPROVED, PLAYERS, SIDES
from simulator.play.referee import PointsGame, deck_to_deal
from simulator.sessions import views

GEMS = "RGBYPC"  # ruby, emerald, sapphire, topaz, amethyst, aquamarine
SHAPES = {  # each the cells (x, y) of one tetromino, y growing downward
    "I": ((0, 0), (1, 0), (2, 0), (3, 0)),
    "O": ((0, 0), (1, 0), (0, 1), (1, 1)),
    "T": ((0, 0), (1, 0), (2, 0), (1, 1)),
    "S": ((1, 0), (2, 0), (0, 1), (1, 1)),
    "Z": ((0, 0), (1, 0), (1, 1), (2, 1)),
    "L": ((0, 0), (0, 1), (0, 2), (1, 2)),
    "J": ((1, 0), (1, 1), (1, 2), (0, 2)),
}
COPIES = 4  # of each shape: 28 tokens
FIELD_SIZE = 8  # the default square field (docs/gemmatch.md says why)
FIELD_SIZES = range(6, 13)
HAND_START, HAND_IMPROVED, HAND_LIMIT = 4, 2, 5
TIER_SIZES = (3, 4, 5)  # the seed's groups: 3, 4, 5 or more gems alike
TIER_WORDS = {1: "3", 2: "4", 3: "5+"}  # each tier by its gems, as scripts and figures say it
MAX_TURNS = 200
PLACE, AGAIN, HEAP, KEEP, SHARE, SKIP, OVER = (
    "place",
    "again",
    "heap",
    "keep",
    "share",
    "skip",
    "over",
)
ENDS = ("pile", "skips", "turns")


class IllegalMove(Exception):
    """A move the printed rules forbid; the message names the rule."""


def mirror(cells):
    right = max(x for x, _ in cells)
    return tuple((right - x, y) for x, y in cells)


def turned(cells, turns):
    """The cells turned a quarter clockwise `turns` times, moved to start at 0,0."""
    for _ in range(turns % 4):
        cells = [(-y, x) for x, y in cells]
    left, top = min(x for x, _ in cells), min(y for _, y in cells)
    return tuple((x - left, y - top) for x, y in cells)


def touching(a, b):
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1


def make_tokens(seed=60):
    """The 28 tokens, the same for every game: (shape letter, basic gems, improved gems), the
    gems in the order of the side's cells (the improved side's cells are the shape mirrored)."""
    rng = random.Random(seed)
    out = []
    for letter in sorted(SHAPES):
        cells = mirror(SHAPES[letter])
        pairs = [(i, j) for i in range(4) for j in range(i + 1, 4) if touching(cells[i], cells[j])]
        for _ in range(COPIES):
            basic = "".join(rng.sample(GEMS, 4))
            i, j = rng.choice(pairs)
            twin, a, b = rng.sample(GEMS, 3)
            others = iter((a, b))
            improved = "".join(twin if k in (i, j) else next(others) for k in range(4))
            out.append((letter, basic, improved))
    return out


TOKENS = make_tokens()


def side_cells(token, side):
    shape = SHAPES[TOKENS[token][0]]
    return shape if side == BASIC else mirror(shape)


def side_gems(token, side):
    return TOKENS[token][1 + side]


_WAYS = {}


def ways(token, side):
    """A token's side as each quarter turn lays it: [(turn, its cells from 0,0 in its gems'
    order)]. A turn moves the gems, so no two turns lay a token alike."""
    key = (token, side)
    if key not in _WAYS:
        _WAYS[key] = [(turn, turned(side_cells(token, side), turn)) for turn in range(4)]
    return _WAYS[key]


def extent(cells):
    """The width and height of the box round `cells` (from 0,0)."""
    return max(x for x, _ in cells) + 1, max(y for _, y in cells) + 1


def token_word(token):
    """A token as scripts name it: its shape's letter and its id, `L9`."""
    return f"{TOKENS[token][0]}{token}"


def token_name(token, side):
    return token_word(token) + ("+" if side == IMPROVED else "")


def parse_token(word):
    """The token a script's word names (`L9`, any case), or None: the letter must be its shape's."""
    letter, digits = word[:1].upper(), word[1:]
    if not (digits.isascii() and digits.isdigit()) or len(digits) > 2:
        return None
    token = int(digits)
    if token >= len(TOKENS) or TOKENS[token][0] != letter:
        return None
    return token


class Move(views.Move):
    __slots__ = ("kind", "side", "slot", "spot", "token", "turn")

    def __init__(self, kind, slot=0, turn=0, spot=None, token=None, side=None):
        self.kind, self.slot, self.turn, self.spot = kind, slot, turn, spot
        self.token, self.side = token, side

    def _key(self):
        return (self.kind, self.slot, self.turn, self.spot, self.token, self.side)

    def __str__(self):
        """The move in a printed script's words (`blinks session run` replays it)."""
        if self.kind == PLACE:
            return f"place {self.slot} at {self.spot[0]},{self.spot[1]} turn {self.turn}"
        if self.kind == HEAP:
            return f"heap {token_word(self.token)}"
        if self.kind == KEEP:
            return f"hand {token_word(self.token)} {SIDES[self.side]}"
        return self.kind


def place(slot, turn, spot):
    return Move(PLACE, slot, turn, tuple(spot))


def heap(token):
    return Move(HEAP, token=token)


def keep(token, side):
    return Move(KEEP, token=token, side=side)


PASS, SKIP_MOVE = Move("pass"), Move(SKIP)


class Group:
    """Gems alike that touch: `size` gems, the `tokens` they lie on, and the tier they resolve
    as (several of one tier made at once count as one of the next)."""

    __slots__ = ("gem", "size", "tier", "tokens")

    def __init__(self, gem, size, tokens):
        self.gem, self.size, self.tokens = gem, size, set(tokens)
        self.tier = sum(1 for least in TIER_SIZES if size >= least)


def groups_on(field, starts=None):
    """The groups of 3 or more gems alike on `field` (cell -> (token, gem)); only those through
    `starts` when given."""
    seen, out = set(), []
    for cell in field if starts is None else starts:
        if cell in seen or cell not in field:
            continue
        gem = field[cell][1]
        todo, part = [cell], {cell}
        while todo:
            x, y = todo.pop()
            for nxt in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if nxt not in part and nxt in field and field[nxt][1] == gem:
                    part.add(nxt)
                    todo.append(nxt)
        seen |= part
        if len(part) >= TIER_SIZES[0]:
            out.append(Group(gem, len(part), (field[c][0] for c in part)))
    return out


def merged(groups):
    """The seed's tiers: groups of one tier made by one placement count as one group of the
    next tier (two of 3 gems are one of 4, two of 4 one of 5), lowest tier first."""
    groups = list(groups)
    for tier in (1, 2):
        same = [g for g in groups if g.tier == tier]
        if len(same) > 1:
            one = Group(same[0].gem, 0, set().union(*(g.tokens for g in same)))
            one.tier, one.size = tier + 1, sum(g.size for g in same)
            groups = [g for g in groups if g.tier != tier] + [one]
    return groups


class Event:
    __slots__ = ("drew", "groups", "move", "player", "turn_over")

    def __init__(self, player, move):
        self.player, self.move = player, move
        self.drew = None  # the token drawn as the turn began
        self.groups = []  # the group this move set resolving (a Group), if any
        self.turn_over = False

    def describe(self, hide_draws=False):
        text = str(self.move)
        for g in self.groups:
            text += f": a group of {g.size} {g.gem} (tier {g.tier})"
        return text + ("; turn over" if self.turn_over else "")


class GameState(PointsGame):
    players = 2

    def __init__(self, seed=0, deck=None, start=0, size=FIELD_SIZE):
        if size not in FIELD_SIZES:
            raise ValueError(
                f"the printed field is a square of {FIELD_SIZES[0]} to {FIELD_SIZES[-1]} cells a side"
            )
        order = deck_to_deal(deck, seed, list(range(len(TOKENS))), "a deck lists the 28 tokens")
        self.size = size
        self.deck = tuple(order)  # the dealing order, so a played game can be written out
        self.hands = [[], []]  # (token, side up) in hand order
        for n in range(HAND_START * 2):
            side = BASIC if n // 2 < HAND_START - HAND_IMPROVED else IMPROVED
            self.hands[n % 2].append((order[n], side))
        self.pile = order[HAND_START * 2 :]
        self.field = {}  # cell -> (token, gem)
        self.on_field = {}  # token -> (side up, its cells)
        self.lifted = {}  # token -> side up, for a group of 5+ lifted whole while it is shared
        self.heaps = [[], []]
        self.start = start
        self.current, self.turns, self.skips = start, 0, 0
        self.ended, self.history, self.resolving = None, [], None
        self.again = False
        self._start_turn()

    # --- reading ---------------------------------------------------------------------------
    def score(self, player):
        """A point a victory heap token, either side up, and a point an improved hand token."""
        return len(self.heaps[player]) + sum(s == IMPROVED for _, s in self.hands[player])

    def observation(self, player):
        return Observation(self, player)

    def placements(self, player=None):
        """Every legal `place` of the player's hand: each token, each way it lies (by the first
        quarter turn that lays it so), each spot."""
        out, n = [], self.size
        for slot, (token, side) in enumerate(
            self.hands[self.current if player is None else player], 1
        ):
            for turn, cells in ways(token, side):
                wide, tall = extent(cells)
                for y in range(n - tall + 1):
                    for x in range(n - wide + 1):
                        if self.fits(cells, x, y):
                            out.append(place(slot, turn, (x, y)))
        return out

    def can_place(self):
        """Whether a token of the hand fits anywhere (else the turn is skipped)."""
        n = self.size
        for token, side in self.hands[self.current]:
            for _, cells in ways(token, side):
                wide, tall = extent(cells)
                for y in range(n - tall + 1):
                    for x in range(n - wide + 1):
                        if self.fits(cells, x, y):
                            return True
        return False

    def fits(self, cells, x, y):
        """Whether a token of `cells` (from 0,0) lies on the field at x, y, on no taken square."""
        n, field = self.size, self.field
        for cx, cy in cells:
            at = (x + cx, y + cy)
            if not (0 <= at[0] < n and 0 <= at[1] < n) or at in field:
                return False
        return True

    def legal_moves(self):
        phase = self.phase
        if phase == PLACE:
            return self.placements()
        if phase == AGAIN:
            return self.placements() + [PASS]
        if phase == SKIP:
            return [SKIP_MOVE]
        group = self.resolving
        if phase == HEAP:
            return [heap(t) for t in sorted(group.tokens)]
        if phase in (KEEP, SHARE):
            keeps = [keep(t, s) for t in sorted(group.tokens) for s in (BASIC, IMPROVED)]
            if phase == SHARE:
                room = len(self.hands[self.current]) < HAND_LIMIT
                return (keeps if room else []) + [heap(t) for t in sorted(group.tokens)]
            return keeps
        return []

    # --- changing --------------------------------------------------------------------------
    def apply(self, move):
        if self.over:
            raise IllegalMove("the game is over: no more moves")
        if not self.is_legal(move):
            raise IllegalMove(self._why_not(move))
        ev = Event(self.current, move)
        if move.kind == PLACE:
            self._place(move, ev)
        elif move.kind == HEAP:
            self._off_field(move.token)
            self.heaps[self.current].append(move.token)
            self.resolving.tokens.discard(move.token)
            if self.phase == HEAP and self.resolving.tier == 2:
                self.phase = KEEP
            elif self.phase == HEAP or not self.resolving.tokens:
                self._resolve_next(ev)
        elif move.kind == KEEP:
            self._off_field(move.token)
            hand = self.hands[self.current]
            if len(hand) < HAND_LIMIT:
                hand.append((move.token, move.side))
            else:  # a full hand: the token goes to the heap (docs/gemmatch.md)
                self.heaps[self.current].append(move.token)
            self.resolving.tokens.discard(move.token)
            if self.phase == KEEP or not self.resolving.tokens:
                self._resolve_next(ev)
        elif move.kind == SKIP:
            self.skips += 1
            self._end_turn(ev)
        else:  # pass
            self._end_turn(ev)
        self.history.append(ev)
        return ev

    def is_legal(self, move):
        """`move in legal_moves()`, without listing every placement to ask about one."""
        if not isinstance(move, Move):
            return False
        if self.phase not in (PLACE, AGAIN):
            return move in self.legal_moves()
        if move.kind != PLACE:
            return self.phase == AGAIN and move == PASS
        hand = self.hands[self.current]
        if not 1 <= move.slot <= len(hand) or not isinstance(move.spot, tuple):
            return False
        lies = dict(ways(*hand[move.slot - 1])).get(move.turn)
        return lies is not None and self.fits(lies, *move.spot)

    def _why_not(self, move):
        if not isinstance(move, Move):
            return f"not a move: {move!r}"
        phase = self.phase
        if phase == SKIP:
            return "none of the hand's tokens fits on the field: the turn is skipped (skip)"
        if move.kind == PLACE and phase in (PLACE, AGAIN):
            return self._why_not_place(move)
        if phase == PLACE and move.kind == "pass":
            return "a player who can place a token must place one; a pass follows only a group of 4 or more"
        if phase == PLACE:
            return "place a token from the hand (place N at X,Y turn T)"
        if phase == AGAIN:
            return "the group of 4 or more earned another placement: place a token or pass"
        size, group = self.resolving.size, self.resolving.tokens
        if move.kind in (HEAP, KEEP) and move.token not in group:
            names = " ".join(token_word(t) for t in sorted(group))
            return f"{token_word(move.token)} is not in the group of {size} (its tokens: {names})"
        if phase == SHARE and move.kind == KEEP:
            return f"a group of {size}: the hand holds {HAND_LIMIT} tokens, so the rest go to the victory heap"
        if phase == HEAP:
            return f"a group of {size}: one of its tokens goes to the victory heap (heap TOKEN, a token of the group)"
        if phase == KEEP:
            return f"a group of {size}: one more of its tokens goes to the hand, either side up (hand TOKEN basic|improved)"
        return (
            f"a group of {size}: every token of it goes to the heap or the hand (heap TOKEN, hand TOKEN SIDE), "
            f"at most {HAND_LIMIT} in a hand"
        )

    def _why_not_place(self, move):
        hand = self.hands[self.current]
        if not 1 <= move.slot <= len(hand):
            return f"the hand holds {len(hand)} token(s): no slot {move.slot}"
        if not 0 <= move.turn <= 3:
            return "a token turns a quarter at a time: turn 0 to 3 (never flipped: that shows its other side)"
        token, side = hand[move.slot - 1]
        x, y = move.spot
        cells = [(x + cx, y + cy) for cx, cy in turned(side_cells(token, side), move.turn)]
        n = self.size
        if not all(0 <= cx < n and 0 <= cy < n for cx, cy in cells):
            return f"a token may not cross the field's edge ({n} by {n})"
        return "tokens may not overlap: a cell there is taken"

    def _place(self, move, ev):
        token, side = self.hands[self.current].pop(move.slot - 1)
        x, y = move.spot
        cells = [(x + cx, y + cy) for cx, cy in turned(side_cells(token, side), move.turn)]
        for cell, gem in zip(cells, side_gems(token, side)):
            self.field[cell] = (token, gem)
        self.on_field[token] = (side, cells)
        self.queue = merged(groups_on(self.field, cells))
        self.again = False
        self._resolve_next(ev)

    def _resolve_next(self, ev):
        """Resolve the biggest group waiting; when none waits, look again (groups left on the
        field resolve one after another), then another placement or the turn's end."""
        if not self.queue:
            self.queue = groups_on(self.field)
        if not self.queue:
            self.resolving = None
            if self.again:
                self.again = False
                self.phase = AGAIN
            else:
                self._end_turn(ev)
            return
        self.queue.sort(key=lambda g: (g.tier, g.size))
        self.resolving = group = self.queue.pop()
        self.queue = []  # the others are looked for again once this one is resolved
        ev.groups.append(group)
        if group.tier >= 2:
            self.again = True
        if group.tier == 3:
            self.lifted = {t: self.on_field[t][0] for t in group.tokens}
            for t in group.tokens:
                self._off_field(t)
            self.phase = SHARE
        else:
            self.phase = HEAP

    def _off_field(self, token):
        if token in self.on_field:
            for cell in self.on_field.pop(token)[1]:
                del self.field[cell]

    def _end_turn(self, ev):
        ev.turn_over = True
        self.turns += 1
        if ev.move.kind != SKIP:
            self.skips = 0
        if self.skips >= 2:
            self.ended = "skips"
        elif self.turns >= MAX_TURNS:
            self.ended = "turns"
        elif not self.pile and self.current == 1:  # the round is played out
            self.ended = "pile"
        if self.ended:
            self.phase = OVER
            return
        self.current = 1 - self.current
        self._start_turn(ev)

    def _start_turn(self, ev=None):
        hand = self.hands[self.current]
        if len(hand) < HAND_LIMIT and self.pile:
            hand.append((self.pile.pop(0), BASIC))
            if ev is not None:
                ev.drew = hand[-1][0]
        self.phase = PLACE if self.can_place() else SKIP

    def to_dict(self):
        return {
            "game": "gemmatch",
            "variant": "printed",
            "field_size": self.size,
            "players": self.players,
            "over": self.over,
            "ended": self.ended,
            "turns": self.turns,
            "current": PLAYERS[self.current],
            "phase": self.phase,
            "scores": {n: self.score(p) for p, n in enumerate(PLAYERS)},
            "winners": [PLAYERS[p] for p in self.winners()],
            "hands": {n: [token_name(*t) for t in self.hands[p]] for p, n in enumerate(PLAYERS)},
            "heaps": {n: len(self.heaps[p]) for p, n in enumerate(PLAYERS)},
            "field": {f"{x},{y}": gem for (x, y), (_, gem) in sorted(self.field.items())},
            "pile": len(self.pile),
            "resolving": None if self.resolving is None else self._resolving_words(),
        }

    def _resolving_words(self):
        """The group being resolved, as the JSON says it: `a group of 4 R on L9 T20`."""
        g = self.resolving
        return f"a group of {g.size} {g.gem} on {' '.join(token_word(t) for t in sorted(g.tokens))}"


class Observation(views.Observation):
    """What a player knows: everything but the pile's order and the down side of the field's
    tokens, save those of the group being resolved (the Russian text: a player may look under
    the group's tokens)."""

    __slots__ = ()
    phase = views.shared("phase")
    size = views.shared("size")

    def hand(self, player=None):
        return list(self._state.hands[self.player if player is None else player])

    @property
    def field(self):
        return dict(self._state.field)

    @property
    def group(self):
        return self._state.resolving

    def under(self, token):
        """The gems of the down side of a token in the group being resolved."""
        s = self._state
        if s.resolving is None or token not in s.resolving.tokens:
            raise IllegalMove("only the tokens of the group being resolved may be looked under")
        up = s.on_field[token][0] if token in s.on_field else s.lifted[token]
        return side_gems(token, 1 - up)
