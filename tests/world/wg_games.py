"""Small games for world scenario tests: each records what its tile sees."""


class Gestures:
    """Logs every button event with the tile's pass time."""

    def __init__(self, tile):
        self.tile = tile
        self.events = []

    def setup(self):
        pass

    def loop(self):
        t = self.tile
        now = t.millis()
        for name, seen in (
            ("single", t.button_single_clicked()),
            ("double", t.button_double_clicked()),
            ("multi", t.button_multi_clicked()),
            ("long", t.button_long_pressed()),
            ("longlong", t.button_long_long_pressed()),
        ):
            if seen:
                self.events.append(
                    (now, name if name != "multi" else f"multi{t.button_click_count()}")
                )

    def names(self):
        return [n for _, n in self.events]


class Beacon:
    """Sends its own number (set by the test) and logs what each face sees every pass."""

    def __init__(self, tile):
        self.tile = tile
        self.number = 1
        self.seen = []  # (ms, [value or None per face])

    def setup(self):
        pass

    def loop(self):
        t = self.tile
        t.set_value_sent_on_all_faces(self.number)
        self.seen.append(
            (
                t.millis(),
                [
                    None
                    if t.is_value_received_on_face_expired(f)
                    else t.get_last_value_received_on_face(f)
                    for f in range(6)
                ],
            )
        )
        if len(self.seen) > 400:
            del self.seen[:200]

    def face_view(self):
        return self.seen[-1][1]


class Courier:
    """Sends numbered datagrams on every face that has a neighbour, and records deliveries.

    Datagram k on face f is `bytes([f, k]) + payload of k % 15 bytes`, each byte derived from k,
    so a receiver can check a datagram is exactly one that was sent."""

    def __init__(self, tile):
        self.tile = tile
        self.limit = 0
        self.next = [0] * 6
        self.got = [[] for _ in range(6)]
        self.bad = []

    def setup(self):
        pass

    def loop(self):
        t = self.tile
        for f in range(6):
            if t.is_datagram_ready_on_face(f):
                d = t.get_datagram_on_face(f)
                t.mark_datagram_read_on_face(f)
                if len(d) >= 2 and d == expected_datagram(d[0], d[1]):
                    self.got[f].append(d[1])
                else:
                    self.bad.append(d)
            k = self.next[f]
            if (
                k < self.limit
                and not t.is_value_received_on_face_expired(f)
                and not t.is_datagram_pending_on_face(f)
                and t.send_datagram_on_face(expected_datagram(f, k), f)
            ):
                self.next[f] = k + 1


def expected_datagram(face, k):
    return bytes([face, k]) + bytes((k * 7 + i) & 255 for i in range(k % 15))
