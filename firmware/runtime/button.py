"""Button gestures computed exactly from timestamped raw edges.

Debounce is a 20 ms lockout: an edge is taken at once (so its timestamp is exact) and further
raw edges are ignored for 20 ms; if the raw level then differs, the change is taken at the end
of the lockout. Every timeout (click window, long press) is evaluated at the moment it runs out,
in order with the edges, so the result does not depend on how often a pass runs.

Figures (the reference platform's): click window 330 ms, restarted on every press; a click counts
when released inside its window; the click event fires when the window runs out with the button
up; holding past the window cancels the sequence. Long press at 2000 ms while held; long-long
press at 6000 ms while held, decided at that moment: it fires only if the tile is not alone then
(the reference enters seed mode instead), never later in the same press.

SHARE_CLICKS clicks or more are the runtime's own gesture (share this tile's build,
runtime/share.py): they latch `share` instead of the multi-click flag, so no game ever sees
them. No game uses so many (Lost Gems and Gem Match count to 3, Waterfall to 4); blinklib's
own, a lone tile held 6 s, is a Lost Gems deal here (and its 2 s hold a discard on the way).

Each gesture latches its own flag, as the reference's bit flags do: a single click the game has
not read yet is still there after a later double click.
"""

DEBOUNCE_MS = 20
CLICK_WINDOW_MS = 330
LONG_PRESS_MS = 2000
LONG_LONG_PRESS_MS = 6000
SHARE_CLICKS = 7  # reserved by the runtime: share this tile's build (runtime/share.py)


class Button:
    """Debounced level and latched gesture flags (the tile clears a flag when the game reads it)."""

    def __init__(self):
        self.down = False
        self._raw = False
        self._accepted_ms = -DEBOUNCE_MS
        self._press_ms = 0
        self._window_end = 0
        self._pending = 0  # releases counted inside the current click window
        self.pending = False  # a timeout or a debounce could still fire (else a pass skips us)
        self._long_done = True
        self._long_long_done = True
        self.presses = 0  # accepted presses since the tile last looked (for sleep and the flag)
        self.last_press_ms = 0
        self.pressed = False
        self.released = False
        self.single = False
        self.double = False
        self.multi = False
        self.click_count = 0  # clicks in the latest click event (kept, not cleared by reading)
        self.long_pressed = False
        self.long_long_pressed = False
        self.share = False  # SHARE_CLICKS clicks or more: the runtime's, never a game's

    def ingest(self, edges, now: int, alone: bool) -> None:
        """Take the raw edges since the last pass, then run every timeout due up to `now`."""
        for edge in edges:
            t = edge[0]
            self._settle(t, alone)
            self._raw = edge[1]
            if self._raw != self.down and t - self._accepted_ms >= DEBOUNCE_MS:
                self._accept(t)
        self._settle(now, alone)
        self.pending = self._pending > 0 or self._raw != self.down

    def clear(self) -> None:
        """Forget latched events and any click sequence (a press that woke the tile)."""
        self._pending = 0
        self._long_done = True
        self._long_long_done = True
        self.pressed = self.released = False
        self.single = self.double = self.multi = False
        self.long_pressed = self.long_long_pressed = False
        self.share = False
        self.presses = 0
        self.pending = self._raw != self.down

    def _settle(self, t: int, alone: bool) -> None:
        end = self._accepted_ms + DEBOUNCE_MS
        if self._raw != self.down and end <= t:
            self._timeouts(end, alone)
            self._accept(end)
        self._timeouts(t, alone)

    def _accept(self, t: int) -> None:
        self._accepted_ms = t
        if self._raw:
            self.down = True
            self.pressed = True
            self.presses += 1
            self.last_press_ms = t
            self._press_ms = t
            self._window_end = t + CLICK_WINDOW_MS
            self._long_done = False
            self._long_long_done = False
        else:
            self.down = False
            self.released = True
            if t < self._window_end:
                self._pending += 1

    def _timeouts(self, t: int, alone: bool) -> None:
        if self._pending and t >= self._window_end:
            if not self.down:
                n = self._pending
                if n == 1:
                    self.single = True
                elif n == 2:
                    self.double = True
                elif n >= SHARE_CLICKS:
                    self.share = True  # reserved: no game sees it (not even its count)
                    n = self.click_count
                else:
                    self.multi = True
                self.click_count = n
            self._pending = 0
        if self.down:
            held = t - self._press_ms
            if not self._long_done and held >= LONG_PRESS_MS:
                self._long_done = True
                self.long_pressed = True
            if not self._long_long_done and held >= LONG_LONG_PRESS_MS:
                self._long_long_done = True
                if not alone:
                    self.long_long_pressed = True
