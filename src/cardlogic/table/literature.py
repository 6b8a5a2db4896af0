"""The game ``cardlogic live`` follows: a player's and a spectator's beliefs kept in step, saved after every change.

:class:`LiveGame` has no input or output of its own beyond the autosave file, so
the benchmark suite times exactly what the command does after each event.
"""

from __future__ import annotations

from collections.abc import Sequence

from cardlogic.belief import Fact
from cardlogic.literature import Event, Game, PublicState, Record, format_event, write_record
from cardlogic.literature.advice import Advice, advise, spectator
from cardlogic.literature.belief import LiteratureBelief
from cardlogic.literature.shorthand import Notation
from cardlogic.table.core import Status, TableGame


class LiveGame(TableGame[Event]):
    """A Literature record's set-up and events at the table (see :class:`~cardlogic.table.core.TableGame`).

    ``belief`` is the record's observer's (a spectator's when it names no ``Me``);
    ``spectator`` is a spectator's belief over the same history, kept for the
    figures of :func:`~cardlogic.literature.advice.advise` that need it (None for a
    spectator's record).

    Only the observer's hand is kept (a full record becomes a view, or a
    spectator's record without ``Me``): typed events are checked against what the
    observer knows, so the saved record claims no more. Raises
    :class:`~cardlogic.literature.RecordError` when the record's events are
    illegal or leave no consistent deal.
    """

    def __init__(
        self, record: Record, *, method: str = "auto", samples: int = 20000, seed: int = 0, autosave: str | None = None
    ) -> None:
        super().__init__(autosave)
        observer = record.observer
        hands = {} if observer is None else {observer: record.hands[observer]}
        self.setup = Record(record.game, observer, hands)
        self.belief = LiteratureBelief.from_record(record, method=method, samples=samples, seed=seed)
        self.spectator: LiteratureBelief | None = None
        if record.observer is not None:
            self.spectator = spectator(self.belief)
        self.notation = Notation(record.game)
        self._certain = self._held_for_sure()

    @property
    def game(self) -> Game:
        return self.belief.game

    @property
    def public(self) -> PublicState:
        return self.belief.public

    @property
    def events(self) -> Sequence[Event]:
        return self.public.history

    def record(self) -> Record:
        """The set-up and every event so far, as written to the autosave file."""
        return Record(self.setup.game, self.setup.observer, dict(self.setup.hands), list(self.public.history))

    def text(self) -> str:
        return write_record(self.record())

    def line_of(self, index: int) -> int:
        return self.record().lines[index]

    def next_line(self) -> int:
        if self.events:
            return self.line_of(len(self.events) - 1) + 1
        return len(write_record(self.setup).rstrip("\n").splitlines()) + 2

    def parse(self, text: str) -> Event:
        return self.notation.parse(text)

    def describe(self, event: Event) -> str:
        return format_event(event, self.game)

    def status(self) -> Status:
        game, public = self.game, self.public
        return Status(
            players=game.players,
            teams=(game.members(0), game.members(1)),
            scores=public.scores,
            sizes=public.sizes,
            movers=public.movers,
            observer=self.belief.observer,
            over=public.is_over,
        )

    def observer_decides(self) -> bool:
        """Whether the observer's team (or anyone, before a dealer-less game's first event) is to move."""
        public, observer = self.public, self.belief.observer
        if observer is None:
            return False
        return any(self.game.team_of(p) == self.game.team_of(observer) for p in public.movers)

    def advice(self) -> Advice:
        """The advice for the observer now, as ``cardlogic advise`` gives it on :meth:`record`."""
        if self.belief.observer is None:
            raise ValueError("advice needs a player's view: the record names no Me player")
        return advise(self.belief, self.spectator)

    def _apply(self, event: Event) -> tuple[Event, tuple[str, ...]]:
        recorded = self.belief.push(event)
        if self.spectator is not None:
            try:
                self.spectator.push_unchecked(recorded)
            except ValueError:
                self.belief.pop()
                raise
        before, self._certain = self._certain, self._held_for_sure()
        known, names = self.public.known, self.game.players
        fresh = (fact for fact in self._certain - before if known.get(fact.card) != fact.holder)
        learnt = sorted(fresh, key=lambda fact: (fact.holder, fact.card))
        return recorded, tuple(f"{names[fact.holder]} holds {fact.card}" for fact in learnt)

    def _retract(self) -> Event:
        if self.spectator is not None:
            self.spectator.pop()
        event = self.belief.pop()
        self._certain = self._held_for_sure()
        return event

    def _reapply(self, event: Event) -> None:
        self.belief.push_unchecked(event)  # it was accepted before: the history only returns to what it was
        if self.spectator is not None:
            self.spectator.push_unchecked(event)
        self._certain = self._held_for_sure()

    def _held_for_sure(self) -> frozenset[Fact]:
        return frozenset(fact for fact in self.belief.certain() if fact.has)
