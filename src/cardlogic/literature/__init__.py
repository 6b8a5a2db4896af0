"""Literature (Fish): decks, rules, events, positions, random self-play and the game record notation.

The package also holds, in modules of their own (imported on demand, as they
bring in the inference core): :mod:`~cardlogic.literature.tracking` (events as
constraints on the deal), :mod:`~cardlogic.literature.belief`,
:mod:`~cardlogic.literature.advice`, :mod:`~cardlogic.literature.counting`,
:mod:`~cardlogic.literature.bots`, :mod:`~cardlogic.literature.tournament` and
:mod:`~cardlogic.literature.peer`.

>>> from cardlogic.literature import Game, State
>>> import random
>>> state = State.deal(Game(("Ann", "Bob", "Cat", "Dan"), dealer=3), random.Random(7))
>>> state.to_move
3
"""

from cardlogic.literature.decks import CardSet, Deck, DeckError
from cardlogic.literature.events import OUTCOMES, Ask, Claim, Event, Pass, actor
from cardlogic.literature.record import (
    InvalidEventError,
    Problem,
    Record,
    RecordError,
    format_event,
    parse_event,
    read_record,
    scan_record,
    write_record,
)
from cardlogic.literature.rules import Game, GameError, Rules, dealt_sizes
from cardlogic.literature.selfplay import PeekingRandomBot, play_random_game
from cardlogic.literature.state import IllegalEventError, PlayerState, PublicState, Result, State, claim_outcome

__all__ = [
    "OUTCOMES",
    "Ask",
    "CardSet",
    "Claim",
    "Deck",
    "DeckError",
    "Event",
    "Game",
    "GameError",
    "IllegalEventError",
    "InvalidEventError",
    "Pass",
    "PeekingRandomBot",
    "PlayerState",
    "Problem",
    "PublicState",
    "Record",
    "RecordError",
    "Result",
    "Rules",
    "State",
    "actor",
    "claim_outcome",
    "dealt_sizes",
    "format_event",
    "parse_event",
    "play_random_game",
    "read_record",
    "scan_record",
    "write_record",
]
