"""What every game's session scripts share: the error a malformed line raises (exit 2, said
as `SCRIPT:LINE: what was expected`) and the reading of whole numbers, so `seed 5_0`, `+5` or a
5,000-digit seed is refused alike in every game's language. Each game parses its own statements
(simulator/games/<game>/script.py) into `Statement`s, the lines every game words alike through
`Words`; `save_new_script` writes a played game out as a script without overwriting an earlier
one.
"""

import os


class ScriptError(Exception):
    """A malformed statement (or an illegal move found while running): exit code 2."""

    def __init__(self, line, message):
        Exception.__init__(self, message)
        self.line = line
        self.message = message


MAX_DIGITS = 100  # more than any seed needs; int() itself refuses numbers past 4,300 digits


def whole_number(word):
    """`word` as a whole number if it is written in at most MAX_DIGITS of the digits 0-9, else
    None (int() would also take "1_0", "+5", "-1" and other scripts' digits, and raise past
    4,300 digits)."""
    if not (word.isascii() and word.isdigit()) or len(word) > MAX_DIGITS:
        return None
    return int(word)


def shown_word(word, limit=24):
    """A word for an error message, cut short when it is long (a 5,000-digit number, say)."""
    if len(word) <= limit:
        return repr(word)
    return f"{word[:limit]!r}... ({len(word)} characters)"


def number_error(word, expected):
    """What an error says about a word that is no whole number `whole_number` takes."""
    if word.isascii() and word.isdigit():
        return f"{expected}, got a number of more than {MAX_DIGITS} digits ({shown_word(word)})"
    return f"{expected}, got {shown_word(word)}"


def script_lines(text):
    """(line number, code) of every line with code on it, its `#` comment and blanks cut.
    Lines end at "\n" only (a "\r" before it is white space): str.splitlines() would also break
    at form feeds and Unicode separators, and the line numbers would drift."""
    for number, raw in enumerate(text.split("\n"), 1):
        code = raw.split("#", 1)[0].strip()
        if code:
            yield number, code


def read_statements(text, parse_line, setup_kinds, seats="ABCD"):
    """A script's statements, each line read by the game's `parse_line(number, code)`; its
    setup statements (kinds in `setup_kinds`) come first, each once, and with a `players`
    setup line no move or expect names a seat beyond them. Raises ScriptError."""
    statements = []
    seen = set()
    started = False
    for number, code in script_lines(text):
        st = parse_line(number, code)
        if st.kind in setup_kinds:
            if started:
                raise ScriptError(number, f"`{st.kind}` is setup: it comes before the first move")
            if st.kind in seen:
                raise ScriptError(number, f"`{st.kind}` given twice")
            seen.add(st.kind)
        else:
            started = True
        statements.append(st)
    if "players" in setup_kinds:
        players = next((s.value for s in statements if s.kind == "players"), 2)
        for st in statements:
            if st.player is not None and st.player >= players:
                raise ScriptError(
                    st.line, f"this game has {players} players (A-{seats[players - 1]})"
                )
    return statements


def seat_word(line, word, seats):
    """The seat a player's letter names (any case), or ScriptError naming the seats there are."""
    w = word.upper()
    if len(w) == 1 and w in seats:
        return seats.index(w)
    names = ", ".join(seats[:-1]) + (" or " if len(seats) > 1 else "") + seats[-1]
    raise ScriptError(line, f"expected a player {names}, not {word!r}")


def number_word(line, word, what="a whole number"):
    """The whole number `word` writes, or ScriptError saying what was expected."""
    value = whole_number(word)
    if value is None:
        raise ScriptError(line, number_error(word, f"expected {what}"))
    return value


class Statement:
    """One script line of any game: its number, `kind` (the game's words: seed, deck, move,
    expect...), its `text`, and what the game's parser read from it."""

    __slots__ = ("at", "kind", "line", "move", "player", "text", "tile", "value", "what")

    def __init__(
        self, line, kind, text, value=None, player=None, move=None, what=None, tile=None, at=None
    ):
        self.line = line
        self.kind = kind
        self.text = text
        self.value = value  # seed: int; deck: the items; deal: shape; start: player; expect: ...
        self.player = player  # move: 0 for A, 1 for B, ...
        self.move = move
        self.what = what  # expect: what is expected (score, hints, ...)
        self.tile = tile  # expect_tile: the tile id
        self.at = at  # expect: where on the board it looks (a cell, an edge), in the game's terms

    def __repr__(self):
        return f"Statement({self.line}, {self.text!r})"


