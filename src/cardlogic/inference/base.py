"""What every inference backend returns, and the interface they share.

A backend reads a :class:`~cardlogic.constraints.DealModel` and answers questions
about the uniform distribution over its consistent deals.
"""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

import numpy as np

from cardlogic.cards import Card
from cardlogic.constraints import DealModel


class InferenceError(RuntimeError):
    """A backend cannot answer for this model (too large for it, or not supported)."""


Built = TypeVar("Built")


class BudgetCache(Generic[Built]):
    """The last ``size`` results of a costly build by key, and the budget of each build that went beyond its own.

    A belief asks whether exact inference fits and then for the answer, over one model: the build done for the
    first question serves the second. A key that failed within some budget fails again at once within that budget
    or a smaller one, and is built again for a larger one.
    """

    def __init__(self, size: int) -> None:
        self._size = size
        self._entries: OrderedDict[Hashable, Built | tuple[float, str]] = OrderedDict()
        # Advice's look-ahead threads share one cache: an entry evicted by one between another's lookup and its
        # move to the end would raise KeyError. The build itself runs outside the lock.
        self._lock = threading.Lock()

    def get(self, key: Hashable, budget: float, build: Callable[[float], Built]) -> Built:
        """The result for ``key``: known, or ``build(budget)``, which raises InferenceError beyond the budget."""
        with self._lock:
            known = self._entries.get(key)
            if known is not None:
                self._entries.move_to_end(key)
        if known is not None:
            if not isinstance(known, tuple):
                return known
            failed_within, message = known
            if failed_within >= budget:
                raise InferenceError(message)
        try:
            found: Built | tuple[float, str] = build(budget)
        except InferenceError as error:
            found = (budget, str(error))
        with self._lock:
            self._entries[key] = found
            while len(self._entries) > self._size:
                self._entries.popitem(last=False)
        if isinstance(found, tuple):
            raise InferenceError(found[1])
        return found

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()


@dataclass(frozen=True)
class Posterior:
    """The distribution of the dealt holder of every card of a model.

    ``marginals[i, h]`` is P(``cards[i]`` was dealt to ``holders[h]``); each row sums
    to 1. ``count`` is the exact number of consistent deals for exact backends and
    None for sampled ones; ``samples`` is the number of deals drawn (0 when exact)
    and ``stderr`` the standard error of each sampled marginal (None when exact).
    """

    method: str
    holders: tuple[str, ...]
    cards: tuple[Card, ...]
    marginals: np.ndarray
    count: int | None = None
    samples: int = 0
    stderr: np.ndarray | None = None

    def probability(self, card: int, holder: int) -> float:
        return float(self.marginals[self.cards.index(card), holder])


class Backend(Protocol):
    """An inference method over deal models."""

    name: str

    def posterior(self, model: DealModel) -> Posterior:
        """Marginal distribution of every card's holder."""
        ...

    def joint(self, model: DealModel, placements: Mapping[int, int]) -> float:
        """P(every ``card`` of ``placements`` was dealt to its ``holder``)."""
        ...

    def chances(self, model: DealModel, restrictions: Sequence[Mapping[int, int]]) -> list[float]:
        """P(every card of ``restrictions[i]`` was dealt to a holder in its bitmask), for each ``i``."""
        ...


def restriction_hits(
    deals: np.ndarray,
    cards: Sequence[Card],
    restrictions: Sequence[Mapping[int, int]],
    weights: np.ndarray | None = None,
) -> list[float]:
    """How many of ``deals`` (rows of holder indices over ``cards``) obey each restriction (card -> holder mask);
    given ``weights`` (one per deal), the sum of the weights of those that do."""
    column: dict[int, int] = {card: i for i, card in enumerate(cards)}
    hits: list[float] = []
    for restriction in restrictions:
        inside = np.ones(len(deals), bool)
        for card, mask in restriction.items():
            inside &= (mask >> deals[:, column[card]].astype(np.int64)) & 1 == 1
        hits.append(int(np.count_nonzero(inside)) if weights is None else float(weights[inside].sum()))
    return hits


def distinct_rows(rows: np.ndarray, base: int) -> tuple[np.ndarray, np.ndarray]:
    """The distinct rows of ``rows`` (integers in ``[0, base)``) in lexicographic order, and the index of each row's
    among them, as ``np.unique(rows, axis=0, return_inverse=True)`` gives them: where a row fits in one integer
    (first column most significant) those are sorted instead, many times faster."""
    columns = rows.shape[1]
    if columns * math.log2(max(base, 2)) < 62:
        keys = rows.astype(np.int64) @ (base ** np.arange(columns - 1, -1, -1, dtype=np.int64))
        _, first_rows, inverse = np.unique(keys, return_index=True, return_inverse=True)
        return rows[first_rows], inverse.ravel()
    distinct, inverse = np.unique(rows, axis=0, return_inverse=True)
    return distinct, inverse.ravel()
