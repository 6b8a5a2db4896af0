"""The CSP oracle's enumerations, remembered per model: ask the same model twice, search once.

python-constraint2 is the slow, independent oracle the fast backends are checked
against. A test often asks it several questions about the same deal model (the
marginals, then a joint or two; one claim per set of the same position); each
question re-ran the whole backtracking search. :func:`memoized_csp` replaces
:meth:`CspBackend.deals` with a version that lists the solver's deals for a model
once and replays that same list, in the solver's order, for every later question
about an identical model (same holders, sizes, allowed sets and clauses, in the same
order). Every answer is still computed by :class:`CspBackend` from the deals
python-constraint2 found; only repeated searches are skipped.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from cardlogic.constraints import DealModel
from cardlogic.inference.csp import CspBackend

MAX_DEALS = 10_000
"""Enumerations with more deals than this are not remembered (holding many would slow the garbage collector)."""
BUDGET = 100_000
"""Deals remembered in all (the least recently used models are dropped first)."""


def model_key(model: DealModel) -> tuple:
    """Everything the CSP problem is built from, in the order it is built."""
    return (model.holders, model.sizes, tuple(model.allowed.items()), tuple(c.pairs for c in model.clauses))


@contextmanager
def memoized_csp() -> Iterator[dict]:
    """Within the context, :meth:`CspBackend.deals` searches each distinct model once; yields statistics."""
    original = CspBackend.deals
    # per model: each deal as (its keys, in the solver's order, shared between deals; its values)
    remembered: OrderedDict[tuple, list[tuple[tuple, tuple]]] = OrderedDict()
    stats = {"searches": 0, "replays": 0, "deals": 0}

    def deals(self: CspBackend, model: DealModel) -> Iterator[dict]:
        self._check_size(model)  # a model over max_deals is refused as before, at the first next()
        key = model_key(model)
        known = remembered.get(key)
        if known is not None:
            remembered.move_to_end(key)
            stats["replays"] += 1
            for names, values in known:
                yield dict(zip(names, values))
            return
        stats["searches"] += 1
        found: list[tuple[tuple, tuple]] = []
        orders: dict[tuple, tuple] = {}
        for deal in original(self, model):
            if len(found) <= MAX_DEALS:
                names = tuple(deal)
                found.append((orders.setdefault(names, names), tuple(deal.values())))
            yield deal
        if len(found) <= MAX_DEALS:  # a complete enumeration (the caller read every deal)
            remembered[key] = found
            stats["deals"] += len(found)
            while stats["deals"] > BUDGET:
                stats["deals"] -= len(remembered.popitem(last=False)[1])

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(CspBackend, "deals", deals)
        yield stats
