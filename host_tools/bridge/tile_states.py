"""What each physical tile shows, rebuilt from its structured log lines (no pygame here).

The monitor's records carry Lost Gems events (`LG state ...`, `LG restore ...`); a TileView keeps
the latest state and shard of one tile and turns them into six LED colours with the game's own
pure display functions, so the mirror and the replay draw a tile as the simulator would.
"""

from games.lostgems import display, shards


class TileView:
    def __init__(self, tile):
        self.tile = tile
        self.state = "undealt"
        self.shard = None  # name like "R1"
        self.since = 0.0  # host seconds when the state began
        self.lines = 0
        self.connected = True

    def apply(self, rec):
        """Take one record about this tile; True if what it shows changed."""
        self.lines += 1
        event = rec.get("event") or {}
        if event.get("kind") == "state":
            self.state, self.shard, self.since = event["new"], event["shard"], rec["time"]
            return True
        if event.get("kind") == "restore" and "state" in event:
            self.state, self.shard, self.since = event["state"], event.get("shard"), rec["time"]
            return True
        return False

    def leds(self, now_s):
        """Six 15-bit colours for host time `now_s` (animations run on the host's clock)."""
        now = int(now_s * 1000)
        shard = shards.parse(self.shard) if self.shard else None
        state = self.state
        if state == "undealt" or (state in ("revealed", "played", "discarded") and not shard):
            return display.undealt(now)
        if state == "dealing":
            return display.dealing(now, 0)
        if state == "uncertain":
            return display.uncertain(now)
        if state == "face down":
            return display.face_down()
        if state == "revealed":
            return display.revealed(shard)
        if state == "played":
            return display.played(shard, False, now)
        if state == "error":
            return display.error(now)
        if state == "discarded":
            return display.discarded(shard)
        return display.solid(0)


class Session:
    """Every tile seen in a stream of monitor records, in order of first appearance."""

    def __init__(self):
        self.views = {}
        self.order = []
        self.tile_of_port = {}

    def apply(self, rec):
        if rec is None:
            return False
        event = rec.get("event") or {}
        tile = event.get("tile")
        port = rec.get("port")
        if tile:
            self.tile_of_port[port] = tile
        else:
            tile = self.tile_of_port.get(port)
        if "status" in rec:
            for view in self.views.values():
                if self.tile_of_port.get(port) == view.tile:
                    view.connected = rec["status"] != "disconnected"
            return True
        if not tile:
            return False
        view = self.views.get(tile)
        if view is None:
            view = self.views[tile] = TileView(tile)
            self.order.append(tile)
        return view.apply(rec)

    def snapshot(self):
        """{tile: (state, shard)}: what the table looked like at the last record applied."""
        return {t: (v.state, v.shard) for t, v in self.views.items()}
