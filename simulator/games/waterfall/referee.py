"""The Waterfall referee (HLE's shape, as Lost Gems' referee): GameState holds the whole truth,
`legal_moves()` lists what the player to move may do, `apply(move)` performs it or raises
IllegalMove naming the rule, and players look through `observation(player)`, which hides the
other players' hands, their score piles and the draw pile. Pure rules: no world, no tiles.
A session script (read by rules.parse_script) plays on it through `RulesRunner`, and
`game_script` writes a finished game out as a script that replays it.

The rules are docs/waterfall.md's. A tile is known by its id, its index in the deck's order;
`kinds[id]` is its card (games.waterfall.cards).
"""

import random

from games.waterfall import cards

from simulator.games.waterfall import rules
from simulator.games.waterfall.rules import (
    DEFAULT_RULES,
    DRAW_COUNT,
    END_TILES,
    HAND_SIZE,
    LEFT,
    MAX_PLAYERS,
    MAX_TURNS,
    MIN_PLAYERS,
    PLAYERS,
    RIGHT,
    RULES,
    SCORE_LIMIT,
    STEP_FIRST,
    Observation,
    above,
    below,
    place_name,
)
from simulator.play import runner, scripts_out
from simulator.play.referee import PointsGame, deck_to_deal

PLAYING, FALLING, ADDING, SCORING, OVER = "play", "fall", "add", "score", "over"


class IllegalMove(Exception):
    """A move the rules forbid; the message names the rule."""


class Event:
    """What one move did. `drew` (kinds) is hidden from the other players (observation)."""

    __slots__ = (
        "action",
        "draws",
        "drew",
        "entered",
        "exited",
        "move",
        "player",
        "reshuffled",
        "scored",
        "stopped",
        "turn_over",
    )

    def __init__(self, player, move):
        self.player = player
        self.move = move
        self.drew = []  # kinds drawn by the player who moved
        self.draws = []  # every draw the move caused, as (player, tile id), in order
        self.reshuffled = False  # the discard pile became the draw pile
        self.entered = None  # the place the pawn entered
        self.action = None  # the action that place's tile ran
        self.exited = False  # the pawn fell out at the bottom (back above the waterfall)
        self.scored = None  # the kind scored
        self.stopped = 0  # steps left unused when the player fell no further (done)
        self.turn_over = False

    def describe(self, hide_draws=False):
        text = str(self.move)
        if self.entered is not None:
            text += f": enters {place_name(self.entered)}, {cards.ACTIONS[self.action]}"
        if self.exited:
            text += ": falls out at the bottom, back to the top"
        if self.stopped:
            text += f": falls no further, {self.stopped} step(s) unused"
        if self.drew:
            shown = (
                f"{len(self.drew)} tile(s)" if hide_draws else " ".join(map(cards.name, self.drew))
            )
            text += f"; draws {shown}"
        if self.turn_over:
            text += "; turn over"
        for p, _ in self.draws:
            if p != self.player:
                text += f"; {PLAYERS[p]} holds no tile: one step, and draws a tile"
        return text


def setup_order(deck, players):
    """(start tile id, hands as id lists, draw pile ids top first) for a deck's order: the first
    ADD tile starts the waterfall, the next tiles go round the players one by one, HAND_SIZE
    each, the rest is the draw pile."""
    start = next(i for i, k in enumerate(deck) if cards.action_of(k) == cards.ADD)
    rest = [i for i in range(len(deck)) if i != start]
    hands = [[] for _ in range(players)]
    for n in range(HAND_SIZE * players):
        hands[n % players].append(rest[n])
    return start, hands, rest[HAND_SIZE * players :]


