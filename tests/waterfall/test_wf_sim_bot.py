"""`blinks sim --game waterfall --bot NAME`: a person (this test, through the panel's buttons)
plays A against a bot playing B on the 27 simulated tiles.

After A's turns the tiles are read back by area, independently of the game's own bookkeeping,
and compared with the referee: hands, score piles, discards, draw pile and waterfall.
"""

import json
import re

import bot_window
import pygame
from bot_window import TURN, button, click, frames, settle, shown_in
from games.waterfall import cards

from host_tools.cli import main as blinks
from simulator.games.waterfall import rules
from simulator.games.waterfall.bots import GreedyBot
from simulator.games.waterfall.rules import Observation
from simulator.games.waterfall.window import BROKEN, NEW_GAME, OVER


def app_args(**kw):
    return bot_window.app_args(**{"game": "waterfall", "bot": "greedy", **kw})


def press(app, game, move):
    """Press the buttons of `move` (an ADD: first its hand tile, then its place)."""
    if move.kind == rules.ADD:
        bot_window.press(app, game, ("slot", move.slot))
        assert game.slot == move.slot
    bot_window.press(app, game, move)


def play_as_person(app, game, turns=None, each_move=lambda: None):
    """A's moves through the buttons (a greedy player's choices) until the game ends or
    `turns` more turns were played; `each_move()` runs before each of A's moves."""
    me = GreedyBot(0, 11)
    state = game.state
    end = None if turns is None else state.turns + turns
    while game.phase == TURN and (end is None or state.turns < end):
        each_move()
        legal = state.legal_moves()
        move = me.act(state.observation(0))
        assert move in legal
        for other in legal:  # every legal move has an enabled button (ADD: the chosen tile's)
            if other.kind == rules.ADD and other.slot != game.slot:
                continue
            assert button(app, game, other)[1] or not game.fits(other), other
        moves = state.moves
        press(app, game, move)
        assert state.moves == moves + 1 and state.history[-1].move == move
        settle(app, game)


def assert_tiles_agree(app, state):
    shown = shown_in(app, "card")

    def names(ids):
        return sorted(cards.name(state.kinds[t]) for t in ids)

    for p, (seat, hand) in enumerate((("a", "revealed"), ("b", "card"))):  # A sees A's hand
        assert shown(f"hand_{seat}", hand) == names(state.hands[p])
        assert shown(f"score_{seat}", "card") == names(state.score_piles[p])
    assert shown("discard", "revealed") == names(state.discards)
    assert shown("draw", "card") == names(state.pile)
    assert shown("waterfall", "waterfall") == names(state.waterfall.values())


def texts_drawn(app):
    """Every text the window draws in a frame."""
    seen = []
    blit = app.text.blit

    def spy(surface, text, *args, **kw):
        seen.append(text)
        return blit(surface, text, *args, **kw)

    app.text.blit = spy
    try:
        app.render(pygame.Surface((app.width, app.height)))
    finally:
        app.text.blit = blit
    return seen


