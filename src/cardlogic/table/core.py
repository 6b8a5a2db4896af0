"""The game-agnostic part of a game at the table: push a typed line or an event, undo, autosave, status, log.

:class:`TableGame` holds what every game followed at the table shares; a game's
module (:mod:`cardlogic.table.literature`) supplies its events, notation,
belief and advice through the few abstract methods.
"""

from __future__ import annotations

import gc
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from cardlogic.cards import Card
from cardlogic.files import RecordText, replace_text, write_owned

E = TypeVar("E")


DROPS = "empty drops it"
"""How every question on a typed line ends: an empty answer records nothing."""


class Incomplete(ValueError):
    """A typed line that names an event once one more answer is given (a claim's outcome, say).

    ``question`` asks for the answer; ``complete(answer)`` returns the event (and
    raises ValueError, or Incomplete again, for a bad answer).
    """

    def __init__(self, question: str, complete: Callable[[str], object]) -> None:
        super().__init__(question)
        self.question = question
        self.complete = complete


@dataclass(frozen=True)
class Update(Generic[E]):
    """What one accepted event brought: the event as recorded, its autosave line, and what became certain.

    ``certain`` says, as a player would, each holding the observer learnt from the
    event that was not already public (``Bob holds 5S``).
    """

    event: E
    line: int
    certain: tuple[str, ...] = ()


@dataclass(frozen=True)
class Status:
    """Whose turn, the score and the hand counts, as a player at the table asks for them.

    ``teams`` lists each side's players (a game without partners has one a side);
    ``scores[i]`` is side ``i``'s score and ``sizes[p]`` player ``p``'s hand count.
    ``movers`` are the players who may act now (several before a game's first
    event when anyone may start, none once it is over or while the table sets up what comes next).
    ``stage`` says where the game stands when that is more than whose turn it is (``deal 2, the play``), and
    what the table is to do when nobody is to move. ``winner`` is the winning side once the game is over (None
    before, and after a tie).
    """

    players: tuple[str, ...]
    teams: tuple[tuple[int, ...], ...]
    scores: tuple[int, ...]
    sizes: tuple[int, ...]
    movers: tuple[int, ...]
    observer: int | None
    over: bool
    stage: str = ""
    winner: int | None = None

    def side_of(self, player: int) -> int:
        return next(index for index, team in enumerate(self.teams) if player in team)

    def to_move(self) -> str:
        """``Bob to move (opponent)``, ``anyone may move first``, or ``the game is over, 5-3: Ann Cat Eve win``."""
        if self.over:
            return f"the game is over, {self.score()}: {self.result()}"
        if not self.movers and self.stage:
            return self.stage
        if len(self.movers) != 1:
            return "anyone may move first"
        mover = self.movers[0]
        who = self.players[mover]
        if self.observer is None:
            return f"{who} to move"
        if mover == self.observer:
            return f"{who} to move (me)"
        side = "my teammate" if self.side_of(mover) == self.side_of(self.observer) else "opponent"
        return f"{who} to move ({side})"

    def result(self) -> str:
        """Who won, once the game is over: ``Ann Cat Eve win``, ``Bob wins`` (a side of one) or ``a tie``."""
        if self.winner is None:
            return "a tie"
        team = self.teams[self.winner]
        return " ".join(self.players[p] for p in team) + (" wins" if len(team) == 1 else " win")

    def score(self) -> str:
        """The scores side by side, the observer's side first (``4-3``); each with its name when every side is
        one player (``Bob 9 Ann 12 Cat 12``)."""
        if all(len(team) == 1 for team in self.teams):
            return " ".join(f"{self.players[self.teams[side][0]]} {self.scores[side]}" for side in self._sides())
        return "-".join(str(self.scores[side]) for side in self._sides())

    def scoreboard(self) -> str:
        """The score with each side's players, the observer's side first (``score 4-3: Ann Cat Eve 4 | Bob Dan Fay
        3``); where every side is one player, the score alone, which names them (``score Bob 9 Ann 12 Cat 7``)."""
        if all(len(team) == 1 for team in self.teams):
            return f"score {self.score()}"
        return f"score {self.score()}: " + " | ".join(self.sides())

    def sides(self) -> list[str]:
        """Each side as ``Ann Cat Eve 4`` (players, then score), the observer's side first."""
        return [" ".join(self.players[p] for p in self.teams[side]) + f" {self.scores[side]}" for side in self._sides()]

    def hand_counts(self) -> str:
        """``Ann 5 Bob 6 ...``: every player's number of cards, in seat order."""
        return " ".join(f"{name} {size}" for name, size in zip(self.players, self.sizes, strict=True))

    def line(self) -> str:
        """The status line: whose turn, the score, the hand counts (``Bob to move (opponent) | 1-0 | Ann 5 ...``)."""
        if self.over:
            return self.to_move()
        stage = f" | {self.stage}" if self.stage and self.movers else ""
        return f"{self.to_move()}{stage} | score {self.score()} | {self.hand_counts()}"

    def _sides(self) -> list[int]:
        first = 0 if self.observer is None else self.side_of(self.observer)
        return [first, *(side for side in range(len(self.teams)) if side != first)]


