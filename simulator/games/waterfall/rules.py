"""Waterfall's rules as words and numbers (pure: no referee state, no world, no tiles): the
fixed numbers, the pyramid's places, the moves, what one player may see, and how a session
script (`*.wf`) says them. The referee (referee.py) plays them.

A place in the waterfall is (row, index): row 0 is the start tile, row k has places 0..k from
the left. Below (row, i) lie down-left (row + 1, i) and down-right (row + 1, i + 1). On the hex
grid (flat-top, direction 0 north) down-left is south-west and down-right south-east, so the
places of one row do not touch each other: a tile touches the two above it, the two below it,
and the tiles straight above and below (two rows away).

Moves, one small decision each, so legal_moves() stays short:

play N        put hand tile N (1-based) on the discard pile: its number adds steps
fall          stop playing and start falling (needs a step)
step left     fall to the place down-left (step right: down-right; from above the
              waterfall both lead to the start tile, and only `step left` is offered)
done          FALL: fall no further (after a step; the steps played are only allowed)
add N at R.I  ADD: hand tile N joins the waterfall at row R, place I
score N       SCORE: hand tile N goes to the score pile (its gem was visited this turn)
done          SCORE: score no more

A script is parsed whole before anything runs; a malformed line raises ScriptError(line, what
was expected), exit 2, as every game's scripts do (docs/waterfall.md#session-scripts).
"""

from games.waterfall import cards

from simulator.sessions import views
from simulator.sessions.script import ScriptError, Statement, Words, number_word

HAND_SIZE = 4
DRAW_COUNT = 3  # the DRAW action
SCORE_LIMIT = 2  # tiles one SCORE action may score
END_TILES = 20  # the game ends once the waterfall holds this many
MAX_TURNS = 400  # a safety net: no game of the bots comes near it (see docs/waterfall.md)
MIN_PLAYERS, MAX_PLAYERS = 2, 4
PLAYERS = ("A", "B", "C", "D")
LEFT, RIGHT = "left", "right"

# rules options, by the word of a script's `rules` line and of `--rules` (docs/waterfall.md)
STEP_FIRST = "step-first"  # no tile in hand: step, then draw, as the seed orders them
RULES = (STEP_FIRST,)
DEFAULT_RULES = ()  # draw, then step: the seed's order stalls (docs/waterfall.md#rules-options)

ENDS = ("twenty", "deck", "turns")  # why a game ended: 20 tiles, deck spent, turn limit


def below(place, side):
    row, i = place
    return (row + 1, i if side == LEFT else i + 1)


def above(place):
    """The places right above (up-left, up-right) that exist in a pyramid."""
    row, i = place
    out = []
    if i > 0:
        out.append((row - 1, i - 1))
    if i < row:
        out.append((row - 1, i))
    return out


def place_name(place):
    return f"{place[0]}.{place[1]}"


def parse_place(text):
    row, dot, i = text.partition(".")
    if not dot or not (row.isdigit() and i.isdigit() and row.isascii() and i.isascii()):
        return None
    place = (int(row), int(i))
    return place if place[1] <= place[0] < 100 else None


def cell_of(place, top=(0, 0)):
    """The axial cell (q, r) of a place, the start tile at `top`."""
    row, i = place
    return (top[0] + 2 * i - row, top[1] + row - i)


# Moves

PLAY, FALL, STEP, ADD, SCORE, DONE = "play", "fall", "step", "add", "score", "done"


class Move(views.Move):
    __slots__ = ("kind", "place", "side", "slot")

    def __init__(self, kind, slot=0, side=None, place=None):
        self.kind = kind
        self.slot = slot
        self.side = side
        self.place = place

    def _key(self):
        return (self.kind, self.slot, self.side, self.place)

    def __str__(self):
        """The move in a script's words: its kind, then what it names."""
        words = [self.kind]
        if self.kind in (PLAY, ADD, SCORE):
            words.append(str(self.slot))
        if self.kind == STEP:
            words.append(self.side)
        if self.kind == ADD:
            words += ["at", place_name(self.place)]
        return " ".join(words)


def play(slot):
    return Move(PLAY, slot)


def fall():
    return Move(FALL)


def step(side):
    return Move(STEP, side=side)


def add(slot, place):
    return Move(ADD, slot, place=tuple(place))


def score(slot):
    return Move(SCORE, slot)


def done():
    return Move(DONE)


# What one player may know (HLE's `HanabiObservation`): the table, their own hand and score
# pile, and how many tiles the others hold. A bot only ever gets an Observation.


