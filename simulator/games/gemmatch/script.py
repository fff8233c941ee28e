"""Gem Match session scripts (`*.gm`): the language of docs/gemmatch.md#session-scripts, read
(`parse_script`), played on the referee (`RulesRunner`, on the play layer's runner) and written
(`game_script`, a finished game as a script that replays it).

The whole script is parsed before anything runs; a malformed line raises ScriptError(line,
what was expected), exit 2, as the other games' scripts do.
"""

from games.gemmatch import tokens

from simulator.games.gemmatch import moves as mv
from simulator.games.gemmatch.referee import GameState, IllegalMove
from simulator.games.gemmatch.rules import ENDS, PLAYERS, SIDES, TIER_NAMES, parse_cell
from simulator.play import runner, scripts_out
from simulator.sessions.script import ScriptError, Statement, Words

SUFFIX = ".gm"  # the descriptor's SCRIPT_SUFFIX; the bot game (window) saves games with it

SETUP_KINDS = ("variant", "seed", "deck", "deal", "start")
TILE_STATES = ("undealt", "dealing", "uncertain", "pile", "hand", "field", "taken")
RESOLVING = tuple(TIER_NAMES.values()) + ("none",)
MOVES_HELP = "expected a move: place N at Q,R turn T, heap Q,R, hand Q,R basic|improved, pass, skip"
EXPECTS_HELP = (
    "expected expect score P N, heap P N, hand P N, improved P N, field N, pile N, turn P, "
    f"resolving {'|'.join(RESOLVING)}, cell Q,R TOKEN SIDE|empty, over yes|no, "
    f"ended {'|'.join(ENDS)}|no, or tile T shows STATE"
)


ERROR = "expected seed, deck, deal, start, a move (A place 1 at 0,0 turn 0) or expect"
VARIANT_HELP = "expected `variant hex` (the tiles' game)"
WORDS = Words(
    "".join(PLAYERS),
    "Gem Match",
    SETUP_KINDS,
    ENDS,
    counts=("heap", "hand", "improved"),
    totals=("field", "pile"),
    shows=(TILE_STATES, tokens.parse, "its token (T1-T9)", True),
)


def parse_script(text):
    return WORDS.read(text, _move, _expect, _own, ERROR)


def _cell(line, word):
    return WORDS.parsed(line, word, parse_cell, "a cell Q,R like 1,-1")


def _side(line, word):
    w = word.lower()
    if w not in SIDES:
        raise ScriptError(line, f"expected a side, basic or improved, not {word!r}")
    return SIDES.index(w)


def _own(line, code, words):
    """`variant hex` (`variant printed` is printed_script's language) and `deck ...`."""
    head = words[0].lower()
    if head == "variant":
        if len(words) != 2 or words[1].lower() != "hex":
            raise ScriptError(line, VARIANT_HELP)
        return Statement(line, "variant", code, "hex")
    if head != "deck":
        return None
    listing = (
        f"a deck lists the {tokens.DECK_SIZE} tokens of the game (T1-T9, three of each), each once"
    )
    like = "a token like T1 (T1-T9)"
    return WORDS.pieces(line, code, words, tokens.parse, tokens.deck(), like, listing)


def _move(line, words):
    kind = words[0].lower()
    n = len(words)
    if kind == mv.PLACE:
        return mv.place(*WORDS.placement(line, words, _cell, "Q,R", 5, 5))
    if kind == mv.HEAP and n == 2:
        return mv.heap(_cell(line, words[1]))
    if kind == mv.HAND and n == 3:
        return mv.hand(_cell(line, words[1]), _side(line, words[2]))
    if kind == mv.PASS and n == 1:
        return mv.pass_()
    if kind == mv.SKIP and n == 1:
        return mv.skip()
    raise ScriptError(line, MOVES_HELP)


def _expect(line, code, words):
    found = field_expect(line, code, words, RESOLVING, _cell, "Q,R", _token_name)
    if found is None:
        raise ScriptError(line, EXPECTS_HELP)
    return found


def _token_name(line, word):
    kind = tokens.parse(word)
    if kind is None:
        raise ScriptError(line, f"expected a token like T1 (T1-T9), not {word!r}")
    return tokens.name(kind)


def field_expect(line, code, words, resolving, cell, like, token_name):
    """`expect resolving TIER` and `expect cell CELL TOKEN SIDE|empty`, read alike by both Gem
    Match languages: `resolving` the tiers' words, `cell(line, word)` reads CELL (written
    `like`), `token_name(line, word)` a token's name; None for any other expect."""
    n = len(words)
    what = words[1].lower() if n > 1 else ""
    if what == "resolving" and n == 3 and words[2].lower() in resolving:
        return Statement(line, "expect", code, words[2].lower(), what=what)
    if what == "cell" and n in (4, 5):
        at = cell(line, words[2])
        if n == 4:
            if words[3].lower() != "empty":
                raise ScriptError(line, f"expected `expect cell {like} TOKEN SIDE` or `... empty`")
            return Statement(line, "expect", code, "empty", what=what, at=at)
        value = f"{token_name(line, words[3])} {SIDES[_side(line, words[4])]}"
        return Statement(line, "expect", code, value, what=what, at=at)
    return None


class RulesRunner(runner.RulesRunner):
    """A Gem Match script on the referee alone (`--rules-only`); tiles.py's TilesRunner
    plays it on the tiles."""

    NAME, TITLE = "gemmatch", "Gem Match"
    SETUP = (("variant", "hex"), ("seed", 0), ("deck", None), ("deal", "blob"), ("start", 0))
    IllegalMove = IllegalMove
    GameState = GameState
    COUNTED = (("heap", "heaps"), ("hand", "hands"), ("field", "field"), ("pile", "pile"))

    def opening(self):
        s = self.state
        for p in range(s.players):
            shown = " ".join(self._token_words(t) for t in s.hands[p])
            self.say(f"{PLAYERS[p]} holds {shown}")

    def _token_words(self, t):
        s = self.state
        return f"{tokens.name(s.kinds[t])}/{tokens.side_name(s.gems_of(t))}"

    def read(self, st):
        s = self.state
        what = st.what
        if what == "improved":
            return sum(1 for t in s.hands[st.player] if s.sides[t])
        if what == "resolving":
            return "none" if s.pending is None else TIER_NAMES[s.pending.tier]
        if what == "cell":
            t = s.token_at(st.at)
            return "empty" if t is None else f"{tokens.name(s.kinds[t])} {SIDES[s.sides[t]]}"
        raise ValueError(f"no expect reads {what!r}")


def game_script(state, title, seed=0):
    """A finished Gem Match game as a `.gm` script: its deck and every move, then `expect`
    lines for how it ended, so `blinks session run` replays that very game."""
    setup = [
        f"seed {seed}",
        "deck " + " ".join(tokens.name(k) for k in state.kinds),
        f"start {PLAYERS[state.start]}",
    ]
    ends = []
    for p in range(state.players):
        ends.append(f"expect score {PLAYERS[p]} {state.score(p)}")
        ends.append(f"expect heap {PLAYERS[p]} {len(state.heaps[p])}")
    ends += [f"expect field {len(state.field)}", f"expect pile {len(state.pile)}"]
    return scripts_out.game_script(state, title, setup, ends + scripts_out.how_it_ended(state))
