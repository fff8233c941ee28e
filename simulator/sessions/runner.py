"""What every game's session runner shares: the exit codes of `blinks session run` and the
result a run ends with. Each game's runners (simulator/games/<game>/runner.py, and a tiles
runner next to it) play its statements and end in a subclass of `SessionResult` that words the
game's outcome.
"""

EXIT_OK = 0
EXIT_EXPECT_FAILED = 1
EXIT_BAD_SCRIPT = 2
EXIT_TILE_DIED = 3  # a co-simulated tile's MicroPython process failed (--mpy): no verdict


class SessionResult:
    """How a session ended: exit `code`, the final `state` (None if the deal failed), and
    failed expects as (line, message) pairs. A game's result overrides `undealt()` (the game
    part of the JSON when the deal failed) and `outcome()` (the line that ends a run)."""

    def __init__(self, code, state, failures, runner=None):
        self.code = code
        self.state = state
        self.failures = failures
        self.runner = runner

    def to_dict(self):
        """The game state's JSON object (for Lost Gems that of LOSTGEMS.md part 3), with the
        same keys in every game for the tiles and the deal."""
        data = self.state.to_dict() if self.state else self.undealt()
        data["tiles"] = self.runner.tiles_json() if self.runner else []
        data["deal_ms"] = self.runner.deal_ms if self.runner else None
        return data

    def undealt(self):
        """The game part of the JSON when the deal failed."""
        return {"over": False}

    def outcome(self):
        """The last line of a session run without --json."""
        if self.state is None:
            return "the deal failed, no game was played"
        over = "over" if self.state.over else "not over"
        return f"{over}; {len(self.failures)} expect(s) failed"
