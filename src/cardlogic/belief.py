"""Belief about a Literature game: where every card in play is, and how likely each place is.

A :class:`Belief` is one observer's (or a spectator's) knowledge: the public
history plus the observer's own starting hand. It is built from a record or
event by event with :meth:`Belief.push` (and undone with :meth:`Belief.pop`),
and answers questions through an inference backend:

>>> from cardlogic.literature import read_record
>>> belief = Belief.from_record(read_record(open("examples/mini.txt").read()))  # doctest: +SKIP
>>> belief.probability("QS", "Bob")  # doctest: +SKIP
0.5

Probabilities are over the uniform distribution of the deals consistent with
everything the observer has seen; a card that has moved is where it moved to.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import numpy as np

from cardlogic import inference
from cardlogic.cards import CARDS, Card
from cardlogic.constraints import InconsistentError
from cardlogic.inference.base import Posterior
from cardlogic.literature import Event, Game, PlayerState, PublicState, Record, RecordError
from cardlogic.tracking.literature import LiteratureTracker


@dataclass(frozen=True)
class Fact:
    """``player`` holds ``card`` now (``has``) or does not (``not has``), in every consistent deal."""

    card: Card
    player: int
    has: bool


@dataclass(frozen=True)
class Marginals:
    """P(``cards[i]`` is now held by ``players[j]``) as ``probabilities[i, j]``, with the method's details."""

    cards: tuple[Card, ...]
    players: tuple[str, ...]
    probabilities: np.ndarray
    method: str
    count: int | None
    samples: int
    stderr: np.ndarray | None


