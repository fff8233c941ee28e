"""The side panel: clock, view, token coins the players click, tile inspector, gesture help."""

import pygame

from simulator.app.clock import format_clock
from simulator.app.glow import to_rgb8

PANEL_BG = (26, 26, 32)
DIM = (150, 150, 160)
TEXT_COLOR = (225, 230, 225)
WARN = (250, 190, 90)
HINT_ON = (214, 140, 60)  # copper penny
ERROR_ON = (190, 196, 204)  # nickel
COIN_OFF = (60, 60, 66)
HINTS = 3
ERRORS = 2
HELP = (
    "Left button on a tile: its button",
    "  click, double, triple, hold 2 s / 6 s",
    "Right-drag (or Ctrl+left): move a tile",
    "Shift+right-drag: move its cluster",
    "Left-drag on empty felt: knife split",
    "Wheel or R / Shift+R: rotate a tile",
    "Space pause  N step  S speed  D links",
)


class Tokens:
    """Hint tokens available (pennies) and error tokens left (nickels); players keep score."""

    def __init__(self, hints: int = HINTS, errors: int = ERRORS):
        self.hints = hints
        self.errors = errors

    def flip_hint(self, i: int):
        """Clicking an available coin spends one; clicking a spent coin makes one available."""
        self.hints = self.hints - 1 if i < self.hints else self.hints + 1

    def flip_error(self, i: int):
        self.errors = self.errors - 1 if i < self.errors else self.errors + 1


def wrap(text: str, width: int) -> list:
    """The lines of `text`, at most `width` characters each, broken between words. A word
    longer than a line (a file path, say) is broken within, after a '/' where one fits."""
    lines, line = [], ""
    for word in text.split():
        while len(word) > width:
            room = width - len(line) - 1 if line else width
            if room < width // 3:  # too little left on this line to start the word on it
                lines.append(line)
                line, room = "", width
            cut = word.rfind("/", 0, room) + 1
            if cut < room // 2:  # no '/' in the latter half of the room: cut at its end
                cut = room
            lines.append((line + " " + word[:cut]).strip())
            line, word = "", word[cut:]
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = (line + " " + word).strip()
    if line:
        lines.append(line)
    return lines


