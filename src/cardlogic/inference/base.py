"""What every inference backend returns, and the interface they share.

A backend reads a :class:`~cardlogic.constraints.DealModel` and answers questions
about the uniform distribution over its consistent deals.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from cardlogic.cards import Card
from cardlogic.constraints import DealModel


class InferenceError(RuntimeError):
    """A backend cannot answer for this model (too large for it, or not supported)."""


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


def restriction_hits(deals: np.ndarray, cards: Sequence[Card], restrictions: Sequence[Mapping[int, int]]) -> list[int]:
    """How many of ``deals`` (rows of holder indices over ``cards``) obey each restriction (card -> holder mask)."""
    column = {card: i for i, card in enumerate(cards)}
    hits = []
    for restriction in restrictions:
        inside = np.ones(len(deals), bool)
        for card, mask in restriction.items():
            inside &= (mask >> deals[:, column[card]].astype(np.int64)) & 1 == 1
        hits.append(int(np.count_nonzero(inside)))
    return hits
