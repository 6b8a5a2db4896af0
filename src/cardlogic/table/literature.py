"""The game ``cardlogic live`` follows: a player's and a spectator's beliefs kept in step, saved after every change.

:class:`LiveGame` has no input or output of its own beyond the autosave file, so
the benchmark suite times exactly what the command does after each event.
"""

from __future__ import annotations

from collections.abc import Sequence

from cardlogic.belief import Fact
from cardlogic.cards import Card
from cardlogic.files import RecordText
from cardlogic.literature import (
    Ask,
    Claim,
    Event,
    Game,
    InvalidEventError,
    PublicState,
    Record,
    RecordError,
    format_event,
    read_record,
    write_record,
)
from cardlogic.literature.advice import Advice, advise, claim_advice, spectator
from cardlogic.literature.belief import DEFAULT_PRIOR, LiteratureBelief
from cardlogic.literature.shorthand import Answer, Notation, ShortClaim
from cardlogic.table.core import Incomplete, Status, TableGame

OUTCOME_QUESTION = "the outcome? ok, void or opp, then who held any card I cannot know (void bob 5h); empty drops it"


class LiveGame(TableGame[Event]):
    """A Literature record's set-up and events at the table (see :class:`~cardlogic.table.core.TableGame`).

    ``belief`` is the record's observer's (a spectator's when it names no ``Me``);
    ``spectator`` is a spectator's belief over the same history, kept for the
    figures of :func:`~cardlogic.literature.advice.advise` that need it (None for a
    spectator's record).

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
        prior: str = DEFAULT_PRIOR,
        autosave: str | None = None,
        text: str | None = None,
    ) -> None:
        super().__init__(autosave)
        observer = record.observer
        hands = {} if observer is None else {observer: record.hands[observer]}
        self.setup = Record(record.game, observer, hands)
        self._shown = Record(record.game, observer, dict(record.hands))  # the set-up as the file shows it
        self._written = RecordText.of(write_record(record) if text is None else text, record.lines)
        self._written_events = list(record.events)
        # Every hand the record shows checks what is typed, so the autosave, which keeps them, stays possible.
        self._referee = record.replay() if record.is_full else None
        self.belief = LiteratureBelief.from_record(record, method=method, samples=samples, seed=seed, prior=prior)
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
        """The observer's set-up (their hand only) and every event so far."""
        return Record(self.setup.game, self.setup.observer, dict(self.setup.hands), list(self.public.history))

    def text(self) -> str:
        """The record file as the autosave holds it: the user's lines, less events taken back, then new events."""
        return self._render()[0]

    def line_of(self, index: int) -> int:
        return self._render()[1][index]

    def next_line(self) -> int:
        return self._render(following=1)[1][-1]

    def write_over(self, text: str) -> None:
        """Keep the lines of ``text``, this game's record (:meth:`is_own`), in what :meth:`text` writes from now on.

        For an autosave written over: its user's lines stay, rather than those of the record the game was read from.
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
        history, shown = list(self.events), self._shown
        return (
            other.game == shown.game
            and other.observer == shown.observer
            and other.hands == shown.hands
            and other.events == history[: len(other.events)]
        )

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
        taken_back = [self.belief.pop]
        try:
            if self._referee is not None:
                self._referee.push(recorded)
                taken_back.append(self._referee.pop)
            if self.spectator is not None:
                self.spectator.push_unchecked(recorded)
        except ValueError:
            for pop in reversed(taken_back):
                pop()
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
        if self._referee is not None:
            self._referee.pop()
        event = self.belief.pop()
        self._certain = self._held_for_sure()
        return event

    def _reapply(self, event: Event) -> None:
        self._advice = None
        self.belief.push_unchecked(event)  # it was accepted before: the history only returns to what it was
        if self._referee is not None:
            self._referee.push(event)
        if self.spectator is not None:
            self.spectator.push_unchecked(event)
        self._certain = self._held_for_sure()

    def _held_for_sure(self) -> frozenset[Fact]:
        return frozenset(fact for fact in self.belief.certain() if fact.has)

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
