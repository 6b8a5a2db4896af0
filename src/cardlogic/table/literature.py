"""The game ``cardlogic live`` follows: a player's and a spectator's beliefs kept in step, saved after every change.

:class:`LiveGame` has no input or output of its own beyond the autosave file, so
the benchmark suite times exactly what the command does after each event.
"""

from __future__ import annotations

from dataclasses import dataclass

from cardlogic.belief import Fact
from cardlogic.cards import Card
from cardlogic.files import RecordText, replace_text, write_owned
from cardlogic.literature import (
    Ask,
    Claim,
    Event,
    Game,
    PlayerState,
    PublicState,
    Record,
    RecordError,
    format_event,
    read_record,
    write_record,
)
from cardlogic.literature.advice import Advice, advise, claim_advice, spectator
from cardlogic.literature.belief import LiteratureBelief


@dataclass(frozen=True)
class Update:
    """What one accepted event brought: the event as recorded and the holdings that became certain."""

    event: Event
    certain: tuple[Fact, ...]


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
        self._chances: dict[Card, tuple[float, ...]] | None = None
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

    def event_lines(self) -> list[int]:
        """The line of every event of the history in :meth:`text`, in order (one rendering for them all)."""
        return self._render()[1]

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
        self._chances = None
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
        self._chances = None
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
        team, chances = game.members(game.team_of(claimer)), self.chances()
        likeliest = tuple(
            (card, max(team, key=lambda player: (chances[card][player], player == claimer)))
            for card in game.deck.sets[set_index].cards
        )
        observer = belief.observer
        if observer is not None and game.team_of(claimer) == game.team_of(observer):
            advice = claim_advice(belief, set_index)
            # a claim sure to be wrong has no best assignment: each card then goes to its likeliest holder
            return ClaimSuggestion(
                claimer, set_index, advice.assignment if advice.p_correct else likeliest, advice.p_correct
            )
        return ClaimSuggestion(claimer, set_index, likeliest, None)

    def why(self, card: Card) -> list[str]:
        """Where ``card`` can be now, then every event that placed it or ruled holders out, by autosave line."""
        game, belief, public = self.game, self.belief, self.public
        names, history = game.players, public.history
        set_index = game.deck.set_index_of(card)
        card_set = game.deck.sets[set_index]
        out = [f"{card} ({card_set.name}): {self._where_now(card)}"]
        everyone = (1 << len(names)) - 1
        possible = everyone
        observer = belief.observer
        if observer is not None:
            mine = self.setup.hands.get(observer, ())
            possible = 1 << observer if card in mine else everyone & ~(1 << observer)
            out.append(f"  at the deal: {'in my hand' if card in mine else 'not in my hand'}")
        ruled = dict(belief.explain(card))
        lines = self.event_lines()
        for index, event in enumerate(history):
            said = []
            if index in ruled:
                possible &= ~ruled[index]
                holders = [names[p] for p in range(len(names)) if possible >> p & 1]
                said.append(
                    f"dealt to {holders[0]}"
                    if len(holders) == 1
                    else "not dealt to " + ", ".join(names[p] for p in range(len(names)) if ruled[index] >> p & 1)
                )
            if isinstance(event, Ask) and event.card == card and event.yes:
                said.append(f"{names[event.asker]} takes it from {names[event.target]}")
            if isinstance(event, Claim) and event.set_index == set_index:
                said.append(f"{card_set.name} claimed, {event.outcome}")
            if said:
                out.append(f"  line {lines[index]}: {format_event(event, game)}  -> {'; '.join(said)}")
        if len(out) == 1 + (observer is not None):
            out.append("  no event has said anything about it yet")
        return out

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
