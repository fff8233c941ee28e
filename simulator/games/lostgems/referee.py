"""The referee: Lost Gems rules, to the letter of LOSTGEMS.md part 1 (HLE's `HanabiState`).

`GameState` holds the whole truth; `legal_moves()` lists what the player to move may do and
`apply(move)` performs it or raises `IllegalMove` naming the rule. Players (and bots) should
look through `observation(player)`, which hides the observer's own shards. Pure rules: no world,
no tiles, no I/O, so thousands of games run per second.
"""

from simulator.games.lostgems.moves import ALL_HINTS, DISCARD, HINT, PLAY, Move
from simulator.games.lostgems.observation import Observation
from simulator.games.lostgems.shards import (
    COLOUR_NAMES,
    DECK_SIZE,
    HAND_SIZE,
    MAX_ERRORS,
    MAX_HINTS,
    check_deck,
    shard_name,
    shuffled_deck,
)

PLAYERS = ("A", "B")


class IllegalMove(Exception):
    """A move the rules forbid; the message names the rule."""


class Event:
    """What one turn did, as both players saw it (the shard played or discarded is public)."""

    __slots__ = (
        "completed",
        "drew",
        "error",
        "errors",
        "hints",
        "holds",
        "move",
        "played",
        "player",
        "regained",
        "shard",
        "touched",
        "turn",
    )

    def __init__(self, turn, player, move):
        self.turn = turn
        self.player = player
        self.move = move
        self.shard = None  # the shard played or discarded
        self.played = False  # it joined its gem
        self.error = False  # it was played but was not playable
        self.completed = False  # it completed its gem
        self.regained = False  # a spent hint token became available again
        self.touched = ()  # hint: the 1-based slots it pointed at
        self.drew = None  # the shard drawn from the jungle into slot 2, if any
        self.hints = 0  # tokens after the turn
        self.errors = 0
        self.holds = 0  # shards in the hand of the player who moved, after the turn

    def describe(self):
        """One transcript line: what happened, in a player's words."""
        m = self.move
        if m.kind == HINT:
            where = (
                ("slot " + " and ".join(str(s) for s in self.touched))
                if self.touched
                else "no shard"
            )
            text = f"{m}: points at {where}"
        elif self.played:
            text = f"{m}: {shard_name(self.shard)} joins the {COLOUR_NAMES[self.shard // 3]} gem"
            if self.completed:
                text += " (gem complete%s)" % (", a hint token back" if self.regained else "")
        elif self.error:
            text = f"{m}: {shard_name(self.shard)} is not playable, an error token is lost"
        else:
            text = f"{m}: {shard_name(self.shard)} discarded, a hint token back"
        if self.drew is not None:
            text += f"; draws {shard_name(self.drew)}"
        return text


