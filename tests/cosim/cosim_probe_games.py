"""Small games that make the runtime's behaviour visible, for the differential tests.

Each one turns what the runtime reports (gestures, face values and expiry, datagrams) into LED
colours, face values and log lines, so that a difference between CPython and MicroPython in any
of them shows up in what the differential recorder compares. They import only the firmware, so
the co-simulation's tile host imports them under MicroPython unchanged.
"""

from runtime import colors
from runtime.timer import Timer

GESTURE_COLORS = (
    colors.RED,
    colors.ORANGE,
    colors.YELLOW,
    colors.GREEN,
    colors.CYAN,
    colors.BLUE,
    colors.MAGENTA,
    colors.WHITE,
)


class GestureProbe:
    """Every button event lights the tile in its own colour, bumps the face value and is logged."""

    def __init__(self, tile):
        self.tile = tile
        self.events = 0
        self.last = "none"

    def setup(self):
        saved = self.tile.load_state()
        self.events = saved[0] if saved else 0
        self.tile.set_color(colors.OFF)

    def loop(self):
        t = self.tile
        seen = (
            ("pressed", t.button_pressed()),
            ("released", t.button_released()),
            ("single", t.button_single_clicked()),
            ("double", t.button_double_clicked()),
            ("multi", t.button_multi_clicked()),
            ("long", t.button_long_pressed()),
            ("longlong", t.button_long_long_pressed()),
        )
        for i in range(len(seen)):
            name, fired = seen[i]
            if fired:
                self.events += 1
                self.last = name
                t.log(f"{name} at {t.millis()} count={t.button_click_count()}")
                t.set_color(GESTURE_COLORS[i])
                if name == "double":  # kept across a reset
                    t.save_state(bytes([self.events & 255]))
        t.set_color_on_face(colors.WHITE if t.button_down() else colors.OFF, 0)
        t.set_value_sent_on_all_faces(self.events)

    def inspect(self):
        return {"events": self.events, "last": self.last}


class ExpiryProbe:
    """Faces glow green while a neighbour is heard and red once expired; a click picks a new
    random value to send; every change of a received value is logged."""

    def __init__(self, tile):
        self.tile = tile
        self.value = 0

    def setup(self):
        self.value = self.tile.random(63)

    def loop(self):
        t = self.tile
        if t.button_single_clicked():
            self.value = t.random(63)
        t.set_value_sent_on_all_faces(self.value)
        for f in range(6):
            if t.did_value_on_face_change(f):
                t.log(f"face {f} now {t.get_last_value_received_on_face(f)} at {t.millis()}")
            if t.is_value_received_on_face_expired(f):
                t.set_color_on_face(colors.RED, f)
            else:
                v = t.get_last_value_received_on_face(f)
                t.set_color_on_face(colors.dim(colors.GREEN, 64 + 3 * v), f)
        if t.is_alone():
            t.set_color_on_face(colors.MAGENTA, 0)


class DatagramProbe:
    """Every 150 ms each linked face sends a datagram of random length and bytes; received ones
    are logged and folded into a checksum that the LEDs show."""

    def __init__(self, tile):
        self.tile = tile
        self.timer = Timer(tile)
        self.sent = 0
        self.received = 0
        self.checksum = 0

    def setup(self):
        self.timer.set(100)

    def loop(self):
        t = self.tile
        for f in range(6):
            if t.is_datagram_ready_on_face(f):
                data = t.get_datagram_on_face(f)
                t.mark_datagram_read_on_face(f)
                self.received += 1
                for b in data:
                    self.checksum = (self.checksum * 31 + b) & 0x7FFF
                t.log(f"got {data.hex()} on {f} at {t.millis()}")
        if self.timer.is_expired():
            self.timer.set(150)
            for f in range(6):
                if t.is_value_received_on_face_expired(f) or t.is_datagram_pending_on_face(f):
                    continue
                n = 1 + t.random(15)
                data = bytes([t.random(255) for _ in range(n)])
                if t.send_datagram_on_face(data, f):
                    self.sent += 1
        t.set_color(self.checksum)
        t.set_color_on_face(colors.WHITE if self.received & 1 else colors.OFF, 0)
        t.set_value_sent_on_all_faces(self.received)

    def inspect(self):
        return {"sent": self.sent, "received": self.received, "checksum": self.checksum}


class Everything:
    """All three probes on one tile, for randomised hands-on scenarios."""

    def __init__(self, tile):
        self.parts = (GestureProbe(tile), ExpiryProbe(tile), DatagramProbe(tile))

    def setup(self):
        for part in self.parts:
            part.setup()

    def loop(self):
        for part in self.parts:
            part.loop()

    def inspect(self):
        view = {}
        for part in (self.parts[0], self.parts[2]):
            view.update(part.inspect())
        return view
