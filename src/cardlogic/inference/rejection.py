"""The naive sampler most card bots use: deal at random, keep what fits.

:class:`RejectionSampler` exists for the benchmark suite, as the baseline the
real backends must beat. Each proposal places the cards with a single allowed
holder there, shuffles the other cards uniformly into the slots left open, and
is kept only if it satisfies the whole model (allowed sets and clauses). Every
consistent deal is a proposal equally likely as any other, so the kept deals are
uniform over the consistent ones; the price is the acceptance rate, which falls
fast as the model narrows. Numpy only, in batches of proposals that double
in size (up to a few million array cells) until enough deals are kept.

>>> model = DealModel(("Ann", "Bob"), (1, 1), [0, 1])
>>> model.require_one_of(0, [1])
>>> result = RejectionSampler().sample(model, 3, seed=1)
>>> result.deals.tolist(), result.acceptance
([[1, 0], [1, 0], [1, 0]], 1.0)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from cardlogic.constraints import DealModel

_BATCH_CELLS = 1 << 22


@dataclass(frozen=True)
class RejectionSample:
    """The kept deals of one :meth:`RejectionSampler.sample` run.

    ``deals[s, i]`` is the holder index of ``model.cards[i]`` in kept deal ``s``
    (int8); ``tries`` proposals were drawn to keep them.
    """

    deals: np.ndarray
    tries: int

    @property
    def acceptance(self) -> float:
        """Kept deals per proposal (0.0 when nothing was proposed)."""
        return len(self.deals) / self.tries if self.tries else 0.0


class RejectionSampler:
    """Uniform consistent deals by rejection from shuffles that respect hand sizes and placed cards."""

    name = "rejection"

    def sample(self, model: DealModel, n: int, seed: int, max_tries: int = 10_000_000) -> RejectionSample:
        """Draw proposals until ``n`` are kept or ``max_tries`` were drawn, whichever comes first.

        Fewer than ``n`` deals (possibly none) come back when ``max_tries`` runs out;
        the acceptance rate tells why. The same ``seed`` gives the same deals.
        """
        rng = np.random.default_rng(seed)
        cards = model.cards
        holders = len(model.holders)
        columns = np.arange(len(cards))
        allowed = np.array(
            [[mask >> h & 1 for h in range(holders)] for mask in model.allowed.values()], dtype=bool
        ).reshape(len(cards), holders)
        index: dict[int, int] = {card: i for i, card in enumerate(cards)}
        clauses = np.zeros((len(model.clauses), len(cards), holders), dtype=bool)
        for k, clause in enumerate(model.clauses):
            for card, mask in clause.pairs:
                clauses[k, index[card]] |= [bool(mask >> h & 1) for h in range(holders)]

        template = np.zeros(len(cards), dtype=np.int8)
        free = []
        for i, card in enumerate(cards):
            holder = model.certain_holder(card)
            if holder is None:
                free.append(i)
            else:
                template[i] = holder
        open_slots = [size - fixed for size, fixed in zip(model.sizes, model.fixed_counts())]
        slots = np.repeat(np.arange(holders, dtype=np.int8), open_slots)

        most = max(1, _BATCH_CELLS // max(1, len(cards) * (len(model.clauses) + 1)))
        batch = min(most, 2 * n + 64)
        kept: list[np.ndarray] = []
        found = tries = 0
        while found < n and tries < max_tries:
            size = min(batch, max_tries - tries)
            batch = min(most, 2 * batch)
            deals = np.tile(template, (size, 1))
            deals[:, free] = rng.permuted(np.tile(slots, (size, 1)), axis=1)
            ok = allowed[columns, deals].all(axis=1)
            if len(model.clauses):
                ok &= clauses[:, columns, deals].any(axis=2).all(axis=0)
            hits = np.flatnonzero(ok)[: n - found]
            if found + len(hits) == n:
                tries += int(hits[-1]) + 1
            else:
                tries += size
            kept.append(deals[hits])
            found += len(hits)
        return RejectionSample(np.concatenate(kept) if kept else np.zeros((0, len(cards)), dtype=np.int8), tries)
