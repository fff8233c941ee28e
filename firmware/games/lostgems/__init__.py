"""Lost Gems, the cooperative gem-shard game: `from games.lostgems import LostGems`.

Modules: `shards` (codes and decks), `board` (the gem board as one 6-bit face value), `store`
(state names and the saved blob), `display` (pictures as functions of time), `courier` (per-face
datagram outboxes), `deal` (the cluster deal protocol), `game` (the tile's state machine, its
gestures, log lines and design choices).

Driving tiles from outside (session runner, tests), with the world's gestures:
- deal: press the tile, keep it down 6 s, then until its inspect()["deal"]["id"] changes (one
  pass more at most); release; run until no tile's state is "dealing" (typically under 2 s,
  up to ~12 s for a line of 18 at 30% loss; a failed deal ends after 20-24 s); the held tile's
  inspect()["deal"]["result"] then reads "dealt 18" or why it failed. deal_ms is the `t=` of
  the held tile's `LG deal ... start` line to the last `dealing -> face down` line.
- a shard into a hand: lift it and place it alone, touching nothing.
- reveal / hide: double_click; the state flips when the click window ends (the world's
  double_click returns after that).
- first play: place the shard alone, wait 1 s (it must have heard no neighbour for 0.6 s),
  triple_click: it is "played" (a 1) or "error" when triple_click returns.
- play: place the shard touching any board tile; run until its state leaves face down /
  revealed (0.3-0.4 s, under 1 s at 30% loss), then until every board tile's inspect()["board"]
  agrees (about 0.1 s a hop, under 1.5 s across a 7-tile line at 30% loss).
- error: the tile becomes "discarded" ERROR_MS (3 s) after the judgement; wait 3.1 s.
- discard: the shard lone for 1 s, then hold(tile, 2100): "discarded" when the hold returns.
- score: triple_click a board tile; the count takes (score + 1) x 0.5 s + 1.5 s, then a board of
  9 plays victory for 5 s. inspect()["show"] names the picture ("count lit", "victory", ...).
"""

from games.lostgems.game import LostGems

__all__ = ["LostGems"]
