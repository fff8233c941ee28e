"""`blinks emu`'s commands on standard input: a person's hands on the emulated tiles, for
scripts and for people at a terminal, one command a line.

    press T MS          hold tile T's button for MS ms (emulated time), from now
    click T [N]         click tile T's button N times (1), as a person clicks
    place T BESIDE FACE lay tile T against face FACE (0-5) of tile BESIDE: T touches every
                        tile around the spot it lands on, and no longer its old neighbours
    lift T              take tile T away from all its neighbours (it lies alone)
    loss P              lose a fraction P (0-1) of the IR frames on every face
    leds T              the six colours tile T shows, face 0 first (#rrggbb; "dark" before
                        its first pixel write)
    log T [N]           tile T's last N log lines (10)
    wait MS             answer once MS ms of emulated time have passed
    tiles               each tile's port, spot (q,r) and resets so far
    help                this list
    quit                stop the tiles and exit

Tiles are numbered as the `PORT <index> <path>` lines number them. Every command is answered on
stdout by lines that start with its own name, then one last line: `ok <command>` or
`error <line number>: <what was expected>`. A bad line changes nothing; the next line is read.
"""

import time

from simulator.world import grid

LOG_LINES = 10
WAIT_POLL_S = 0.05


class CommandError(ValueError):
    pass


def _whole(word, what, low, high=None):
    try:
        value = int(word)
    except ValueError:
        raise CommandError(f"{what} must be a whole number, got {word!r}") from None
    if value < low or (high is not None and value > high):
        span = f"{low}-{high}" if high is not None else f">= {low}"
        raise CommandError(f"{what} must be {span}, got {value}")
    return value


def _hex(rgb):
    r, g, b = rgb
    return f"#{r:02x}{g:02x}{b:02x}"


class Commands:
    """Runs command lines against an EmuCluster; `answer(line)` returns the lines to print and
    whether to stop."""

    def __init__(self, cluster):
        self.cluster = cluster
        self.line_no = 0
        self.usage = {
            "press": ("T MS", self._press),
            "click": ("T [N]", self._click),
            "place": ("T BESIDE FACE", self._place),
            "lift": ("T", self._lift),
            "loss": ("P", self._loss),
            "leds": ("T", self._leds),
            "log": ("T [N]", self._log),
            "wait": ("MS", self._wait),
            "tiles": ("", self._tiles),
            "help": ("", self._help),
            "quit": ("", list),
        }

    def answer(self, line):
        """(lines to print, quit?) for one line of input; blank lines and # comments answer
        nothing."""
        self.line_no += 1
        words = line.split("#", 1)[0].split()
        if not words:
            return [], False
        name, args = words[0].lower(), words[1:]
        if name not in self.usage:
            known = ", ".join(sorted(self.usage))
            return [
                f"error {self.line_no}: unknown command {name!r}; expected one of {known}"
            ], False
        shape, run = self.usage[name]
        need = len([w for w in shape.split() if not w.startswith("[")])
        most = len(shape.split())
        if not need <= len(args) <= most:
            expected = f"{name} {shape}".strip()
            return [f"error {self.line_no}: expected '{expected}', got {line.strip()!r}"], False
        try:
            lines = run(*args)
        except CommandError as exc:
            return [f"error {self.line_no}: {name}: {exc}"], False
        return lines + [f"ok {name}"], name == "quit"

    # ---- the commands ------------------------------------------------------------------------
    def _tile(self, word, what="T"):
        return _whole(word, f"{what} (a tile)", 0, self.cluster.n - 1)

    def _now(self):
        """Emulated time now (the emulator says; in driven mode it is where it stopped)."""
        return self.cluster.stats()["t"]

    def _press(self, t, ms):
        tile, ms = self._tile(t), _whole(ms, "MS", 1)
        self.cluster.press(tile, ms, at_ms=self._now())
        return []

    def _click(self, t, n="1"):
        tile, count = self._tile(t), _whole(n, "N", 1, 10)
        self.cluster.clicks(tile, count, at_ms=self._now())
        return []

    def _place(self, t, beside, face):
        tile, other = self._tile(t), self._tile(beside, "BESIDE")
        face = _whole(face, "FACE", 0, 5)
        if tile == other:
            raise CommandError("a tile cannot lie beside itself")
        try:
            self.cluster.move_to(tile, grid.neighbour_cell(*self.cluster.cells[other], face))
        except ValueError as exc:
            raise CommandError(f"face {face} of tile {other} is taken: {exc}") from None
        return []

    def _lift(self, t):
        self.cluster.lift(self._tile(t))
        return []

    def _loss(self, p):
        try:
            loss = float(p)
        except ValueError:
            raise CommandError(f"P must be a number 0-1, got {p!r}") from None
        if not 0.0 <= loss <= 1.0:
            raise CommandError(f"P must be 0-1, got {loss}")
        self.cluster.set_loss(loss)
        return []

    def _leds(self, t):
        tile = self._tile(t)
        rgb = self.cluster.leds(tile)
        shown = " ".join(_hex(p) for p in rgb) if rgb is not None else "dark"
        return [f"leds {tile} {shown}"]

    def _log(self, t, n=str(LOG_LINES)):
        tile, count = self._tile(t), _whole(n, "N", 1)
        return [f"log {tile} {line}" for line in self.cluster.log_lines(tile)[-count:]]

    def _wait(self, ms):
        until = self._now() + _whole(ms, "MS", 0)
        while self._now() < until:
            if not self.cluster.alive():
                raise CommandError("the emulator stopped")
            time.sleep(WAIT_POLL_S)
        return []

    def _tiles(self):
        c = self.cluster
        return [
            f"tiles {i} {c.ports[i]} at {q},{r} resets={len(c.resets[i])}"
            for i, (q, r) in enumerate(c.cells)
        ]

    def _help(self):
        return ["help " + line for line in __doc__.split("\n\n")[1].splitlines()]
