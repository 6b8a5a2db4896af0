"""Literature (Fish): rules, events, positions, random self-play and the game record notation.

>>> from cardlogic.literature import Game, State
>>> import random
>>> state = State.deal(Game(("Ann", "Bob", "Cat", "Dan"), dealer=3), random.Random(7))
>>> state.to_move
3
"""

from cardlogic.literature.events import OUTCOMES, Ask, Claim, Event, Pass, actor
from cardlogic.literature.record import (InvalidEventError, Problem, Record, RecordError, format_event, parse_event,
                                         read_record, scan_record, write_record)
from cardlogic.literature.rules import Game, GameError, Rules, dealt_sizes
from cardlogic.literature.selfplay import RandomBot, play_random_game
from cardlogic.literature.state import IllegalEventError, PlayerState, PublicState, Result, State, claim_outcome

__all__ = [
    "OUTCOMES", "Ask", "Claim", "Event", "Game", "GameError", "IllegalEventError", "InvalidEventError", "Pass",
    "PlayerState", "Problem", "PublicState", "RandomBot", "Record", "RecordError", "Result", "Rules", "State",
    "actor", "claim_outcome", "dealt_sizes", "format_event", "parse_event", "play_random_game", "read_record",
    "scan_record", "write_record",
]
