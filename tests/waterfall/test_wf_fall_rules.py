"""Waterfall's fall as the seed words it: the steps played are how many a player is *allowed*
to fall (`done` falls no further), and the single step of a player with no tile in hand, with
the draw before it (the default) or after it (rules step-first)."""

import json

import pytest
from wf_decks import BASIC

from host_tools.cli import main
from simulator.games.waterfall import bots, rules
from simulator.games.waterfall.referee import GameState, IllegalMove, game_script
from simulator.games.waterfall.rules import parse_script
from simulator.sessions.script import ScriptError


def test_a_player_may_fall_fewer_steps_than_played_once_the_pawn_has_stepped():
    s = GameState(deck=BASIC)
    s.apply(rules.play(2))  # SCORE-R3: three steps allowed
    s.apply(rules.fall())
    assert rules.done() not in s.legal_moves()
    with pytest.raises(IllegalMove, match="take at least one step before falling no further"):
        s.apply(rules.done())
    s.apply(rules.step("left"))  # into the start tile: ADD
    s.apply(rules.add(2, (1, 0)))  # ADD-G1
    assert s.phase == "fall" and s.steps == 2 and rules.done() in s.legal_moves()
    ev = s.apply(rules.done())
    assert (
        ev.stopped == 2
        and ev.turn_over
        and "falls no further, 2 step(s) unused" in str(ev.describe())
    )
    assert s.current == 1 and s.pawns[0] == (0, 0)


def empty_hand_turn(options=()):
    """A's turn with no tile in hand: A and B each play their whole hand and fall out."""
    s = GameState(deck=BASIC, rules=options)
    for player in (0, 1):
        while s.hands[player]:
            s.apply(rules.play(1))
        s.apply(rules.fall())
        while s.current == player:  # into the start tile (ADD, nothing to add), then out
            s.apply(rules.step("left"))
    assert s.current == 0 and s.phase == "fall" and s.steps == 1
    return s


def test_the_single_step_of_an_empty_hand_is_no_choice():
    s = empty_hand_turn()
    with pytest.raises(IllegalMove, match="with no tile in hand the one step is no choice"):
        s.apply(rules.done())


def test_by_default_the_empty_hand_draws_before_its_step_and_can_add_what_it_drew():
    s = empty_hand_turn()
    assert len(s.hands[0]) == 1  # drawn as B's turn ended
    s.apply(rules.step("left"))  # into the start tile: ADD, with the tile just drawn
    assert s.phase == "add"


def test_rules_step_first_steps_then_draws_as_the_seed_orders_them():
    s = empty_hand_turn(("step-first",))
    assert s.hands[0] == []
    ev = s.apply(rules.step("left"))  # into the start tile: ADD, with nothing to add
    assert ev.turn_over and len(ev.drew) == 1 and len(s.hands[0]) == 1
    assert s.current == 1


def test_an_unknown_rules_option_is_refused():
    with pytest.raises(ValueError, match="no Waterfall rules option 'fly'"):
        GameState(rules=("fly",))


def test_a_script_names_its_rules_and_a_written_game_keeps_them():
    st = parse_script("rules step-first\nA play 1\n")[0]
    assert st.kind == "rules" and st.value == ("step-first",)
    with pytest.raises(ScriptError, match=r"expected `rules OPTION` \(step-first\)"):
        parse_script("rules fly\n")
    state = bots.play_game("greedy", seed=4, rules=("step-first",))
    text = game_script(state, "test", seed=4)
    assert "\nrules step-first\n" in text
    assert [s.value for s in parse_script(text) if s.kind == "rules"] == [("step-first",)]


def test_playtest_takes_rules_and_reports_them(capsys):
    args = ["playtest", "--game", "waterfall", "--games", "5", "--json", "--rules", "step-first"]
    assert main(args) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["rules"] == ["step-first"]
    scores = [max(bots.play_game("greedy", seed=s, rules=("step-first",)).scores) for s in range(5)]
    assert figures["mean"] == pytest.approx(sum(scores) / 5, abs=1e-4)
    assert main(["playtest", "--game", "gemmatch", "--games", "1", "--rules", "step-first"]) == 2
    assert "--rules is not for --game gemmatch" in capsys.readouterr().err
