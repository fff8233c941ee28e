"""Fixed-size action spaces over the play layer's moves (simulator.play.state), one per game,
so a learner's outputs and OpenSpiel's `num_distinct_actions` never change size mid-game.

Lost Gems has a small closed set of moves, so each move has its own action, whatever the
state: 0-1 play slot 1-2, 2-3 discard slot 1-2, 4-9 hint red, yellow, blue, 1, 2, 3. The other
games' moves name cells, rotations and subsets of a hand (a Gembatan board grows without
bound), so no fixed list covers them: there action `i` is the state's i-th legal move (in the
referee's own order), up to the game's SIZE, and the mask says which indices are live.
"""

from simulator.games.lostgems.moves import ALL_HINTS, DISCARDS, PLAYS

LOSTGEMS_MOVES = PLAYS + DISCARDS + ALL_HINTS


class FixedMoves:
    """Lost Gems: one action a move, the same in every state."""

    size = len(LOSTGEMS_MOVES)

    @staticmethod
    def actions(moves):
        """The action of each legal move, in the moves' order."""
        return [LOSTGEMS_MOVES.index(m) for m in moves]

    @staticmethod
    def move(moves, action):
        """The legal move behind `action`; ValueError if it is not legal now."""
        if 0 <= action < len(LOSTGEMS_MOVES) and LOSTGEMS_MOVES[action] in moves:
            return LOSTGEMS_MOVES[action]
        raise ValueError(f"action {action} ({describe_fixed(action)}) is not legal now")


def describe_fixed(action):
    return str(LOSTGEMS_MOVES[action]) if 0 <= action < len(LOSTGEMS_MOVES) else "no move"


class IndexedMoves:
    """The other games: action i is the i-th legal move, i < size."""

    def __init__(self, name, size):
        self.name = name
        self.size = size

    def actions(self, moves):
        if len(moves) > self.size:
            raise ValueError(
                f"{self.name}: {len(moves)} legal moves, more than its {self.size} actions"
            )
        return list(range(len(moves)))

    def move(self, moves, action):
        if 0 <= action < len(moves):
            return moves[action]
        raise ValueError(f"action {action} is not legal now: {len(moves)} moves")


# The most legal moves each indexed game can offer at once (docs/research.md says why).
# Gem Match: 5 hand tokens x 19 cells x 6 turns, and a pass. Waterfall and Gembatan: their
# move lists in random play peak at about 90 and 400, a board of 60 Gembatan tiles at fewer
# than 2,000; a state with more moves than this raises ValueError naming the game.
INDEXED_SIZES = {"waterfall": 256, "gemmatch": 5 * 19 * 6 + 1, "gembatan": 4096}


def encoding(name):
    """The action encoding of game `name`."""
    if name == "lostgems":
        return FixedMoves()
    return IndexedMoves(name, INDEXED_SIZES[name])