class Observation(views.Observation):
    __slots__ = ()

    players = views.shared("players")

    @property
    def hand(self):
        """Own hand, as kinds (slot N is hand[N - 1])."""
        s = self._state
        return [s.kinds[t] for t in s.hands[self.player]]

    def hand_sizes(self):
        return [len(h) for h in self._state.hands]

    def score_pile_sizes(self):
        return [len(p) for p in self._state.score_piles]

    @property
    def score(self):
        """Own score (the others' score piles lie face down)."""
        return self._state.score(self.player)

    @property
    def waterfall(self):
        """place -> kind: the waterfall is face up."""
        s = self._state
        return {place: s.kinds[t] for place, t in s.waterfall.items()}

    @property
    def pawns(self):
        return list(self._state.pawns)

    @property
    def discards(self):
        s = self._state
        return [s.kinds[t] for t in s.discards]

    @property
    def draw_pile(self):
        return len(self._state.pile)

    phase = views.shared("phase")
    steps = views.shared("steps")

    @property
    def visited(self):
        return set(self._state.visited)

    def open_places(self):
        return self._state.open_places()

    def step_options(self):
        return self._state.step_options() if self._state.current == self.player else []


def event_seen_by(ev, player):
    """`ev` as `player` sees it: another player's draws show as a count (kinds hidden)."""
    if ev.player == player or not ev.drew:
        return ev
    hidden = [(p, -1) for p, _ in ev.draws]
    return views.copy_event(ev, drew=[cards.NO_CARD] * len(ev.drew), draws=hidden)


# The session script language (`*.wf`)

SETUP_KINDS = ("players", "seed", "deck", "deal", "start", "rules")
TILE_STATES = ("undealt", "dealing", "uncertain", "card", "revealed", "waterfall")
EXPECTS = ("score", "hand", "pawn", "waterfall", "draw", "over", "ended", "turn")
ERROR = "expected players, seed, deck, deal, start, rules, a move (A play 1) or expect"
WORDS = Words(
    "".join(PLAYERS),
    "Waterfall",
    SETUP_KINDS,
    ENDS,
    counts=("hand",),
    totals=("waterfall", "draw"),
    shows=(TILE_STATES, cards.parse, "a card", False),
)


def parse_script(text):
    return WORDS.read(text, _move, _expect, _deck_or_rules, ERROR)


def _deck_or_rules(line, code, words):
    head = words[0].lower()
    if head == "deck":
        listing = f"a deck lists the {cards.DECK_SIZE} tiles of the game, each once"
        return WORDS.pieces(
            line, code, words, cards.parse, cards.deck(), "a tile like ADD-R1", listing
        )
    if head == "rules":
        chosen = tuple(sorted({w.lower() for w in words[1:]}))
        if not chosen or any(w not in RULES for w in chosen):
            raise ScriptError(line, f"expected `rules OPTION` ({', '.join(RULES)})")
        return Statement(line, "rules", code, chosen)
    return None


def _move(line, words):
    kind = words[0].lower()
    n = len(words)
    if kind in (PLAY, SCORE) and n == 2:
        slot = number_word(line, words[1], "a hand slot (1, 2, ...)")
        return play(slot) if kind == PLAY else score(slot)
    if kind in (FALL, DONE) and n == 1:
        return fall() if kind == FALL else done()
    if kind == STEP and n == 2 and words[1].lower() in ("left", "right"):
        return step(words[1].lower())
    if kind == ADD and n == 4 and words[2].lower() == "at":
        place = parse_place(words[3])
        if place is None:
            raise ScriptError(line, f"expected a place ROW.PLACE like 2.1, not {words[3]!r}")
        return add(number_word(line, words[1], "a hand slot (1, 2, ...)"), place)
    raise ScriptError(
        line, "expected a move: play N, fall, step left|right, add N at ROW.PLACE, score N, done"
    )


def _expect(line, code, words):
    n = len(words)
    what = words[1].lower() if n > 1 else ""
    if what == "pawn" and n == 4:
        place = words[3].lower()
        if place != "above" and parse_place(place) is None:
            raise ScriptError(line, "expected `expect pawn P ROW.PLACE` or `expect pawn P above`")
        return Statement(line, "expect", code, place, WORDS.player(line, words[2]), what=what)
    raise ScriptError(
        line,
        "expected expect score P N, hand P N, pawn P ROW.PLACE|above, waterfall N, draw N, "
        "turn P, over yes|no, ended twenty|deck|turns|no, or tile T shows STATE",
    )
