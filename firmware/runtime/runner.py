"""The runner seam: what the world, the co-simulation and the device's main loop drive on a
tile (`reset()`, a pass with `step()`, `inspect()`, sleeping and waking, the share's hooks).
Tile (runtime/tile.py) adds the game-facing API on top, so a game author reads that alone.

Warm sleep: after 10 minutes without a local press or a press flag from a neighbour the tile
stops calling `loop()`, dims its colours to off over 300 ms (SLEEP_FADE_MS, as long as the
reference's sleep animation) and, once it has sent the sleep frame on every face (see
runtime.link), stops sending. A neighbour that receives the sleep frame falls asleep too and
passes it on, as on the reference: a cluster sleeps as one, whatever the skew of its timers.
A local press or any valid neighbour frame wakes the tile with its state intact; `start_state()`
then says START_WOKE and the tile has 10 minutes again. As on the reference, the game's clock
(`millis()`, and so every Timer) stands still while the tile sleeps, so a game's timers resume
where they were instead of all expiring at the wake-up. Frames that arrive within 200 ms
(SLEEP_GRACE_MS) of falling asleep are not taken as a wake-up: they are the last words of
neighbours that had not yet heard the sleep frame, and would otherwise wake the tile at once.
A frame carrying the press flag wakes it even then.
"""

try:
    import micropython
except ImportError:  # CPython: plain Python (runtime/native.py)
    from runtime import native as micropython  # type: ignore[no-redef]

from runtime.button import Button
from runtime.colors import dim
from runtime.faces import FACE_COUNT, Faces

try:  # for mypy's type comments; MicroPython has no typing module
    from typing import Any  # noqa: F401
except ImportError:
    pass

START_POWER_UP = 0
START_WOKE = 1
START_NEW_GAME = 2  # the tile holds another game's saved state: this game is new to it

SLEEP_MS = 10 * 60 * 1000
SLEEP_GRACE_MS = 200  # frames this soon after falling asleep do not wake the tile
SLEEP_FADE_MS = 300  # falling asleep dims the colours to off over this long
# Back from deep sleep, a tile listens before it may sleep again. Woken by light: 7 ms from
# when its clocks are back. The frame whose light woke it is lost (its clocks were stopped for
# the crystal's start, 6 ms), but a neighbour calling a face that hears nobody knocks
# (runtime/faces.py): the same frame again 9 ms after the first began, so it has ended about
# 3.4 ms after the woken tile's clocks are back, heard by a pass (2 ms apart) well within the
# 7 ms. Light that brings no valid frame by then was not a neighbour (a remote, a lamp), and
# the tile goes back to DORMANT within 20 ms of the wake (bench_sleep's false_wake_awake_ms).
# Woken by its button or by USB: 500 ms, time for the press to end and be taken.
LIGHT_LISTEN_MS = 7
WAKE_LISTEN_MS = 500
FLAG_SEND_MS = 500  # how long a press flag rides on outgoing frames
FLAG_LOCKOUT_MS = 2000  # a tile takes (and spreads) a flag at most this often
STATE_TAG = b"\xb1\x1e"  # a saved state starts with this, then the saving game's name


