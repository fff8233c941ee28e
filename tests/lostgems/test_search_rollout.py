"""The search bot's rollout engine (bots/rollout.py) plays the convention bot's game exactly."""

from simulator.games.lostgems.bots import play_game
from simulator.games.lostgems.bots.beliefs import opening_facts
from simulator.games.lostgems.bots.conventions import ConventionBot
from simulator.games.lostgems.bots.handsets import ALL_PAIRS_MASK, BIT_OF_HAND
from simulator.games.lostgems.bots.rollout import World, evaluate, play_out, step
from simulator.games.lostgems.moves import ALL_HINTS, Move
from simulator.games.lostgems.shards import parse_shard


def deck_of(text):
    """The shards of a space-separated draw order, such as a session's `deck` line."""
    return [parse_shard(name) for name in text.split(" ")]


def dealt_world(deck, start=0):
    """The World of a fresh deal: hands from the deck's first four shards, the rest to draw."""
    hands = (tuple(deck[0:2]), tuple(deck[2:4]))
    masks = (ALL_PAIRS_MASK, ALL_PAIRS_MASK)
    return World(start, hands, deck[4:], 3, 0, opening_facts(), masks, None)


def test_a_world_played_out_is_the_convention_bots_game():
    for seed in range(60):
        state = play_game(ConventionBot, seed=seed)
        world = dealt_world(state.deck)
        assert play_out(world) == state.score, seed
        assert list(world.facts.gems) == state.gems, seed
        assert world.errors == state.errors, seed
        assert sorted(world.facts.discards) == sorted(state.discards), seed


def test_a_step_follows_the_rules():
    deck = deck_of("R2 R1 Y1 B1 B3 R1 R1 Y1 Y1 Y2 Y2 Y3 B1 B1 B2 B2 R2 R3")
    world = dealt_world(deck)
    assert not step(world, Move.play(1))  # R2 on an empty red gem: an error
    assert world.errors == 1 and world.hands[0] == (parse_shard("R1"), parse_shard("B3"))
    assert world.current == 1 and world.facts.discards == (parse_shard("R2"),)
    assert not step(world, ALL_HINTS[0])  # B hints red: a token spent
    assert world.hints == 2 and world.current == 0
    assert not step(world, Move.play(1))  # R1 joins its gem
    assert world.facts.gems == (1, 0, 0) and len(world.jungle) == 12
    assert step(dealt_world(deck), Move.play(1)) is False


def test_a_second_error_ends_the_game_at_zero():
    deck = deck_of("R2 R3 Y2 B1 B3 R1 R1 Y1 Y1 Y2 Y3 B1 B1 B2 B2 R1 R2 Y1")
    world = dealt_world(deck)
    world.errors = 1
    assert evaluate(world, Move.play(1), BIT_OF_HAND[world.hands[1]]) == 0  # R2: over, at 0
    world = dealt_world(deck)
    world.errors = 1
    assert step(world, Move.play(1)) and world.score == 0
