"""Demo: a small game that shows the runtime off until Lost Gems lands.

Each tile has a hue. Faces that touch a neighbour glow in the neighbour's hue (sent as the face
value), the others dimly in the tile's own. A click moves to the next hue, a double-click sends a
"spark" datagram to every neighbour (they flash white), a long press makes the tile breathe.
"""

from runtime import colors
from runtime.timer import Timer

HUES = 8


class Demo:
    def __init__(self, tile):
        self.tile = tile
        self.hue = 0
        self.flash = Timer(tile)
        self.breathing = False

    def setup(self):
        saved = self.tile.load_state()
        self.hue = saved[0] % HUES if saved else self.tile.random(HUES - 1)

    def loop(self):
        t = self.tile
        if t.button_single_clicked():
            self.hue = (self.hue + 1) % HUES
            t.save_state(bytes((self.hue,)))
        if t.button_double_clicked():
            for f in range(6):
                if not t.is_value_received_on_face_expired(f):
                    t.send_datagram_on_face(b"spark", f)
        if t.button_long_pressed():
            self.breathing = not self.breathing
        for f in range(6):
            if t.is_datagram_ready_on_face(f):
                if t.get_datagram_on_face(f) == b"spark":
                    self.flash.set(300)
                t.mark_datagram_read_on_face(f)
        t.set_value_sent_on_all_faces(self.hue)
        own = colors.hsb(self.hue * 256 // HUES, 255, 255)
        if not self.flash.is_expired():
            t.set_color(colors.WHITE)
            return
        level = 255
        if self.breathing:
            phase = t.millis() // 4 % 256
            level = 60 + (phase if phase < 128 else 255 - phase)
        for f in range(6):
            if t.is_value_received_on_face_expired(f):
                t.set_color_on_face(colors.dim(own, level // 4), f)
            else:
                hue = t.get_last_value_received_on_face(f) % HUES
                t.set_color_on_face(colors.dim(colors.hsb(hue * 256 // HUES, 255, 255), level), f)

    def inspect(self):
        return {"hue": self.hue, "breathing": self.breathing}