class GameState(PointsGame):
    """`rules`: the named rules options in play (rules.RULES; docs/waterfall.md#rules-options)."""

    IllegalMove = IllegalMove
    Event = Event

    def __init__(self, players=2, seed=0, deck=None, start=0, rules=DEFAULT_RULES):
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ValueError(f"Waterfall is for {MIN_PLAYERS} to {MAX_PLAYERS} players")
        unknown = sorted(set(rules) - set(RULES))
        if unknown:
            raise ValueError(
                f"no Waterfall rules option {unknown[0]!r} (there are {', '.join(RULES)})"
            )
        self.rules = tuple(sorted(rules))
        self.draw_first = STEP_FIRST not in rules
        deck = deck_to_deal(
            deck,
            seed,
            cards.deck(),
            f"a deck is the {cards.DECK_SIZE} tiles of the game, each once",
        )
        self.kinds = deck
        self.players = players
        self.rng = random.Random(seed ^ 0x3A7E)  # reshuffles of the discard pile
        top, self.hands, self.pile = setup_order(deck, players)
        self.waterfall = {(0, 0): top}  # place -> tile id
        self.pawns = [None] * players  # place, or None: above the waterfall
        self.score_piles = [[] for _ in range(players)]
        self.discards = []
        self.current = start
        self.turns = 0
        self.moves = 0
        self.ended = None
        self.history = []
        self.reshuffles = 0
        self._start_turn(None)

    # --- reading ---------------------------------------------------------------------------
    def score(self, player):
        return sum(cards.number_of(self.kinds[t]) for t in self.score_piles[player])

    def observation(self, player):
        return Observation(self, player)

    def open_places(self):
        """Empty places a hand tile may join: right below a waterfall tile."""
        out = set()
        for place in self.waterfall:
            for side in (LEFT, RIGHT):
                spot = below(place, side)
                if spot not in self.waterfall:
                    out.add(spot)
        return sorted(out)

    def blocked(self, place):
        """Whether a tile at `place` holds another player's pawn (refuses entry)."""
        return place in self.waterfall and any(
            self.pawns[p] == place for p in range(self.players) if p != self.current
        )

    def step_options(self):
        """The sides the current pawn may step to now."""
        here = self.pawns[self.current]
        if here is None:
            return [LEFT]  # from above, one way only: the start tile (blocked or not)
        targets = {side: below(here, side) for side in (LEFT, RIGHT)}
        both = all(self.blocked(t) for t in targets.values())
        return [s for s in (LEFT, RIGHT) if both or not self.blocked(targets[s])]

    def may_stop(self):
        """Whether the falling player may fall no further: the steps played are how many they
        are *allowed* to fall (the seed), once the pawn has taken a step. The single step of a
        player with no tile in hand is no choice."""
        return self.phase == FALLING and not self.single_step and self.stepped

    def _scorable(self):
        hand = self.hands[self.current]
        return [i + 1 for i, t in enumerate(hand) if cards.gem_of(self.kinds[t]) in self.visited]

    def legal_moves(self):
        phase = self.phase
        n = len(self.hands[self.current])
        if phase == PLAYING:
            out = [rules.play(s) for s in range(1, n + 1)]
            return out + [rules.fall()] if self.steps else out
        if phase == FALLING:
            steps = [rules.step(s) for s in self.step_options()]
            return steps + [rules.done()] if self.may_stop() else steps
        if phase == ADDING:
            places = self.open_places()
            return [rules.add(s, p) for s in range(1, n + 1) for p in places]
        if phase == SCORING:
            return [rules.score(s) for s in self._scorable()] + [rules.done()]
        return []

    # --- changing --------------------------------------------------------------------------
    def _apply(self, move, ev):
        p = ev.player
        hand = self.hands[p]
        if move.kind == rules.PLAY:
            t = hand.pop(move.slot - 1)
            self.discards.append(t)
            self.steps += cards.number_of(self.kinds[t])
        elif move.kind == rules.FALL:
            self.phase = FALLING
        elif move.kind == rules.STEP:
            self._step(move.side, ev)
        elif self.phase == FALLING:  # done: fall no further
            ev.stopped = self.steps
            self.steps = 0
            self._end_turn(ev)
        elif move.kind == rules.ADD:
            self.waterfall[move.place] = hand.pop(move.slot - 1)
            self._go_on(ev)
        elif move.kind == rules.SCORE:
            t = hand.pop(move.slot - 1)
            self.score_piles[p].append(t)
            ev.scored = self.kinds[t]
            self.scored_now += 1
            if self.scored_now >= SCORE_LIMIT or not self._scorable():
                self._go_on(ev)
        else:  # done
            self._go_on(ev)

    def _why_not(self, move):
        if not isinstance(move, rules.Move):
            return f"not a move: {move!r}"
        phase = self.phase
        if phase == PLAYING:
            if move.kind == rules.FALL:
                return "play at least one hand tile before falling: its number is your steps"
            return f"{PLAYERS[self.current]} plays hand tiles now (play N, fall)"
        if phase == FALLING:
            if move.kind == rules.STEP:
                return self._why_not_step(move.side)
            if move.kind == rules.DONE:
                return self._why_not_stop()
            return "the pawn is falling: step left or step right"
        if phase == ADDING:
            if move.kind == rules.ADD:
                return "a tile joins the waterfall from the hand, right below a waterfall tile"
            return "ADD: place a hand tile in the waterfall (add N at ROW.PLACE)"
        if move.kind == rules.SCORE:
            return "SCORE takes a hand tile whose gem the pawn visited this turn"
        return "SCORE: score a hand tile (score N) or stop (done)"

    def _why_not_stop(self):
        """Why the pawn may not fall no further (done) now: which rule applied."""
        if self.single_step:
            return "with no tile in hand the one step is no choice: step, then draw a tile"
        return "take at least one step before falling no further (done)"

    def _why_not_step(self, side):
        """Why the pawn may not step to `side`: from above the waterfall there is one way down
        (left, to the start tile); below, a tile that holds another pawn, named, while the
        other way down is free."""
        here = self.pawns[self.current]
        if here is None:
            return "from above the waterfall the only way down is left, onto its first tile"
        target = below(here, side)
        holder = next(
            PLAYERS[p] for p in range(self.players) if p != self.current and self.pawns[p] == target
        )
        return f"that tile holds pawn {holder}, and the other way down is free"

    def _step(self, side, ev):
        p = self.current
        here = self.pawns[p]
        target = (0, 0) if here is None else below(here, side)
        if target not in self.waterfall:
            self.pawns[p] = None
            ev.exited = True
            self._end_turn(ev)
            return
        self.pawns[p] = target
        self.steps -= 1
        self.stepped = True
        kind = self.kinds[self.waterfall[target]]
        ev.entered = target
        ev.action = action = cards.action_of(kind)
        self.visited.add(cards.gem_of(kind))
        if action == cards.ADD:
            if self.hands[p]:
                self.phase = ADDING  # a place below some tile is always open
                return
        elif action == cards.DRAW:
            for _ in range(DRAW_COUNT):
                self._draw(p, ev)
        elif action == cards.SCORE:
            if self._scorable():
                self.phase = SCORING
                self.scored_now = 0
                return
        elif action == cards.STOP:
            self.steps = 0
        self._go_on(ev)

    def _go_on(self, ev):
        """After a tile's action: fall on while steps are left, else the turn ends."""
        if self.steps > 0:
            self.phase = FALLING
        else:
            self._end_turn(ev)

    def _draw(self, p, ev):
        if not self.pile and self.discards:
            self.pile = self.discards
            self.discards = []
            self.rng.shuffle(self.pile)
            self.reshuffles += 1
            ev.reshuffled = True
        if self.pile:
            t = self.pile.pop(0)
            self.hands[p].append(t)
            ev.draws.append((p, t))
            if p == ev.player:
                ev.drew.append(self.kinds[t])

    def _end_turn(self, ev):
        ev.turn_over = True
        if self.single_step and not self.draw_first:  # rules step-first: the step, then the draw
            self._draw(self.current, ev)
        self.turns += 1
        if len(self.waterfall) >= END_TILES:
            self.ended = "twenty"
        elif not self.pile and not self.discards:
            self.ended = "deck"
        elif self.turns >= MAX_TURNS:
            self.ended = "turns"
        self.turn_ended(ev)

    def _start_turn(self, ev):
        self.next_seat(ev)
        self.steps = 0
        self.visited = set()
        self.scored_now = 0
        self.stepped = False
        self.phase = PLAYING
        # no tile in hand: draw a tile and fall a single step (with rules step-first the draw
        # comes as the turn ends; the hands are dealt, so never on the first turn)
        self.single_step = not self.hands[self.current]
        if self.single_step:
            if self.draw_first and ev is not None:
                self._draw(self.current, ev)
            self.steps = 1
            self.phase = FALLING

    # --- output ----------------------------------------------------------------------------
    def to_dict(self):
        names = PLAYERS[: self.players]

        def tiles(ids):
            return [cards.name(self.kinds[t]) for t in ids]

        out = self.summary("waterfall", names, steps=self.steps)
        out.update(
            {
                "waterfall": {
                    place_name(pl): cards.name(self.kinds[t])
                    for pl, t in sorted(self.waterfall.items())
                },
                "pawns": {
                    n: None if self.pawns[p] is None else place_name(self.pawns[p])
                    for p, n in enumerate(names)
                },
                "hands": {n: tiles(self.hands[p]) for p, n in enumerate(names)},
                "score_piles": {n: tiles(self.score_piles[p]) for p, n in enumerate(names)},
                "draw_pile": len(self.pile),
                "discards": tiles(self.discards),
            }
        )
        return out