class Belief:
    """What an observer knows about the hidden cards, with inference on demand.

    ``method`` is ``auto`` (exact where practical, else sampling), ``exact``,
    ``sample`` or ``csp``; ``samples`` and ``seed`` configure sampling.
    """

    def __init__(self, game: Game, observer: int | None = None, hand: Iterable[int] = (), *, method: str = "auto",
                 samples: int = 20000, seed: int = 0) -> None:
        self.tracker = LiteratureTracker(game, observer, hand)
        self.method, self.samples, self.seed = method, samples, seed
        self._posterior: Posterior | None = None

    @classmethod
    def from_record(cls, record: Record, **options) -> Belief:
        """The belief of the record's observer (``Me:``), or a spectator's when it names none.

        Raises :class:`RecordError` naming the line of the first event that is illegal
        or that leaves no consistent deal.
        """
        observer = record.observer
        hand = record.hands.get(observer, ()) if observer is not None else ()
        belief = cls(record.game, observer, hand, **options)
        pushed = 0
        for event, line in zip(record.events, record.lines):
            try:
                belief.tracker.push(event)
            except (InconsistentError, ValueError) as error:
                if belief.is_consistent():
                    raise RecordError(line, str(error)) from None
                break  # an earlier event already left no deal: that one is to blame
            pushed += 1
        if pushed == len(record.events) and belief.is_consistent():
            return belief
        raise RecordError(belief._first_impossible_line(record, pushed), "no deal is consistent with this event")

    @property
    def game(self) -> Game:
        return self.tracker.game

    @property
    def observer(self) -> int | None:
        return self.tracker.observer

    def push(self, event: Event) -> Event:
        """Apply ``event`` and return it as recorded (a claim with its revealed holders).

        If it is illegal (:class:`~cardlogic.literature.IllegalEventError`), leaves
        no consistent deal (:class:`InconsistentError`) or the method cannot tell
        (:class:`~cardlogic.inference.InferenceError`), raise and change nothing.
        """
        recorded = self.tracker.push(event)
        self._posterior = None
        try:
            consistent = self.is_consistent()
        except inference.InferenceError:
            self.tracker.pop()
            raise
        if not consistent:
            self.tracker.pop()
            self._posterior = None
            raise InconsistentError("no deal is consistent with this event and what came before")
        return recorded

    def pop(self) -> Event:
        """Undo the last event and return it."""
        self._posterior = None
        return self.tracker.pop()

    def push_unchecked(self, event: Event) -> Event:
        """Apply ``event`` without asking the backend whether some deal is still consistent.

        For a belief that shadows a checked one over the same history, such as a
        spectator's beside a player's: the player's constraints include the
        spectator's, so a history the player's belief accepts leaves the spectator
        some deal. Raises like :meth:`push` for an illegal event and changes nothing.
        """
        recorded = self.tracker.push(event)
        self._posterior = None
        return recorded

    @property
    def public(self) -> PublicState:
        """The public position: turn, hand sizes, cards known, sets claimed, history."""
        return self.tracker.public

    @property
    def hand(self) -> int:
        """The observer's hand now, as a card mask (0 for a spectator)."""
        position = self.tracker.position
        return position.hand if isinstance(position, PlayerState) else 0

    def explain(self, card: int | str) -> list[tuple[int, int]]:
        """The events that narrowed where ``card`` was dealt: ``(index in the history, holders ruled out)``.

        See :meth:`LiteratureTracker.explain`; the holders are a bitmask over player indices.
        """
        return self.tracker.explain(self._card(card))

    # -- questions ---------------------------------------------------------------------------------------------------

    def posterior(self) -> Posterior:
        """The backend's distribution over the *dealt* holder of every card (cached until the next push/pop)."""
        if self._posterior is None:
            self._posterior = inference.infer(self.tracker.model, self.method, samples=self.samples, seed=self.seed)
        return self._posterior

    def is_consistent(self) -> bool:
        try:
            self.posterior()
        except InconsistentError:
            return False
        return True

    def marginals(self) -> Marginals:
        """P(card is held by player now) for every card still in play."""
        posterior = self.posterior()
        table, stderr = self._current(posterior.marginals), None
        if posterior.stderr is not None:
            stderr = self._current(posterior.stderr, moved=0.0)
        return Marginals(tuple(self.tracker.in_play()), self.game.players, table, posterior.method, posterior.count,
                         posterior.samples, stderr)

    def probability(self, card: int | str, player: int | str) -> float:
        """P(``player`` holds ``card`` now); 0 for a card of a claimed set, which nobody holds."""
        card, player = self._card(card), self._player(player)
        if card in self.tracker.public.known:
            return float(self.tracker.public.known[card] == player)
        if self._claimed(card):
            return 0.0
        return self.posterior().probability(card, player)

    def count(self) -> int:
        """The exact number of deals consistent with everything observed."""
        return inference.count(self.tracker.model)

    def joint(self, placements: Mapping[int | str, int | str]) -> float:
        """P(every card of ``placements`` is held now by its player)."""
        unmoved: dict[int, int] = {}
        for card, player in placements.items():
            card, player = self._card(card), self._player(player)
            if card in self.tracker.public.known:
                if self.tracker.public.known[card] != player:
                    return 0.0
            elif self._claimed(card):
                return 0.0
            else:
                unmoved[card] = player
        if not unmoved:
            return 1.0
        return inference.joint(self.tracker.model, unmoved, method=self.method, samples=self.samples, seed=self.seed)

    def sample(self, n: int, seed: int = 0) -> tuple[tuple[Card, ...], np.ndarray]:
        """``n`` consistent deals drawn uniformly, as current holders: (cards in play, array n x cards)."""
        model = self.tracker.model
        deals = inference.sample(model, n, seed)
        columns = {card: i for i, card in enumerate(model.cards)}
        in_play = self.tracker.in_play()
        current = np.empty((n, len(in_play)), dtype=np.int8)
        for j, card in enumerate(in_play):
            holder = self.tracker.public.known.get(card)
            current[:, j] = deals[:, columns[card]] if holder is None else holder
        return tuple(in_play), current

    def certain(self) -> list[Fact]:
        """Every has/lacks fact about cards in play that holds in every consistent deal.

        Exact where the exact backend is practical; otherwise the facts the
        constraint model states outright (still true, possibly fewer).
        """
        model = self.tracker.model
        try:
            posterior: Posterior | None = self.posterior()
            if posterior.count is None and inference.exact_is_practical(model):
                posterior = inference.infer(model, "exact")
        except inference.InferenceError:
            posterior = None
        if posterior is not None and posterior.count is not None:
            probabilities = self._current(posterior.marginals)
        else:  # sampled marginals can miss rare deals: only the allowed sets are certain
            probabilities = self._current(self._allowed_table())
        facts = []
        for card, row in zip(self.tracker.in_play(), probabilities):
            holders = np.flatnonzero(row)
            for player in range(len(self.game.players)):
                if len(holders) == 1 and holders[0] == player:
                    facts.append(Fact(card, player, True))
                elif row[player] == 0:
                    facts.append(Fact(card, player, False))
        return facts

    # -- helpers -----------------------------------------------------------------------------------------------------

    def _current(self, dealt: np.ndarray, moved: float = 1.0) -> np.ndarray:
        """A cards x holders table over dealt holders, as one over current holders of the cards in play.

        A card that has moved gets ``moved`` at its current holder and 0 elsewhere.
        """
        rows = {card: i for i, card in enumerate(self.tracker.model.cards)}
        in_play = self.tracker.in_play()
        table = np.zeros((len(in_play), len(self.game.players)))
        for i, card in enumerate(in_play):
            holder = self.tracker.public.known.get(card)
            if holder is None:
                table[i] = dealt[rows[card]]
            else:
                table[i, holder] = moved
        return table

    def _allowed_table(self) -> np.ndarray:
        """1 where the model still allows a card's dealt holder, 0 where it rules it out."""
        players = range(len(self.game.players))
        return np.array([[mask >> p & 1 for p in players] for mask in self.tracker.model.allowed.values()], dtype=float)

    def _first_impossible_line(self, record: Record, pushed: int) -> int:
        """Bisect the first ``pushed`` events of ``record`` (pushed, with no consistent deal) for the first
        prefix with none."""
        low, high = 0, pushed  # prefix of length low is consistent, of length high is not
        while high - low > 1:
            middle = (low + high) // 2
            while pushed > middle:
                self.tracker.pop()
                pushed -= 1
            while pushed < middle:
                self.tracker.push(record.events[pushed])
                pushed += 1
            self._posterior = None
            if self.is_consistent():
                low = middle
            else:
                high = middle
        return record.lines[high - 1]

    def _claimed(self, card: Card) -> bool:
        return self.game.deck.set_index_of(card) in self.tracker.public.claimed

    def _card(self, card: int | str) -> Card:
        return Card.parse(card) if isinstance(card, str) else CARDS[card]

    def _player(self, player: int | str) -> int:
        return self.game.player_index(player) if isinstance(player, str) else player