class Panel:
    """The side panel, laid out for the 1280x800 window and drawn `scale` times larger (its
    text too: see TextCache), so that a big window does not show it tiny."""

    def __init__(self, x: int, width: int, height: int, text, scale: float = 1.0):
        self.x = x
        self.width = width
        self.height = height
        self.text = text
        self.scale = scale
        self.coins = []  # (rect, kind, index), filled while drawing
        self.bottom = height  # where the help (and a legend) begin: what is drawn above ends there

    def px(self, v: float) -> int:
        """A length of the 1280x800 layout, in this window's pixels."""
        return round(v * self.scale)

    def coin_at(self, pos):
        for rect, kind, i in self.coins:
            if rect.collidepoint(pos):
                return kind, i
        return None

    def draw(self, surface, app):
        pygame.draw.rect(surface, PANEL_BG, (self.x, 0, self.width, self.height))
        px = self.px
        x = self.x + px(14)
        y = px(12)
        t = self.text
        y = t.blit(surface, app.title, (x, y), 30).bottom + px(2)
        y = t.blit(
            surface,
            f"{app.game_name} - seed {app.seed} - {len(app.world.tiles)} tiles",
            (x, y),
            20,
            DIM,
        ).bottom + px(4)
        for line in wrap(app.note or "", 40):
            y = t.blit(surface, line, (x, y), 18, WARN).bottom
        y += px(8)
        clock = app.clock
        state = "PAUSED" if clock.paused else f"x{clock.speed}"
        y = t.blit(surface, f"{format_clock(app.world.now)}   {state}", (x, y), 34).bottom + px(2)
        if app.replay is not None and not app.replay.done:
            y = t.blit(
                surface,
                f"REPLAY {app.replay.index} / {len(app.replay.events)} events",
                (x, y),
                20,
                WARN,
            ).bottom
        if app.recorder is not None:
            y = t.blit(surface, f"recording to {app.recorder.path[-30:]}", (x, y), 18, DIM).bottom
        if app.can_view_as_player():
            view = {
                None: f"everyone (all {getattr(app.host, 'PIECE', 'shard')}s shown)",
                "A": "as A (A's hand hidden)",
                "B": "as B (B's hand hidden)",
            }[app.view_as]
            y = t.blit(surface, "View: " + view, (x, y + px(4)), 20).bottom
        y += px(10)
        owner = app.panel_owner()
        self._draw_help(surface, app)  # first: what is drawn above ends where it begins
        if owner is not None:
            self.coins = []
            owner.draw_panel(surface, self, x, y)
            return
        tip = app.tip()
        if tip:
            for line in wrap(tip, 40):
                y = t.blit(surface, line, (x, y), 19, WARN).bottom
            y += px(8)
        if getattr(app.host, "TOKENS", False):  # a game whose players keep tokens on the table
            y = self._draw_tokens(surface, app.tokens, x, y) + px(10)
        else:
            self.coins = []
        y = self._draw_inspector(surface, app, x, y)

    def _draw_help(self, surface, app):
        """The key help at the bottom, and above it the game's legend (its `legend(players)`),
        if it has one; returns the y where they begin."""
        x, t = self.x + self.px(14), self.text
        owner = app.panel_owner()  # a game that takes the panel over says its own keys
        lines = getattr(owner, "HELP", None)
        if lines is None:  # V only where a hand hides something from its holder
            last = "V view as A / B / all   Esc quit" if app.can_view_as_player() else "Esc quit"
            lines = (*HELP, last)
        top = self.height - self.px(8 + 17 * len(lines))
        hy = top
        for line in lines:
            hy = t.blit(surface, line, (x, hy), 18, DIM).bottom
        legend = getattr(app.host, "legend", None)
        if legend is not None:
            top = self._draw_legend(
                surface, legend(app.players or getattr(app.host, "DEFAULT_PLAYERS", 2)), x, top
            )
        self.bottom = top
        return top

    def _draw_legend(self, surface, rows, x, bottom):
        """The legend's rows, ending above `bottom`: a heading, then a dot of each colour with
        its words; returns the y of its top."""
        t, px = self.text, self.px
        line = px(16)
        height = sum(line * (bool(heading) + bool(items)) for heading, items in rows) + px(6)
        y = bottom - height
        top = y
        for heading, items in rows:
            if heading:  # a row without one goes on with the items above
                t.blit(surface, heading, (x, y), 16, DIM)
                y += line
            if items:
                cx = x + px(6)
                for colour, words in items:
                    pygame.draw.circle(surface, to_rgb8(colour), (cx, y + line // 2), px(5))
                    cx = t.blit(surface, words, (cx + px(8), y), 16, TEXT_COLOR).right + px(10)
                y += line
        return top

    def _draw_tokens(self, surface, tokens, x, y):
        self.coins = []
        t, px = self.text, self.px
        radius = px(14)
        for kind, label, count, total, on in (
            ("hint", "Hints", tokens.hints, HINTS, HINT_ON),
            ("error", "Errors left", tokens.errors, ERRORS, ERROR_ON),
        ):
            t.blit(surface, f"{label} {count}/{total}", (x, y + px(8)), 22)
            for i in range(total):
                centre = (x + px(150 + i * 34), y + px(16))
                pygame.draw.circle(surface, on if i < count else COIN_OFF, centre, radius)
                pygame.draw.circle(surface, (20, 20, 20), centre, radius, 2)
                box = pygame.Rect(centre[0] - radius, centre[1] - radius, 2 * radius, 2 * radius)
                self.coins.append((box, kind, i))
            y += px(36)
        t.blit(surface, "(click a coin to flip it)", (x, y), 16, DIM)
        return y + px(14)

    def _draw_faces(self, surface, info, x, y):
        """Face link table: value received (-- when expired) and value sent, per face 0..5."""
        t = self.text
        face_in = info.get("face_in") or [0] * 6
        face_out = info.get("face_out") or [0] * 6
        expired = info.get("expired") or [True] * 6
        rows = (
            ("face", [str(f) for f in range(6)]),
            ("in", ["--" if expired[f] else str(face_in[f]) for f in range(6)]),
            ("out", [str(face_out[f]) for f in range(6)]),
        )
        for label, cells in rows:
            t.blit(surface, label, (x, y), 17, DIM)
            for f, cell in enumerate(cells):
                t.blit(
                    surface,
                    cell,
                    (x + self.px(64 + 30 * f), y),
                    17,
                    DIM if label == "face" else TEXT_COLOR,
                    "midtop",
                )
            y += self.px(16)
        return y

    def _draw_inspector(self, surface, app, x, y):
        t = self.text
        tid = app.hover if app.hover is not None else app.ops.last_touched
        if tid is None:
            return t.blit(surface, "Point at a tile to inspect it", (x, y), 20, DIM).bottom
        info = app.inspect(tid)
        pos = app.world.position(tid)
        where = "lifted" if pos is None else "({}, {}) rot {}".format(*pos)
        area = app.area_name(tid)
        # the game's word for the area (its AREA_WORDS), else the area's label
        words = getattr(app.host, "AREA_WORDS", {}).get(area) or (
            app.table.area(area).label if area else ""
        )
        y = t.blit(surface, f"Tile {tid}  {where}  {words}", (x, y), 22).bottom + self.px(2)
        if info.get("micropython"):
            y = t.blit(surface, "runs on real MicroPython", (x, y), 18, WARN).bottom
        piece = getattr(app.host, "PIECE", "shard")  # what a tile is in the game: its inspect key
        shown = app.piece_shown(tid, info)
        y = t.blit(
            surface, f"state: {info.get('state', '-')}   {piece}: {shown}", (x, y), 20
        ).bottom + self.px(2)
        y = self._draw_faces(surface, info, x, y) + self.px(4)
        if app.view_as is not None:
            return t.blit(surface, "(log hidden while viewing as a player)", (x, y), 16, DIM).bottom
        for line in app.world.logs(tid)[-4:]:
            for part in wrap(str(line), 46)[:2]:
                y = t.blit(surface, part, (x, y), 16, DIM).bottom
        return y
