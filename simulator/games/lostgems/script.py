"""The session script language of LOSTGEMS.md part 3: parse a script into statements.

Parsing checks the whole script before anything runs, so a typo on line 40 costs no half-run
session: every malformed statement raises `ScriptError(line, what was expected)`. Whether a
move is legal, or in turn, depends on the game and is the runner's job.
"""

from simulator.games.lostgems.moves import Move
from simulator.games.lostgems.shards import check_deck, parse_colour, parse_shard
from simulator.sessions.script import (
    ScriptError,
    Statement,
    number_error,
    script_lines,
    shown_word,
    whole_number,
)

SHAPES = ("blob", "line", "ring", "random")
TILE_STATES = (
    "undealt",
    "dealing",
    "uncertain",
    "face down",
    "revealed",
    "played",
    "error",
    "discarded",
)
# expect WHAT N: the values N can take (a number outside them can never hold: a typo).
EXPECT_NUMBERS = {"score": 9, "hints": 3, "errors": 2, "jungle": 14}
SETUP_KINDS = ("seed", "deck", "deal", "start")


def parse_script(text):
    """Parse the script text into a list of Statements; raise ScriptError on the first bad line."""
    statements = []
    first_game_line = None  # the first move or expect: setup must come before it
    seen = {}
    for number, code in script_lines(text):
        st = parse_line(number, code)
        if st.kind in SETUP_KINDS:
            if first_game_line is not None:
                raise ScriptError(
                    number,
                    f"`{st.kind}` must come before the first move or expect "
                    f"(line {first_game_line})",
                )
            if st.kind in seen:
                raise ScriptError(
                    number, f"a second `{st.kind}` statement (the first is on line {seen[st.kind]})"
                )
            if st.kind in ("seed", "deck") and "deal" in seen:
                raise ScriptError(
                    number, f"`{st.kind}` must come before `deal` (line {seen['deal']})"
                )
            seen[st.kind] = number
        elif first_game_line is None:
            first_game_line = number
        statements.append(st)
    return statements


def parse_line(number, code):
    words = code.split()
    head = words[0].lower()
    if head == "seed":
        return Statement(
            number, "seed", code, value=_int(number, words, 1, "seed N (a whole number)", 2)
        )
    if head == "deck":
        if len(words) != 19:
            raise ScriptError(
                number,
                f"expected `deck` then the 18 shards in draw order, got {len(words) - 1} shards",
            )
        try:
            deck = [parse_shard(w) for w in words[1:]]
            check_deck(deck)
        except ValueError as exc:
            raise ScriptError(number, f"bad deck: {exc}")
        return Statement(number, "deck", code, value=deck)
    if head == "deal":
        if len(words) > 2 or (len(words) == 2 and words[1].lower() not in SHAPES):
            raise ScriptError(
                number, "expected `deal` or `deal SHAPE` with SHAPE one of " + ", ".join(SHAPES)
            )
        return Statement(
            number, "deal", code, value=words[1].lower() if len(words) == 2 else "blob"
        )
    if head == "start":
        if len(words) != 2 or words[1].upper() not in ("A", "B"):
            raise ScriptError(number, "expected `start A` or `start B`")
        return Statement(number, "start", code, value="AB".index(words[1].upper()))
    if head == "expect":
        return _parse_expect(number, code, words)
    if head.upper() in ("A", "B") and len(words) >= 2:
        return _parse_move(number, code, words)
    raise ScriptError(
        number,
        "expected a statement: seed, deck, deal, start, expect, "
        "or a move like `A hint colour red`, `B play 1`, `A discard 2`",
    )


def _int(number, words, index, expected, length):
    if len(words) != length:
        raise ScriptError(number, f"expected `{expected}`")
    return _number(number, words[index], f"expected `{expected}`")


def _number(number, word, expected):
    value = whole_number(word)
    if value is None:
        raise ScriptError(number, number_error(word, expected))
    return value


def _parse_move(number, code, words):
    player = "AB".index(words[0].upper())
    verb = words[1].lower()
    if verb in ("play", "discard"):
        if len(words) != 3 or words[2] not in ("1", "2"):
            raise ScriptError(
                number, f"expected `{words[0]} {verb} N` with N the hand slot, 1 or 2"
            )
        slot = int(words[2])
        move = Move.play(slot) if verb == "play" else Move.discard(slot)
        return Statement(number, "move", code, player=player, move=move)
    if verb == "hint":
        usage = (
            f"expected `{words[0]} hint colour red|yellow|blue` or `{words[0]} hint value 1|2|3`"
        )
        if len(words) != 4:
            raise ScriptError(number, usage)
        kind = words[2].lower()
        if kind in ("colour", "color"):
            try:
                move = Move.hint_colour(parse_colour(words[3]))
            except ValueError:
                raise ScriptError(number, f"{usage}, got colour {shown_word(words[3])}")
        elif kind == "value":
            if words[3] not in ("1", "2", "3"):
                raise ScriptError(number, f"{usage}, got value {shown_word(words[3])}")
            move = Move.hint_value(int(words[3]))
        else:
            raise ScriptError(number, usage)
        return Statement(number, "move", code, player=player, move=move)
    raise ScriptError(
        number,
        f"expected `{words[0]} hint ...`, `{words[0]} play N` or `{words[0]} discard N`, got {shown_word(words[1])}",
    )


def _parse_expect(number, code, words):
    if len(words) < 2:
        raise ScriptError(
            number,
            "expected `expect score|hints|errors|jungle N`, `expect over yes|no` "
            "or `expect tile T shows STATE`",
        )
    what = words[1].lower()
    if what in EXPECT_NUMBERS:
        top = EXPECT_NUMBERS[what]
        value = _int(number, words, 2, f"expect {what} N", 3)
        if value > top:
            raise ScriptError(
                number, f"expected `expect {what} N` with N from 0 to {top}, got {value}"
            )
        return Statement(number, "expect", code, value=value, what=what)
    if what == "over":
        if len(words) != 3 or words[2].lower() not in ("yes", "no"):
            raise ScriptError(number, "expected `expect over yes` or `expect over no`")
        return Statement(number, "expect", code, value=words[2].lower() == "yes", what="over")
    if what == "tile":
        usage = (
            "expected `expect tile T shows STATE` with STATE a shard like R1 or one of: "
            + ", ".join(TILE_STATES)
        )
        if len(words) < 5 or words[3].lower() != "shows":
            raise ScriptError(number, usage)
        tile = _number(number, words[2], usage)
        shown = " ".join(words[4:]).lower()
        if shown not in TILE_STATES:
            try:
                parse_shard(shown)
                shown = shown.upper()
            except ValueError:
                raise ScriptError(number, usage + f"; got {shown_word(shown)}")
        return Statement(number, "expect_tile", code, value=shown, tile=tile)
    raise ScriptError(
        number,
        f"expected `expect` then score, hints, errors, jungle, over or tile, got {shown_word(words[1])}",
    )
