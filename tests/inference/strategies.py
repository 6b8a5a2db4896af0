"""Hypothesis strategies for random small deal models.

>>> from hypothesis import given
>>> @given(deal_models(max_cards=5))
... def check(model): assert 3 <= len(model.cards) <= 5
>>> check()
"""

from __future__ import annotations

import contextlib
import itertools

from hypothesis import strategies as st

from cardlogic.cards import CARD_COUNT
from cardlogic.constraints import DealModel, InconsistentError


@st.composite
def deal_models(
    draw: st.DrawFn,
    min_holders: int = 2,
    max_holders: int = 5,
    min_cards: int = 3,
    max_cards: int = 10,
    max_restrictions: int = 8,
    max_clauses: int = 4,
) -> DealModel:
    """A random :class:`DealModel` built only through its public narrowing methods.

    Holders and cards are drawn in the given ranges, the cards are distinct indices
    anywhere in the 54-card universe, and the hand sizes are a random split of
    the card count (zeros allowed). Then up to ``max_restrictions`` calls of
    :meth:`DealModel.restrict` (half of them forbidding a single holder) and up to
    ``max_clauses`` calls of :meth:`DealModel.require` with 1-4 pairs, each on its
    own card and holder mask (half of them a single holder). A step that raises
    :class:`InconsistentError` is skipped, so the model is never obviously empty
    but may still have no consistent deal.
    """
    holders = draw(st.integers(min_holders, max_holders))
    cards = draw(st.lists(st.integers(0, CARD_COUNT - 1), min_size=min_cards, max_size=max_cards, unique=True))
    cuts = sorted(draw(st.lists(st.integers(0, len(cards)), min_size=holders - 1, max_size=holders - 1)))
    bounds = [0, *cuts, len(cards)]
    sizes = [high - low for low, high in itertools.pairwise(bounds)]
    model = DealModel([f"P{h}" for h in range(holders)], sizes, cards)
    every = (1 << holders) - 1
    masks = st.integers(1, every)
    singles = st.integers(0, holders - 1).map(lambda h: 1 << h)
    for _ in range(draw(st.integers(0, max_restrictions))):
        card, mask = draw(st.sampled_from(cards)), draw(st.one_of(masks, singles.map(lambda m: every ^ m)))
        with contextlib.suppress(InconsistentError):
            model.restrict(card, mask)
    for _ in range(draw(st.integers(0, max_clauses))):
        pairs = draw(st.lists(st.tuples(st.sampled_from(cards), st.one_of(singles, masks)), min_size=1, max_size=4))
        with contextlib.suppress(InconsistentError):
            model.require(pairs)
    return model