class Runner:
    """A tile's runtime state, its game instance and its HAL, driven pass by pass."""

    def __init__(self, hal, game_class):
        self._hal = hal
        self._game_class = game_class
        name = "{}:{}".format(getattr(game_class, "__module__", ""), game_class.__name__)
        named = name.encode()[:255]
        self._state_tag = STATE_TAG + bytes((len(named),)) + named
        self.reset()

    def reset(self) -> None:
        """Power cycle: fresh runtime state and a fresh game instance; storage is kept."""
        hal = self._hal
        self._now = hal.millis()
        seed = hal.entropy()
        self._rng = (seed & 0xFFFFFFFF) or 0x9E3779B9
        faces = Faces(self._next_random() & 0xFF, self._next_random())
        self._faces = faces
        # the per-face lists the API touches on every pass, bound once (saves a lookup a call)
        self._value_in = faces.value_in
        self._value_out = faces.value_out
        self._last_rx = faces.last_rx
        self._inbox = faces.inbox
        self._tx_seq = faces.tx_seq
        self._heard = -1  # heard_faces() of this pass, once asked; -1: not yet
        self._button = Button()
        self._button_quiet = True
        self._leds = [0] * FACE_COUNT
        self._leds_dirty = True
        self._started = False
        self._start_state = START_POWER_UP
        self._asleep = False
        self._asleep_at = self._now
        self._listen_until = self._now
        self._slept_ms = 0  # time spent asleep, which the game's clock leaves out
        self._fade_level = 0  # the brightness (0-255) the sleep fade last showed; 0: done
        self._last_activity = self._now
        self._flag_until = self._now - 1
        self._flag_lockout = self._now - FLAG_LOCKOUT_MS
        self.game = self._game_class(self)
        # sharing the build (runtime/share.py): made when a share frame, the gesture or a
        # saved state first needs it; `_sharing` while it wants passes (the game's are paused)
        self._store = hal.build_store()
        self._share = None  # type: Any  # runtime.share.Share, made when first needed
        self._sharing = False
        if self._store is not None:
            faces.bulk = self._bulk_frame
            state = self._store.load_state()
            if state is not None:
                self._store.save_state(None)  # once: a state never outlives the boot it was for
                self._resume_share(state)

    @micropython.native
    def step(self) -> None:
        """One pass: snapshot the clock, take inputs, run the game, send frames and colours."""
        hal = self._hal
        now = hal.millis()
        self._now = now
        self._heard = -1
        faces = self._faces
        button = self._button
        edges = hal.button_edges()
        self._button_quiet = not (edges or button.down or button.pending)
        if not self._button_quiet:
            button.ingest(edges, now, faces.all_expired(now))
            if button.share:
                button.share = False
                self._share_gesture(now)
        faces.ingest(hal, now)
        if self._sharing and self._share.step(now):
            return  # sharing: the game waits
        if button.presses:
            button.presses = 0
            self._activity(button.last_press_ms)
            if self._asleep:
                self._wake(now)
                button.clear()
        if faces.flag_rx_ms >= self._flag_lockout + FLAG_LOCKOUT_MS:
            self._activity(faces.flag_rx_ms)
            if self._asleep:
                self._wake(now)
        if self._asleep:
            if faces.last_heard() < self._asleep_at + SLEEP_GRACE_MS:
                faces.emit_sleep(hal, now)
                if self._fade_level:
                    self._fade(now)
                return
            self._wake(now)  # a neighbour is talking to us
        elif faces.sleep_rx_ms > self._last_activity or now - self._last_activity >= SLEEP_MS:
            self._sleep(now)  # a neighbour fell asleep after our last press, or our time is up
            return
        if not self._started:
            self._started = True
            self._claim_storage()
            self.game.setup()
        self.game.loop()
        faces.emit(hal, now, now < self._flag_until)
        if self._leds_dirty:
            self._leds_dirty = False
            hal.show(self._leds)

    @property
    def asleep(self) -> bool:
        """In warm sleep: the device loop may run its passes further apart."""
        return self._asleep

    def settled_asleep(self) -> bool:
        """Asleep, faded out, its sleep frames sent and the neighbours' last words heard: a
        HAL that can stop its clocks (deep sleep) may now, until a button or face edge."""
        return (
            self._asleep
            and not self._fade_level
            and self._faces.sleep_sent()
            and self._now - self._asleep_at >= SLEEP_GRACE_MS
            and self._now - self._listen_until >= 0
        )

    def woke_from_deep_sleep(self, now: int, source: str = "button") -> None:
        """The HAL's deep sleep returned, woken by `source` ("light", "button" or "usb"):
        listen before sleeping again (LIGHT_LISTEN_MS or WAKE_LISTEN_MS)."""
        self._listen_until = now + (LIGHT_LISTEN_MS if source == "light" else WAKE_LISTEN_MS)

    @property
    def listening(self) -> bool:
        """Back from deep sleep and still listening: the device loop runs its passes close
        together, so a frame heard is taken within the listen."""
        return self._asleep and self._now - self._listen_until < 0

    @property
    def sharing(self) -> bool:
        """Sending or receiving a build (runtime/share.py): the game waits."""
        share = self._share
        return share is not None and share.role != 0

    @property
    def hurry(self) -> bool:
        """A build is on the way in or out: the device loop runs its passes closer together
        (a face's ring holds 44 ms of traffic)."""
        share = self._share
        return share is not None and share.role != 0 and share.hurry

    # ---- sharing the build (runtime/share.py) ----

    def _resume_share(self, state):
        """Carry a share on after the restart into its build. The game boots whatever happens:
        a share this tile cannot carry on (a heap too fragmented, a damaged file) is logged,
        and its parent offers the build again."""
        try:
            self._share_for().resume(state, self._now)
        except (MemoryError, OSError) as exc:
            self._share = None
            self._sharing = False
            self._hal.log("BLINKS share resume failed: " + repr(exc))

    def _share_for(self):
        share = self._share
        if share is None:
            from runtime.share import Share

            share = self._share = Share(self, self._hal, self._faces, self._store)
        return share

    def _bulk_frame(self, f, ms, data, n) -> bool:
        from runtime import bulk

        if not bulk.check(data, n):
            if self._share is not None:
                self._share.bad_frame(f)
            return False
        self._share_for().frame(f, ms, data, n)
        return True

    def _share_gesture(self, now) -> None:
        if self._store is None:
            self._hal.log("BLINKS share: this tile holds no build to share")
            return
        self._share_for().start_root(now, True)

    def _share_began(self, now) -> None:
        self._sharing = True
        if self._asleep:
            self._wake(now)

    def _share_ended(self, now) -> None:
        """Back to the game: its colours, a clean button, ten minutes before sleep."""
        self._leds_dirty = True
        self._button.clear()
        self._last_activity = now
        if self._started:
            self._hal.show(self._leds)

    def inspect(self) -> dict:
        """The runtime's view for inspectors, merged with the game's `inspect()` if it has one."""
        faces = self._faces
        now = self._now
        info = {
            "face_in": list(faces.value_in),
            "face_out": list(faces.value_out),
            "expired": [faces.expired(f, now) for f in range(FACE_COUNT)],
            "asleep": self._asleep,
            "frames_dropped": faces.frames_dropped,
        }
        game_inspect = getattr(self.game, "inspect", None)
        if game_inspect is not None:
            info.update(game_inspect())
        return info

    def _activity(self, ms: int) -> None:
        self._last_activity = max(self._last_activity, ms)
        if ms >= self._flag_lockout + FLAG_LOCKOUT_MS:
            self._flag_lockout = ms
            self._flag_until = ms + FLAG_SEND_MS

    def _sleep(self, now: int) -> None:
        self._asleep = True
        self._asleep_at = now
        self._fade_level = 256
        self._fade(now)
        self._leds_dirty = True  # show the game's colours again on waking
        self._faces.start_sleep(now)
        self._faces.emit_sleep(self._hal, now)

    def _fade(self, now: int) -> None:
        """One step of the sleep fade: the game's colours, dimmed by the time asleep, in 16
        steps (so the LEDs are written at most 16 times), then off."""
        left = SLEEP_FADE_MS - (now - self._asleep_at)
        level = 0 if left <= 0 else (left * 16 + SLEEP_FADE_MS - 1) // SLEEP_FADE_MS * 16 - 1
        if level != self._fade_level:
            self._fade_level = level
            self._hal.show([dim(c, level) for c in self._leds])

    def _wake(self, now: int) -> None:
        self._asleep = False
        self._fade_level = 0
        self._slept_ms += now - self._asleep_at
        self._start_state = START_WOKE
        self._last_activity = now
        self._faces.wake(now)

    def _next_random(self) -> int:
        x = self._rng
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        self._rng = x
        return x

    def _claim_storage(self):
        """Before the first setup(): if the storage holds another game's state, this game was
        just flashed onto the tile. Its start says so, once, and the old state is dropped (the
        storage is this game's now), as a game received over IR starts clean."""
        blob = self._hal.load()
        if blob and blob[:2] == STATE_TAG and not blob.startswith(self._state_tag):
            self._start_state = START_NEW_GAME
            self._hal.save(self._state_tag)
