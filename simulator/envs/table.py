"""The play layer's game and state as both adapters hold them: shared, dealt by any seed."""

import copy

from simulator.play import state as play


class SharedGame(play.Game):
    """The play layer's game, shared by every copy of a state: it never changes."""

    def __deepcopy__(self, memo):
        return self

    def __reduce__(self):
        return (SharedGame, (self.name, self.players))  # pickled by name: a module is not


class PlayState(play.State):
    """The play layer's state, copied as its own clone() does: the referee, not the cache of
    its moves (a Gembatan turn lists hundreds)."""

    def __deepcopy__(self, memo):
        other = PlayState(self.game)
        other.referee = copy.deepcopy(self.referee, memo)
        return other


def dealt(game, seed=None, referee=None):
    """A state past the deal: the referee dealt from `seed` as the game's descriptor deals it
    (any seed >= 0, where the play layer's chance node takes 0..65535), or `referee`."""
    state = PlayState(game)
    state.referee = referee if referee is not None else game.descriptor.dealt(seed, game.players)
    return state
