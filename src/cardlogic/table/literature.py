"""The game ``cardlogic live`` follows: a player's and a spectator's beliefs kept in step, saved after every change.

:class:`LiveGame` has no input or output of its own beyond the autosave file, so
the benchmark suite times exactly what the command does after each event.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from cardlogic.belief import Fact
from cardlogic.cards import Card
from cardlogic.constraints import InconsistentError
from cardlogic.literature import (
    Ask,
    Claim,
    Event,
    Game,
    InvalidEventError,
    PlayerState,
    PublicState,
    Record,
    RecordError,
    format_event,
    read_record,
    write_record,
)
from cardlogic.literature.advice import Advice, ClaimAdvice, advise, claim_advice, spectator, with_leaks
from cardlogic.literature.belief import DEFAULT_PRIOR, FOLLOWED_DEALS, LiteratureBelief
from cardlogic.literature.shorthand import Answer, Notation, ShortClaim
from cardlogic.table.core import DROPS, Incomplete, Status, TableGame

OUTCOME_QUESTION = f"the outcome? ok, void or opp, then who held any card I cannot know (void bob 5h); {DROPS}"


@dataclass(frozen=True)
class AskChoice:
    """An ask that may be entered now (``yes`` left open) and the answers the observer's knowledge leaves possible."""

    ask: Ask
    answers: tuple[bool, ...]


@dataclass(frozen=True)
class ClaimSuggestion:
    """A claim sheet's pre-filled assignment and its chance.

    For the observer's team: the best assignment of ``cardlogic advise`` and ``p_correct``, P(the whole
    assignment is right) (when that is 0, each card at its likeliest holder of the team). For the other team:
    each card at its likeliest holder of that team, and ``p_correct`` None (the observer can only guess their
    best assignment card by card).
    """

    claimer: int
    set_index: int
    assignment: tuple[tuple[Card, int], ...]
    p_correct: float | None


