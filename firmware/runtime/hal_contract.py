"""The hardware boundary: everything the runtime needs from a tile, and nothing else.

Real tiles (`hal/`), the simulator's `SimHal` and the co-simulation each subclass `Hal`. Inputs
carry timestamps so that debounce, click windows and face expiry are computed exactly from the
moment things happened, however often the runtime gets to run a pass.
"""


class Hal:
    """Base class documenting the contract; every method must be provided by a real HAL."""

    # After receive_frame handed a frame over: False when the HAL knows that face has nothing
    # more (the runtime skips the call that would return 0, ~50 us on a tile). True: ask again.
    rx_more = True

    def millis(self) -> int:
        """Monotonic milliseconds since power-up."""
        raise NotImplementedError

    def button_edges(self) -> list:
        """Raw (undebounced) button level changes since the last call, oldest first, as
        `(ms, down)` tuples. The runtime debounces them (20 ms)."""
        raise NotImplementedError

    def send_frame(self, face: int, data) -> bool:
        """Start transmitting one frame (bytes) on a face. False if that face is busy: still
        transmitting the previous frame, or (a HAL that can sense the carrier) receiving one.
        The runtime tries again on a later pass."""
        raise NotImplementedError

    def send_values(self, values, mask: int) -> int:
        """Optional, for speed: on each face f of `mask` (bit f), the plain value frame of
        `values[f]` (runtime/link.VALUE_FRAME's index: the value, plus 64 for the press flag),
        where the face is not busy, all in one call. Returns the faces sent on; the runtime
        sends the rest of `mask` with send_frame. This default sends none."""
        return 0

    def receive_frame(self, face: int) -> int:
        """The next frame that arrived on a face since the last pass, oldest first, handed over
        without allocating: its length (0 when none is left, so a HAL drops empty frames); its
        bytes are `rx_frame[:length]` and its arrival time `rx_ms`, both valid until the next
        call. May be corrupted: the runtime checks it."""
        raise NotImplementedError

    def receive_values(self, pairs) -> int:
        """Optional, for speed: take each face's next frame at once when it is a plain 2-byte
        frame (a face value), into pairs[2 * face] and pairs[2 * face + 1]. Returns bit f for
        each face whose frame was taken, and bit 8 + f for each face the runtime must still ask
        with receive_frame. This default takes none and says to ask every face."""
        return 0x3F00

    def send_frames(self, face: int, frames) -> int:
        """A window of frames (bytes-like, up to hal/ir_frames.MAX_FRAME bytes each) sent back
        to back, the bulk mode's way to amortise the turnaround (runtime/bulk.py). Returns how
        many were queued, from the first on (the rest go in a later call); 0 while the face is
        busy. This default sends one frame the ordinary way."""
        if frames and self.send_frame(face, frames[0]):
            return 1
        return 0

    def knock(self, face: int, data) -> bool:
        """Optional: a probe on a face that hears nobody, which may be a neighbour in deep
        sleep: a HAL whose tiles sleep deep sends the frame twice, far enough apart that the
        light of the first wakes the neighbour and the second reaches it awake. True when
        sent, False while the face is busy. This default sends it once."""
        return self.send_frame(face, data)

    def build_store(self):
        """The tile's builds as runtime/share.py sees them (hal/build_store.py on a tile with
        files, a memory stand-in in the simulator), or None: the tile neither shares nor
        receives a build."""
        return

    def show(self, colors) -> None:
        """Six 15-bit colours (face 0..5). Called at the end of a pass when they changed. The
        runtime reuses the list it passes: copy it if you keep it."""
        raise NotImplementedError

    def entropy(self) -> int:
        """32 random bits (deterministic per tile in the simulator)."""
        raise NotImplementedError

    def serial_number(self) -> bytes:
        """8 bytes unique to this tile."""
        raise NotImplementedError

    def load(self):
        """The persistent blob (bytes), or None if nothing was saved."""
        raise NotImplementedError

    def save(self, data) -> None:
        """Store the persistent blob atomically (a new file, then a rename)."""
        raise NotImplementedError

    def log(self, text: str) -> None:
        """One line of text out: USB serial on a tile, the inspector in the simulator."""
        raise NotImplementedError
