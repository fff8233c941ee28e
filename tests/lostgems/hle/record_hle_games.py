"""Record games of DeepMind's Hanabi Learning Environment (HLE) as a reference for the referee.

Not part of the test run: HLE is a C++ extension that needs CMake to build, so its states are
recorded once into hle_games.json.gz, and test_referee_vs_hle.py replays the same decks and moves
on our referee. To record again:

    CMAKE_POLICY_VERSION_MINIMUM=3.5 pip install hanabi-learning-environment==0.0.4
    python tests/lostgems/hle/record_hle_games.py

HLE with 3 colours, 3 ranks, 2 players, hands of 2, 3 information and 2 life tokens is Lost
Gems, except that HLE only offers hints that point at a shard. HLE deals each card as a chance
event; the deck order is read back from what it dealt (cards never dealt follow in any order).
Its colours red, yellow, green stand for our red, yellow, blue (the same indices). Moves are
chosen at random from HLE's legal moves; in most games mostly sensibly (a playable shard is
played, else a discard or hint), so that games also end at 9 points and by an empty jungle.
The states are written in the terms of LOSTGEMS.md part 3 by this script alone (no import of
the referee), after every move the way HLE's environment steps: the move, then its draw.
"""

import gzip
import json
import pathlib
import random

from hanabi_learning_environment import pyhanabi

RANDOM_GAMES = 40  # moves at random: mostly short games that end by errors
CAREFUL_GAMES = 60  # moves mostly sensible: games that end at 9 or by an empty jungle
OUT = pathlib.Path(__file__).with_name("hle_games.json.gz")
COLOURS = "RYB"  # HLE's R, Y, G by index
COLOUR_WORDS = ("red", "yellow", "blue")
TYPES = pyhanabi.HanabiMoveType


def name(card):
    return COLOURS[card.color()] + str(card.rank() + 1)


def move_text(m):
    if m.type() == TYPES.PLAY:
        return f"play {m.card_index() + 1}"
    if m.type() == TYPES.DISCARD:
        return f"discard {m.card_index() + 1}"
    if m.type() == TYPES.REVEAL_COLOR:
        return f"hint colour {COLOUR_WORDS[m.color()]}"
    return f"hint value {m.rank() + 1}"


def knowledge_text(k):
    """`RY/12`: the colours and values HLE still thinks possible for one slot."""
    colours = "".join(COLOURS[c] for c in range(3) if k.color_plausible(c))
    values = "".join(str(r + 1) for r in range(3) if k.rank_plausible(r))
    return colours + "/" + values


def snapshot(state, turns):
    hands = state.player_hands()
    over = state.is_terminal()
    views = [state.observation(p) for p in (0, 1)]  # alive while their knowledge is read
    knowledge = [[knowledge_text(k) for k in view.card_knowledge()[0]] for view in views]
    return {
        "score": state.score(),
        "hints": state.information_tokens(),
        "errors": 2 - state.life_tokens(),
        "over": over,
        "turns": turns,
        "jungle": state.deck_size(),
        "gems": dict(zip(COLOURS, state.fireworks())),
        "discards": [name(c) for c in state.discard_pile()],
        "hands": {"A": [name(c) for c in hands[0]], "B": [name(c) for c in hands[1]]},
        "current": None if over else "AB"[state.cur_player()],
        "knowledge": {"A": knowledge[0], "B": knowledge[1]},
        "legal": [] if over else sorted(move_text(m) for m in state.legal_moves()),
    }


def sensible(state, legal, rng):
    hand = state.player_hands()[state.cur_player()]
    for m in legal:
        if m.type() == TYPES.PLAY:
            card = hand[m.card_index()]
            if state.card_playable_on_fireworks(card.color(), card.rank()):
                return m
    discards = [m for m in legal if m.type() == TYPES.DISCARD]
    hints = [m for m in legal if m.type() in (TYPES.REVEAL_COLOR, TYPES.REVEAL_RANK)]
    return rng.choice(discards or hints or legal)


def record(seed, rng, careful):
    game = pyhanabi.HanabiGame(
        {
            "players": 2,
            "colors": 3,
            "ranks": 3,
            "hand_size": 2,
            "max_information_tokens": 3,
            "max_life_tokens": 2,
            "seed": seed,
            "random_start_player": False,
        }
    )
    state = game.new_initial_state()
    dealt = []

    def deal():
        while state.cur_player() == pyhanabi.CHANCE_PLAYER_ID:
            sizes = [len(h) for h in state.player_hands()]
            state.deal_random_card()
            for p, hand in enumerate(state.player_hands()):
                if len(hand) > sizes[p]:
                    dealt.append(name(hand[-1]))

    deal()
    states = [snapshot(state, 0)]
    moves = []
    while not state.is_terminal():
        legal = state.legal_moves()
        m = sensible(state, legal, rng) if careful and rng.random() < 0.95 else rng.choice(legal)
        moves.append(move_text(m))
        state.apply_move(m)
        deal()
        states.append(snapshot(state, len(moves)))
    rest = [c + str(v) for c in COLOURS for v, n in ((1, 3), (2, 2), (3, 1)) for _ in range(n)]
    for s in dealt:
        rest.remove(s)
    return {"seed": seed, "deck": dealt + rest, "moves": moves, "states": states}


def main():
    rng = random.Random(2026)
    games = [record(seed, rng, careful=False) for seed in range(RANDOM_GAMES)]
    games += [record(RANDOM_GAMES + i, rng, careful=True) for i in range(CAREFUL_GAMES)]
    text = json.dumps({"engine": "hanabi-learning-environment 0.0.4", "games": games})
    OUT.write_bytes(gzip.compress(text.encode(), mtime=0))
    ends = [g["states"][-1] for g in games]
    print(
        f"{len(games)} games, {sum(len(g['moves']) for g in games)} moves -> {OUT.name}; "
        f"ended at 9: {sum(e['score'] == 9 for e in ends)}, "
        f"by errors: {sum(e['errors'] == 2 for e in ends)}, "
        f"by the jungle: {sum(e['jungle'] == 0 and e['errors'] < 2 and e['score'] < 9 for e in ends)}"
    )


if __name__ == "__main__":
    main()
