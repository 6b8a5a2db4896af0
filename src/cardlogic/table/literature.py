"""The game ``cardlogic live`` follows: a player's and a spectator's beliefs kept in step, saved after every change.

:class:`LiveGame` has no input or output of its own beyond the autosave file, so
the benchmark suite times exactly what the command does after each event.
"""

from __future__ import annotations

from dataclasses import dataclass

from cardlogic.belief import Fact
from cardlogic.files import RecordText, replace_text, write_owned
from cardlogic.literature import Event, Game, PublicState, Record, RecordError, format_event, read_record, write_record
from cardlogic.literature.advice import Advice, advise, spectator
from cardlogic.literature.belief import LiteratureBelief


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
    cannot be saved is undone and raises :class:`OSError`. ``autosave`` is a path
    this session holds (:func:`cardlogic.table.autosave.claim_autosave`), so it is
    replaced without asking what it holds.

    ``text`` is the record as its user wrote it (default: as :func:`write_record`
    writes it): every line of it that is not an event taken back (headers, every
    hand, comments) stays in what :meth:`text` writes, and new events follow.

    The belief is the observer's (a full record's other hands are not looked at
    for advice); a full record's hands also referee every event typed, so that
    the autosave, which keeps them, stays a possible record. Raises
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
        autosave: str | None = None,
        text: str | None = None,
    ) -> None:
        observer = record.observer
        hands = {} if observer is None else {observer: record.hands[observer]}
        self.setup = Record(record.game, observer, hands)
        self._shown = Record(record.game, observer, dict(record.hands))  # the set-up as the file shows it
        self._written = RecordText.of(write_record(record) if text is None else text, record.lines)
        self._written_events = list(record.events)
        # Every hand the record shows checks what is typed, so the autosave, which keeps them, stays possible.
        self._referee = record.replay() if record.is_full else None
        self.belief = LiteratureBelief.from_record(record, method=method, samples=samples, seed=seed)
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
        """The observer's set-up (their hand only) and every event so far."""
        return Record(self.setup.game, self.setup.observer, dict(self.setup.hands), list(self.public.history))

    def text(self) -> str:
        """The record file as the autosave holds it: the user's lines, less events taken back, then new events."""
        return self._render()[0]

    def line_of(self, index: int) -> int:
        """The line of event ``index`` of the history in :meth:`text` (the autosave file)."""
        return self._render()[1][index]

    def write_over(self, text: str) -> None:
        """Keep the lines of ``text``, this game's record (:meth:`is_own`), in what :meth:`text` writes from now on.

        For an autosave written over: its user's lines stay, rather than the lines of the record the game was read
        from.
        """
        written = read_record(text)
        self._written = RecordText.of(text, written.lines)
        self._written_events = list(written.events)

    def is_own(self, text: str) -> bool:
        """Whether ``text`` is this game's record: the same set-up and hands, its events a prefix of the history.

        Replacing such a file with :meth:`text` loses no event and none of its set-up.
        """
        try:
            other = read_record(text)
        except RecordError:
            return False
        history = list(self.public.history)
        shown = self._shown
        return (
            other.game == shown.game
            and other.observer == shown.observer
            and other.hands == shown.hands
            and other.events == history[: len(other.events)]
        )

    def push(self, event: Event) -> Update:
        """Apply ``event`` to both beliefs and save; on any error nothing changes (see :meth:`LiteratureBelief.push`)."""
        recorded = self.belief.push(event)
        taken_back = [self.belief.pop]
        try:
            if self._referee is not None:
                self._referee.push(recorded)
                taken_back.append(self._referee.pop)
            if self.spectator is not None:
                self.spectator.push_unchecked(recorded)
                taken_back.append(self.spectator.pop)
            self._save_autosave()
        except (OSError, ValueError):
            for pop in reversed(taken_back):
                pop()
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

    def save(self, path: str, *, force: bool = False) -> None:
        """Write :meth:`text` to ``path`` atomically, if it is missing or holds this game's record (:meth:`is_own`).

        Anything else at ``path`` is refused with :class:`~cardlogic.files.WriteRefusedError`; ``force`` replaces
        another regular file (see :mod:`cardlogic.files`).
        """
        if self.autosave is not None and path == self.autosave:
            self._save_autosave()
        else:
            write_owned(path, self.text(), self.is_own, force=force)

    def _save_autosave(self) -> None:
        if self.autosave is not None:
            replace_text(self.autosave, self.text())

    def _render(self) -> tuple[str, list[int]]:
        history = self.public.history
        kept = 0
        for written, event in zip(self._written_events, history):
            if written != event:
                break
            kept += 1
        return self._written.render(kept, [format_event(event, self.game) for event in history[kept:]])

    def _pop(self) -> Event:
        if self.spectator is not None:
            self.spectator.pop()
        if self._referee is not None:
            self._referee.pop()
        return self.belief.pop()

    def _push_back(self, event: Event) -> None:
        self.belief.push_unchecked(event)  # it was accepted before: the history only returns to what it was
        if self._referee is not None:
            self._referee.push(event)
        if self.spectator is not None:
            self.spectator.push_unchecked(event)

    def _held_for_sure(self) -> frozenset[Fact]:
        return frozenset(fact for fact in self.belief.certain() if fact.has)
