"""Literature (Fish): decks, rules, events, positions, random self-play and the game record notation.

The package also holds, in modules of their own (imported on demand, as they
bring in the inference core): :mod:`~cardlogic.literature.tracking` (events as
constraints on the deal), :mod:`~cardlogic.literature.belief`,
:mod:`~cardlogic.literature.advice`, :mod:`~cardlogic.literature.counting`,
:mod:`~cardlogic.literature.bots`, :mod:`~cardlogic.literature.tournament` and
:mod:`~cardlogic.literature.peer`. Their main names are reachable from here too,
imported on first use: :class:`LiteratureBelief`, :func:`advise`,
:func:`advise_record` and :class:`Advice`.

>>> from cardlogic.literature import Game, State
>>> import random
>>> state = State.shuffled(Game(("Ann", "Bob", "Cat", "Dan"), dealer=3), random.Random(7))
>>> state.to_move
3
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

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

if TYPE_CHECKING:
    from cardlogic.literature.advice import Advice, advise, advise_record
    from cardlogic.literature.belief import LiteratureBelief

_ON_FIRST_USE = {  # these bring in numba and the inference core: imported when first asked for
    "Advice": "cardlogic.literature.advice",
    "advise": "cardlogic.literature.advice",
    "advise_record": "cardlogic.literature.advice",
    "LiteratureBelief": "cardlogic.literature.belief",
}


def __getattr__(name: str) -> Any:
    if name in _ON_FIRST_USE:
        return getattr(importlib.import_module(_ON_FIRST_USE[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "OUTCOMES",
    "Advice",
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
    "LiteratureBelief",
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
    "advise",
    "advise_record",
    "claim_outcome",
    "dealt_sizes",
    "format_event",
    "parse_event",
    "play_random_game",
    "read_record",
    "scan_record",
    "write_record",
]
