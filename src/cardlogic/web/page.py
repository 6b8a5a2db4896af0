"""What the page of ``cardlogic serve`` shows of one game, one subclass per game over its :class:`TableGame`.

The companion (:mod:`cardlogic.web.companion`) keeps what every game shares: the lock, the version, pushing an
event, undo, the log and the autosave. A :class:`Page` adds what is particular to its game: how a set-up body is
checked and read, the table's own part of the state (with the choices that may be entered now), the advice as
JSON, and how the page names an event or a card.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, Generic, TypeVar

from cardlogic.cards import Card
from cardlogic.inference import InferenceError
from cardlogic.table.core import TableGame

G = TypeVar("G", bound=TableGame)


class BadRequestError(ValueError):
    """A request the game refuses: ``field`` names the part of the body at fault (or is empty)."""

    def __init__(self, message: str, field: str = "") -> None:
        super().__init__(message)
        self.field = field


def seat(name: object, player_index: Callable[[str], int], field: str) -> int:
    """The seat of the player ``name`` by the game's ``player_index``; :class:`BadRequestError` at ``field``."""
    if not isinstance(name, str):
        raise BadRequestError(f"{field} must be a player's name", field)
    try:
        return player_index(name)
    except ValueError as error:
        raise BadRequestError(str(error), field) from None


def heat(holders: Sequence[str], chances: Callable[[], Mapping[Card, Sequence[float]]]) -> dict[str, Any]:
    """The heat map as the page draws it, one for every game: its columns (``holders``, by name) and for each
    card of ``chances()`` its row, P(each holder has it) to four places; no rows but the ``error`` when the
    inference method cannot tell."""
    try:
        rows = chances()
    except InferenceError as error:  # the game stands; only the map is out of reach
        return {"holders": list(holders), "cards": [], "error": str(error)}
    return {
        "holders": list(holders),
        "cards": [{"card": str(card), "p": [round(p, 4) for p in row]} for card, row in rows.items()],
    }


class Page(ABC, Generic[G]):
    """The page's view of ``game``: its state beyond what every game shares, its advice, its notation."""

    name: ClassVar[str]
    """The game's name in the API: ``literature`` or ``knektpass``."""

    def __init__(self, game: G) -> None:
        self.game = game

    @staticmethod
    @abstractmethod
    def setup_choices() -> dict[str, Any]:
        """What a set-up of this game may choose from (decks, house rules), before anything is entered."""

    @staticmethod
    @abstractmethod
    def check_setup(body: Mapping[str, Any]) -> dict[str, Any]:
        """What follows from a set-up as far as it goes; :class:`BadRequestError` naming the field at fault."""

    @staticmethod
    @abstractmethod
    def setup_record(body: Mapping[str, Any]) -> object:
        """The record (set-up, no events) a whole set-up body describes; :class:`BadRequestError` if it is not."""

    @abstractmethod
    def parse(self, text: str) -> object:
        """The event a line of record notation names; ValueError if none."""

    @abstractmethod
    def card(self, token: object) -> Card:
        """The card ``token`` names, in play in this game; :class:`BadRequestError` if none."""

    @abstractmethod
    def state(self) -> dict[str, Any]:
        """The table as the page shows it, beyond the version, log, advice and autosave."""

    @abstractmethod
    def advice(self) -> dict[str, Any]:
        """The observer's advice now as JSON, that of the game's ``advise --json`` on the autosave."""

    def claim_sheet(self, claimer: object, set_name: str) -> dict[str, Any]:
        """The claim sheet of ``claimer`` for a set: only a game with claims has one."""
        raise BadRequestError(f"there are no claims in {self.name.capitalize()}")