class LiveGame(TableGame[Event]):
    """A Literature record's set-up and events at the table (see :class:`~cardlogic.table.core.TableGame`).

    ``belief`` is the record's observer's (a spectator's when it names no ``Me``),
    its players' prior weighing ``deals`` of the rules' deals (default
    :data:`~cardlogic.literature.belief.FOLLOWED_DEALS`, as a belief followed event
    by event affords);
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
        deals: int = FOLLOWED_DEALS,
        autosave: str | None = None,
        text: str | None = None,
    ) -> None:
        super().__init__(autosave)
        observer = record.observer
        hands = {} if observer is None else {observer: record.hands[observer]}
        self.setup = Record(record.game, observer, hands)
        self._shown = Record(record.game, observer, dict(record.hands))  # the set-up as the file shows it
        self._keep_written(write_record(record) if text is None else text, record.events, record.lines)
        # Every hand the record shows checks what is typed, so the autosave, which keeps them, stays possible.
        self._referee = record.replay() if record.is_full else None
        self.belief = LiteratureBelief.from_record(
            record, method=method, samples=samples, seed=seed, prior=prior, deals=deals
        )
        self.spectator: LiteratureBelief | None = None
        if record.observer is not None:
            self.spectator = spectator(self.belief)
        self.notation = Notation(record.game)
        self._certain = self._held_for_sure()
        self._advice: Advice | None = None
        self._full_advice: Advice | None = None
        self._chances: dict[Card, tuple[float, ...]] | None = None

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

    def _read_written(self, text: str) -> tuple[list[Event], list[int]]:
        written = read_record(text)
        return written.events, written.lines

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

        ``+``/``-`` alone answers the ask advised to the observer; an ask that may be made, typed without its
        answer the observer cannot know, raises :class:`Incomplete` asking for it. A short claim by the observer's
        team takes the best assignment (the certain one when the team's cards are certain, its outcome then
        ``correct``); an opponent's correct claim takes the holders the observer knows and those typed. A short
        claim without its outcome, unless certain, raises :class:`Incomplete` with the assignment and its
        P(correct).
        """
        typed = self.notation.parse(text)
        if isinstance(typed, Answer):
            return self._answered(typed.yes)
        if isinstance(typed, ShortClaim):
            return self._claim(typed)
        if isinstance(typed, Ask) and typed.yes is None and typed.target != self.belief.observer:
            self._ask_answer(typed)
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
            winner=public.result().winner if public.is_over else None,
        )

    def observer_decides(self) -> bool:
        """Whether the observer's team (or anyone, before a dealer-less game's first event) is to move."""
        public, observer = self.public, self.belief.observer
        if observer is None:
            return False
        return any(self.game.team_of(p) == self.game.team_of(observer) for p in public.movers)

    def advice(self) -> Advice:
        """The advice for the observer now, as ``cardlogic advise`` gives it on :meth:`record` less the leak
        figures, which only :meth:`full_advice` shows (worked out once per position)."""
        if self.belief.observer is None:
            raise ValueError("advice needs a player's view: the record names no Me player")
        if self._advice is None:
            self._advice = advise(self.belief)
        return self._advice

    def full_advice(self) -> Advice:
        """The advice for the observer now, leak figures included: what ``cardlogic advise`` gives on
        :meth:`record` (worked out once per position)."""
        if self._full_advice is None:
            advice = self.advice()
            assert self.spectator is not None  # a player's game keeps a spectator beside
            self._full_advice = with_leaks(advice, self.spectator)
        return self._full_advice

    def sure_holders(self) -> dict[Card, int]:
        """Every card in play whose holder the observer knows now (public or deduced), with that holder."""
        return {**{fact.card: fact.holder for fact in self._certain}, **self.public.known}

    def chances(self) -> dict[Card, tuple[float, ...]]:
        """P(each player holds the card now), for every card of an unclaimed set in deck order: the heat map.

        Worked out once per position from the belief's marginals (a card known to be somewhere is 0 or 1).
        """
        if self._chances is None:
            belief, players = self.belief, range(len(self.game.players))
            marginals = belief.marginals()
            rows = {card: tuple(float(p) for p in row) for card, row in zip(marginals.cards, marginals.probabilities)}
            self._chances = {
                card: rows.get(card) or tuple(belief.probability(card, p) for p in players)
                for index in self.public.unclaimed
                for card in self.game.deck.sets[index].cards
            }
        return self._chances

    def ask_choices(self, asker: int) -> list[AskChoice]:
        """The asks ``asker`` may make now, each to every opponent with cards, with the answers still possible.

        The observer's own asks are :meth:`PlayerState.legal_asks`; another player's are those some consistent
        deal allows: they may hold another card of the set and (unless ``bluff=on``) not the card asked for. An
        answer is offered when some consistent deal gives it. Empty unless ``asker`` may move now.
        """
        public, game, view = self.public, self.game, self.belief.view
        if asker not in public.movers or not public.sizes[asker]:
            return []
        if isinstance(view, PlayerState) and asker == view.player:
            asks = view.legal_asks(asker, bluffs=game.rules.bluff)
        else:
            asks = [
                Ask(asker, target, card)
                for index in public.unclaimed
                for card in self._askable(asker, index)
                for target in game.opponents(asker)
                if public.sizes[target]
            ]
        chances, choices = self.chances(), []
        for ask in asks:
            p = chances[ask.card][ask.target]
            answers = tuple(answer for answer, possible in ((True, p > 0.0), (False, p < 1.0)) if possible)
            if answers:
                choices.append(AskChoice(ask, answers))
        return choices

    def claim_suggestion(self, claimer: int, set_index: int) -> ClaimSuggestion:
        """The claim sheet of ``claimer`` for set ``set_index``, pre-filled (see :class:`ClaimSuggestion`)."""
        game, belief = self.game, self.belief
        if set_index not in self.public.unclaimed:
            raise ValueError(f"{game.deck.sets[set_index].name} is already claimed")
        observer = belief.observer
        if observer is not None and game.team_of(claimer) == game.team_of(observer):
            advice = claim_advice(belief, set_index)
            return ClaimSuggestion(claimer, set_index, self._announced(claimer, advice), advice.p_correct)
        return ClaimSuggestion(claimer, set_index, self._likeliest(claimer, set_index), None)

    def why(self, card: Card) -> list[str]:
        """Where ``card`` is, and the fewest events that together force it, by autosave line (``cardlogic live``'s
        ``why``, and the page's)."""
        game, belief, public = self.game, self.belief, self.public
        names, history = game.players, public.history
        set_index = game.deck.set_index_of(card)
        out = [f"{card} ({game.deck.sets[set_index].name}): {self._where_now(card)}"]
        lines = self.event_lines()
        public_events = [
            index
            for index, event in enumerate(history)
            if (isinstance(event, Ask) and event.card == card and event.yes)
            or (isinstance(event, Claim) and event.set_index == set_index)
        ]
        if public_events:
            out.append("  in public:")
            out += [f"  line {lines[i]}: {format_event(history[i], game)}" for i in public_events]
            return out
        ruled_out = sum(1 << f.holder for f in belief.certain() if f.card == card and not f.has)
        observer = belief.observer
        beyond_hand = ruled_out & ~(0 if observer is None else 1 << observer)
        if observer is not None and card in belief.hand:
            out.append("  in my hand since the deal")
        elif not beyond_hand:
            out.append("  no event has said anything about it yet")
        else:
            possible = [p for p in range(len(names)) if not ruled_out >> p & 1]
            fact = (
                f"dealt to {names[possible[0]]}"
                if len(possible) == 1
                else "not dealt to " + ", ".join(names[p] for p in range(len(names)) if beyond_hand >> p & 1)
            )
            chain = belief.forcing_events(card, ruled_out)
            hand = "" if observer is None else ", with my hand and the hand sizes"
            events = "1 event" if len(chain) == 1 else f"{len(chain)} events"
            out.append(f"  {fact}: forced by {events}{hand}:")
            out += [f"  line {lines[i]}: {format_event(history[i], game)}" for i in chain]
        return out

    def _announced(self, claimer: int, advice: ClaimAdvice) -> tuple[tuple[Card, int], ...]:
        """The assignment ``claimer`` of the observer's team is taken to announce: the best of ``advice``; for a
        claim sure to be wrong, which has none, each card at its likeliest holder (not at the observer, where the
        advice puts the cards it cannot place)."""
        return advice.assignment if advice.p_correct else self._likeliest(claimer, advice.set_index)

    def _likeliest(self, claimer: int, set_index: int) -> tuple[tuple[Card, int], ...]:
        """Each card of set ``set_index`` at its likeliest holder of ``claimer``'s team (``claimer`` on a tie)."""
        game, chances = self.game, self.chances()
        team = game.members(game.team_of(claimer))
        return tuple(
            (card, max(team, key=lambda player: (chances[card][player], player == claimer)))
            for card in game.deck.sets[set_index].cards
        )

    def _askable(self, asker: int, set_index: int) -> list[Card]:
        """The cards of set ``set_index`` that ``asker`` (not the observer) may ask for in some consistent deal."""
        game, table = self.game, self.chances()
        cards = game.deck.sets[set_index].cards
        chances = {card: table[card][asker] for card in cards}
        if game.rules.must_declare and all(p >= 1.0 for p in chances.values()):
            return []
        return [
            card
            for card in cards
            if (game.rules.bluff or chances[card] < 1.0)
            and any(p > 0.0 for other, p in chances.items() if other != card)
        ]

    def _where_now(self, card: Card) -> str:
        public, names = self.public, self.game.players
        if self.game.deck.set_index_of(card) in public.claimed:
            return "out of play (its set is claimed)"
        if card in public.known:
            return f"with {names[public.known[card]]}, known to everyone"
        places = sorted(((p, player) for player, p in enumerate(self.chances()[card]) if p > 0), reverse=True)
        if len(places) == 1:
            return f"with {names[places[0][1]]} for sure"
        return "now " + ", ".join(f"{names[player]} {p:.2f}" for p, player in places)

    def _answered(self, yes: bool) -> Ask:
        observer = self.belief.observer
        event = self.advice().recommendation.event if self.observer_decides() else None
        if not isinstance(event, Ask) or event.asker != observer:
            raise InvalidEventError("+ or - alone answers the ask advised to me, and none is advised now")
        return Ask(event.asker, event.target, event.card, yes)

    def _claim(self, short: ShortClaim) -> Claim:
        self.public.check_claimer(short.claimer)  # out of turn: said before any question on the claim itself
        game, observer = self.game, self.belief.observer
        card_set = game.deck.sets[short.set_index]
        name = f"{game.players[short.claimer]} claims {card_set.name}"
        mine = observer is not None and game.team_of(short.claimer) == game.team_of(observer)
        if mine:
            advice = claim_advice(self.belief, short.set_index)
            assignment = dict(self._announced(short.claimer, advice))
            if short.outcome is None and advice.certain:
                return Claim(short.claimer, short.set_index, tuple(assignment.items()), "correct")
            if short.outcome is None:
                proposed = Claim(short.claimer, short.set_index, tuple(assignment.items()))
                return self._ask_outcome(short, f"{self.describe(proposed)}, P(correct) {advice.p_correct:.2f}")
        elif short.outcome is None:
            return self._ask_outcome(short, f"{name}")
        known = {**self.sure_holders(), **dict(short.revealed)}
        if short.outcome == "correct" and not mine:
            known = self._placed_if_correct(short.claimer, short.set_index, known)
        missing = [str(card) for card in card_set.cards if card not in known]
        if short.outcome == "correct":
            if not mine:
                if missing:
                    raise InvalidEventError(
                        f"{name} => correct: who held {' '.join(missing)}? Type it again naming them: "
                        f"{name} ok bob {missing[0]} ..."
                    )
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

    def _placed_if_correct(self, claimer: int, set_index: int, known: dict[Card, int]) -> dict[Card, int]:
        """``known`` holders, and those of set ``set_index``'s other cards that ``claimer``'s claim being correct
        forces: a card only one of the claiming team may hold, by the belief's certain facts and as many of the
        set's cards as each holds at most (their hand count)."""
        game, sizes = self.game, self.public.sizes
        team = [player for player in game.members(game.team_of(claimer)) if sizes[player]]
        lacks = {(fact.card, fact.holder) for fact in self.belief.certain() if not fact.has}
        cards = game.deck.sets[set_index].cards
        placed = dict(known)
        while True:
            held = Counter(placed[card] for card in cards if card in placed)
            forced = {
                card: possible[0]
                for card in cards
                if card not in placed
                and len(possible := [p for p in team if (card, p) not in lacks and held[p] < sizes[p]]) == 1
            }
            if not forced:
                return placed
            placed.update(forced)

    def _ask_answer(self, ask: Ask) -> None:
        """Raise :class:`Incomplete` asking for the answer to ``ask`` when it may be made now (its push refuses it
        with the reason otherwise), offering only the answers some consistent deal gives."""
        choice = next((c for c in self.ask_choices(ask.asker) if c.ask == ask), None)
        if choice is None:
            return
        offered = " or ".join("+ (yes)" if yes else "- (no)" for yes in choice.answers)
        names = self.game.players

        def complete(answer: str) -> Ask:
            return Ask(ask.asker, ask.target, ask.card, self.notation.answer(answer))

        asked = f"{names[ask.asker]} asks {names[ask.target]} for {ask.card}"
        raise Incomplete(f"{asked}: the answer? {offered}; {DROPS}", complete)

    def _ask_outcome(self, short: ShortClaim, claim: str) -> Claim:
        def complete(answer: str) -> Claim:
            outcome, revealed = self.notation.outcome(answer.split())
            return self._claim(ShortClaim(short.claimer, short.set_index, outcome, revealed))

        raise Incomplete(f"{claim}: {OUTCOME_QUESTION}", complete)

    def _apply(self, event: Event) -> tuple[Event, tuple[str, ...]]:
        try:
            recorded = self.belief.push(event)
        except InconsistentError as error:  # as a record says it: the lines it contradicts
            raise InconsistentError(self.belief.why_impossible(event, error, self.event_lines()), error.card) from None
        self._advice = self._full_advice = self._chances = None
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
        known = self.public.known
        fresh = (fact for fact in self._certain - before if known.get(fact.card) != fact.holder)
        learnt = sorted(fresh, key=lambda fact: (fact.holder, fact.card))
        return recorded, tuple(str(fact) for fact in learnt)

    def _retract(self) -> Event:
        self._advice = self._full_advice = self._chances = None
        if self.spectator is not None:
            self.spectator.pop()
        if self._referee is not None:
            self._referee.pop()
        event = self.belief.pop()
        self._certain = self._held_for_sure()
        return event

    def _reapply(self, event: Event) -> None:
        self._advice = self._full_advice = self._chances = None
        self.belief.push_unchecked(event)  # it was accepted before: the history only returns to what it was
        if self._referee is not None:
            self._referee.push(event)
        if self.spectator is not None:
            self.spectator.push_unchecked(event)
        self._certain = self._held_for_sure()

    def _held_for_sure(self) -> frozenset[Fact]:
        return frozenset(fact for fact in self.belief.certain() if fact.has)


def check_hand(game: Game, player: int, cards: list[Card]) -> tuple[Card, ...]:
    """``cards`` as ``player``'s starting hand of ``game``; :class:`ValueError` if one repeats, is out of the deck
    or the count is not what the deal gives."""
    if len(set(cards)) != len(cards):
        raise ValueError("a card is named twice")
    outside = [str(card) for card in cards if card not in game.deck]
    if outside:
        raise ValueError(f"not in play in this deck: {' '.join(outside)}")
    if len(cards) != game.sizes[player]:
        raise ValueError(f"{game.players[player]} was dealt {game.sizes[player]} cards, not {len(cards)}")
    return tuple(cards)
