"""Physical tiles drawn in a window: live (`blinks monitor --mirror`) or replayed from a
recording (`blinks sim --replay-log`)."""
