"""One observer's belief about hidden cards: a game's constraints on one hidden deal, answered by inference.

Each game translates its public history (and what the observer saw privately)
into constraints on one hidden variable, a deal of cards to holders, kept by a
:class:`Tracker`. :class:`Belief` wraps any tracker and answers questions about
where the cards in play are *now*, over the uniform distribution of the deals
consistent with everything observed, through the backends of
:mod:`cardlogic.inference` (exact where practical, sampled beyond). A card that
moved in public since the hidden deal is where it moved to; a card out of play
(claimed, played) is held by nobody. :class:`WeightedBelief` adds the players'
prior both games offer: the same deals, each weighted by how likely the players'
choices were under it.

>>> from cardlogic.constraints import DealModel
>>> class Notes:  # the smallest tracker: two holders, a fixed model, nothing moves
...     def __init__(self):
...         self.model = DealModel(("Ann", "Bob"), (1, 1), [0, 1])
...     def in_play(self): return list(self.model.cards)
...     def moved(self): return {}
>>> belief = Belief(Notes(), method="exact")
>>> belief.probability("2S", "Bob"), belief.count()
(0.5, 2)
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar, runtime_checkable

import numpy as np

from cardlogic import arguments, inference
from cardlogic.arguments import MAX_DRAWN_DEALS, ArgumentError, ArgumentTypeError
from cardlogic.cards import Card
from cardlogic.constraints import DealModel, InconsistentError
from cardlogic.inference.base import Posterior, distinct_rows, restriction_hits
from cardlogic.inference.packed import pack
from cardlogic.inference.sampler import SamplerBackend, frequencies, posterior_of, posterior_of_counts, starting_deal

Answer = TypeVar("Answer")


class Tracker(Protocol):
    """What a game gives a :class:`Belief`: constraints on the hidden deal, kept up to date by its events.

    ``model`` constrains the hidden deal (its holders are the belief's holders).
    ``in_play()`` lists the cards whose place still matters, in a fixed order;
    ``moved()`` maps each card in play that moved in public since the hidden
    deal to its current holder. ``push``/``pop`` apply and undo one event,
    raising and changing nothing on an illegal or contradictory one.
    """

    model: DealModel

    def in_play(self) -> list[Card]: ...

    def moved(self) -> Mapping[Card, int]: ...

    def push(self, event: Any) -> Any: ...

    def pop(self) -> Any: ...


@runtime_checkable
class ReplayingTracker(Tracker, Protocol):
    """A tracker that can rebuild its model from some of its events only: what :meth:`Belief.forcing_events`
    needs to find the events that force a fact.

    ``event_count()`` is the number of events pushed; ``model_of(indices)`` the constraints of what the observer
    knew before any event and of the events at ``indices`` only (each read as it was when pushed), raising
    :class:`InconsistentError` when they already fail the model's cheap checks.
    """

    def event_count(self) -> int: ...

    def model_of(self, indices: Iterable[int]) -> DealModel: ...


QUICK_REPAIR_STEPS = 2_000
"""Repair steps of :func:`has_deal`'s first, short search: a deal that exists is mostly found within them, far sooner
than the exact count (a tenth of it, 12 players mid-game), and a search that fails costs little beside that count."""


def has_deal(model: DealModel, seed: int = 0) -> bool:
    """Whether some deal satisfies ``model``: a short search for one first
    (:func:`~cardlogic.inference.sampler.starting_deal` within :data:`QUICK_REPAIR_STEPS`), then counted exactly
    where practical, else searched for at length; True when the search can neither find one nor prove there is
    none, so that a caller never takes an undecided model for an impossible one."""
    try:
        packed = pack(model)
        try:
            starting_deal(packed, seed, repair_steps=QUICK_REPAIR_STEPS)
            return True
        except inference.InferenceError:  # undecided: count
            pass
        if inference.exact_is_practical(model, marginals=True):
            return inference.count(model) > 0
        starting_deal(packed, seed)
    except InconsistentError:
        return False
    except inference.InferenceError:
        return True
    return True


@dataclass(frozen=True)
class Fact:
    """``name`` (holder index ``holder``) holds ``card`` now (``has``) or does not (``not has``), in every
    consistent deal."""

    card: Card
    holder: int
    has: bool
    name: str

    def __str__(self) -> str:
        return f"{self.name} {'holds' if self.has else 'lacks'} {self.card}"


@dataclass(frozen=True)
class Marginals:
    """P(``cards[i]`` is now held by ``holders[j]``) as ``probabilities[i, j]``, with the method's details."""

    cards: tuple[Card, ...]
    holders: tuple[str, ...]
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
    default of :func:`~cardlogic.inference.exact_is_practical`). Answers are
    worked out once per state and kept until the next :meth:`push` or :meth:`pop`.
    """

    def __init__(
        self,
        tracker: Tracker,
        *,
        method: str = "auto",
        samples: int = 20000,
        seed: int = 0,
        max_operations: float | None = None,
    ) -> None:
        if method not in inference.METHODS:
            raise ArgumentError(f"unknown inference method {method!r}; expected one of {', '.join(inference.METHODS)}")
        if max_operations is not None:
            if isinstance(max_operations, bool) or not isinstance(max_operations, int | float):
                raise ArgumentTypeError(f"max_operations must be a number or None, not {max_operations!r}")
            if not max_operations > 0:
                raise ArgumentError(f"max_operations must be positive, not {max_operations!r}")
        self.tracker = tracker
        self.method, self.samples, self.seed = method, arguments.samples(samples), arguments.seed(seed)
        self.max_operations = max_operations
        self._forget()

    def _forget(self) -> None:
        """Drop what was worked out for the previous state."""
        self._posterior: Posterior | None = None
        self._fits: bool | None = None
        self._deals: tuple[np.ndarray, str] | None = None
        self._sampled: set[str] = set()  # the kinds of question sampled in this state, beyond auto's budget
        self._in_play: list[Card] | None = None
        self._playing: frozenset[Card] = frozenset()

    @property
    def holders(self) -> tuple[str, ...]:
        """The names of the holders, in index order."""
        return self.tracker.model.holders

    @property
    def model(self) -> DealModel:
        """The constraints on the hidden deal now (read it, don't narrow it: narrow a copy)."""
        return self.tracker.model

    def in_play(self) -> list[Card]:
        """The cards whose place still matters, in the order of :meth:`marginals`' rows."""
        if self._in_play is None:
            self._in_play = list(self.tracker.in_play())
            self._playing = frozenset(self._in_play)
        return self._in_play

    def push(self, event: Any) -> Any:
        """Apply ``event`` and return it as the tracker recorded it.

        If it is illegal, leaves no consistent deal (:class:`InconsistentError`) or
        the method cannot tell (:class:`~cardlogic.inference.InferenceError`), raise
        and change nothing.
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

    def pop(self) -> Any:
        """Undo the last event and return it."""
        self._forget()
        return self.tracker.pop()

    def push_unchecked(self, event: Any) -> Any:
        """Apply ``event`` without asking the backend whether some deal is still consistent.

        For a belief that shadows a checked one over the same history, such as a
        spectator's beside a player's: the player's constraints include the
        spectator's, so a history the player's belief accepts leaves the spectator
        some deal. Raises like :meth:`push` for an illegal event and changes nothing.
        """
        recorded = self.tracker.push(event)
        self._forget()
        return recorded

    # -- questions ---------------------------------------------------------------------------------------------------

    @property
    def resolved_method(self) -> str:
        """The method that answers now: ``exact``, ``sample`` or ``csp`` (``auto`` is exact where practical)."""
        if self.method != "auto":
            return self.method
        return "exact" if self._exact_fits() else "sample"

    @property
    def chance_method(self) -> tuple[str, int]:
        """How chances and assignments have been answered in this state: ``(method, 0)`` where all exact (or
        csp), else the sampled deals' method (``sample`` or ``mcmc``) and their number. Marginals may be exact
        even so (:meth:`posterior`)."""
        if self.resolved_method != "sample" and not self._sampled:
            return self.resolved_method, 0
        deals, how = self._drawn()
        return how, len(deals)

    def _exactly(self, kind: str, question: Callable[[inference.ExactBackend], Answer]) -> Answer | None:
        """``question`` (of a ``kind``: chances, placements) asked of the exact backend, or None where it is to be
        answered from the sampled deals.

        Under ``auto`` the backend keeps to the budget :attr:`resolved_method` was judged on: chances and
        placements pack the model keeping more holders apart (teams, the set's holders), which can cost far more
        than the marginals. Beyond it, this state's questions of that kind are sampled (:attr:`chance_method`
        says so)."""
        if self.resolved_method == "sample" or kind in self._sampled:
            return None
        if self.method != "auto":
            return question(inference.ExactBackend())
        try:
            return question(inference.budgeted(self.max_operations))
        except inference.InferenceError:
            self._sampled.add(kind)
            return None

    def _exact_fits(self) -> bool:
        """Whether exact counts and marginals are practical for this state (worked out once per state)."""
        if self._fits is None:
            self._fits = inference.exact_is_practical(self.model, self.max_operations, marginals=True)
        return self._fits

    def posterior(self) -> Posterior:
        """The backend's distribution over the *dealt* holder of every card (cached until the next push/pop).

        ``auto`` answers it exactly wherever counts and marginals fit, even where
        other questions (assignments) are sampled.
        """
        if self._posterior is None:
            if self.resolved_method == "sample" and self._deals is not None:
                self._posterior = posterior_of(self.model, *self._deals)
            elif self.resolved_method == "sample":  # counted as drawn: no array of deals for marginals alone
                counts, method = self._sampler().counts(self.model, self.samples, self.seed)
                self._posterior = posterior_of_counts(self.model, counts, method, self.samples)
            else:
                self._posterior = inference.infer(self.model, self.resolved_method)
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
                starting_deal(pack(self.model), self.seed)
            else:
                self.posterior()
        except InconsistentError:
            return False
        return True

    def marginals(self) -> Marginals:
        """P(card is held by holder now) for every card in play."""
        posterior = self.posterior()
        table, stderr = self._current(posterior.marginals), None
        if posterior.stderr is not None:
            stderr = self._current(posterior.stderr, moved=0.0)
        return Marginals(
            tuple(self.in_play()), self.holders, table, posterior.method, posterior.count, posterior.samples, stderr
        )

    def probability(self, card: int | str, holder: int | str) -> float:
        """P(``holder`` holds ``card`` now); 0 for a card out of play, which nobody holds."""
        card, holder = self._card(card), self._holder(holder)
        moved = self.tracker.moved()
        if card in moved:
            return float(moved[card] == holder)
        if self._out_of_play(card):
            return 0.0
        return self.posterior().probability(card, holder)

    def count(self) -> int:
        """The exact number of deals consistent with everything observed.

        Raises :class:`~cardlogic.inference.InferenceError` where the exact tables would be
        too large, whatever ``method`` is.
        """
        return inference.count(self.model)

    def joint(self, placements: Mapping[int | str, int | str]) -> float:
        """P(every card of ``placements`` is held now by its holder)."""
        moved = self.tracker.moved()
        unmoved: dict[int, int] = {}
        for card, holder in placements.items():
            card, holder = self._card(card), self._holder(holder)
            if card in moved:
                if moved[card] != holder:
                    return 0.0
            elif self._out_of_play(card):
                return 0.0
            else:
                unmoved[card] = holder
        if not unmoved:
            return 1.0
        return inference.joint(self.model, unmoved, method=self.method, samples=self.samples, seed=self.seed)

    def sample(self, n: int, seed: int = 0) -> tuple[tuple[Card, ...], np.ndarray]:
        """``n`` consistent deals drawn uniformly, as current holders: (cards in play, array n x cards).

        ``n`` is at most :data:`~cardlogic.arguments.MAX_DRAWN_DEALS` (the array holds every deal); for
        marginals over more deals, set ``samples`` and ask :meth:`marginals`, which counts as it draws.
        """
        n = arguments.samples(n, "n", MAX_DRAWN_DEALS)
        return tuple(self.in_play()), self._current_deals(inference.sample(self.model, n, arguments.seed(seed)))

    def chances(self, restrictions: Sequence[Mapping[int | str, int]]) -> list[float]:
        """P(every card of ``restrictions[i]`` is held now by a holder in its bitmask), for each ``i``.

        A card out of play is held by nobody, so a restriction naming one has
        chance 0. Exact where the belief answers exactly (all restrictions at
        about the cost of three passes), else the share of the sampled deals.
        """
        moved = self.tracker.moved()
        dealt: list[dict[int, int]] = []
        possible: list[bool] = []
        for restriction in restrictions:
            unmoved: dict[int, int] = {}
            ok = True
            for card, mask in restriction.items():
                card = self._card(card)
                if card in moved:
                    ok = ok and bool(mask >> moved[card] & 1)
                elif self._out_of_play(card):
                    ok = False
                else:
                    unmoved[card] = unmoved.get(card, -1) & mask
            dealt.append(unmoved)
            possible.append(ok)
        wanted = [r for r, ok in zip(dealt, possible) if ok and r]
        answers: list[float] | None = []
        if wanted and self.resolved_method == "csp":
            answers = inference.chances(self.model, wanted, "csp")
        elif wanted:
            answers = self._exactly("chances", lambda exact: exact.chances(self.model, wanted))
        if answers is None:
            deals, _ = self._drawn()
            weights = self._weights()
            total = len(deals) if weights is None else float(weights.sum())
            answers = [hits / total for hits in restriction_hits(deals, self.model.cards, wanted, weights)]
        found = iter(answers)
        return [(next(found) if r else 1.0) if ok else 0.0 for r, ok in zip(dealt, possible)]

    def assignments(self, cards: Iterable[int | str], holders: int) -> tuple[np.ndarray, np.ndarray]:
        """How ``cards`` are likely shared among ``holders`` (a bitmask), given that they all hold them now.

        Returns ``(rows, probabilities)``: one row of current holders (in the order
        of ``cards``) per assignment that some consistent deal makes, with its
        probability given the condition (exact, or the share of the sampled deals
        that meet it). Raises :class:`InconsistentError` when no deal meets it.
        """
        chosen = [self._card(card) for card in cards]
        moved = self.tracker.moved()
        if any(
            (c not in moved and self._out_of_play(c)) or (c in moved and not holders >> moved[c] & 1) for c in chosen
        ):
            raise InconsistentError("a card is held by nobody or by a holder outside the mask")
        unmoved = [c for c in chosen if c not in moved]
        restricted = self.model.copy()
        for card in unmoved:
            restricted.restrict(card, holders)
        found = (
            self._exactly("placements", lambda exact: exact.placements(restricted, unmoved))
            if unmoved
            else (np.zeros((1, 0), np.int64), np.ones(1))
        )
        if found is None:
            deals, _ = self._drawn()
            columns = [self.model.cards.index(c) for c in unmoved]
            rows = deals[:, columns].astype(np.int64)
            meets = ((holders >> rows) & 1).all(axis=1)
            weights = self._weights()
            rows, shares = rows[meets], (np.ones(len(rows)) if weights is None else weights)[meets]
            if not len(rows) or not shares.sum() > 0:
                raise InconsistentError("no sampled deal meets the condition")
            distinct, inverse = distinct_rows(rows, len(self.holders))
            probabilities = np.bincount(inverse, shares, len(distinct)) / shares.sum()
        else:
            distinct, probabilities = found
        full = np.empty((len(distinct), len(chosen)), np.int64)
        for i, card in enumerate(chosen):
            full[:, i] = moved[card] if card in moved else distinct[:, unmoved.index(card)]
        return full, probabilities

    def given(self, placements: Mapping[int | str, int | str]) -> dict[Card, np.ndarray]:
        """P(card is held by holder now) for every card in play, given that each card of ``placements``
        (unmoved cards) is held by its holder; a dict card -> row over holders.
        """
        fixed = {self._card(c): self._holder(p) for c, p in placements.items()}
        model = self.model
        if self.resolved_method == "sample":
            deals, _ = self._drawn()
            keep = np.ones(len(deals), bool)
            for card, holder in fixed.items():
                keep &= deals[:, model.cards.index(card)] == holder
            weights = self._weights()
            if not keep.any() or (weights is not None and not weights[keep].sum() > 0):
                raise InconsistentError("no sampled deal meets the condition")
            dealt = frequencies(deals[keep], len(self.holders), None if weights is None else weights[keep])
        elif self.resolved_method == "exact" and len(fixed) == 1:
            ((card, holder),) = fixed.items()
            dealt = inference.ExactBackend().given(model, card, holder)
        else:
            narrowed = model.copy()
            for card, holder in fixed.items():
                narrowed.place(card, holder)
            if self.resolved_method == "exact":
                dealt = inference.ExactBackend().marginals(narrowed)
            else:
                dealt = inference.infer(narrowed, self.resolved_method).marginals
        return dict(zip(self.in_play(), self._current(dealt)))

    def certain(self) -> list[Fact]:
        """Every has/lacks fact about cards in play that holds in every consistent deal.

        Exact where the exact backend is practical; otherwise the facts the
        constraint model states outright (still true, possibly fewer).
        """
        model = self.model
        posterior: Posterior | None
        try:
            posterior = self.posterior()
            if posterior.count is None and inference.exact_is_practical(model):
                posterior = inference.infer(model, "exact")
        except inference.InferenceError:
            posterior = None
        if posterior is not None and posterior.count is not None:
            probabilities = self._current(posterior.marginals)
        else:  # sampled marginals can miss rare deals: only the allowed sets are certain
            probabilities = self._current(self._allowed_table())
        facts = []
        for card, row in zip(self.in_play(), probabilities):
            holders = np.flatnonzero(row)
            for holder in range(len(self.holders)):
                if len(holders) == 1 and holders[0] == holder:
                    facts.append(Fact(card, holder, True, self.holders[holder]))
                elif row[holder] == 0:
                    facts.append(Fact(card, holder, False, self.holders[holder]))
        return facts

    def forcing_events(self, card: int | str, ruled_out: int) -> list[int]:
        """A smallest set of events (indices in the history) that, with what the observer knew before them (their
        hand, the hand sizes), rule out every holder in bitmask ``ruled_out`` as ``card``'s dealt holder; [] when
        that alone does. The tracker must answer :meth:`ReplayingTracker.model_of`.

        Found by deletion, from the last event back: an event is left out while the others still force the fact,
        so no event of the answer can be spared (a minimal set; no smaller one is searched for). Runs of events are
        left out at once, a run twice as long after each success: fewer events force no more, so this keeps the
        events that leaving them out one at a time keeps, in far fewer checks. Whether a set of events forces the
        fact is asked of the exact backend where practical, else of the model's cheap checks and a search for a
        deal, counting a set as not forcing it when neither can tell.
        """
        card = self._card(card)
        kept = list(range(self._replaying().event_count()))
        if not self._forces(kept, card, ruled_out):
            return kept  # only the sure-asks assumption forces it: every event stays
        settled, run = len(kept), 1  # kept[settled:] stays; the run of events just below it is tried next
        while settled:
            run = min(run, settled)
            trial = kept[: settled - run] + kept[settled:]
            if self._forces(trial, card, ruled_out):
                kept, settled, run = trial, settled - run, 2 * run
            elif run > 1:
                run //= 2
            else:
                settled -= 1
        return kept

    def _forces(self, indices: list[int], card: Card, ruled_out: int) -> bool:
        """Whether the events at ``indices`` leave no deal with ``card`` dealt to a holder in ``ruled_out``."""
        try:
            model = self._replaying().model_of(indices)
            model.restrict(card, ruled_out)
        except InconsistentError:
            return True
        return not has_deal(model, self.seed)

    def _replaying(self) -> ReplayingTracker:
        if not isinstance(self.tracker, ReplayingTracker):
            raise TypeError(f"{type(self.tracker).__name__} cannot rebuild its model from some of its events")
        return self.tracker

    # -- helpers -----------------------------------------------------------------------------------------------------

    def _drawn(self) -> tuple[np.ndarray, str]:
        """The sampled deals of this state (dealt holders, model card order) and how they were drawn, cached."""
        if self._deals is None:
            self._deals = self._sampler().draw(self.model, self.samples, self.seed)
        return self._deals

    def _weights(self) -> np.ndarray | None:
        """The weight of each deal of :meth:`_drawn` (summing to one), or None where they are equally likely."""
        return None

    def _sampler(self) -> SamplerBackend:
        """The sampler of this state, within the exact budget of the questions asked so far."""
        limit = inference.AUTO_MAX_OPERATIONS if self.max_operations is None else self.max_operations
        if self._sampled:  # the exact tables were judged too costly for the joint questions
            limit = inference.AUTO_JOINT_MAX_OPERATIONS * inference.budget_scale(self.max_operations)
        return SamplerBackend(self.samples, self.seed, max_operations=limit)

    def _current_deals(self, deals: np.ndarray) -> np.ndarray:
        """Deals over dealt holders (model card order) as current holders of the cards in play."""
        columns = {card: i for i, card in enumerate(self.model.cards)}
        moved = self.tracker.moved()
        in_play = self.in_play()
        current = np.empty((len(deals), len(in_play)), dtype=np.int8)
        for j, card in enumerate(in_play):
            holder = moved.get(card)
            current[:, j] = deals[:, columns[card]] if holder is None else holder
        return current

    def _current(self, dealt: np.ndarray, moved: float = 1.0) -> np.ndarray:
        """A cards x holders table over dealt holders, as one over current holders of the cards in play.

        A card that has moved gets ``moved`` at its current holder and 0 elsewhere.
        """
        rows = {card: i for i, card in enumerate(self.model.cards)}
        now = self.tracker.moved()
        in_play = self.in_play()
        table = np.zeros((len(in_play), len(self.holders)))
        for i, card in enumerate(in_play):
            holder = now.get(card)
            if holder is None:
                table[i] = dealt[rows[card]]
            else:
                table[i, holder] = moved
        return table

    def _allowed_table(self) -> np.ndarray:
        """1 where the model still allows a card's dealt holder, 0 where it rules it out."""
        holders = range(len(self.holders))
        return np.array([[mask >> h & 1 for h in holders] for mask in self.model.allowed.values()], dtype=float)

    def _out_of_play(self, card: Card) -> bool:
        self.in_play()
        return card not in self._playing

    def _card(self, card: int | str) -> Card:
        """``card`` (a name or an index) if it is in the game's deck, else a typed error naming it."""
        card = Card.parse(card) if isinstance(card, str) else Card(card)
        if card not in self.model.allowed:
            raise ArgumentError(f"card {card} is not in this game's deck")
        return card

    def _holder(self, holder: int | str) -> int:
        """``holder`` (a name or an index) as an index, else a typed error naming it."""
        if not isinstance(holder, str):
            return arguments.integer("holder", holder, 0, len(self.holders) - 1)
        try:
            return self.holders.index(holder)
        except ValueError:
            raise ArgumentError(f"no holder is called {holder!r}") from None


PRIORS = ("rules", "players")
"""The priors over deals: every consistent deal equally likely, or weighted by how the players chose."""


class Weighting(Protocol):
    """The players' prior of a :class:`WeightedBelief` in one state: the rules' deals it answers over (holders of
    the model's cards), each one's weight (None: equally likely, as resampled deals are), how the rules' deals were
    drawn (``sample``, exactly uniform, or ``mcmc``) and how many, and the effective sample size of their weights."""

    @property
    def deals(self) -> np.ndarray: ...

    @property
    def weights(self) -> np.ndarray | None: ...

    @property
    def how(self) -> str: ...

    @property
    def drawn(self) -> int: ...

    @property
    def effective(self) -> float: ...


Weighed = TypeVar("Weighed", bound=Weighting)
Choices = TypeVar("Choices")


class WeightedBelief(Belief, ABC, Generic[Weighed, Choices]):
    """A :class:`Belief` under one of :data:`PRIORS`: ``rules`` answers over the uniform distribution of the
    consistent deals, ``players`` over the rules' deals weighted by the likelihood of the players' choices under
    ``choices``, a game's model.

    The game weighs the deals of a state (:meth:`_weigh`), says whether the weights answer (:meth:`_answers`; where
    they do not, the rules alone answer, and :attr:`prior_answered` says so) and turns them into a posterior
    (:meth:`_weighted_posterior`). Whether some deal is consistent, and which facts are certain, are the rules'
    questions under either prior: the players' prior rules out no deal, and may weigh some too little to show.
    """

    choices: Choices

    def __init__(self, tracker: Tracker, *, prior: str, choices: Choices, **options: Any) -> None:
        if prior not in PRIORS:
            raise ArgumentError(f"unknown prior {prior!r}; expected one of {', '.join(PRIORS)}")
        self.prior, self.choices = prior, choices
        self._rules_only = False
        super().__init__(tracker, **options)

    def _forget(self) -> None:
        super()._forget()
        self._weighting: Weighed | None = None
        self._weighted: Posterior | None = None  # the players' prior's, beside the rules' own _posterior

    @abstractmethod
    def _weigh(self) -> Weighed:
        """The players' prior in this state, however few deals its weights leave."""

    @abstractmethod
    def _answers(self, weighting: Weighed) -> bool:
        """Whether ``weighting`` answers, or leaves too few effective deals for the rules not to answer instead."""

    @abstractmethod
    def _weighted_posterior(self, weighting: Weighed) -> Posterior:
        """The distribution over the dealt holder of every card under ``weighting``."""

    def _weighed_in_words(self, weighting: Weighed, size: str) -> str:
        """How ``weighting``, which answers, was had (``size``: its effective sample size in words)."""
        return size

    @property
    def weighting(self) -> Weighed | None:
        """The players' prior in this state, or None where the rules answer (``prior="rules"``, or collapsed)."""
        if self.prior == "rules" or self._rules_only:
            return None
        if self._weighting is None:
            self._weighting = self._weigh()
        return self._weighting if self._answers(self._weighting) else None

    @property
    def prior_answered(self) -> str:
        """Which prior answers now, in words: ``rules``, ``players (effective sample size 812 of 4,000 deals)`` or
        ``rules (the players' prior collapsed: effective sample size 3 of 4,000 deals)``."""
        if self.prior == "rules":
            return "rules"
        answering = self.weighting
        drawn = self._weighting
        assert drawn is not None
        size = f"effective sample size {drawn.effective:,.0f} of {drawn.drawn:,} deals"
        if answering is None:
            return f"rules (the players' prior collapsed: {size})"
        return f"players ({self._weighed_in_words(drawn, size)})"

    @contextmanager
    def _by_the_rules(self) -> Iterator[None]:
        """Answer by the rules alone for a while."""
        kept, self._rules_only = self._rules_only, True
        try:
            yield
        finally:
            self._rules_only = kept

    @property
    def resolved_method(self) -> str:
        return "sample" if self.weighting is not None else super().resolved_method

    def posterior(self) -> Posterior:
        """The distribution over the dealt holder of every card: under the players' prior, the weighted deals'."""
        weighting = self.weighting
        if weighting is None:
            return super().posterior()
        if self._weighted is None:
            self._weighted = self._weighted_posterior(weighting)
        return self._weighted

    def _drawn(self) -> tuple[np.ndarray, str]:
        """Under the players' prior, its deals (with :meth:`_weights`)."""
        weighting = self.weighting
        return (weighting.deals, weighting.how) if weighting is not None else super()._drawn()

    def _weights(self) -> np.ndarray | None:
        weighting = self.weighting
        return None if weighting is None else weighting.weights

    def joint(self, placements: Mapping[int | str, int | str]) -> float:
        """P(every card of ``placements`` is held now by its holder): under the players' prior, from its deals."""
        if self.weighting is None:
            return super().joint(placements)
        return self.chances([{card: 1 << self._holder(holder) for card, holder in placements.items()}])[0]

    def is_consistent(self) -> bool:
        """Whether some deal explains everything observed: a question of the rules (the players' prior rules out
        no deal)."""
        with self._by_the_rules():
            return super().is_consistent()

    def certain(self) -> list[Fact]:
        """Every has/lacks fact that holds in every consistent deal: a question of the rules under either prior (a
        fact all the players' weighted deals agree on may still fail in a deal they weigh little)."""
        with self._by_the_rules():
            return super().certain()

    def sample(self, n: int, seed: int = 0) -> tuple[tuple[Card, ...], np.ndarray]:
        """``n`` consistent deals (see :meth:`Belief.sample`): under the players' prior, drawn by their weights."""
        weighting = self.weighting
        if weighting is None:
            return super().sample(n, seed)
        n, seed = arguments.samples(n, "n", MAX_DRAWN_DEALS), arguments.seed(seed)
        rows = np.random.default_rng(seed).choice(len(weighting.deals), n, p=weighting.weights)
        return tuple(self.in_play()), self._current_deals(weighting.deals[rows])
