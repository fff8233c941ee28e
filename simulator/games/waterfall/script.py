"""Waterfall session scripts (`*.wf`): the language of docs/waterfall.md#session-scripts, read
(`parse_script`), played on the referee (`RulesRunner`, on the play layer's runner) and written
(`game_script`, a finished game as a script that replays it).

The whole script is parsed before anything runs; a malformed line raises ScriptError(line,
what was expected), exit 2, as Lost Gems' scripts do (the same ScriptError class, so the
`blinks session run` framework treats both games alike).
"""

from games.waterfall import cards

from simulator.games.waterfall import moves as mv
from simulator.games.waterfall.referee import GameState, IllegalMove
from simulator.games.waterfall.rules import ENDS, PLAYERS, RULES, parse_place, place_name
from simulator.play import runner, scripts_out
from simulator.sessions.script import ScriptError, Statement, Words, number_word

SETUP_KINDS = ("players", "seed", "deck", "deal", "start", "rules")
TILE_STATES = ("undealt", "dealing", "uncertain", "card", "revealed", "waterfall")
EXPECTS = ("score", "hand", "pawn", "waterfall", "draw", "over", "ended", "turn")
ERROR = "expected players, seed, deck, deal, start, rules, a move (A play 1) or expect"
WORDS = Words(
    "".join(PLAYERS),
    "Waterfall",
    SETUP_KINDS,
    ENDS,
    counts=("hand",),
    totals=("waterfall", "draw"),
    shows=(TILE_STATES, cards.parse, "a card", False),
)


def parse_script(text):
    return WORDS.read(text, _move, _expect, _deck_or_rules, ERROR)


def _deck_or_rules(line, code, words):
    head = words[0].lower()
    if head == "deck":
        listing = f"a deck lists the {cards.DECK_SIZE} tiles of the game, each once"
        return WORDS.pieces(
            line, code, words, cards.parse, cards.deck(), "a tile like ADD-R1", listing
        )
    if head == "rules":
        chosen = tuple(sorted({w.lower() for w in words[1:]}))
        if not chosen or any(w not in RULES for w in chosen):
            raise ScriptError(line, f"expected `rules OPTION` ({', '.join(RULES)})")
        return Statement(line, "rules", code, chosen)
    return None


def _move(line, words):
    kind = words[0].lower()
    n = len(words)
    if kind in (mv.PLAY, mv.SCORE) and n == 2:
        slot = number_word(line, words[1], "a hand slot (1, 2, ...)")
        return mv.play(slot) if kind == mv.PLAY else mv.score(slot)
    if kind in (mv.FALL, mv.DONE) and n == 1:
        return mv.fall() if kind == mv.FALL else mv.done()
    if kind == mv.STEP and n == 2 and words[1].lower() in ("left", "right"):
        return mv.step(words[1].lower())
    if kind == mv.ADD and n == 4 and words[2].lower() == "at":
        place = parse_place(words[3])
        if place is None:
            raise ScriptError(line, f"expected a place ROW.PLACE like 2.1, not {words[3]!r}")
        return mv.add(number_word(line, words[1], "a hand slot (1, 2, ...)"), place)
    raise ScriptError(
        line, "expected a move: play N, fall, step left|right, add N at ROW.PLACE, score N, done"
    )


def _expect(line, code, words):
    n = len(words)
    what = words[1].lower() if n > 1 else ""
    if what == "pawn" and n == 4:
        place = words[3].lower()
        if place != "above" and parse_place(place) is None:
            raise ScriptError(line, "expected `expect pawn P ROW.PLACE` or `expect pawn P above`")
        return Statement(line, "expect", code, place, WORDS.player(line, words[2]), what=what)
    raise ScriptError(
        line,
        "expected expect score P N, hand P N, pawn P ROW.PLACE|above, waterfall N, draw N, "
        "turn P, over yes|no, ended twenty|deck|turns|no, or tile T shows STATE",
    )


class RulesRunner(runner.RulesRunner):
    """A Waterfall script on the referee alone (`--rules-only`); tiles.py's TilesRunner
    plays it on the tiles."""

    NAME, TITLE = "waterfall", "Waterfall"
    SETUP = (
        ("players", 2),
        ("seed", 0),
        ("deck", None),
        ("deal", "blob"),
        ("start", 0),
        ("rules", ()),
    )
    IllegalMove = IllegalMove
    GameState = GameState
    COUNTED = (("hand", "hands"), ("waterfall", "waterfall"), ("draw", "pile"))

    def opening(self):
        s = self.state
        self.say("waterfall starts with " + cards.name(s.kinds[s.waterfall[(0, 0)]]))

    def read(self, st):
        if st.what == "pawn":
            pawn = self.state.pawns[st.player]
            return "above" if pawn is None else place_name(pawn)
        return runner.RulesRunner.read(self, st)


def game_script(state, title, seed=0):
    """A finished Waterfall game as a `.wf` script: its deck, players and every move, then
    `expect` lines for how it ended, so `blinks session run` replays that very game."""
    setup = [
        f"players {state.players}",
        f"seed {seed}",
        "deck " + " ".join(cards.name(k) for k in state.kinds),
        f"start {PLAYERS[state.history[0].player] if state.history else 'A'}",
    ] + [f"rules {' '.join(state.rules)}"] * bool(state.rules)
    ends = [f"expect score {PLAYERS[p]} {state.score(p)}" for p in range(state.players)]
    ends += [f"expect waterfall {len(state.waterfall)}", f"expect draw {len(state.pile)}"]
    return scripts_out.game_script(state, title, setup, ends + scripts_out.how_it_ended(state))
