# MicroPython module (unix port), imported by vt_agent.py inside a virtual tile.
"""Tab completion at a virtual tile's friendly REPL, as a board's REPL does it (py/repl.c).

The word before the cursor (`a.b.pa`) is looked up from the REPL's globals one dotted part at a
time; its last part is completed against that object's attributes (after `import `, against
the built-in modules). One match, or several sharing more than what was typed, inserts the
rest; several others are listed in 16-column slots, in the order of the interpreter's string
table, which is the order a board lists them in. Nothing found: on a line's first word, a
prefix of `import` completes to `import `.

The string table's order is read with dir(): MicroPython's dir(obj) probes every interned
name in table order, so an object that answers every name lists the whole table.
"""

import sys

SLOT = 16  # the listing's column width
LINE = 4 * SLOT  # and its line length
IMPORT = "import "
MODULE_EXTRAS = ("__class__", "__dict__")  # what a module answers besides its globals


class _Everything:
    def __getattr__(self, name):
        return name


def string_table():
    """Every interned name, in the interpreter's table order."""
    return dir(_Everything())


def _has(obj, name):
    try:
        getattr(obj, name)
        return True
    except Exception:  # noqa: BLE001  as the board's lookup, which catches everything
        return False


def _builtin_modules(names):
    """The names of `names` that are built-in modules, found without touching the flash: only
    an unreachable directory is on the path while each is tried."""
    saved = sys.path[:]
    sys.path[:] = ["/-no-such-dir-"]
    found = []
    try:
        for name in names:
            try:
                module = __import__(name)
            except Exception:  # noqa: BLE001, S112  not a module: the usual case
                continue
            # `urandom` imports `random` (an old alias) but is no module of its own name;
            # `__main__` is built in, though here it is this agent's script
            own = getattr(module, "__name__", None) == name and not hasattr(module, "__file__")
            if own or name == "__main__":
                found.append(name)
    finally:
        sys.path[:] = saved
    return found


def _word_start(line):
    i = len(line)
    while i > 0 and (line[i - 1].isalpha() or line[i - 1].isdigit() or line[i - 1] in "_."):
        i -= 1
    return i


def complete(line, scope, hidden=()):
    """What Tab does after `line` (the current line up to the cursor), with the REPL's globals
    `scope` (less the names in `hidden`, which a board's REPL would not have): ("insert", text),
    ("list", the listing, starting and ending with a newline) or None."""
    start = _word_start(line)
    parts = line[start:].split(".")
    partial = parts.pop()
    obj = None
    for i, word in enumerate(parts):
        if i == 0:
            if word in scope and word not in hidden:
                obj = scope[word]
            elif word == "__dict__":
                obj = scope
            elif word == "__class__":
                obj = type(sys)
            else:
                return None
        else:
            try:
                obj = getattr(obj, word)
            except Exception:  # noqa: BLE001
                return None
    table = [n for n in string_table() if n.startswith(partial) and (partial or n[0] != "_")]
    if line.startswith(IMPORT):
        matches = _builtin_modules(table)
    elif not parts:
        matches = [n for n in table if (n in scope and n not in hidden) or n in MODULE_EXTRAS]
    else:
        matches = [n for n in table if _has(obj, n)]
    if not matches:
        if start == 0 and 0 < len(partial) < len(IMPORT) and IMPORT.startswith(partial):
            return "insert", IMPORT[len(partial) :]
        return None
    common = matches[0]
    for name in matches[1:]:
        n = 0
        while n < len(common) and n < len(name) and common[n] == name[n]:
            n += 1
        common = common[:n]
    if len(matches) == 1 or len(common) > len(partial):
        rest = common[len(partial) :]
        return ("insert", rest) if rest else None
    return "list", listing(matches)


def listing(names):
    """Names in SLOT-wide columns, LINE characters a line at most, as the board prints them."""
    out = []
    used = LINE  # so that the first name starts a line
    for name in names:
        gap = (used + SLOT - 1) // SLOT * SLOT - used
        if gap < 2:
            gap += SLOT
        if used + gap + len(name) <= LINE:
            out.append(" " * gap + name)
            used += gap + len(name)
        else:
            out.append("\n" + name)
            used = len(name)
    return "".join(out) + "\n"
