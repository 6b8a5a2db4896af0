"""Knektpass (Knekt-Pass), the old Swedish trick-taking game with the four jacks as permanent top trumps.

Rules, events, positions and the record notation of one deal, and the match of
deals played until someone reaches 0 points; tracking, advice, bots and
tournaments live in the submodules. Their main names are reachable from here too,
imported on first use (they bring in numba): :class:`KnektpassBelief`,
:func:`advise` and :class:`Advice`.

>>> import random
>>> from cardlogic.knektpass import Deal, Game, State
>>> from cardlogic.cards import Card
>>> state = State.shuffled(Deal(Game(("Ann", "Bob", "Cat")), dealer=2, turned=Card.parse("9H")), random.Random(7))
>>> state.phase, state.to_move, state.deal.trump_suit
('trump', 2, 1)
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

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

if TYPE_CHECKING:
    from cardlogic.knektpass.advice import Advice, advise
    from cardlogic.knektpass.belief import KnektpassBelief

_ON_FIRST_USE = {  # these bring in numba and the inference core: imported when first asked for
    "Advice": "cardlogic.knektpass.advice",
    "advise": "cardlogic.knektpass.advice",
    "KnektpassBelief": "cardlogic.knektpass.belief",
}


def __getattr__(name: str) -> Any:
    if name in _ON_FIRST_USE:
        return getattr(importlib.import_module(_ON_FIRST_USE[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "HAND_SIZE",
    "PHASES",
    "Advice",
    "Bid",
    "Deal",
    "Event",
    "Exchange",
    "Game",
    "GameError",
    "IllegalEventError",
    "InvalidEventError",
    "KnektpassBelief",
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
    "advise",
    "format_event",
    "parse_event",
    "points_change",
    "power",
    "read_record",
    "scan_record",
    "seen_by",
    "write_record",
]
