"""What the referees of games won on points share, written once: the deck a game deals (the
script's, checked, or the whole deck shuffled from the seed), the check of a move and its
record, the end of a turn, and the reading of scores."""

import random

OVER = "over"  # the phase of a finished game


def deck_to_deal(deck, seed, full, words):
    """`deck` (a list of the game's pieces) if it holds exactly `full` in any order, else
    raise ValueError(`words`); None deals `full` shuffled by random.Random(seed)."""
    if deck is None:
        deck = list(full)
        random.Random(seed).shuffle(deck)
        return deck
    deck = list(deck)
    if sorted(deck) != sorted(full):
        raise ValueError(words)
    return deck


class PointsGame:
    """A referee's reading of a game won on points; the game gives `players`, `current`,
    `phase`, `turns`, `moves`, `history`, `ended` (why it ended, or None), `score(player)`,
    `legal_moves()`, `_why_not(move)` (why an illegal move is one), `_apply(move, event)` (what
    a legal move does), `_start_turn(event)`, and its IllegalMove and Event classes."""

    IllegalMove = Exception
    Event = None  # Event(player, move): what one move did

    def apply(self, move):
        """Perform `move` for the player to move; return the Event. Raises IllegalMove."""
        self.check(move, self.IllegalMove)
        ev = self.Event(self.current, move)
        self.moves += 1
        self._apply(move, ev)
        self.history.append(ev)
        return ev

    def check(self, move, illegal):
        """Raise `illegal` (the game's IllegalMove) unless `move` is legal now."""
        if self.over:
            raise illegal("the game is over: no more moves")
        if not self.is_legal(move):
            raise illegal(self._why_not(move))

    def is_legal(self, move):
        """Whether `move` is one of `legal_moves()` (a game may tell it faster)."""
        return move in self.legal_moves()

    def turn_ended(self, event):
        """After the rules of a turn's end: over if `ended` says why, else the next turn."""
        if self.ended:
            self.phase = OVER
            return
        self._start_turn(event)

    def next_seat(self, event):
        """The seat after the current one moves, unless the turn starts the game (no event)."""
        if event is not None:
            self.current = (self.current + 1) % self.players

    def summary(self, game, names, **more):
        """The start of to_dict() every such game shares: the game, its players, how it stands,
        `more` (the game's own), then the scores and winners by seat name (`names`)."""
        out = {
            "game": game,
            "players": self.players,
            "over": self.over,
            "ended": self.ended,
            "turns": self.turns,
            "current": names[self.current],
            "phase": self.phase,
        }
        out.update(more)
        out["scores"] = {n: self.score(p) for p, n in enumerate(names)}
        out["winners"] = [names[p] for p in self.winners()]
        return out

    @property
    def over(self):
        return self.phase == OVER

    @property
    def scores(self):
        return [self.score(p) for p in range(self.players)]

    def winners(self):
        best = max(self.scores)
        return [p for p in range(self.players) if self.score(p) == best]
