"""The tile runtime: the whole game-facing API (TILE-API.md), in one class a game author reads.

A game is a class built as `game_class(tile)`; the runtime calls its `setup()` on the first pass
and `loop()` on every pass. During `loop()` the world is frozen: `millis()` is a snapshot, the
colours and face values set are sent when `loop()` returns, received values are what arrived
before the pass. The runtime talks to hardware only through its `Hal` (runtime/hal_contract.py).

Bad input, documented per call: a face index outside 0-5 raises ValueError; a face value over 63
is sent as 63 (a negative one raises ValueError); a datagram over 16 bytes raises ValueError;
a saved state over 256 bytes raises ValueError.

The passes, warm sleep and the share's hooks are the runner's (runtime/runner.py), which
Tile extends: a game sees only the calls below.
"""

try:
    import micropython
except ImportError:  # CPython: plain Python (runtime/native.py)
    from runtime import native as micropython  # type: ignore[no-redef]

from runtime.faces import EXPIRE_MS, FACE_COUNT
from runtime.runner import (  # noqa: F401 - SLEEP_MS and the START_ values are a game's too
    SLEEP_MS,
    START_NEW_GAME,
    START_POWER_UP,
    START_WOKE,
    STATE_TAG,
    Runner,
)

MAX_DATAGRAM = 16
MAX_STATE = 256


def _face(f) -> int:
    if f < 0 or f > 5:
        raise ValueError(f"face index must be 0-5, got {f!r}")
    return f


def _bad_face(f):
    return ValueError(f"face index must be 0-5, got {f!r}")


class Tile(Runner):
    """One tile as its game sees it (`game_class(tile)`): every call a game makes."""

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