# Session scripts (`*.wf`, read by rules.parse_script) played on the referee alone, and a
# finished game written out as a script that replays it


class RulesRunner(runner.RulesRunner):
    """A Waterfall script on the referee alone (`--rules-only`); tiles.py's TilesRunner
    plays it on the tiles."""

    NAME, TITLE = "waterfall", "Waterfall"
    SETUP = (
        ("players", 2),
        ("seed", 0),
        ("deck", None),
        ("deal", "blob"),
        ("start", 0),
        ("rules", ()),
    )
    IllegalMove = IllegalMove
    GameState = GameState
    COUNTED = (("hand", "hands"), ("waterfall", "waterfall"), ("draw", "pile"))

    def opening(self):
        s = self.state
        self.say("waterfall starts with " + cards.name(s.kinds[s.waterfall[(0, 0)]]))

    def read(self, st):
        if st.what == "pawn":
            pawn = self.state.pawns[st.player]
            return "above" if pawn is None else place_name(pawn)
        return runner.RulesRunner.read(self, st)


def game_script(state, title, seed=0):
    """A finished Waterfall game as a `.wf` script: its deck, players and every move, then
    `expect` lines for how it ended, so `blinks session run` replays that very game."""
    setup = [
        f"players {state.players}",
        f"seed {seed}",
        "deck " + " ".join(cards.name(k) for k in state.kinds),
        f"start {PLAYERS[state.history[0].player] if state.history else 'A'}",
    ] + [f"rules {' '.join(state.rules)}"] * bool(state.rules)
    ends = [f"expect score {PLAYERS[p]} {state.score(p)}" for p in range(state.players)]
    ends += [f"expect waterfall {len(state.waterfall)}", f"expect draw {len(state.pile)}"]
    return scripts_out.game_script(state, title, setup, ends + scripts_out.how_it_ended(state))


__all__ = ["Event", "GameState", "IllegalMove", "RulesRunner", "above", "game_script"]
