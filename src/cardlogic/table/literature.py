"""The game ``cardlogic live`` follows: a player's and a spectator's beliefs kept in step, saved after every change.

:class:`LiveGame` has no input or output of its own beyond the autosave file, so
the benchmark suite times exactly what the command does after each event.
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from cardlogic.belief import Fact
from cardlogic.literature import Event, Game, PublicState, Record, write_record
from cardlogic.literature.advice import Advice, advise, spectator
from cardlogic.literature.belief import DEFAULT_PRIOR, LiteratureBelief


@dataclass(frozen=True)
class Update:
    """What one accepted event brought: the event as recorded and the holdings that became certain."""

    event: Event
    certain: tuple[Fact, ...]


class LiveGame:
    """A record's set-up and events, growing by :meth:`push` and shrinking by :meth:`undo`.

    ``belief`` is the record's observer's (a spectator's when it names no ``Me``);
    ``spectator`` is a spectator's belief over the same history, kept for the
    figures of :func:`~cardlogic.literature.advice.advise` that need it (None for a
    spectator's record). With ``autosave`` set, every change is written there as
    a complete record before :meth:`push` or :meth:`undo` returns; a change that
    cannot be saved is undone and raises :class:`OSError`.

    Only the observer's hand is kept (a full record becomes a view, or a
    spectator's record without ``Me``): typed events are checked against what the
    observer knows, so the saved record claims no more. Raises
    :class:`~cardlogic.literature.RecordError` when the record's events are
    illegal or leave no consistent deal.
    """

    def __init__(
        self,
        record: Record,
        *,
        method: str = "auto",
        samples: int = 20000,
        seed: int = 0,
        prior: str = DEFAULT_PRIOR,
        autosave: str | None = None,
    ) -> None:
        observer = record.observer
        hands = {} if observer is None else {observer: record.hands[observer]}
        self.setup = Record(record.game, observer, hands)
        self.belief = LiteratureBelief.from_record(record, method=method, samples=samples, seed=seed, prior=prior)
        self.spectator: LiteratureBelief | None = None
        if record.observer is not None:
            self.spectator = spectator(self.belief)
        self.autosave = autosave
        self._certain = self._held_for_sure()

    @property
    def game(self) -> Game:
        return self.belief.game

    @property
    def public(self) -> PublicState:
        return self.belief.public

    def record(self) -> Record:
        """The set-up and every event so far, as written to the autosave file."""
        return Record(self.setup.game, self.setup.observer, dict(self.setup.hands), list(self.public.history))

    def line_of(self, index: int) -> int:
        """The line of event ``index`` of the history in :meth:`record` written out (the autosave file)."""
        return self.record().lines[index]

    def push(self, event: Event) -> Update:
        """Apply ``event`` to both beliefs and save; on any error nothing changes (see :meth:`LiteratureBelief.push`)."""
        recorded = self.belief.push(event)
        try:
            if self.spectator is not None:
                self.spectator.push_unchecked(recorded)
            try:
                self._save_autosave()
            except OSError:
                if self.spectator is not None:
                    self.spectator.pop()
                raise
        except (OSError, ValueError):
            self.belief.pop()
            raise
        before, self._certain = self._certain, self._held_for_sure()
        return Update(recorded, tuple(fact for fact in self._certain if fact not in before))

    def undo(self, count: int = 1) -> list[Event]:
        """Take back the last ``count`` events and save; return them, latest first.

        Raises :class:`IndexError` when there are fewer events, :class:`ValueError` when ``count`` is below 1.
        """
        available = len(self.public.history)
        if count < 1:
            raise ValueError(f"undo N needs N of at least 1, not {count}")
        if not available:
            raise IndexError("nothing to undo")
        if count > available:
            raise IndexError(f"cannot undo {count} events: only {available} so far")
        undone = [self._pop() for _ in range(count)]
        try:
            self._save_autosave()
        except OSError:
            for event in reversed(undone):
                self._push_back(event)
            raise
        self._certain = self._held_for_sure()
        return undone

    def advice(self) -> Advice:
        """The advice for the observer now, as ``cardlogic advise`` gives it on :meth:`record`."""
        if self.belief.observer is None:
            raise ValueError("advice needs a player's view: the record names no Me player")
        return advise(self.belief, self.spectator)

    def team_to_move(self) -> bool:
        """Whether the observer's team (or anyone, before a dealer-less game's first event) is to move."""
        public, observer = self.public, self.belief.observer
        if observer is None:
            return False
        return any(self.game.team_of(p) == self.game.team_of(observer) for p in public.movers)

    def save(self, path: str) -> None:
        """Write :meth:`record` to ``path`` atomically."""
        write_atomically(path, write_record(self.record()))

    def _save_autosave(self) -> None:
        if self.autosave is not None:
            self.save(self.autosave)

    def _pop(self) -> Event:
        if self.spectator is not None:
            self.spectator.pop()
        return self.belief.pop()

    def _push_back(self, event: Event) -> None:
        self.belief.push_unchecked(event)  # it was accepted before: the history only returns to what it was
        if self.spectator is not None:
            self.spectator.push_unchecked(event)

    def _held_for_sure(self) -> frozenset[Fact]:
        return frozenset(fact for fact in self.belief.certain() if fact.has)


def write_atomically(path: str, text: str) -> None:
    """Replace ``path`` with ``text`` so that a crash at any moment leaves the old or the new file, whole.

    The text goes to a temporary file in the same folder, is flushed to disk, and
    replaces ``path`` in one rename; the folder is synced so the rename survives too.
    """
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    descriptor, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    directory = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(directory)
    finally:
        os.close(directory)
