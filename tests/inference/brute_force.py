"""An independent enumerator of consistent deals, the ground truth for inference tests.

It shares no logic with any backend or with :meth:`DealModel.is_consistent`: it
picks each holder's hand with ``itertools.combinations`` (so the sizes hold by
construction) and then checks allowed sets and clauses directly, over every deal
at once as rows of a numpy array (a spectator's 369,600 deals in a fraction of a second).
"""

from __future__ import annotations

from itertools import combinations

import numpy as np

from cardlogic.constraints import DealModel


def consistent_deals(model: DealModel) -> list[dict[int, int]]:
    """Every consistent deal of ``model`` as a dict card -> holder index."""
    return [dict(zip(model.cards, map(int, row))) for row in consistent_rows(model)]


def consistent_rows(model: DealModel) -> np.ndarray:
    """Every consistent deal of ``model`` as a row of holders of ``model.cards`` (int8, one row per deal)."""
    rows = _size_respecting(len(model.cards), model.sizes)
    fits = np.ones(len(rows), bool)
    for column, card in enumerate(model.cards):
        fits &= (model.allowed[card] >> rows[:, column].astype(np.int64)) & 1 == 1
    columns = {card: column for column, card in enumerate(model.cards)}
    for clause in model.clauses:
        fits &= np.any([(mask >> rows[:, columns[card]].astype(np.int64)) & 1 for card, mask in clause.pairs], axis=0)
    return rows[fits]


def marginal_counts(model: DealModel, deals: list[dict[int, int]]) -> list[list[int]]:
    """``counts[i][h]``: how many of ``deals`` give ``model.cards[i]`` to holder ``h``."""
    counts = [[0] * len(model.holders) for _ in model.cards]
    for deal in deals:
        for i, card in enumerate(model.cards):
            counts[i][deal[card]] += 1
    return counts


def _size_respecting(cards: int, sizes: tuple[int, ...]) -> np.ndarray:
    """Every deal of ``cards`` columns into hands of ``sizes``: each holder's hand in turn is every combination of
    the columns still free."""
    rows = np.full((1, cards), -1, np.int8)
    for holder, size in enumerate(sizes):
        free = np.nonzero(rows < 0)[1].reshape(len(rows), -1)  # every row has as many free columns
        combos = list(combinations(range(free.shape[1]), size))
        hands = np.array(combos, np.intp).reshape(len(combos), size)
        picked = np.take_along_axis(np.repeat(free, len(hands), axis=0), np.tile(hands, (len(rows), 1)), axis=1)
        rows = np.repeat(rows, len(hands), axis=0)
        np.put_along_axis(rows, picked, holder, axis=1)
    return rows
