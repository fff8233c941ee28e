"""What one Waterfall player may know (HLE's `HanabiObservation`): the table, their own hand and
score pile, and how many tiles the others hold. A bot only ever gets an Observation."""

from games.waterfall import cards

from simulator.sessions import views


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
