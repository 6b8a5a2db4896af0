"""The game ``cardlogic live`` follows: a player's and a spectator's beliefs kept in step, saved after every change.

:class:`LiveGame` has no input or output of its own beyond the autosave file, so
the benchmark suite times exactly what the command does after each event.
"""

from __future__ import annotations

from collections.abc import Sequence

from cardlogic.belief import Fact
from cardlogic.cards import Card
from cardlogic.literature import (
    Ask,
    Claim,
    Event,
    Game,
    InvalidEventError,
    PublicState,
    Record,
    format_event,
    write_record,
)
from cardlogic.literature.advice import Advice, advise, claim_advice, spectator
from cardlogic.literature.belief import LiteratureBelief
from cardlogic.literature.shorthand import Answer, Notation, ShortClaim
from cardlogic.table.core import Incomplete, Status, TableGame

OUTCOME_QUESTION = "the outcome? ok, void or opp, then who held any card I cannot know (void bob 5h); empty drops it"


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
        self._advice: Advice | None = None

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
        """The event ``text`` types (see :mod:`cardlogic.literature.shorthand`), short forms completed.

        ``+``/``-`` alone answers the ask advised to the observer. A short claim by the observer's team takes the
        best assignment (the certain one when the team's cards are certain, its outcome then ``correct``); an
        opponent's correct claim takes the holders the observer knows and those typed. A short claim without
        its outcome, unless certain, raises :class:`Incomplete` with the assignment and its P(correct).
        """
        typed = self.notation.parse(text)
        if isinstance(typed, Answer):
            return self._answered(typed.yes)
        if isinstance(typed, ShortClaim):
            return self._claim(typed)
        return typed

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
        """The advice for the observer now, as ``cardlogic advise`` gives it on :meth:`record` (worked out once
        per position)."""
        if self.belief.observer is None:
            raise ValueError("advice needs a player's view: the record names no Me player")
        if self._advice is None:
            self._advice = advise(self.belief, self.spectator)
        return self._advice

    def sure_holders(self) -> dict[Card, int]:
        """Every card in play whose holder the observer knows now (public or deduced), with that holder."""
        return {**{fact.card: fact.holder for fact in self._certain}, **self.public.known}

    def _answered(self, yes: bool) -> Ask:
        observer = self.belief.observer
        event = self.advice().recommendation.event if self.observer_decides() else None
        if not isinstance(event, Ask) or event.asker != observer:
            raise InvalidEventError("+ or - alone answers the ask advised to me, and none is advised now")
        return Ask(event.asker, event.target, event.card, yes)

    def _claim(self, short: ShortClaim) -> Claim:
        game, observer = self.game, self.belief.observer
        card_set = game.deck.sets[short.set_index]
        name = f"{game.players[short.claimer]} claims {card_set.name}"
        mine = observer is not None and game.team_of(short.claimer) == game.team_of(observer)
        if mine:
            advice = claim_advice(self.belief, short.set_index)
            assignment = dict(advice.assignment)
            if short.outcome is None and advice.certain:
                return Claim(short.claimer, short.set_index, tuple(assignment.items()), "correct")
            if short.outcome is None:
                proposed = Claim(short.claimer, short.set_index, tuple(assignment.items()))
                return self._ask_outcome(short, f"{self.describe(proposed)}, P(correct) {advice.p_correct:.2f}")
        elif short.outcome is None:
            return self._ask_outcome(short, f"{name}")
        known = {**self.sure_holders(), **dict(short.revealed)}
        missing = [str(card) for card in card_set.cards if card not in known]
        if short.outcome == "correct":
            if not mine:
                if missing:
                    raise InvalidEventError(f"{name} => correct: who held {' '.join(missing)}? (ok bob {missing[0]})")
                assignment = {card: known[card] for card in card_set.cards}
            assignment.update(short.revealed)
            return Claim(short.claimer, short.set_index, tuple(assignment.items()), "correct")
        if not mine:
            raise InvalidEventError(
                f"{name} => {short.outcome}: type the assignment announced, in record notation "
                f"({name}: NAME CARDS; NAME CARDS => {short.outcome})"
            )
        if missing:
            raise InvalidEventError(f"{name} => {short.outcome}: who held {' '.join(missing)}?")
        revealed = tuple((card, known[card]) for card in card_set.cards)
        return Claim(short.claimer, short.set_index, tuple(assignment.items()), short.outcome, revealed)

    def _ask_outcome(self, short: ShortClaim, claim: str) -> Claim:
        def complete(answer: str) -> Claim:
            outcome, revealed = self.notation.outcome(answer.split())
            return self._claim(ShortClaim(short.claimer, short.set_index, outcome, revealed))

        raise Incomplete(f"{claim}: {OUTCOME_QUESTION}", complete)

    def _apply(self, event: Event) -> tuple[Event, tuple[str, ...]]:
        recorded = self.belief.push(event)
        self._advice = None
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
        self._advice = None
        if self.spectator is not None:
            self.spectator.pop()
        event = self.belief.pop()
        self._certain = self._held_for_sure()
        return event

    def _reapply(self, event: Event) -> None:
        self._advice = None
        self.belief.push_unchecked(event)  # it was accepted before: the history only returns to what it was
        if self.spectator is not None:
            self.spectator.push_unchecked(event)
        self._certain = self._held_for_sure()

    def _held_for_sure(self) -> frozenset[Fact]:
        return frozenset(fact for fact in self.belief.certain() if fact.has)
