"""The printed Gem Match's session scripts (`*.gm` whose header says `variant printed`): the
language of docs/gemmatch.md#the-printed-games-scripts, read (`parse_script`), played on the
referee (`RulesRunner`, on the play layer's runner) and written (`game_script`).

The printed game has no tiles, so its runner serves `blinks session run` with or without
--rules-only. Its words are the hex game's where they mean the same; a token is named by its
shape's letter and its id (`L9`), since it covers four squares and a group of 5 or more leaves
the field whole while it is shared.
"""

from simulator.games.gemmatch import printed as pr
from simulator.games.gemmatch.rules import PLAYERS, SIDES
from simulator.games.gemmatch.script import field_expect
from simulator.play import runner, scripts_out
from simulator.sessions.script import ScriptError, Statement, Words, number_word, script_lines

VARIANTS = ("hex", "printed")
SETUP_KINDS = ("variant", "field", "seed", "deck", "start")
RESOLVING = tuple(pr.TIER_WORDS.values()) + ("none",)
TOKEN_HELP = "a token like L9 (I0-I3, J4-J7, L8-L11, O12-O15, S16-S19, T20-T23, Z24-Z27)"
MOVES_HELP = (
    "expected a move: place N at X,Y turn T, heap TOKEN, hand TOKEN basic|improved, pass, skip"
)
EXPECTS_HELP = (
    "expected expect score P N, heap P N, hand P N, improved P N, field N, pile N, turn P, "
    f"resolving {'|'.join(RESOLVING)}, cell X,Y TOKEN SIDE|empty, under TOKEN GEMS, "
    f"over yes|no, or ended {'|'.join(pr.ENDS)}|no"
)


def variant_of(text):
    """The variant a script's `variant` line names ("hex" without one); ScriptError for a
    variant there is not. Its place (setup, once) is checked by the variant's grammar."""
    for number, code in script_lines(text):
        words = code.split()
        if words[0].lower() != "variant":
            continue
        if len(words) != 2 or words[1].lower() not in VARIANTS:
            raise ScriptError(number, "expected `variant hex` or `variant printed`")
        return words[1].lower()
    return "hex"


def is_printed(statements):
    return any(st.kind == "variant" and st.value == "printed" for st in statements)


ERROR = "expected variant, field, seed, deck, start, a move (A place 1 at 0,0 turn 0) or expect"
# the words the hex game's scripts share with every game's: seed, start, a move's seat, and
# expect score, turn, over, ended and the counts
WORDS = Words(
    "".join(PLAYERS),
    "Gem Match",
    SETUP_KINDS,
    pr.ENDS,
    counts=("heap", "hand", "improved"),
    totals=("field", "pile"),
)


def parse_script(text):
    return WORDS.read(text, _move, _expect, _own, ERROR)


def _token(line, word):
    token = pr.parse_token(word)
    if token is None:
        raise ScriptError(line, f"expected {TOKEN_HELP}, not {word!r}")
    return token


def _square(line, word):
    parts = word.split(",")
    if len(parts) != 2 or not all(p.isascii() and p.isdigit() and len(p) < 3 for p in parts):
        raise ScriptError(line, f"expected a square X,Y like 3,0 (0,0 the top left), not {word!r}")
    return int(parts[0]), int(parts[1])


def _side(line, word):
    if word.lower() not in SIDES:
        raise ScriptError(line, f"expected a side, basic or improved, not {word!r}")
    return SIDES.index(word.lower())


def _own(line, code, words):
    """The printed game's own setup lines: variant, field and deck (and no deal)."""
    head, n = words[0].lower(), len(words)
    if head == "variant":
        return Statement(line, "variant", code, words[1].lower())  # variant_of checked it
    if head == "field":
        size = number_word(line, words[1], "a field size") if n == 2 else None
        if size not in pr.FIELD_SIZES:
            low, high = pr.FIELD_SIZES[0], pr.FIELD_SIZES[-1]
            raise ScriptError(line, f"expected `field N`, N from {low} to {high} (N by N squares)")
        return Statement(line, "field", code, size)
    if head == "deck":
        deck = [_token(line, w) for w in words[1:]]
        if sorted(deck) != list(range(len(pr.TOKENS))):
            raise ScriptError(
                line, f"a deck lists the {len(pr.TOKENS)} tokens (I0 to Z27), each once"
            )
        return Statement(line, "deck", code, deck)
    if head == "deal":
        raise ScriptError(line, "the printed game has no tiles to deal: leave `deal` out")
    return None


