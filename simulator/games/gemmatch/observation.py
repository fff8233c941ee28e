"""What one Gem Match player may know (HLE's `HanabiObservation`). Every token out of the pile
lies face up, hands included (the document: a player's tokens are always visible to the other),
so a player sees the field, both hands, the heaps' sizes and how many tokens the pile holds.
Hidden: the pile's order, and the other side of every token, except the tokens of the group
being resolved (the document lets the player look under those before choosing).
A bot only ever gets an Observation."""

from games.gemmatch import tokens

from simulator.games.gemmatch.field import Field
from simulator.sessions import views


class Observation(views.Observation):
    __slots__ = ()

    players = views.shared("players")

    def hand(self, player=None):
        """A hand as the gems its tokens show (slot N is hand[N - 1]); own hand by default."""
        s = self._state
        p = self.player if player is None else player
        return [s.gems_of(t) for t in s.hands[p]]

    def improved_in_hand(self, player=None):
        s = self._state
        p = self.player if player is None else player
        return [bool(s.sides[t]) for t in s.hands[p]]

    @property
    def field(self):
        """A copy of the field (its tokens' ids are the state's, their up sides shown)."""
        return self._state.field.copy()

    def other_side(self, cell):
        """The gems under the token on `cell`, if it is in the group being resolved."""
        s = self._state
        if s.pending is None or cell not in s.pending.cells:
            raise KeyError(f"the token on {cell} is not in the group being resolved")
        t = s.token_at(cell)
        return tokens.side_of(s.kinds[t], 1 - s.sides[t])

    def side_at(self, cell):
        s = self._state
        return s.sides[s.token_at(cell)]

    @property
    def pending(self):
        return self._state.pending

    def heap_sizes(self):
        return [len(h) for h in self._state.heaps]

    def scores(self):
        return self._state.scores

    @property
    def pile(self):
        return len(self._state.pile)

    phase = views.shared("phase")
    last_turn = views.shared("last_turn")


__all__ = ["Field", "Observation"]