class TableGame(ABC, Generic[E]):
    """A record's set-up and events, growing by :meth:`push` and shrinking by :meth:`undo`, autosaved.

    With ``autosave`` set (a path this session holds: :func:`cardlogic.table.autosave.claim_autosave`), every
    change is written there as a complete record
    before :meth:`push` or :meth:`undo` returns; a change that cannot be saved is
    undone and raises :class:`OSError`. A refused event (any :class:`ValueError`)
    leaves everything as it was.
    """

    def __init__(self, autosave: str | None = None) -> None:
        self.autosave = autosave
        self._written = RecordText.of("", ())
        self._written_events: list[E] = []

    # -- what each game supplies -------------------------------------------------------------------------------------

    @property
    @abstractmethod
    def events(self) -> Sequence[E]:
        """The events so far, as recorded."""

    @abstractmethod
    def parse(self, text: str) -> E:
        """The event a typed line names (the game's notation, short forms included); ValueError if none, and
        :class:`Incomplete` when it needs one more answer."""

    @abstractmethod
    def describe(self, event: E) -> str:
        """``event`` in record notation."""

    @abstractmethod
    def _read_written(self, text: str) -> tuple[Sequence[E], Sequence[int]]:
        """The events of ``text``, this game's record, and the line of each: what :meth:`write_over` keeps."""

    @abstractmethod
    def is_own(self, text: str) -> bool:
        """Whether ``text`` is this game's record, which :meth:`text` may replace without losing anything."""

    @abstractmethod
    def status(self) -> Status:
        """Whose turn, score, hand counts, teams now."""

    @abstractmethod
    def observer_decides(self) -> bool:
        """Whether the observer (or their side) has a decision to make now, so advice is worth showing."""

    @abstractmethod
    def advice(self) -> object:
        """The advice for the observer now (the game's own type); ValueError when the record names no observer."""

    @abstractmethod
    def why(self, card: Card) -> list[str]:
        """Where ``card`` is now, and the events that said so, by their lines in :meth:`text`."""

    @abstractmethod
    def _apply(self, event: E) -> tuple[E, tuple[str, ...]]:
        """Apply ``event``; return it as recorded and what became certain. On ValueError nothing changes."""

    @abstractmethod
    def _retract(self) -> E:
        """Take back the last event and return it."""

    @abstractmethod
    def _reapply(self, event: E) -> None:
        """Put back an event taken back by :meth:`_retract` (it was accepted before)."""

    # -- shared --------------------------------------------------------------------------------------------------------

    def text(self) -> str:
        """The record file as the autosave holds it: the user's lines, less events taken back, then new events."""
        return self._render()[0]

    def line_of(self, index: int) -> int:
        """The line of event ``index`` in :meth:`text`."""
        return self._render()[1][index]

    def event_lines(self) -> list[int]:
        """The line of every event in :meth:`text`, in order (one rendering for them all)."""
        return self._render()[1]

    def next_line(self) -> int:
        """The line the next event will take in :meth:`text`: refusals are reported on it."""
        return self._render(following=1)[1][-1]

    def write_over(self, text: str) -> None:
        """Keep the lines of ``text``, this game's record (:meth:`is_own`), in what :meth:`text` writes from now on.

        For an autosave written over: its user's lines stay, rather than those of the record the game was read from.
        """
        events, lines = self._read_written(text)
        self._keep_written(text, events, lines)

    def _keep_written(self, text: str, events: Sequence[E], lines: Sequence[int]) -> None:
        """Write ``text``'s lines (its ``events`` at ``lines``) in :meth:`text`, then the events that follow."""
        self._written = RecordText.of(text, lines)
        self._written_events = list(events)

    def _render(self, following: int = 0) -> tuple[str, list[int]]:
        """:meth:`text` and its events' lines; ``following`` placeholder events more, for the lines to come."""
        history = self.events
        kept = 0
        for written, event in zip(self._written_events, history):
            if written != event:
                break
            kept += 1
        new = [self.describe(event) for event in history[kept:]]
        return self._written.render(kept, new + ["..."] * following)

    def push(self, event: E) -> Update[E]:
        """Apply ``event`` and save; on any error nothing changes."""
        recorded, certain = self._apply(event)
        try:
            self._save_autosave()
        except OSError:
            self._retract()
            raise
        # What is alive now lives on: the imports and compiled kernels (over 100,000 objects) all game long, the
        # belief's undo steps and caches for many events. Left to the garbage collector, each of its full passes
        # walked them all, pausing an event for 0.1-0.4 s at 12 players; refcounts still free what is let go.
        gc.freeze()
        return Update(recorded, self.line_of(len(self.events) - 1), certain)

    def push_line(self, text: str) -> Update[E]:
        """:meth:`push` the event ``text`` types."""
        return self.push(self.parse(text))

    def undo(self, count: int = 1) -> list[E]:
        """Take back the last ``count`` events and save; return them, latest first.

        Raises :class:`IndexError` when there are fewer events, :class:`ValueError` when ``count`` is below 1.
        """
        available = len(self.events)
        if count < 1:
            raise ValueError(f"undo N needs N of at least 1, not {count}")
        if not available:
            raise IndexError("nothing to undo")
        if count > available:
            raise IndexError(f"cannot undo {count} events: only {available} so far")
        undone = [self._retract() for _ in range(count)]
        try:
            self._save_autosave()
        except OSError:
            for event in reversed(undone):
                self._reapply(event)
            raise
        return undone

    def log(self, count: int | None = None) -> list[tuple[int, str]]:
        """The last ``count`` events (all without it) as ``(autosave line, record notation)``, oldest first.

        Raises :class:`ValueError` when ``count`` is below 1.
        """
        if count is not None and count < 1:
            raise ValueError(f"log N needs N of at least 1, not {count}")
        events = self.events
        first = 0 if count is None else max(0, len(events) - count)
        return [(self.line_of(index), self.describe(events[index])) for index in range(first, len(events))]

    def save(self, path: str, *, force: bool = False) -> None:
        """Write :meth:`text` to ``path`` atomically, if it is missing or holds this game's record (:meth:`is_own`).

        Anything else at ``path`` is refused with :class:`~cardlogic.files.WriteRefusedError`; ``force`` replaces
        another regular file (see :mod:`cardlogic.files`). The autosave, which this session holds, is replaced.
        """
        if path == self.autosave:
            self._save_autosave()
        else:
            write_owned(path, self.text(), self.is_own, force=force)

    def _save_autosave(self) -> None:
        if self.autosave is not None:
            replace_text(self.autosave, self.text())
