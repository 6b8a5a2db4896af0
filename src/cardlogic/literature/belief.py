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

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from cardlogic import inference
from cardlogic.cards import CARDS, Card
from cardlogic.constraints import InconsistentError
from cardlogic.inference.base import Posterior, restriction_hits
from cardlogic.inference.exact import pack
from cardlogic.inference.sampler import SamplerBackend, frequencies, posterior_of, starting_deal
from cardlogic.literature import Event, Game, PlayerState, PublicState, Record, RecordError, format_event
from cardlogic.literature.tracking import LiteratureTracker


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
    ``sample`` or ``csp``; ``samples`` and ``seed`` configure sampling;
    ``max_operations`` is the largest exact pass ``auto`` takes on (None: the
    default of :func:`~cardlogic.inference.exact_is_practical`).
    """

    def __init__(self, game: Game, observer: int | None = None, hand: Iterable[int] = (), *, method: str = "auto",
                 samples: int = 20000, seed: int = 0, max_operations: float | None = None) -> None:
        if method not in inference.METHODS:
            raise ValueError(f"unknown inference method {method!r}; expected one of {', '.join(inference.METHODS)}")
        self.tracker = LiteratureTracker(game, observer, hand)
        self.method, self.samples, self.seed = method, samples, seed
        self.max_operations = max_operations
        self._forget()

    def _forget(self) -> None:
        """Drop what was worked out for the previous state."""
        self._posterior: Posterior | None = None
        self._fits: bool | None = None
        self._deals: tuple[np.ndarray, str] | None = None

    @classmethod
    def from_record(cls, record: Record, **options) -> Belief:
        """The belief of the record's observer (``Me:``), or a spectator's when it names none.

        Raises :class:`RecordError` naming the line of the first event that is illegal
        or that leaves no consistent deal; for the latter the message names, where the
        model can tell, the earlier lines it contradicts (``AS can be nowhere: it
        contradicts line 11 (Dan asks Cat for 9S: no)``) or the hand it leaves unfillable.
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
                    impossible = isinstance(error, InconsistentError)
                    raise RecordError(line, belief._why_impossible(record, pushed, error) if impossible
                                      else str(error)) from None
                break  # an earlier event already left no deal: that one is to blame
            pushed += 1
        if pushed == len(record.events) and belief.is_consistent():
            return belief
        impossible = belief._first_impossible_prefix(record, pushed)
        raise RecordError(record.lines[impossible - 1], belief._why_no_deal(record))

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
        self._forget()
        try:
            consistent = self.is_consistent()
        except inference.InferenceError:
            self.tracker.pop()
            self._forget()
            raise
        if not consistent:
            self.tracker.pop()
            self._forget()
            raise InconsistentError("no deal is consistent with this event and what came before")
        return recorded

    def pop(self) -> Event:
        """Undo the last event and return it."""
        self._forget()
        return self.tracker.pop()

    def push_unchecked(self, event: Event) -> Event:
        """Apply ``event`` without asking the backend whether some deal is still consistent.

        For a belief that shadows a checked one over the same history, such as a
        spectator's beside a player's: the player's constraints include the
        spectator's, so a history the player's belief accepts leaves the spectator
        some deal. Raises like :meth:`push` for an illegal event and changes nothing.
        """
        recorded = self.tracker.push(event)
        self._forget()
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

    @property
    def resolved_method(self) -> str:
        """The method that answers now: ``exact``, ``sample`` or ``csp`` (``auto`` is exact where practical)."""
        if self.method != "auto":
            return self.method
        return "exact" if self._exact_fits() else "sample"

    def _exact_fits(self) -> bool:
        """Whether exact inference is practical for this state (worked out once per state)."""
        if self._fits is None:
            self._fits = inference.exact_is_practical(self.tracker.model, self.max_operations)
        return self._fits

    def posterior(self) -> Posterior:
        """The backend's distribution over the *dealt* holder of every card (cached until the next push/pop)."""
        if self._posterior is None:
            if self.resolved_method == "sample":
                self._posterior = posterior_of(self.tracker.model, *self._drawn())
            else:
                self._posterior = inference.infer(self.tracker.model, self.resolved_method)
        return self._posterior

    def is_consistent(self) -> bool:
        """Whether some deal explains everything observed.

        Exact methods decide it, and so do the sampler's tables where they fit;
        otherwise a consistent deal is searched for
        (:func:`~cardlogic.inference.sampler.starting_deal`), which raises
        :class:`~cardlogic.inference.InferenceError` when it can neither find one
        nor prove there is none.
        """
        try:
            if self.resolved_method == "sample" and self._deals is None and not self._exact_fits():
                # drawing every sample only to learn this would be slow
                starting_deal(pack(self.tracker.model), self.seed)
            else:
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
        """The exact number of deals consistent with everything observed.

        Raises :class:`~cardlogic.inference.InferenceError` where the exact tables would be
        too large, whatever ``method`` is.
        """
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
        return tuple(self.tracker.in_play()), self._current_deals(inference.sample(self.tracker.model, n, seed))

    def chances(self, restrictions: Sequence[Mapping[int | str, int]]) -> list[float]:
        """P(every card of ``restrictions[i]`` is held now by a player in its bitmask), for each ``i``.

        A card of a claimed set is held by nobody, so a restriction naming one
        has chance 0. Exact where the belief answers exactly (all restrictions
        at about the cost of three passes), else the share of the sampled deals.
        """
        known = self.tracker.public.known
        dealt: list[dict[int, int]] = []
        possible: list[bool] = []
        for restriction in restrictions:
            unmoved: dict[int, int] = {}
            ok = True
            for card, mask in restriction.items():
                card = self._card(card)
                if card in known:
                    ok = ok and bool(mask >> known[card] & 1)
                elif self._claimed(card):
                    ok = False
                else:
                    unmoved[card] = unmoved.get(card, -1) & mask
            dealt.append(unmoved)
            possible.append(ok)
        wanted = [r for r, ok in zip(dealt, possible) if ok and r]
        model = self.tracker.model
        if not wanted:
            answers: list[float] = []
        elif self.resolved_method == "sample":
            deals, _ = self._drawn()
            answers = [hits / len(deals) for hits in restriction_hits(deals, model.cards, wanted)]
        else:
            answers = inference.chances(model, wanted, self.resolved_method)
        found = iter(answers)
        return [(next(found) if r else 1.0) if ok else 0.0 for r, ok in zip(dealt, possible)]

    def assignments(self, cards: Iterable[int | str], players: int) -> tuple[np.ndarray, np.ndarray]:
        """How ``cards`` are likely shared among ``players`` (a bitmask), given that they all hold them now.

        Returns ``(rows, probabilities)``: one row of current holders (in the order
        of ``cards``) per assignment that some consistent deal makes, with its
        probability given the condition (exact, or the share of the sampled deals
        that meet it). Raises :class:`InconsistentError` when no deal meets it.
        """
        cards = [self._card(card) for card in cards]
        known = self.tracker.public.known
        if any(self._claimed(c) or (c in known and not players >> known[c] & 1) for c in cards):
            raise InconsistentError("a card is held by nobody or by a player outside the mask")
        unmoved = [c for c in cards if c not in known]
        if self.resolved_method == "sample":
            deals, _ = self._drawn()
            columns = [self.tracker.model.cards.index(c) for c in unmoved]
            rows = deals[:, columns].astype(np.int64)
            rows = rows[((players >> rows) & 1).all(axis=1)]
            if not len(rows):
                raise InconsistentError("no sampled deal meets the condition")
            distinct, weights = np.unique(rows, axis=0, return_counts=True)
            probabilities = weights / len(rows)
        else:
            restricted = self.tracker.model.copy()
            for card in unmoved:
                restricted.restrict(card, players)
            distinct, probabilities = inference.placements(restricted, unmoved) if unmoved else (
                np.zeros((1, 0), np.int64), np.ones(1))
        full = np.empty((len(distinct), len(cards)), np.int64)
        for i, card in enumerate(cards):
            full[:, i] = known[card] if card in known else distinct[:, unmoved.index(card)]
        return full, probabilities

    def given(self, placements: Mapping[int | str, int | str]) -> dict[Card, np.ndarray]:
        """P(card is held by player now) for every card in play, given that each card of ``placements``
        (unmoved cards) is held by its player; a dict card -> row over players.
        """
        fixed = {self._card(c): self._player(p) for c, p in placements.items()}
        model = self.tracker.model
        if self.resolved_method == "sample":
            deals, _ = self._drawn()
            keep = np.ones(len(deals), bool)
            for card, player in fixed.items():
                keep &= deals[:, model.cards.index(card)] == player
            if not keep.any():
                raise InconsistentError("no sampled deal meets the condition")
            dealt = frequencies(deals[keep], len(self.game.players))
        else:
            narrowed = model.copy()
            for card, player in fixed.items():
                narrowed.place(card, player)
            if self.resolved_method == "exact":
                dealt = inference.ExactBackend().marginals(narrowed)
            else:
                dealt = inference.infer(narrowed, self.resolved_method).marginals
        return dict(zip(self.tracker.in_play(), self._current(dealt)))

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

    def _drawn(self) -> tuple[np.ndarray, str]:
        """The sampled deals of this state (dealt holders, model card order) and how they were drawn, cached."""
        if self._deals is None:
            limit = inference.AUTO_MAX_OPERATIONS if self.max_operations is None else self.max_operations
            sampler = SamplerBackend(self.samples, self.seed, max_operations=limit)
            self._deals = sampler.draw(self.tracker.model, self.samples, self.seed)
        return self._deals

    def _current_deals(self, deals: np.ndarray) -> np.ndarray:
        """Deals over dealt holders (model card order) as current holders of the cards in play."""
        columns = {card: i for i, card in enumerate(self.tracker.model.cards)}
        in_play = self.tracker.in_play()
        current = np.empty((len(deals), len(in_play)), dtype=np.int8)
        for j, card in enumerate(in_play):
            holder = self.tracker.public.known.get(card)
            current[:, j] = deals[:, columns[card]] if holder is None else holder
        return current

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

    def _first_impossible_prefix(self, record: Record, pushed: int) -> int:
        """Bisect the first ``pushed`` events of ``record`` (pushed, with no consistent deal) for the shortest
        prefix with none, and leave the tracker holding that prefix."""
        low, high = 0, pushed  # prefix of length low is consistent, of length high is not
        while high - low > 1:
            middle = (low + high) // 2
            pushed = self._hold(record, pushed, middle)
            if self.is_consistent():
                low = middle
            else:
                high = middle
        self._hold(record, pushed, high)
        return high

    def _hold(self, record: Record, pushed: int, wanted: int) -> int:
        """Pop or push ``record``'s events until the tracker, holding the first ``pushed``, holds the first
        ``wanted``; return ``wanted``."""
        while pushed > wanted:
            self.tracker.pop()
            pushed -= 1
        while pushed < wanted:
            self.tracker.push(record.events[pushed])
            pushed += 1
        self._forget()
        return wanted

    def _why_no_deal(self, record: Record) -> str:
        """Why the tracker's model of ``record``'s events so far has no deal, where a hand size shows it.

        The shown case: a player was dealt more cards than the model still allows them,
        named with the lines that ruled them out of the rest.
        """
        model, names = self.tracker.model, self.game.players
        for holder, size in enumerate(model.sizes):
            room = sum(1 for mask in model.allowed.values() if mask >> holder & 1)
            if room >= size:
                continue
            lines = sorted({record.lines[index] for card in model.cards
                            for index, ruled_out in self.tracker.explain(card) if ruled_out >> holder & 1})
            sources = [_runs(lines)] if lines else []
            if self.observer is not None and self.observer != holder:
                sources.append(f"{names[self.observer]}'s hand")
            because = f"{' and '.join(sources)} leave only" if sources else "only"
            return (f"no deal is consistent with this event: {names[holder]} was dealt {size} cards, but {because} "
                    f"{room} that can have been {names[holder]}'s")
        return "no deal is consistent with this event"

    def _why_impossible(self, record: Record, pushed: int, error: InconsistentError) -> str:
        """``error``'s message, naming the earlier lines of ``record`` that ``record.events[pushed]`` contradicts.

        The tracker holds the first ``pushed`` events. A card that can be nowhere is
        explained holder by holder (which line ruled each out); the line the event
        contradicts is named when the model's cheap checks can find it.
        """
        names = self.game.players
        reasons = []
        lines = set()
        if error.card is not None:
            for index, ruled_out in self.tracker.explain(error.card):
                holders = [names[p] for p in range(len(names)) if ruled_out >> p & 1]
                verb = "" if reasons else " ruled out"
                reasons.append(f"{_and(holders)}{verb} by line {record.lines[index]}")
                lines.add(record.lines[index])
        blamed = self.tracker.contradicted(record.events[pushed])
        if blamed == -1 and self.observer is not None:
            reasons.append(f"it contradicts {names[self.observer]}'s hand")
        elif blamed is not None and blamed >= 0 and record.lines[blamed] not in lines:
            reasons.append(f"it contradicts line {record.lines[blamed]} "
                           f"({format_event(record.events[blamed], self.game)})")
        return f"{error}: {'; '.join(reasons)}" if reasons else str(error)

    def _claimed(self, card: Card) -> bool:
        return self.game.deck.set_index_of(card) in self.tracker.public.claimed

    def _card(self, card: int | str) -> Card:
        return Card.parse(card) if isinstance(card, str) else CARDS[card]

    def _player(self, player: int | str) -> int:
        return self.game.player_index(player) if isinstance(player, str) else player


def _runs(lines: list[int]) -> str:
    """Sorted line numbers in words, runs joined: ``line 7``, ``lines 7-9 and 12``."""
    runs: list[list[int]] = []
    for line in lines:
        if runs and line == runs[-1][-1] + 1:
            runs[-1].append(line)
        else:
            runs.append([line])
    words = [str(run[0]) if len(run) == 1 else f"{run[0]}-{run[-1]}" for run in runs]
    return f"{'line' if len(lines) == 1 else 'lines'} {_and(words)}"


def _and(words: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return " and ".join(words) if len(words) < 3 else f"{', '.join(words[:-1])} and {words[-1]}"
