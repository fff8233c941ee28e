"""Per-face outboxes that get a datagram through a flaky infrared link.

The runtime resends a datagram until the neighbour acknowledges it, but drops it when the face
expires (200 ms without a valid frame), which lossy links do now and then. The courier keeps a
short queue per face and sends the head again whenever the face expired while it was in flight,
so a message is lost only when the neighbour is really gone. Receivers must treat a repeated
message as harmless (every Lost Gems message is idempotent).

A queue is a tuple, oldest first: an idle face holds the shared empty tuple, which costs no RAM.
"""

QUEUE_LIMIT = 4


class Courier:
    def __init__(self, tile):
        self.tile = tile
        self.queues = [()] * 6
        self.in_flight = [False] * 6  # the head was handed to the runtime
        self.expired_since_send = [False] * 6

    def send(self, face, data):
        """Queue `data` for `face`; a full queue drops its oldest message (stale news)."""
        q = self.queues[face]
        if len(q) >= QUEUE_LIMIT:
            q = q[1:]
            self.in_flight[face] = False
        self.queues[face] = q + (bytes(data),)

    def clear(self):
        """Forget every queued message (a new deal makes the old conversation moot)."""
        for f in range(6):
            self.queues[f] = ()
            self.in_flight[f] = False

    def idle(self, face):
        return not self.queues[face]

    def poll(self):
        """Advance every face's queue by one step; call once per loop pass."""
        t = self.tile
        for f in range(6):
            q = self.queues[f]
            if not q:
                continue
            expired = t.is_value_received_on_face_expired(f)
            if self.in_flight[f]:
                if expired:
                    self.expired_since_send[f] = True
                    continue
                if t.is_datagram_pending_on_face(f):
                    continue
                if self.expired_since_send[f]:
                    self.in_flight[f] = False  # maybe dropped on expiry: send it again
                else:
                    q = self.queues[f] = q[1:]  # acknowledged
                    self.in_flight[f] = False
                    if not q:
                        continue
            if expired or t.is_datagram_pending_on_face(f):
                continue
            if t.send_datagram_on_face(q[0], f):
                self.in_flight[f] = True
                self.expired_since_send[f] = False
