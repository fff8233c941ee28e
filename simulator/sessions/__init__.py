"""Lost Gems sessions: the referee, session scripts, bots and playtests (Python API).

from simulator.sessions import GameState, Move, play_game, run_games, score_stats
g = GameState(seed=3)                  # or GameState(deck=[...], start=1)
g.apply(Move.hint_colour(0))           # A hints B "red"; IllegalMove names a broken rule
g.legal_moves(); g.to_dict(); g.observation(1)
play_game(bot_class("conventions"), seed=7).score
score_stats(run_games("conventions", 1000, seed=0))["mean"]
run_script_text(open("examples/rules-basics.lg").read()).to_dict()
"""

from simulator.sessions.bots import BEST_BOT, BOTS, Bot, UnknownBot, bot_class, play_game
from simulator.sessions.moves import Move
from simulator.sessions.observation import Observation
from simulator.sessions.playtest import run_games, score_stats
from simulator.sessions.referee import Event, GameState, IllegalMove
from simulator.sessions.runner import RulesRunner, SessionResult, run_script_text
from simulator.sessions.script import ScriptError, parse_script
from simulator.sessions.shards import parse_shard, shard_name

__all__ = [
    "BEST_BOT",
    "BOTS",
    "Bot",
    "Event",
    "GameState",
    "IllegalMove",
    "Move",
    "Observation",
    "RulesRunner",
    "ScriptError",
    "SessionResult",
    "UnknownBot",
    "bot_class",
    "parse_script",
    "parse_shard",
    "play_game",
    "run_games",
    "run_script_text",
    "score_stats",
    "shard_name",
]