class GameState:
    """One game of Lost Gems between players 0 (A) and 1 (B).

    Build with `GameState(seed=N)` for a shuffled deck, or `GameState(deck=[...])` for a fixed
    draw order (first two shards to A's slots 1, 2, next two to B's, the other 14 the jungle,
    top first). `start` is the player who moves first (0 or 1).
    """

    def __init__(self, seed=0, deck=None, start=0):
        if deck is None:
            deck = shuffled_deck(seed)
        else:
            deck = list(deck)
            check_deck(deck)
        self.deck = deck
        self.hands = [deck[0:2], deck[2:4]]
        # Hint knowledge per hand slot: (colour bitmask, value bitmask) still possible.
        self.knowledge = [[(7, 7), (7, 7)], [(7, 7), (7, 7)]]
        self.next_draw = 2 * HAND_SIZE
        self.gems = [0, 0, 0]
        self.discards = []
        self.hints = MAX_HINTS
        self.errors = 0
        self.turns = 0
        self.current = start
        self.over = False
        self.final_turns = None  # turns left after the last draw, once it has happened
        self.history = []

    # --- reading the state -------------------------------------------------------------
    @property
    def jungle(self):
        """Shards left to draw."""
        return DECK_SIZE - self.next_draw

    @property
    def score(self):
        """Sum of the gems, or 0 once both error tokens are lost."""
        return 0 if self.errors >= MAX_ERRORS else self.gems[0] + self.gems[1] + self.gems[2]

    def observation(self, player):
        return Observation(self, player)

    def legal_moves(self):
        if self.over:
            return []
        n = len(self.hands[self.current])
        moves = [Move.play(s) for s in range(1, n + 1)]
        if self.hints < MAX_HINTS:
            moves += [Move.discard(s) for s in range(1, n + 1)]
        if self.hints > 0:
            moves += list(ALL_HINTS)
        return moves

    def check(self, move):
        """Raise IllegalMove, naming the rule, unless `move` is legal now."""
        if self.over:
            raise IllegalMove("the game is over: no more moves")
        if not isinstance(move, Move):
            raise IllegalMove(f"not a move: {move!r}")
        if move.kind == HINT:
            if self.hints <= 0:
                raise IllegalMove("a hint needs an available hint token, and none is left")
            if move.code < 0:
                raise IllegalMove("a hint names a colour (red, yellow, blue) or a value (1-3)")
            return
        if move.kind not in (PLAY, DISCARD):
            raise IllegalMove("a move is a hint, a play or a discard")
        n = len(self.hands[self.current])
        if not 1 <= move.slot <= n:
            raise IllegalMove(
                f"{PLAYERS[self.current]} has no shard in slot {move.slot} (hand of {n})"
            )
        if move.kind == DISCARD and self.hints >= MAX_HINTS:
            raise IllegalMove("a discard needs a spent hint token, and all 3 are available")

    # --- changing the state ------------------------------------------------------------
    def apply(self, move):
        """Perform `move` for the player to move; return the Event. Raises IllegalMove."""
        self.check(move)
        p = self.current
        self.turns += 1
        ev = Event(self.turns, p, move)
        hand = self.hands[p]
        if move.kind == HINT:
            self._hint(1 - p, move, ev)
            ended = drew_last = False  # a hint changes no gem and no error token
        else:
            i = move.slot - 1
            ev.shard = s = hand.pop(i)
            knowledge = self.knowledge[p]
            knowledge.pop(i)
            if move.kind == DISCARD:
                self.discards.append(s)
                self.hints += 1
                ended = False
            else:
                # A second error or a ninth point ends the game at once: no further turn, but
                # the turn itself is whole, replacement drawn ("either way, draw a
                # replacement"), as HLE's environment deals it.
                ended = self._play(s, ev)
            drew_last = False
            if self.next_draw < DECK_SIZE:
                ev.drew = d = self.deck[self.next_draw]
                self.next_draw += 1
                hand.append(d)
                knowledge.append((7, 7))
                drew_last = self.next_draw == DECK_SIZE
        ev.hints = self.hints
        ev.errors = self.errors
        ev.holds = len(hand)
        self.history.append(ev)
        self.current = 1 - p
        if ended:
            self.over = True
        elif self.final_turns is not None:
            self.final_turns -= 1
            if self.final_turns <= 0:
                self.over = True
        elif drew_last:
            self.final_turns = 2  # one more turn each, the partner first
        return ev

    def _hint(self, target, move, ev):
        self.hints -= 1
        know = self.knowledge[target]
        touched = ()
        kind_colour = move.hint_kind == "colour"
        bit = 1 << (move.hint if kind_colour else move.hint - 1)
        points_at = move.points_at
        for slot, s in enumerate(self.hands[target]):
            c, v = know[slot]
            if points_at >> s & 1:
                touched += (slot + 1,)
                know[slot] = (bit, v) if kind_colour else (c, bit)
            else:
                know[slot] = (c & ~bit, v) if kind_colour else (c, v & ~bit)
        ev.touched = touched

    def _play(self, s, ev):
        """Play shard `s`; returns whether that ends the game (a ninth point, a second error)."""
        colour, value = s // 3, s % 3 + 1
        gems = self.gems
        if gems[colour] + 1 == value:
            gems[colour] = value
            ev.played = True
            if value == 3:
                ev.completed = True
                if self.hints < MAX_HINTS:
                    self.hints += 1
                    ev.regained = True
                return gems[0] + gems[1] + gems[2] == 9
            return False
        self.errors += 1
        self.discards.append(s)
        ev.error = True
        return self.errors >= MAX_ERRORS

    def to_dict(self):
        """The JSON object of LOSTGEMS.md part 3, less the simulator's `tiles` and `deal_ms`."""
        return {
            "score": self.score,
            "hints": self.hints,
            "errors": self.errors,
            "over": self.over,
            "turns": self.turns,
            "jungle": self.jungle,
            "gems": {"R": self.gems[0], "Y": self.gems[1], "B": self.gems[2]},
            "discards": [shard_name(s) for s in self.discards],
            "hands": {
                "A": [shard_name(s) for s in self.hands[0]],
                "B": [shard_name(s) for s in self.hands[1]],
            },
        }