def test_a_person_plays_a_whole_game_against_the_bot_through_the_panel(make_app):
    app = make_app(seed=1, bot="greedy")
    game = app.controllers[0]
    seen = []
    bot = game.bots[1]
    act = bot.act
    bot.act = lambda obs: seen.append(type(obs)) or act(obs)
    settle(app, game)
    state = game.state
    assert game.phase == TURN and state.current == 0
    assert_tiles_agree(app, state)

    for rect, key, enabled in game.buttons:  # nothing to score or step yet: only PLAY
        assert enabled == (key in state.legal_moves()), key
    b_tile = game.table.tile_of[state.hands[1][0]]  # hands off the game's tiles
    where = app.world.position(b_tile)
    pos = tuple(round(v) for v in app.table.layout.to_pixel(*where[:2]))
    click(app, pos)
    assert app.world.position(b_tile) == where and not app.world.hal(b_tile).edges
    assert game.messages[-1][0] == "Bot game: the tiles move by the buttons."

    checked = []

    def check():
        assert game.table.problems(state) == []
        assert_tiles_agree(app, state)
        checked.append(state.moves)

    play_as_person(app, game, each_move=check)
    assert game.phase == OVER, game.messages
    assert state.over and state.ended in ("twenty", "deck", "turns")
    assert_tiles_agree(app, state)
    assert len(checked) > 20 and seen and all(kind is Observation for kind in seen)
    bots_moves = [ev for ev in state.history if ev.player == 1]
    assert len(bots_moves) > 20
    scores = f"A {state.score(0)}, B {state.score(1)}"
    assert game.messages[-1][0].startswith(f"Game over ({state.ended}): {scores}.")
    b_line = re.compile(rf"B: hand \d+, scored \d+, {state.score(1)} points$")
    assert any(b_line.search(text) for text in texts_drawn(app))  # shown once the game is over

    rect, _ = button(app, game, NEW_GAME)  # the tiles gather in the draw pile, dealt again
    click(app, rect.center)
    assert game.phase not in (OVER, BROKEN) and game.state is None
    settle(app, game)
    assert game.phase == TURN and game.seed == 2 and game.state.turns == 0
    assert_tiles_agree(app, game.state)


def test_the_person_sees_only_their_own_hand(make_app):
    app = make_app(seed=4, bot="greedy")
    game = app.controllers[0]
    said = []
    say = game.say
    game.say = lambda text, kind="info": said.append(text) or say(text, kind)
    settle(app, game)
    state = game.state
    play_as_person(app, game, turns=20)  # long enough for B to draw
    assert any(ev.player == 1 and ev.drew for ev in state.history), "B never drew"
    texts = " ".join(texts_drawn(app))
    assert "B: hand" in texts and "points hidden" in texts
    first = f"1 {cards.name(state.kinds[state.hands[0][0]])}"
    assert "Your hand: " + first in texts
    b_lines = [text for text in said if text.startswith("B: ")]
    assert any(re.search(r"draws \d tile\(s\)", text) for text in b_lines)
    assert not any(re.search(r"draws [A-Z]+-[RGB]\d", text) for text in b_lines)  # never named
    for t in game.table.tile_of.values():  # B's hand and both score piles show their backs
        if app.area_name(t) in ("hand_b", "score_a", "score_b"):
            assert app.world.inspect(t)["state"] == "card"


def test_the_game_is_saved_as_a_script_that_replays_it(make_app, tmp_path, capsys):
    folder = tmp_path / "games"
    app = make_app(seed=10, bot="random", scripts=str(folder))  # its waterfall fits the table
    game = app.controllers[0]
    settle(app, game)
    state = game.state
    play_as_person(app, game)
    assert game.phase == OVER, game.messages
    finished = folder / "you-random-seed10.wf"
    assert game.saved_scripts == [str(finished)]
    assert finished.read_text().startswith("# You (A) with random (B), game seed 10: A ")
    for mode in (["--rules-only"], []):  # the referee alone, then the simulated tiles
        assert blinks(["session", "run", str(finished), "--json", "-q", *mode]) == 0
        end = json.loads(capsys.readouterr().out)
        assert end["scores"] == {"A": state.score(0), "B": state.score(1)}
        assert (end["turns"], end["over"], end["ended"]) == (state.turns, True, state.ended)

    rect, _ = button(app, game, NEW_GAME)
    click(app, rect.center)
    settle(app, game)
    play_as_person(app, game, turns=3)
    app.close()  # the window closes mid-game
    unfinished = folder / "you-random-seed11.wf"
    assert game.saved_scripts == [str(finished), str(unfinished)]
    assert unfinished.read_text().endswith("expect over no\nexpect ended no\n")
    assert blinks(["session", "run", str(unfinished), "--rules-only", "-q"]) == 0
    app.close()
    assert len(list(folder.iterdir())) == 2  # saved once, however often the window closes


