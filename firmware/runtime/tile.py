"""The tile runtime: the whole game-facing API (TILE-API.md), in one class a game author reads.

A game is a class built as `game_class(tile)`; the runtime calls its `setup()` on the first pass
and `loop()` on every pass. During `loop()` the world is frozen: `millis()` is a snapshot, the
colours and face values set are sent when `loop()` returns, received values are what arrived
before the pass. The runtime talks to hardware only through its `Hal` (runtime/hal_contract.py).

Bad input, documented per call: a face index outside 0-5 raises ValueError; a face value over 63
is sent as 63 (a negative one raises ValueError); a datagram over 16 bytes raises ValueError;
a saved state over 256 bytes raises ValueError.

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
from runtime.faces import EXPIRE_MS, FACE_COUNT, Faces

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
# Back from deep sleep, a tile listens this long before it may sleep again: the light that
# woke it was one frame, lost; the neighbour's next comes within its probe time (150 ms).
WAKE_LISTEN_MS = 500
FLAG_SEND_MS = 500  # how long a press flag rides on outgoing frames
FLAG_LOCKOUT_MS = 2000  # a tile takes (and spreads) a flag at most this often
MAX_DATAGRAM = 16
MAX_STATE = 256
STATE_TAG = b"\xb1\x1e"  # a saved state starts with this, then the saving game's name


def _face(f) -> int:
    if f < 0 or f > 5:
        raise ValueError(f"face index must be 0-5, got {f!r}")
    return f


def _bad_face(f):
    return ValueError(f"face index must be 0-5, got {f!r}")


class Tile:
    """One tile: a game instance, its runtime state and its HAL."""

    def __init__(self, hal, game_class):
        self._hal = hal
        self._game_class = game_class
        name = "{}:{}".format(getattr(game_class, "__module__", ""), game_class.__name__)
        named = name.encode()[:255]
        self._state_tag = STATE_TAG + bytes((len(named),)) + named
        self.reset()

    # ---- the runner seam (used by the world and device main) ----

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
                self._share_for().resume(state, self._now)

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

    def woke_from_deep_sleep(self, now: int) -> None:
        """The HAL's deep sleep returned: listen before sleeping again. A woken neighbour that
        slept again before the presser's next frame would miss every one (woken by each, lost
        in each), and the wake would spread no further."""
        self._listen_until = now + WAKE_LISTEN_MS

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
            self.log("BLINKS share: this tile holds no build to share")
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

    # ---- display ----

    def set_color(self, c: int) -> None:
        """All six faces to one 15-bit colour (see runtime.colors)."""
        leds = self._leds
        for f in range(FACE_COUNT):
            leds[f] = c
        self._leds_dirty = True

    @micropython.native
    def set_colors(self, colors) -> None:
        """Six colours at once, face 0 first: a game that paints a whole picture each pass
        hands it over in one call (six calls cost ~0.3 ms a pass on an RP2040), and the LEDs
        are rewritten only when a colour changed."""
        leds = self._leds
        if leds == colors:
            return  # the same picture, as on most passes: one native comparison of two lists
        for f in range(FACE_COUNT):
            c = colors[f]
            if leds[f] != c:
                leds[f] = c
                self._leds_dirty = True

    def set_color_on_face(self, c: int, f: int) -> None:
        if f < 0 or f > 5:
            raise _bad_face(f)
        self._leds[f] = c
        self._leds_dirty = True

    # ---- button (flags latch and are cleared when read) ----

    def button_down(self) -> bool:
        """The debounced level (20 ms debounce)."""
        return self._button.down

    @micropython.native
    def button_quiet(self) -> bool:
        """True when the button did nothing this pass: up, no edge, no click or hold under way.
        A game that reads its button flags every pass can then skip its button handling (six
        flag reads cost ~0.25 ms a pass on a tile); flags it left unread stay latched."""
        return self._button_quiet

    def button_pressed(self) -> bool:
        b = self._button
        r = b.pressed
        b.pressed = False
        return r

    def button_released(self) -> bool:
        b = self._button
        r = b.released
        b.released = False
        return r

    def button_single_clicked(self) -> bool:
        """One click; fires when the 330 ms click window runs out with the button up."""
        b = self._button
        r = b.single
        b.single = False
        return r

    def button_double_clicked(self) -> bool:
        b = self._button
        r = b.double
        b.double = False
        return r

    def button_multi_clicked(self) -> bool:
        """Three or more clicks; `button_click_count()` tells how many."""
        b = self._button
        r = b.multi
        b.multi = False
        return r

    def button_click_count(self) -> int:
        """Clicks in the last click event (kept until the next one)."""
        return self._button.click_count

    def button_long_pressed(self) -> bool:
        """Held 2000 ms (fires while still held)."""
        b = self._button
        r = b.long_pressed
        b.long_pressed = False
        return r

    def button_long_long_pressed(self) -> bool:
        """Held 6000 ms while not alone."""
        b = self._button
        r = b.long_long_pressed
        b.long_long_pressed = False
        return r

    # ---- face values ----

    def set_value_sent_on_face(self, v: int, f: int) -> None:
        """Send value v (0-63; larger values are sent as 63, negative raises ValueError)."""
        if v > 63:
            v = 63
        elif v < 0:
            raise ValueError(f"face value must be 0-63, got {v}")
        if f < 0 or f > 5:
            raise _bad_face(f)
        self._value_out[f] = v

    @micropython.native
    def set_value_sent_on_all_faces(self, v: int) -> None:
        if v > 63:
            v = 63
        elif v < 0:
            raise ValueError(f"face value must be 0-63, got {v}")
        out = self._value_out
        if out.count(v) != FACE_COUNT:  # most passes set what is there: one native call
            for f in range(FACE_COUNT):
                out[f] = v

    def get_last_value_received_on_face(self, f: int) -> int:
        """The last valid value received (0 before any), kept after the face expires."""
        if f < 0 or f > 5:
            raise _bad_face(f)
        return self._value_in[f]

    def is_value_received_on_face_expired(self, f: int) -> bool:
        """True when no valid frame arrived on the face for more than 200 ms."""
        if f < 0 or f > 5:
            raise _bad_face(f)
        return self._now - self._last_rx[f] > EXPIRE_MS

    @micropython.native
    def heard_faces(self) -> int:
        """The faces not expired, as bits (bit f for face f): a game's look around the tile in
        one call, where six `is_value_received_on_face_expired` cost ~0.2 ms a pass on a tile.
        Worked out once a pass: the answer changes only when a pass takes frames."""
        heard = self._heard
        if heard < 0:
            limit = self._now - EXPIRE_MS
            last_rx = self._last_rx
            if min(last_rx) >= limit:
                heard = 63  # all six (a tile inside a cluster): one native call
            else:
                heard = 0
                for f in range(FACE_COUNT):
                    if last_rx[f] >= limit:
                        heard |= 1 << f
            self._heard = heard
        return heard

    @micropython.native
    def nonzero_faces(self) -> int:
        """The faces not expired whose last value received is not 0, as bits (bit f for face
        f): 0 while no neighbour says anything, so a game whose value 0 means "nothing" looks
        around in one call on most passes."""
        value_in = self._value_in
        if value_in.count(0) == FACE_COUNT:
            return 0
        heard = self.heard_faces()
        faces = 0
        for f in range(FACE_COUNT):
            if heard >> f & 1 and value_in[f]:
                faces |= 1 << f
        return faces

    def did_value_on_face_change(self, f: int) -> bool:
        """True when the received value differs from the one seen at the previous call."""
        faces = self._faces
        v = faces.value_in[_face(f)]
        if v != faces.change_seen[f]:
            faces.change_seen[f] = v
            return True
        return False

    def is_alone(self) -> bool:
        """True when all six faces are expired."""
        return self._faces.all_expired(self._now)

    def last_light_ms(self) -> int:
        """When the latest frame arrived on any face, valid or not: a frame that fails its
        checks carries no message but is still a neighbour's light, so a noisy link does not
        make a tile in a cluster look alone (runtime.dealt's `unheard`)."""
        faces = self._faces
        return max(faces.last_heard(), faces.noise_rx_ms)

    # ---- datagrams: acknowledged, resent until acked, dropped 1000 ms after the last valid
    # frame on their face (see runtime.faces) ----

    def send_datagram_on_face(self, data, f: int) -> bool:
        """Queue up to 16 bytes for the neighbour on face f. Returns False (and queues nothing)
        while a previous datagram on that face is pending. Over 16 bytes raises ValueError.
        As on the reference, an expired face accepts it too; the drop rule above then applies,
        so on a face that has heard nobody for 1000 ms it is dropped at the next pass."""
        f = _face(f)
        payload = bytes(data)
        if len(payload) > MAX_DATAGRAM:
            raise ValueError(f"datagram is {len(payload)} bytes, at most {MAX_DATAGRAM}")
        faces = self._faces
        if faces.tx_seq[f]:
            return False
        faces.queue_datagram(f, payload)
        return True

    def is_datagram_ready_on_face(self, f: int) -> bool:
        if f < 0 or f > 5:
            raise _bad_face(f)
        return self._inbox[f] is not None

    @micropython.native
    def datagram_faces(self) -> int:
        """The faces with an unread datagram, as bits (bit f for face f); 0 on most passes, so
        a game can skip its datagram handling in one call."""
        inbox = self._inbox
        if inbox.count(None) == FACE_COUNT:
            return 0  # the usual answer, from one native call instead of six turns of a loop
        ready = 0
        for f in range(FACE_COUNT):
            if inbox[f] is not None:
                ready |= 1 << f
        return ready

    def get_datagram_on_face(self, f: int):
        """The unread datagram (bytes), or None. It stays until `mark_datagram_read_on_face`."""
        if f < 0 or f > 5:
            raise _bad_face(f)
        return self._inbox[f]

    def mark_datagram_read_on_face(self, f: int) -> None:
        """Free the face's inbox so the neighbour's next datagram can be delivered."""
        if f < 0 or f > 5:
            raise _bad_face(f)
        self._inbox[f] = None

    def is_datagram_pending_on_face(self, f: int) -> bool:
        """True while our datagram on face f waits for its acknowledgement."""
        if f < 0 or f > 5:
            raise _bad_face(f)
        return self._tx_seq[f] != 0

    # ---- time, random, identity, storage, log ----

    @micropython.native
    def millis(self) -> int:
        """Milliseconds at the start of this pass (frozen during loop()), not counting the
        time spent asleep."""
        return self._now - self._slept_ms

    def _next_random(self) -> int:
        x = self._rng
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        self._rng = x
        return x

    def random(self, limit: int) -> int:
        """A uniform int in 0..limit inclusive (limit < 0 raises ValueError)."""
        if limit < 0:
            raise ValueError("random limit must be >= 0")
        n = limit + 1
        if n > 0xFFFF:
            bound = 0x100000000 - 0x100000000 % n
            while True:
                x = self._next_random()
                if x < bound:
                    return x % n
        bound = 0x10000 - 0x10000 % n
        while True:
            x = self._next_random() >> 16
            if x < bound:
                return x % n

    def randomize(self) -> None:
        """Reseed the generator from the HAL's entropy."""
        self._rng = (self._hal.entropy() & 0xFFFFFFFF) or 0x9E3779B9

    def serial_number(self) -> bytes:
        return self._hal.serial_number()

    def start_state(self) -> int:
        """Why the tile last started: START_POWER_UP, START_WOKE or START_NEW_GAME."""
        return self._start_state

    def save_state(self, data) -> None:
        """Keep up to 256 bytes across a reset (atomic). More raises ValueError.

        The storage holds them after a tag naming this game, so that another game flashed onto
        the tile later starts clean (START_NEW_GAME) instead of reading these bytes."""
        blob = bytes(data)
        if len(blob) > MAX_STATE:
            raise ValueError(f"saved state is {len(blob)} bytes, at most {MAX_STATE}")
        self._hal.save(self._state_tag + blob)

    def _claim_storage(self):
        """Before the first setup(): if the storage holds another game's state, this game was
        just flashed onto the tile. Its start says so, once, and the old state is dropped (the
        storage is this game's now), as a game received over IR starts clean."""
        blob = self._hal.load()
        if blob and blob[:2] == STATE_TAG and not blob.startswith(self._state_tag):
            self._start_state = START_NEW_GAME
            self._hal.save(self._state_tag)

    def load_state(self):
        """The bytes this game saved, or None if it saved none."""
        blob = self._hal.load()
        tag = self._state_tag
        if blob is None or blob[:2] != STATE_TAG:
            return blob  # None, or saved before states were tagged
        if blob.startswith(tag) and len(blob) > len(tag):
            return blob[len(tag) :]
        return None

    def log(self, text) -> None:
        """One line to the serial port (hardware) or the inspector (simulator)."""
        self._hal.log(str(text))
