"""`blinks sim --bot`: a person (this test, through the panel's buttons) plays A against a bot.

After every turn the tiles are read back by area, independently of the game's own bookkeeping,
and compared with the referee: hands (slot order left to right), board, discards, jungle.
"""

import json
import os
import pathlib

import pygame
from sim_hands import Hands, lone_cell

from host_tools.cli import main as blinks
from simulator.games.lostgems.moves import ALL_HINTS, DISCARDS, PLAYS
from simulator.games.lostgems.observation import Observation
from simulator.games.lostgems.shards import parse_shard, shard_name
from simulator.games.lostgems.window import BROKEN, NEW_GAME, OVER, PERSON, rating
from simulator.sessions.script import save_new_script


def wait_for(app, hands, ready, timeout_ms=60000):
    end = app.world.now + timeout_ms
    while not ready():
        assert app.world.now < end, f"timed out; game phase {app.controllers[0].phase}"
        hands.frames(100)


def press_button(app, hands, game, move):
    """Render the panel (that is where buttons come from) and click the button of `move`."""
    app.render(pygame.Surface((app.width, app.height)))
    rect = next(rect for rect, m, _ in game.buttons if m == move)
    hands.down(rect.center)
    hands.up(rect.center)


def play_as_peeking_person(app, hands, game, each_turn=lambda: None, turns=None):
    """Play A's turns until the game ends (or `turns` more were played) as a person who peeks
    (reads the referee): play a playable shard, else hint round-robin, else discard slot 1.
    Such hints follow no code words. `each_turn()` is called before each of A's moves."""
    state = game.state
    end = None if turns is None else state.turns + turns
    while game.phase == PERSON and (end is None or state.turns < end):
        each_turn()
        playable = [i for i, s in enumerate(state.hands[0]) if state.gems[s // 3] + 1 == s % 3 + 1]
        if playable:
            move = PLAYS[playable[0]]
        elif state.hints:
            move = ALL_HINTS[state.turns % 6]
        else:
            move = DISCARDS[0]
        press_button(app, hands, game, move)
        wait_for(app, hands, lambda: game.phase in (PERSON, OVER, BROKEN))


def tiles_by_area(app):
    out = {}
    for tid in app.world.tiles:
        pos = app.world.position(tid)
        x = app.table.layout.to_pixel(pos[0], pos[1])[0]
        out.setdefault(app.area_name(tid), []).append((x, tid))
    return {area: [tid for _, tid in sorted(found)] for area, found in out.items()}


def assert_tiles_agree(app, state):
    areas = tiles_by_area(app)
    info = {tid: app.world.inspect(tid) for tid in app.world.tiles}
    for area, player in (("hand_a", 0), ("hand_b", 1)):
        tiles = areas.get(area, [])
        assert [info[t]["state"] for t in tiles] == ["revealed"] * len(tiles)
        assert [parse_shard(info[t]["shard"]) for t in tiles] == state.hands[player]
    board = areas.get("board", [])
    assert all(info[t]["state"] == "played" for t in board) and len(board) == sum(state.gems)
    discards = areas.get("discard", [])
    assert all(info[t]["state"] == "discarded" for t in discards)
    assert sorted(parse_shard(info[t]["shard"]) for t in discards) == sorted(state.discards)
    jungle = areas.get("jungle", [])
    assert all(info[t]["state"] == "face down" for t in jungle) and len(jungle) == state.jungle


def test_a_person_plays_a_against_the_bot_through_the_panel(make_app):
    app = make_app(seed=3, bot="conventions")
    hands = Hands(app)
    game = app.controllers[0]
    seen = []
    act = game.bot.act
    game.bot.act = lambda obs: seen.append(type(obs)) or act(obs)
    assert app.view_as == "A"
    hands.event(pygame.KEYDOWN, key=pygame.K_v, mod=0)
    assert app.view_as == "A"  # the person may not look at their own shards

    wait_for(app, hands, lambda: game.phase == PERSON)
    state = game.state
    assert_tiles_agree(app, state)
    a_tiles = list(game.table.hands[0])
    assert all(app.hidden(t) for t in a_tiles) and not any(
        app.hidden(t) for t in game.table.hands[1]
    )

    press_button(app, hands, game, DISCARDS[0])  # all 3 hints available: no discard
    assert state.turns == 0 and game.phase == PERSON

    b_tile = game.table.hands[1][0]  # the person's hands off the game's tiles: no press, no carry
    where = app.world.position(b_tile)
    hands.down(hands.at(b_tile))
    assert app.gestures.pressed is None and not app.world.hal(b_tile).edges
    hands.up(hands.at(b_tile))
    hands.drag(hands.at(b_tile), hands.cell(*lone_cell(app, "discard")))
    assert app.world.position(b_tile) == where
    assert game.messages[-1][0].startswith("Bot game: the tiles move by the buttons")
    assert_tiles_agree(app, state)

    for move in (ALL_HINTS[0], PLAYS[0], ALL_HINTS[4], DISCARDS[1], PLAYS[1]):
        if game.phase == OVER:
            break
        if not game.legal(move):
            move = PLAYS[0]
        turns = state.turns
        press_button(app, hands, game, move)
        assert state.turns == turns + 1 and state.history[-1].move == move
        wait_for(app, hands, lambda: game.phase in (PERSON, OVER, BROKEN))
        assert game.phase != BROKEN, game.messages
        assert_tiles_agree(app, state)
        if game.table.board:  # a triple-click on the board counts the score: allowed
            hands.clicks(game.table.board[0], 3)
            assert app.world.inspect(game.table.board[0])["state"] == "played"
        if state.turns >= turns + 2:
            assert any(text.startswith("B") for text, _ in game.messages)
    assert state.turns >= 8
    assert seen and all(kind is Observation for kind in seen)
    app.render(pygame.Surface((app.width, app.height)))


def test_a_whole_game_ends_with_the_score_and_its_rating(make_app):
    """A person who peeks (this test reads the referee) plays a full game to its last round.
    Their hints follow no code words, and the convention bot says when it notices."""
    app = make_app(seed=3, bot="conventions")
    hands = Hands(app)
    game = app.controllers[0]
    wait_for(app, hands, lambda: game.phase == PERSON)
    state = game.state
    told = []
    play_as_peeking_person(
        app,
        hands,
        game,
        lambda: told.extend(
            text for text, _ in game.messages if "my code words" in text and text not in told
        ),
    )
    assert game.phase == OVER, game.messages
    assert state.over and state.jungle == 0 and state.score > 0
    assert told == [
        (
            "B: You don't use my code words, so from now on my hints mean just what they "
            "say, and I read yours so."
        )
    ]
    assert game.bot.plain is not None
    assert_tiles_agree(app, state)
    assert game.messages[-1][0] == f"Game over: score {state.score}, {rating(state.score)}."
    assert app.view_as is None and not any(
        app.hidden(t) for t in app.world.tiles
    )  # A sees their shards

    press_button(app, hands, game, NEW_GAME)  # the tiles gather in the jungle and are dealt again
    assert game.phase != OVER and game.state is None and app.view_as == "A"
    wait_for(app, hands, lambda: game.phase == PERSON)
    assert game.seed == 4 and game.state.turns == 0
    assert_tiles_agree(app, game.state)


def test_a_recorded_bot_game_replays_to_the_same_tiles(make_app, tmp_path):
    path = str(tmp_path / "bot.jsonl")
    app = make_app(seed=2, bot="cautious", record=path)
    hands = Hands(app)
    game = app.controllers[0]
    wait_for(app, hands, lambda: game.phase == PERSON)
    press_button(app, hands, game, PLAYS[1])
    wait_for(app, hands, lambda: game.phase in (PERSON, OVER))
    end = app.world.now
    leds = [app.world.leds(t) for t in app.world.tiles]
    app.close()
    again = make_app(replay=path)
    again.advance(end - again.world.now)
    assert [again.world.leds(t) for t in again.world.tiles] == leds


def test_each_game_against_the_bot_is_saved_as_a_script_that_replays_it(make_app, tmp_path, capsys):
    """--scripts DIR: a finished game is saved when it ends, an unfinished one when the window
    closes; each replays to the same end on the referee, and the finished one on the tiles."""
    folder = tmp_path / "games"
    app = make_app(seed=5, bot="cautious", scripts=str(folder))
    hands = Hands(app)
    game = app.controllers[0]
    wait_for(app, hands, lambda: game.phase == PERSON)
    state = game.state
    play_as_peeking_person(app, hands, game)
    assert game.phase == OVER, game.messages
    finished = folder / "you-cautious-seed5.lg"
    assert game.saved_scripts == [str(finished)]
    assert game.messages[-1][0] == f"Saved as {finished}; replay it with blinks session run."
    assert finished.read_text().startswith(
        f"# You (A) with cautious (B), game seed 5: score {state.score}, {rating(state.score)}\n"
    )
    for mode in (["--rules-only"], []):  # the referee alone, then the simulated tiles
        assert blinks(["session", "run", str(finished), "--json", "-q", *mode]) == 0
        end = json.loads(capsys.readouterr().out)
        assert (end["score"], end["turns"], end["over"]) == (state.score, state.turns, True)
        assert end["discards"] == [shard_name(s) for s in state.discards]
        assert end["hands"] == {
            p: [shard_name(s) for s in state.hands[i]] for i, p in enumerate("AB")
        }

    press_button(app, hands, game, NEW_GAME)
    wait_for(app, hands, lambda: game.phase == PERSON)
    state = game.state
    play_as_peeking_person(app, hands, game, turns=3)
    app.close()  # the window closes mid-game
    unfinished = folder / "you-cautious-seed6.lg"
    assert game.saved_scripts == [str(finished), str(unfinished)] and not state.over
    text = unfinished.read_text()
    assert text.startswith(
        f"# You (A) with cautious (B), game seed 6: left unfinished after {state.turns} turns\n"
    )
    assert text.endswith("expect over no\n")
    assert blinks(["session", "run", str(unfinished), "--rules-only", "-q"]) == 0
    app.close()
    assert len(list(folder.iterdir())) == 2  # saved once, however often the window closes


def test_a_game_closed_before_any_move_is_saved_as_dealt_or_said_not_to_be(
    make_app, tmp_path, capsys
):
    """docs/simulator.md keeps a game "when you close the window before the end": one closed right
    after the deal is saved as dealt (its deck, no move), which replays; one closed before the
    deal is done cannot be, and the terminal is told why."""
    folder = tmp_path / "games"
    app = make_app(seed=5, bot="cautious", scripts=str(folder))
    hands = Hands(app)
    game = app.controllers[0]
    wait_for(app, hands, lambda: game.phase == PERSON)
    app.close()
    dealt = folder / "you-cautious-seed5.lg"
    assert game.saved_scripts == [str(dealt)]
    text = dealt.read_text()
    assert text.startswith("# You (A) with cautious (B), game seed 5: left unfinished after 0")
    assert "\ndeck " in text and "\nA " not in text and "\nB " not in text
    assert blinks(["session", "run", str(dealt), "--rules-only", "-q"]) == 0
    capsys.readouterr()

    early = make_app(seed=7, bot="cautious", scripts=str(folder))
    bot = early.controllers[0]
    early.advance(1000)  # the bot is still holding a tile to deal
    early.close()
    assert bot.saved_scripts == [] and bot.unsaved == []
    assert bot.notes == [
        f"nothing saved in {folder} for game seed 7: the window closed before the deal was done"
    ]


def test_a_game_that_cannot_be_saved_is_said_to_be_lost(make_app, tmp_path):
    folder = tmp_path / "games"
    app = make_app(seed=5, bot="cautious", scripts=str(folder))
    hands = Hands(app)
    game = app.controllers[0]
    wait_for(app, hands, lambda: game.phase == PERSON)
    play_as_peeking_person(app, hands, game, turns=2)
    folder.rmdir()  # gone before the window closes
    app.close()
    assert game.saved_scripts == []
    missing = f"[Errno 2] No such file or directory: '{folder / 'you-cautious-seed5.lg'}'"
    assert game.unsaved == [f"could not save game seed 5 in {folder}: {missing}"]
    assert game.messages[-1][0].startswith("Could not save the game as a script: [Errno 2]")


def test_a_saved_game_never_overwrites_an_earlier_one(tmp_path):
    paths = [
        save_new_script(f"# game {i}\n", str(tmp_path), "you-cautious-seed5", ".lg")
        for i in range(3)
    ]
    assert [os.path.basename(p) for p in paths] == [
        "you-cautious-seed5.lg",
        "you-cautious-seed5-2.lg",
        "you-cautious-seed5-3.lg",
    ]
    assert [pathlib.Path(p).read_text() for p in paths] == [
        "# game 0\n",
        "# game 1\n",
        "# game 2\n",
    ]


def test_ratings_follow_the_rules():
    assert [rating(s) for s in (0, 3, 4, 5, 6, 8, 9)] == [
        "the tribes are let down",
        "the tribes are let down",
        "a mediocre explorer",
        "a mediocre explorer",
        "nicely done",
        "nicely done",
        "praised by the tribe",
    ]


def test_bot_options_are_checked(tmp_path, capsys):
    assert blinks(["sim", "--bot", "nobody"]) == 2
    assert "known bots" in capsys.readouterr().err
    assert blinks(["sim", "--bot", "cautious", "--tiles", "12"]) == 2
    assert "18 tiles" in capsys.readouterr().err
    assert blinks(["sim", "--bot", "cautious", "--replay", str(tmp_path / "x.jsonl")]) == 2
    assert "--replay" in capsys.readouterr().err
    assert blinks(["sim", "--bot", "cautious", "--game", "demo"]) == 2
    capsys.readouterr()
    assert blinks(["sim", "--scripts", str(tmp_path)]) == 2
    assert "use it with --bot NAME" in capsys.readouterr().err
    (tmp_path / "taken").write_text("")
    assert blinks(["sim", "--bot", "cautious", "--scripts", str(tmp_path / "taken")]) == 2
    assert capsys.readouterr().err == f"blinks sim: --scripts {tmp_path / 'taken'}: not a folder\n"
    for name in (":", ".mybots:Greedy"):  # names importlib refuses with ValueError/TypeError
        assert blinks(["sim", "--bot", name]) == 2
        assert capsys.readouterr().err.startswith(f"blinks sim: --bot: {name}: name the module")


def test_a_hinted_tile_loses_its_hint_word_when_it_leaves_the_hand(make_app):
    """B's hint writes its word ("red!") on the tiles it pointed at in A's hand; a tile played
    at once carries no hint word onto the gem board."""
    app = make_app(seed=1, bot="conventions")
    hands = Hands(app)
    game = app.controllers[0]
    wait_for(app, hands, lambda: game.phase == PERSON)
    state = game.state
    while not (state.history and state.history[-1].player == 1 and state.history[-1].touched):
        assert game.phase == PERSON and state.turns < 12, "B never pointed at A's shards"
        move = ALL_HINTS[state.turns % 6] if state.hints else DISCARDS[0]
        press_button(app, hands, game, move)
        wait_for(app, hands, lambda: game.phase in (PERSON, OVER))
    slot = state.history[-1].touched[0]
    tile = game.table.hands[0][slot - 1]
    word = game.marks(tile)[-1]
    assert word.endswith("!")  # pointed at, in A's hand
    press_button(app, hands, game, PLAYS[slot - 1])
    wait_for(app, hands, lambda: tile in game.table.board or tile in game.table.discards)
    assert app.world.now < game.pointed[2]  # the mark would still be shown
    assert word not in game.marks(tile)


def test_a_bot_move_the_rules_refuse_stops_the_game_with_a_message(make_app):
    """A bot of your own that breaks a rule stops the game (New game deals again); the window
    does not crash."""
    app = make_app(seed=2, bot="cautious")
    hands = Hands(app)
    game = app.controllers[0]
    game.bot.act = lambda obs: DISCARDS[0]  # with every hint token available: not allowed
    wait_for(app, hands, lambda: game.phase == PERSON)
    press_button(app, hands, game, PLAYS[0])
    wait_for(app, hands, lambda: game.phase in (PERSON, OVER, BROKEN))
    assert game.phase == BROKEN and game.state.turns == 1
    assert game.messages[-1][0].startswith("The bot's move discard 1 is not allowed: a discard")
    hands.frames(2000)  # nothing more happens, nothing breaks
    app.render(pygame.Surface((app.width, app.height)))
    press_button(app, hands, game, NEW_GAME)
    wait_for(app, hands, lambda: game.phase == PERSON)


def test_both_hands_slots_line_up_in_the_centre_columns_at_every_window_size(make_app):
    for window in ("1100x700", "1280x800", "1500x900", "1920x1080"):
        app = make_app(seed=1, bot="conventions", window=window)
        table, to_pixel = app.controllers[0].table, app.table.layout.to_pixel
        for slot in (1, 2):
            a, b = table.slot_cell(0, slot), table.slot_cell(1, slot)
            assert to_pixel(*a)[0] == to_pixel(*b)[0], (window, slot)  # same column
            assert app.table.area_of_cell(*a).name == "hand_a"
            assert app.table.area_of_cell(*b).name == "hand_b"
        x, _, w, _ = app.table.area("hand_a").rect
        left, right = (to_pixel(*table.slot_cell(0, s))[0] for s in (1, 2))
        assert abs((left + right) / 2 - (x + w / 2)) < app.table.layout.size, window  # centred
