"""An independent enumerator of consistent deals, the ground truth for inference tests.

It shares no logic with any backend or with :meth:`DealModel.is_consistent`: it
picks each holder's hand with ``itertools.combinations`` (so the sizes hold by
construction) and then checks allowed sets and clauses directly.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from itertools import combinations

from cardlogic.constraints import DealModel


def consistent_deals(model: DealModel) -> list[dict[int, int]]:
    """Every consistent deal of ``model`` as a dict card -> holder index."""
    return [deal for deal in _size_respecting(list(model.cards), model.sizes) if _fits(model, deal)]


def marginal_counts(model: DealModel, deals: list[dict[int, int]]) -> list[list[int]]:
    """``counts[i][h]``: how many of ``deals`` give ``model.cards[i]`` to holder ``h``."""
    counts = [[0] * len(model.holders) for _ in model.cards]
    for deal in deals:
        for i, card in enumerate(model.cards):
            counts[i][deal[card]] += 1
    return counts


def _size_respecting(cards: list[int], sizes: tuple[int, ...]) -> Iterator[dict[int, int]]:
    if not sizes:
        yield {}
        return
    holder = len(sizes) - 1
    for hand in combinations(cards, sizes[-1]):
        rest = [card for card in cards if card not in hand]
        for deal in _size_respecting(rest, sizes[:-1]):
            yield deal | dict.fromkeys(hand, holder)


def _fits(model: DealModel, deal: Mapping[int, int]) -> bool:
    if any(not model.allowed[card] & (1 << holder) for card, holder in deal.items()):
        return False
    return all(any(mask & (1 << deal[card]) for card, mask in clause.pairs) for clause in model.clauses)
