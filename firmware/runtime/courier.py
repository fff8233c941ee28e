"""Per-face outboxes that get a datagram through a flaky infrared link.

The runtime resends a datagram until the neighbour acknowledges it, but drops it when the face
expires (200 ms without a valid frame), which lossy links do now and then. The courier keeps a
short queue per face and sends the head again whenever the face expired while it was in flight,
so a message is lost only when the neighbour is really gone. Receivers must treat a repeated
message as harmless (every deal and Lost Gems message is).

A queue is a tuple, oldest first: an idle face holds the shared empty tuple, which costs no RAM.
"""

try:
    import micropython
except ImportError:  # CPython: plain Python (runtime/native.py)
    from runtime import native as micropython  # type: ignore[no-redef]

try:
    from micropython import const
except ImportError:  # CPython: plain ints (runtime/native.py)
    from runtime.native import const


QUEUE_LIMIT = 4

# Where a face's head message is (private const() names are inlined on a tile).
_NOT_SENT = const(0)  # not handed to the runtime yet (or to be sent again)
_IN_FLIGHT = const(1)  # the runtime is sending it until the neighbour acknowledges
_EXPIRED_IN_FLIGHT = const(2)  # the face expired meanwhile: the runtime may have dropped it


class Courier:
    def __init__(self, tile):
        self.tile = tile
        self.queues = [()] * 6
        self.head = [_NOT_SENT] * 6  # where each face's head message is

    def send(self, face, data):
        """Queue `data` for `face`; a full queue drops its oldest message (stale news)."""
        q = self.queues[face]
        if len(q) >= QUEUE_LIMIT:
            q = q[1:]
            self.head[face] = _NOT_SENT
        self.queues[face] = q + (bytes(data),)

    def idle(self, face):
        return not self.queues[face]

    @micropython.native
    def poll(self):
        """Advance every face's queue by one step; call once per loop pass."""
        if self.queues.count(()) == 6:
            return  # all idle, as on most passes: one native call instead of six turns
        t = self.tile
        for f in range(6):
            q = self.queues[f]
            if not q:
                continue
            expired = t.is_value_received_on_face_expired(f)
            head = self.head[f]
            if head != _NOT_SENT:
                if expired:
                    self.head[f] = _EXPIRED_IN_FLIGHT
                    continue
                if t.is_datagram_pending_on_face(f):
                    continue
                self.head[f] = _NOT_SENT
                if head == _IN_FLIGHT:
                    q = self.queues[f] = q[1:]  # acknowledged
                    if not q:
                        continue
                # else the face expired in flight, the runtime may have dropped it: send it again
            if expired or t.is_datagram_pending_on_face(f):
                continue
            if t.send_datagram_on_face(q[0], f):
                self.head[f] = _IN_FLIGHT
