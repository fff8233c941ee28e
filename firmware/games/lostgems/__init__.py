"""Lost Gems, the cooperative gem-shard game: `from games.lostgems import LostGems`."""

from games.lostgems.game import LostGems

__all__ = ["LostGems"]