def test_tiles_that_disagree_with_the_referee_stop_the_game_with_a_message(make_app):
    app = make_app(seed=2, bot="greedy")
    game = app.controllers[0]
    settle(app, game)
    state = game.state
    stray = game.table.tile_of[state.hands[1][0]]
    app.ops.lift(stray)  # a tile of B's hand leaves the table behind the game's back
    press(app, game, rules.play(1))
    settle(app, game)
    assert game.phase == BROKEN
    text = game.messages[-1][0]
    assert text.startswith("The tiles disagree with the referee: ") and f"tile {stray}" in text
    frames(app, 2000)  # nothing more happens, nothing breaks
    app.render(pygame.Surface((app.width, app.height)))
    assert button(app, game, NEW_GAME)[1]


def test_a_recorded_bot_game_replays_to_the_same_tiles(make_app, tmp_path):
    path = str(tmp_path / "bot.jsonl")
    app = make_app(seed=5, bot="greedy", record=path)
    game = app.controllers[0]
    settle(app, game)
    play_as_person(app, game, turns=3)
    end = app.world.now
    leds = [app.world.leds(t) for t in app.world.tiles]
    app.close()
    again = make_app(replay=path, bot=None)
    again.advance(end - again.world.now)
    assert [again.world.leds(t) for t in again.world.tiles] == leds


def test_bot_options_are_checked(tmp_path, capsys):
    assert blinks(["sim", "--game", "waterfall", "--bot", "nobody"]) == 2
    assert capsys.readouterr().err == (
        "blinks sim: --bot: no Waterfall bot called 'nobody'; known bots: greedy, random\n"
    )
    assert blinks(["sim", "--game", "waterfall", "--bot", "greedy", "--tiles", "18"]) == 2
    assert capsys.readouterr().err == (
        "blinks sim: --bot plays Waterfall with its whole deck, 27 tiles, not --tiles 18\n"
    )
    replay = ["--replay", str(tmp_path / "x.jsonl")]
    assert blinks(["sim", "--game", "waterfall", "--bot", "greedy", *replay]) == 2
    assert "--replay" in capsys.readouterr().err
    (tmp_path / "taken").write_text("")
    scripts = ["--scripts", str(tmp_path / "taken")]
    assert blinks(["sim", "--game", "waterfall", "--bot", "greedy", *scripts]) == 2
    assert capsys.readouterr().err == f"blinks sim: --scripts {tmp_path / 'taken'}: not a folder\n"


def test_a_step_whose_pawn_did_not_come_is_clicked_again(make_app):
    """A pull can go astray on the tiles (seed 15 lost one with no IR loss): like a person, the
    game clicks the tile again once the pawn has clearly not come."""
    app = make_app(seed=2, bot="greedy")
    game = app.controllers[0]
    settle(app, game)
    state = game.state
    press(app, game, rules.play(1))
    settle(app, game)
    press(app, game, rules.fall())
    settle(app, game)
    clicks, lost = game.table.clicks, []

    def first_click_lost(t, n):
        if not lost:
            lost.append(t)
            yield 0
            return
        yield from clicks(t, n)

    game.table.clicks = first_click_lost
    press(app, game, rules.step("left"))
    settle(app, game)
    assert lost and game.phase != BROKEN, game.messages
    assert state.history[-1].move == rules.step("left") and state.history[-1].entered == (0, 0)
    assert game.table.problems(state) == []


def test_seed_15s_pull_comes_at_the_first_click(make_app, monkeypatch):
    """Seed 15 lost B's PULL at 26.7 s with no IR loss: tile 10 took it for a repeat of a
    datagram tile 9 had sent it from another face during the deal, acknowledged it and dropped
    it (runtime.faces). Every click must bring the pawn; the game stopped without a second."""
    from simulator.games.waterfall import tiles

    monkeypatch.setattr(tiles, "PAWN_TRIES", 1)
    app = make_app(seed=15, bot="greedy")
    game = app.controllers[0]
    settle(app, game)
    play_as_person(app, game, turns=9)
    assert app.world.now > 27000 and game.phase == TURN, game.messages[-1]
