"""What one Waterfall player may know (HLE's `HanabiObservation`): the table, their own hand and
score pile, and how many tiles the others hold. A bot only ever gets an Observation."""

from games.waterfall import cards


class Observation:
    __slots__ = ("_state", "player")

    def __init__(self, state, player):
        self._state = state
        self.player = player

    @property
    def players(self):
        return self._state.players

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

    @property
    def current(self):
        return self._state.current

    @property
    def phase(self):
        return self._state.phase

    @property
    def steps(self):
        return self._state.steps

    @property
    def visited(self):
        return set(self._state.visited)

    @property
    def turns(self):
        return self._state.turns

    @property
    def over(self):
        return self._state.over

    def open_places(self):
        return self._state.open_places()

    def step_options(self):
        return self._state.step_options() if self._state.current == self.player else []

    def legal_moves(self):
        return self._state.legal_moves() if self._state.current == self.player else []


def event_seen_by(ev, player):
    """`ev` as `player` sees it: another player's draws show as a count (kinds hidden)."""
    if ev.player == player or not ev.drew:
        return ev
    other = object.__new__(ev.__class__)
    for slot in ev.__slots__:
        setattr(other, slot, getattr(ev, slot))
    other.drew = [cards.NO_CARD] * len(ev.drew)
    other.draws = [(p, -1) for p, _ in ev.draws]
    return other
