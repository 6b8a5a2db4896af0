"""Knektpass (Knekt-Pass), the old Swedish trick-taking game with the four jacks as permanent top trumps.

Rules, events, positions and the record notation of one deal, and the match of
deals played until someone reaches 0 points; tracking, advice, bots and
tournaments live in the submodules.

>>> import random
>>> from cardlogic.knektpass import Deal, Game, State
>>> from cardlogic.cards import Card
>>> state = State.deal(Deal(Game(("Ann", "Bob", "Cat")), dealer=2, turned=Card.parse("9H")), random.Random(7))
>>> state.phase, state.to_move, state.deal.trump_suit
('trump', 2, 1)
"""

from cardlogic.knektpass.events import Bid, Event, Exchange, Play, TakeTrump, seen_by
from cardlogic.knektpass.match import Match
from cardlogic.knektpass.record import (
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
from cardlogic.knektpass.rules import HAND_SIZE, Deal, Game, GameError, Rules, power
from cardlogic.knektpass.state import PHASES, IllegalEventError, Outcome, PlayerState, PublicState, State, points_change

__all__ = [
    "HAND_SIZE",
    "PHASES",
    "Bid",
    "Deal",
    "Event",
    "Exchange",
    "Game",
    "GameError",
    "IllegalEventError",
    "InvalidEventError",
    "Match",
    "Outcome",
    "Play",
    "PlayerState",
    "Problem",
    "PublicState",
    "Record",
    "RecordError",
    "Rules",
    "State",
    "TakeTrump",
    "format_event",
    "parse_event",
    "points_change",
    "power",
    "read_record",
    "scan_record",
    "seen_by",
    "write_record",
]
