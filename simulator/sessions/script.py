"""What every game's session scripts share: the error a malformed line raises (exit 2, said
as `SCRIPT:LINE: what was expected`) and the reading of whole numbers, so `seed 5_0`, `+5` or a
5,000-digit seed is refused alike in every game's language. Each game parses its own statements
(simulator/games/<game>/script.py).
"""


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
