"""The reference oracle: every consistent deal of a model, enumerated by python-constraint2.

:class:`CspBackend` states a :class:`~cardlogic.constraints.DealModel` as a
``constraint.Problem`` and lets its backtracking solver list the consistent
deals one by one. It is slow and shares no code with the fast backends, which is
the point: tests compare those backends against it. The encoding:

* one variable per card (the card's int), its domain the holder indices the
  card's allowed mask permits;
* per holder ``h`` a built-in ``SomeInSetConstraint({h}, n=size, exact=True)``
  over the cards that may go to ``h``: exactly ``size`` of them take value ``h``
  (it prunes both ways during the search and forward-checks the last slots);
* per clause a ``FunctionConstraint`` over the clause's cards, true when some
  card sits in its clause mask (pairs on the same card are merged by OR first).

Enumeration is refused up front with :class:`~cardlogic.inference.base.InferenceError`
when a cheap upper bound on the deals ignoring clauses exceeds ``max_deals``:
the smaller of the product of domain sizes and the multinomial coefficient of the
unplaced cards into the open slots. The solver's search stays near that many
leaves, so a model under the bound finishes in about ``bound / rate`` seconds.

>>> model = DealModel(("Ann", "Bob"), (1, 1), [0, 1])
>>> model.require_one_of(0, [1])
>>> backend = CspBackend()
>>> backend.count(model), backend.posterior(model).probability(0, 1)
(1, 1.0)
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from operator import itemgetter

import numpy as np
from constraint import FunctionConstraint, OptimizedBacktrackingSolver, Problem, SomeInSetConstraint

from cardlogic.cards import Card
from cardlogic.constraints import DealModel, InconsistentError
from cardlogic.inference.base import InferenceError, Posterior, restriction_hits

_CHUNK = 1 << 16


@dataclass(frozen=True)
class Enumeration:
    """How long one full enumeration took: ``deals`` consistent deals in ``seconds``."""

    deals: int
    seconds: float

    @property
    def rate(self) -> float:
        """Deals enumerated per second (infinite for an instant run)."""
        return self.deals / self.seconds if self.seconds > 0 else math.inf


class CspBackend:
    """Exact answers by listing every consistent deal with python-constraint2.

    ``max_deals`` caps the cheap upper bound of :func:`deal_bound`; bigger models
    raise :class:`InferenceError` before any search. After every full enumeration
    (:meth:`posterior`, :meth:`joint`, :meth:`count`) ``last`` holds its timing.
    """

    name = "csp"

    def __init__(self, max_deals: int = 2_000_000) -> None:
        self.max_deals = max_deals
        self.last: Enumeration | None = None

    def posterior(self, model: DealModel) -> Posterior:
        """Exact marginals and count; raises :class:`InconsistentError` when no deal is consistent."""
        holders = len(model.holders)
        cards = len(model.cards)
        tallies = np.zeros(cards * holders, dtype=np.int64)
        offsets = np.arange(cards, dtype=np.int64) * holders

        def tally(chunk: np.ndarray) -> None:
            tallies[:] += np.bincount((chunk + offsets).ravel(), minlength=tallies.size)

        count = self._enumerate(model, tally)
        if count == 0:
            raise InconsistentError("no deal satisfies the model")
        marginals = tallies.reshape(cards, holders) / count
        return Posterior("csp", model.holders, model.cards, marginals, count=count)

    def joint(self, model: DealModel, placements: Mapping[int, int]) -> float:
        """P(every card of ``placements`` went to its holder); :class:`InconsistentError` when no deal exists."""
        index: dict[int, int] = {card: i for i, card in enumerate(model.cards)}
        columns = np.array([index[card] for card in placements], dtype=np.int64)
        wanted = np.array(list(placements.values()), dtype=np.int8)
        hits = 0

        def tally(chunk: np.ndarray) -> None:
            nonlocal hits
            hits += int(np.count_nonzero((chunk[:, columns] == wanted).all(axis=1)))

        count = self._enumerate(model, tally)
        if count == 0:
            raise InconsistentError("no deal satisfies the model")
        return hits / count

    def chances(self, model: DealModel, restrictions: Sequence[Mapping[int, int]]) -> list[float]:
        """P(every card of each restriction went to a holder in its mask); InconsistentError when no deal exists."""
        hits = np.zeros(len(restrictions), np.int64)

        def tally(chunk: np.ndarray) -> None:
            hits[:] += np.asarray(restriction_hits(chunk, model.cards, restrictions), np.int64)

        count = self._enumerate(model, tally)
        if count == 0:
            raise InconsistentError("no deal satisfies the model")
        return [int(h) / count for h in hits]

    def count(self, model: DealModel) -> int:
        """The exact number of consistent deals (0 when there is none)."""
        return self._enumerate(model, lambda chunk: None)

    def deals(self, model: DealModel) -> Iterator[dict[Card, int]]:
        """Every consistent deal as a dict card -> holder index, in the solver's order.

        A model over ``max_deals`` raises :class:`InferenceError` at the first ``next()``.
        """
        self._check_size(model)
        if not model.cards:
            yield {}
        elif all(
            size == 0 or any(mask >> holder & 1 for mask in model.allowed.values())
            for holder, size in enumerate(model.sizes)
        ):
            yield from _problem(model).getSolutionIter()

    # -- internals -------------------------------------------------------------------------------------------------

    def _check_size(self, model: DealModel) -> None:
        bound = deal_bound(model)
        if bound > self.max_deals:
            raise InferenceError(f"csp: up to {bound} deals to enumerate, more than max_deals={self.max_deals}")

    def _enumerate(self, model: DealModel, tally: Callable[[np.ndarray], None]) -> int:
        """Feed every consistent deal to ``tally`` as int8 rows (deals x model.cards), record timing, count."""
        start = time.perf_counter()
        cards = model.cards
        # with at most one card the dict's value order is the card order, and itemgetter needs two keys for a tuple
        row = itemgetter(*cards) if len(cards) > 1 else lambda deal: tuple(deal.values())
        rows: list[tuple[int, ...]] = []
        count = 0
        for deal in self.deals(model):
            rows.append(row(deal))
            if len(rows) == _CHUNK:
                tally(np.array(rows, dtype=np.int8))
                count += len(rows)
                rows.clear()
        if rows:
            tally(np.array(rows, dtype=np.int8))
            count += len(rows)
        self.last = Enumeration(count, time.perf_counter() - start)
        return count


def deal_bound(model: DealModel) -> int:
    """An upper bound on the consistent deals of ``model``, ignoring its clauses.

    The smaller of the product of allowed-set sizes and the number of ways to put
    the cards with several allowed holders into the slots left open by the cards
    with one.
    """
    product = math.prod(mask.bit_count() for mask in model.allowed.values())
    open_slots = [size - fixed for size, fixed in zip(model.sizes, model.fixed_counts())]
    free = sum(open_slots)
    multinomial = math.factorial(free) // math.prod(math.factorial(slots) for slots in open_slots)
    return min(product, multinomial)


def _problem(model: DealModel) -> Problem:
    """The model as a python-constraint2 problem over one variable per card (see the module docstring).

    A holder no card may go to gets no constraint, so the caller must rule out such a holder with a
    nonzero size first.
    """
    problem = Problem(OptimizedBacktrackingSolver())
    for card, mask in model.allowed.items():
        problem.addVariable(card, [h for h in range(len(model.holders)) if mask >> h & 1])
    for holder, size in enumerate(model.sizes):
        candidates = [card for card, mask in model.allowed.items() if mask >> holder & 1]
        if candidates:
            problem.addConstraint(SomeInSetConstraint({holder}, n=size, exact=True), candidates)
    for clause in model.clauses:
        merged: dict[int, int] = {}
        for card, mask in clause.pairs:
            merged[card] = merged.get(card, 0) | mask
        masks = tuple(merged.values())
        problem.addConstraint(
            FunctionConstraint(lambda *holders, masks=masks: any(m >> h & 1 for h, m in zip(holders, masks))),
            list(merged),
        )
    return problem
