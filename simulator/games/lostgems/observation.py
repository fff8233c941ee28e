"""What one player may know (HLE's `HanabiObservation`): everything but their own shards.

A bot only ever gets an `Observation`, so it cannot cheat by accident: its own hand shows as
hint knowledge only (possible colours and values per slot, negative information included), and
its own draws are masked in the events it reads.
"""

from simulator.games.lostgems.shards import COLOURS, DECK_SIZE
from simulator.sessions import views


def possible_shards(knowledge):
    """The shards a (colour mask, value mask) pair still allows, ignoring card counting."""
    cm, vm = knowledge
    return [c * 3 + v for c in range(3) if cm >> c & 1 for v in range(3) if vm >> v & 1]


def describe_knowledge(knowledge):
    """`RY/12` style text for a slot's knowledge (for transcripts and debugging)."""
    cm, vm = knowledge
    colours = "".join(COLOURS[c] for c in range(3) if cm >> c & 1)
    values = "".join(str(v + 1) for v in range(3) if vm >> v & 1)
    return colours + "/" + values


class Observation(views.Observation):
    """Player `player`'s view of `state`. Read-only; copies what it hands out."""

    __slots__ = ()

    @property
    def partner(self):
        return 1 - self.player

    @property
    def partner_hand(self):
        return list(self._state.hands[1 - self.player])

    @property
    def hand_size(self):
        return len(self._state.hands[self.player])

    def knowledge(self, player):
        """Hint knowledge of `player`'s hand: a (colour mask, value mask) per slot."""
        return list(self._state.knowledge[player])

    gems = views.copied("gems")
    discards = views.copied("discards")

    hints = views.shared("hints")
    errors = views.shared("errors")
    jungle = views.shared("jungle")
    final_turns = views.shared(
        "final_turns", "None until the last shard is drawn; then the turns left in the game."
    )

    def glance(self):
        """What a player reads at the start of every turn, in one call: (hints, errors,
        jungle, turns, final_turns, hand_size, partner's shards as a tuple). Each of those
        properties is a call of its own, and six or seven a turn cost a batch of bot games
        4% of its time."""
        state = self._state
        return (
            state.hints,
            state.errors,
            DECK_SIZE - state.next_draw,  # state.jungle, without a second property call
            state.turns,
            state.final_turns,
            len(state.hands[self.player]),
            tuple(state.hands[1 - self.player]),
        )

    @property
    def last_event(self):
        """The last turn's Event, with the shard drawn hidden if this player drew it."""
        history = self._state.history
        return event_seen_by(history[-1], self.player) if history else None


def event_seen_by(ev, player):
    """The Event `ev` as `player` sees it: the shard drawn hidden if that player drew it."""
    if ev.player == player and ev.drew is not None:
        return views.copy_event(ev, drew=None)
    return ev
