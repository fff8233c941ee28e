"""The simulator's sense of time: pause, single-step and speed, without ever jumping.

Each window frame asks the clock how much simulated time to run. Real time between frames is
capped (a window that lags, is dragged or sleeps must not make the tiles skip a click window or
a hold), then multiplied by the speed. Fractions of a millisecond carry over to the next frame.
"""

SPEEDS = (1, 4, 16)
MAX_FRAME_MS = 50.0  # real milliseconds counted per frame at most
STEP_MS = 10  # simulated milliseconds run by one single step


class SimClock:
    def __init__(self, speed: int = 1, max_frame_ms: float = MAX_FRAME_MS):
        if speed not in SPEEDS:
            raise ValueError(f"speed must be one of {SPEEDS}, not {speed!r}")
        self.speed = speed
        self.paused = False
        self.max_frame_ms = max_frame_ms
        self._carry = 0.0
        self._steps = 0

    def frame(self, real_ms: float) -> int:
        """Simulated milliseconds to run for a frame that took real_ms of wall time."""
        if self.paused:
            ms = self._steps * STEP_MS
            self._steps = 0
            return ms
        real = min(max(real_ms, 0.0), self.max_frame_ms)
        total = real * self.speed + self._carry
        whole = int(total)
        self._carry = total - whole
        return whole

    def toggle_pause(self):
        self.paused = not self.paused
        self._steps = 0
        self._carry = 0.0

    def step(self):
        """Run STEP_MS more simulated time on the next frame (pauses the clock first)."""
        self.paused = True
        self._steps += 1

    def cycle_speed(self):
        self.speed = SPEEDS[(SPEEDS.index(self.speed) + 1) % len(SPEEDS)]

    def set_speed(self, speed: int):
        if speed not in SPEEDS:
            raise ValueError(f"speed must be one of {SPEEDS}, not {speed!r}")
        self.speed = speed


def format_clock(ms: int) -> str:
    """Simulated time as m:ss.t (minutes, seconds, tenths)."""
    tenths = ms // 100
    return f"{tenths // 600}:{(tenths // 10) % 60:02d}.{tenths % 10}"