def _move(line, words):
    kind, n = words[0].lower(), len(words)
    if kind == pr.PLACE:
        slot, square, turn = WORDS.placement(line, words, _square, "X,Y", 5, 3, False)
        return pr.place(slot, turn, square)
    if kind == pr.HEAP and n == 2:
        return pr.heap(_token(line, words[1]))
    if kind == "hand" and n == 3:
        return pr.keep(_token(line, words[1]), _side(line, words[2]))
    if kind == "pass" and n == 1:
        return pr.PASS
    if kind == pr.SKIP and n == 1:
        return pr.SKIP_MOVE
    raise ScriptError(line, MOVES_HELP)


def _expect(line, code, words):
    found = field_expect(line, code, words, RESOLVING, _square, "X,Y", _token_name)
    if found is not None:
        return found
    if len(words) == 4 and words[1].lower() == "under":
        gems = words[3].upper()
        if len(gems) != 4 or any(g not in pr.GEMS for g in gems):
            raise ScriptError(line, f"expected a side's four gems ({pr.GEMS}), not {words[3]!r}")
        return Statement(line, "expect", code, gems, what="under", at=_token(line, words[2]))
    raise ScriptError(line, EXPECTS_HELP)


def _token_name(line, word):
    return pr.token_word(_token(line, word))


def _token_side(token, side):
    return f"{pr.token_word(token)} {SIDES[side]}"


class RulesRunner(runner.RefereeOnly):
    """A printed script on the referee. The printed game has no tiles, so this runner serves
    `blinks session run` with or without --rules-only, and says so. With --board-png DIR it
    draws the field after every move (printed_png)."""

    NAME, TITLE = "gemmatch", "Gem Match"
    SETUP = (
        ("variant", "printed"),
        ("field", pr.FIELD_SIZE),
        ("seed", 0),
        ("deck", None),
        ("start", 0),
    )
    IllegalMove = pr.IllegalMove
    BOARD_PICTURE = "simulator.games.gemmatch.printed_png"
    CALLED, NO_TILES = "the printed Gem Match", "the printed game has no tiles"

    def headline(self, setup):
        size = setup["field"]
        return f"Gem Match, printed, field {size} by {size}, seed {setup['seed']} ({self.mode})"

    def deal(self, setup):
        return pr.GameState(
            seed=setup["seed"], deck=setup["deck"], start=setup["start"], size=setup["field"]
        )

    def opening(self):
        for p, hand in enumerate(self.state.hands):
            self.say(f"{PLAYERS[p]} holds {' '.join(pr.token_name(*t) for t in hand)}")

    def after_move(self, st, event):
        """A new group: say its tokens' other sides, as the player may look under them."""
        s = self.state
        if event.groups and s.resolving is not None:
            look = s.observation(s.current)
            under = ", ".join(
                f"{pr.token_word(t)} {look.under(t)}" for t in sorted(s.resolving.tokens)
            )
            self.say(f"  under the group: {under}")

    def actual(self, st):
        if st.what == "cell":
            return self._cell(st.at)
        if st.what == "under":
            return self._under(st, st.at)
        return runner.RulesRunner.actual(self, st)

    def _cell(self, square):
        held = self.state.field.get(square)
        if held is None:
            return "empty"
        token = held[0]
        return _token_side(token, self.state.on_field[token][0])

    def _under(self, st, token):
        s = self.state
        try:
            return s.observation(s.current).under(token)
        except pr.IllegalMove as exc:
            raise ScriptError(st.line, f"{st.text}: {exc}") from None

    def read(self, st):
        s, what = self.state, st.what
        if what == "heap":
            return len(s.heaps[st.player])
        if what == "hand":
            return len(s.hands[st.player])
        if what == "improved":
            return sum(1 for _, side in s.hands[st.player] if side)
        if what == "field":
            return len(s.on_field)
        if what == "pile":
            return len(s.pile)
        if what == "resolving":
            return "none" if s.resolving is None else pr.TIER_WORDS[s.resolving.tier]
        raise ValueError(f"no expect reads {what!r}")


def game_script(state, title, seed=0):
    """A finished printed game as a `.gm` script: its header, deck and every move, then
    `expect` lines for how it ended, so `blinks session run` replays that very game."""
    setup = [
        "variant printed",
        f"field {state.size}",
        f"seed {seed}",
        "deck " + " ".join(pr.token_word(t) for t in state.deck),
        f"start {PLAYERS[state.start]}",
    ]
    ends = []
    for p in range(state.players):
        ends.append(f"expect score {PLAYERS[p]} {state.score(p)}")
        ends.append(f"expect heap {PLAYERS[p]} {len(state.heaps[p])}")
    ends += [f"expect field {len(state.on_field)}", f"expect pile {len(state.pile)}"]
    return scripts_out.game_script(
        state, title, setup, ends + scripts_out.how_it_ended(state), replay="[--board-png DIR]"
    )