SHAPES = ("blob", "line", "ring", "random")  # `deal SHAPE`: how the tiles are laid to deal


class Words:
    """The words every game's script language shares, for a game of the seats `seats` ("AB",
    "ABCD"...) called `title`, whose setup statements are `setup_kinds`, read into `make`
    (Statement, or a game's own subclass): the setup lines `players N`, `seed N`, `deal
    [SHAPE]` and `start P`, the move line `P MOVE...`, and the expect lines `score P N`, `turn
    P`, `over yes|no` and `ended WHY|no`, and the lines that list a game's pieces (`pieces`).
    A game reads every other line itself."""

    def __init__(
        self, seats, title, setup_kinds, ends, make=Statement, counts=(), totals=(), shows=None
    ):
        self.seats = seats
        self.title = title
        self.setup_kinds = setup_kinds
        self.ends = ends  # why a game can end, as `expect ended` names it
        self.make = make
        self.counts = counts  # `expect WHAT P N`: what the game counts a seat's (hand, heap...)
        self.totals = totals  # `expect WHAT N`: what it counts of the table (pile, field...)
        # `expect tile T shows STATE` (a game on tiles): (the states a tile shows, parse(word)
        # -> the piece a tile shows or None, the piece in an error's words, STATE is one word)
        self.shows = shows

    def read(self, text, parse_move, parse_expect, own=None, error="expected a statement"):
        """A script's statements (read_statements), each line read by `line`."""

        def parse_line(line, code):
            return self.line(line, code, parse_move, parse_expect, own, error)

        return read_statements(text, parse_line, self.setup_kinds, self.seats)

    def line(self, line, code, parse_move, parse_expect, own=None, error="expected a statement"):
        """The Statement of one script line: a shared setup line, a move (`parse_move(line,
        words)` reads its words after the seat), a shared `expect` line or the game's own
        (`parse_expect(line, code, words)`), or a line `own(line, code, words)` reads (None:
        not the game's); anything else is ScriptError(error)."""
        words = code.split()
        found = self.setup(line, code, words) or self.move(line, code, words, parse_move)
        if found is None and own is not None:
            found = own(line, code, words)
        if found is not None:
            return found
        if words[0].lower() == "expect":
            return self.expect(line, code, words) or parse_expect(line, code, words)
        raise ScriptError(line, error)

    def player(self, line, word):
        return seat_word(line, word, self.seats)

    def parsed(self, line, word, parse, like):
        """What `parse` reads `word` as, or ScriptError: "expected {like}, not {word}"."""
        value = parse(word)
        if value is None:
            raise ScriptError(line, f"expected {like}, not {word!r}")
        return value

    def setup(self, line, code, words):
        """The Statement of a shared setup line the game has, or None."""
        head, n = words[0].lower(), len(words)
        if head not in self.setup_kinds:
            return None
        if head == "players":
            most = len(self.seats)
            if n != 2:
                raise ScriptError(line, f"expected `players N` (2 to {most})")
            value = number_word(line, words[1], f"a number of players, 2 to {most}")
            if not 2 <= value <= most:
                raise ScriptError(line, f"{self.title} is for 2 to {most} players")
            return self.make(line, "players", code, value)
        if head == "seed":
            if n != 2:
                raise ScriptError(line, "expected `seed N`")
            return self.make(line, "seed", code, number_word(line, words[1]))
        if head == "deal":
            shape = words[1].lower() if n == 2 else "blob"
            if n > 2 or shape not in SHAPES:
                raise ScriptError(line, f"expected `deal` or `deal SHAPE` ({', '.join(SHAPES)})")
            return self.make(line, "deal", code, shape)
        if head == "start":
            if n != 2:
                raise ScriptError(line, f"expected `start A` (or {', '.join(self.seats[1:])})")
            return self.make(line, "start", code, self.player(line, words[1]))
        return None

    def pieces(self, line, code, words, parse, full, like, listing):
        """The Statement of a line that lists every piece of `full` once in some order (`deck
        T1 T4 ...`), each read by `parse` (None: not a piece); `like` names a piece for an
        error ("a tile like ADD-R1"), `listing` says what the line must list."""
        items = []
        for w in words[1:]:
            item = parse(w)
            if item is None:
                raise ScriptError(line, f"expected {like}, not {w!r}")
            items.append(item)
        if sorted(items) != sorted(full):
            raise ScriptError(line, listing)
        return self.make(line, words[0].lower(), code, items)

    def placement(self, line, words, cell, like, slots, turns, refuse_turns=True):
        """(slot, cell, turn) of a placement's words `VERB N at CELL turn T` (`words` from the
        verb on): a hand slot from 1 to `slots`, CELL read by `cell(line, word)` and written
        `like` (Q,R or X,Y), a turn from 0 to `turns` (with `refuse_turns` False, a larger
        turn is left to the referee, whose refusal says why)."""
        if len(words) != 6 or words[2].lower() != "at" or words[4].lower() != "turn":
            verb = words[0].lower()
            raise ScriptError(line, f"expected `{verb} N at {like} turn T` (T: 0-{turns})")
        slot = number_word(line, words[1], f"a hand slot (1-{slots})")
        turn = number_word(line, words[5], f"a turn, 0-{turns}")
        if refuse_turns and turn > turns:
            raise ScriptError(line, f"expected a turn, 0-{turns}, not {words[5]!r}")
        return slot, cell(line, words[3]), turn

    def move(self, line, code, words, parse_move):
        """The Statement of a move line (`A play 1`: a seat, then the words `parse_move(line,
        words)` reads into a move), or None for a line that starts with no seat."""
        head = words[0]
        if len(head) == 1 and head.upper() in self.seats and len(words) >= 2:
            player = self.player(line, head)
            return self.make(line, "move", code, player=player, move=parse_move(line, words[1:]))
        return None

    def expect(self, line, code, words):
        """The Statement of a shared `expect` line, or None."""
        n = len(words)
        what = words[1].lower() if n > 1 else ""
        value = words[2].lower() if n == 3 else None
        if what == "score" and n == 4:
            number = number_word(line, words[3])
            return self.make(line, "expect", code, number, self.player(line, words[2]), what=what)
        if what == "turn" and n == 3:
            return self.make(line, "expect", code, self.player(line, words[2]), what=what)
        if what == "over" and value in ("yes", "no"):
            return self.make(line, "expect", code, value == "yes", what=what)
        if what == "ended" and (value in self.ends or value == "no"):
            return self.make(line, "expect", code, value, what=what)
        if what in self.counts and n == 4:
            number = number_word(line, words[3])
            return self.make(line, "expect", code, number, self.player(line, words[2]), what=what)
        if what in self.totals and n == 3:
            return self.make(line, "expect", code, number_word(line, words[2]), what=what)
        if what == "tile" and self.shows is not None:
            return self.tile_shows(line, code, words)
        return None

    def tile_shows(self, line, code, words):
        """The Statement of `expect tile T shows STATE` (see `shows`)."""
        states, parse, piece, one_word = self.shows
        n = len(words)
        if (n != 5 if one_word else n < 5) or words[3].lower() != "shows":
            raise ScriptError(line, "expected `expect tile T shows STATE`")
        tile = number_word(line, words[2], "a tile id")
        shown = " ".join(words[4:]).lower()
        if shown not in states and parse(shown) is None:
            raise ScriptError(line, f"a tile shows a state ({', '.join(states)}) or {piece}")
        return self.make(line, "expect_tile", code, shown, what="tile", tile=tile)


def safe_name(name):
    """`name` (a bot's, `module:Class` included) as a file name's part."""
    return "".join(c if c.isalnum() or c in "-_." else "-" for c in name)


def save_new_script(text, folder, stem, suffix):
    """Write `text` as a new script FOLDER/STEM.SUFFIX, or STEM-2, -3, ... when that is taken,
    and return its path: a person's games are each played once, so an earlier one is never
    overwritten. Raises OSError."""
    base = os.path.join(folder, safe_name(stem))
    path, copy = base + suffix, 1
    while True:
        try:
            with open(path, "x") as f:
                f.write(text)
            return path
        except FileExistsError:
            copy += 1
            path = f"{base}-{copy}{suffix}"
