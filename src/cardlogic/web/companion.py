"""The one game a ``cardlogic serve`` page follows: its set-up, its :class:`TableGame`, a lock and a version.

Every answer is a plain dict ready for JSON (the API of docs/serve.md). Changes are serialised by one lock;
each carries the version the page last saw, so a stale tab's event is refused instead of applied on top of
a state its player never saw. The version is the server's run (random, so a restarted server refuses what a
page saw before it) and the number of changes in that run. What is particular to a game is its
:class:`~cardlogic.web.page.Page` (Literature's, Knektpass's).
"""

from __future__ import annotations

import secrets
import threading
from collections.abc import Callable, Mapping
from typing import Any

from cardlogic.inference import InferenceError
from cardlogic.table.core import TableGame
from cardlogic.table.knektpass import LiveMatch
from cardlogic.table.literature import LiveGame
from cardlogic.web.knektpass import KnektpassPage
from cardlogic.web.literature import LiteraturePage
from cardlogic.web.page import BadRequestError, Page

__all__ = ["STALE", "BadRequestError", "Companion", "StaleVersionError"]

PAGES: dict[str, type[Page[Any]]] = {"literature": LiteraturePage, "knektpass": KnektpassPage}
"""Each game the page follows, by its name in a set-up body."""
GAME_PAGES: tuple[tuple[type[TableGame[Any]], type[Page[Any]]], ...] = (
    (LiveGame, LiteraturePage),
    (LiveMatch, KnektpassPage),
)


class StaleVersionError(ValueError):
    """A change sent against a version of the game that is no longer the current one."""


STALE = (
    "the game changed since this page last looked (another tab, or a server restart): "
    "the page now shows the current game; enter the event again if it still applies"
)


class Companion:
    """The game behind the page: None until set up, then a :class:`TableGame` with its autosave.

    ``open_game`` builds the game of a record set up on the page (a Literature record or a Knektpass match
    record), its autosave claimed and written (``cardlogic serve`` passes its method, samples and seed, and the
    file rules of :mod:`cardlogic.table.autosave`); ``game`` starts the companion on a game already open (from a
    RECORD or an autosave).
    """

    def __init__(self, open_game: Callable[[Any], TableGame[Any]], game: TableGame[Any] | None = None) -> None:
        self.open_game = open_game
        self.page = None if game is None else _page_of(game)
        self.lock = threading.Lock()
        self.run = secrets.token_hex(4)
        self.changes = 0

    @property
    def game(self) -> TableGame[Any] | None:
        return None if self.page is None else self.page.game

    @property
    def version(self) -> str:
        return f"{self.run}.{self.changes}"

    # -- reading -----------------------------------------------------------------------------------------------------

    def state(self) -> dict[str, Any]:
        """Everything the page shows: the set-up choices before a game, else the table, my hand, the legal
        choices of whoever may move, the advice when I (or my team) am to move, and the log."""
        with self.lock:
            return self._state()

    def why(self, token: str) -> dict[str, Any]:
        """Where the card ``token`` can be, and every event that said so (the game's ``why``)."""
        with self.lock:
            page = self._playing()
            card = page.card(token)
            return {"card": str(card), "lines": page.game.why(card)}

    def claim_sheet(self, claimer: str, set_name: str) -> dict[str, Any]:
        """The claim sheet of ``claimer`` for the set ``set_name``: the best assignment and its P(correct)."""
        with self.lock:
            return self._playing().claim_sheet(claimer, set_name)

    # -- changing ----------------------------------------------------------------------------------------------------

    def check_setup(self, body: Mapping[str, Any]) -> dict[str, Any]:
        """Check a set-up of ``body["game"]`` (default Literature) as far as it goes and tell what follows.
        Raises :class:`BadRequestError`."""
        return {"game": _page_named(body).name, **_page_named(body).check_setup(body)}

    def start(self, body: Mapping[str, Any]) -> dict[str, Any]:
        """Start the game the set-up ``body`` describes, saved to the autosave file before this returns."""
        record = _page_named(body).setup_record(body)
        with self.lock:
            if self.page is not None:
                raise BadRequestError("a game is already being played: this page follows one game")
            self._check_version(body)
            try:
                self.page = _page_of(self.open_game(record))
            except (ValueError, InferenceError) as error:  # e.g. the autosave name is another session's
                raise BadRequestError(str(error)) from None
            return self._changed()

    def push(self, body: Mapping[str, Any]) -> dict[str, Any]:
        """Apply the event ``body["event"]`` (record notation), saved before this returns."""
        text = body.get("event")
        if not isinstance(text, str) or not text.strip():
            raise BadRequestError("the body needs the event as a line of record notation", "event")
        with self.lock:
            page = self._playing()
            self._check_version(body)
            try:
                page.game.push(page.parse(text))
            except (ValueError, InferenceError) as error:
                raise BadRequestError(str(error), "event") from None
            return self._changed()

    def undo(self, body: Mapping[str, Any]) -> dict[str, Any]:
        """Take back the last event, saved before this returns."""
        with self.lock:
            page = self._playing()
            self._check_version(body)
            try:
                page.game.undo()
            except IndexError as error:
                raise BadRequestError(str(error)) from None
            return self._changed()

    # -- inside the lock ---------------------------------------------------------------------------------------------

    def _changed(self) -> dict[str, Any]:
        self.changes += 1
        return self._state()

    def _check_version(self, body: Mapping[str, Any]) -> None:
        if body.get("version") != self.version:
            raise StaleVersionError(STALE)

    def _playing(self) -> Page[Any]:
        if self.page is None:
            raise BadRequestError("no game yet: set one up first")
        return self.page

    def _state(self) -> dict[str, Any]:
        if self.page is None:
            choices = {name: page.setup_choices() for name, page in PAGES.items()}
            return {"version": self.version, "phase": "setup", **choices["literature"], "games": choices}
        page = self.page
        game = page.game
        status = game.status()
        return {
            "version": self.version,
            "game": page.name,
            "phase": "over" if status.over else "play",
            "result": status.to_move() if status.over else None,  # who won, in the words live ends on
            **page.state(),
            "log": [
                {"line": line, "text": game.describe(event)} for line, event in zip(game.event_lines(), game.events)
            ],
            "advice": self._advice_now(page),
            "autosave": game.autosave,
        }

    @staticmethod
    def _advice_now(page: Page[Any]) -> dict[str, Any] | None:
        if not page.game.observer_decides():
            return None
        try:
            return page.advice()
        except (ValueError, InferenceError) as error:  # the game stands; only the advice is out of reach
            return {"error": str(error)}


def _page_named(body: Mapping[str, Any]) -> type[Page[Any]]:
    name = body.get("game") or "literature"
    if not isinstance(name, str) or name not in PAGES:
        raise BadRequestError(f"game must be one of {', '.join(PAGES)}", "game")
    return PAGES[name]


def _page_of(game: TableGame[Any]) -> Page[Any]:
    return next(page(game) for kind, page in GAME_PAGES if isinstance(game, kind))
