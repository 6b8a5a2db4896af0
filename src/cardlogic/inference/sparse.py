"""The exact dynamic program over reachable states only, for models whose capacity box is too large to tabulate.

:class:`~cardlogic.inference.exact.DealTables` lays out every state of the box
of remaining capacities, ``prod(cap + 1)`` of them: up to 5**12 = 244 million
once every player of a 12-player game has been told apart. Few of them are
ever reached: the cards come block by block, many allowed at a few holders
only, and a holder with more room left than cards it may still take is a
dead end. :func:`walk` goes over the same cards in the same order but keeps,
card by card, only the keys of the reachable states that pass that check and
the edges between them (:func:`kernels.card_step`); :class:`SparseTables` sums
over those edges as the dense tables do over the box. On the stored 12-player
scenarios the middle game needs 0.08-0.3 million states instead of 8-66 million
table entries.

>>> from cardlogic.constraints import DealModel
>>> from cardlogic.inference.packed import pack
>>> model = DealModel(("A", "B"), (2, 2), range(4))
>>> model.require_one_of(0, [0, 1])
>>> tables = SparseTables(pack(model))
>>> tables.count, round(float(tables.marginals()[0, 0]), 4)
(5, 0.6)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from cardlogic.inference import kernels
from cardlogic.inference.base import BudgetCache, InferenceError
from cardlogic.inference.packed import PackedModel, PackedTables

KEY_LIMIT = 1 << 62
"""State keys (box index plus clause bits times the box size) must stay below this."""
BYTES_PER_STATE = 64
"""Memory of one reachable state with its edges and table values, about (for error messages)."""


@dataclass(frozen=True, eq=False)
class Walk:
    """The reachable states of a packed model, card by card: ``keys[k]`` are the states after ``k`` free cards
    (box index plus clause bits times the box size, in order of first reach) and edge ``e`` of state ``g``
    (numbered over all layers, ``edge_start[g] <= e < edge_start[g + 1]``) gives the layer's card to local holder
    ``edge_holder[e]``, leading to state ``edge_dst[e]`` of the next layer."""

    keys: tuple[np.ndarray, ...]
    layer_start: np.ndarray
    edge_start: np.ndarray
    edge_dst: np.ndarray
    edge_holder: np.ndarray

    @property
    def states(self) -> int:
        return int(self.layer_start[-1])


_WALKS: BudgetCache[Walk] = BudgetCache(4)
"""The last few walks by packed model (or the state budget a model went beyond)."""


def walk(packed: PackedModel, max_states: float = math.inf) -> Walk:
    """The reachable states of ``packed`` (see :class:`Walk`); InferenceError beyond ``max_states`` in all."""

    def build(budget: float) -> Walk:
        try:
            return _walk(packed, budget)
        except InferenceError:
            raise _too_large(packed, budget) from None

    return _WALKS.get(packed.fingerprint, max_states, build)


def forget_walks() -> None:
    """Empty the cache of :func:`walk` (to time a walk from scratch)."""
    _WALKS.clear()


def _too_large(packed: PackedModel, max_states: float) -> InferenceError:
    return InferenceError(
        f"exact tables would take {packed.memory() / 1e9:.1f} GB as a box and more than "
        f"{max_states:,.0f} reachable states (about {max_states * BYTES_PER_STATE / 1e9:.1f} GB)"
    )


def _walk(packed: PackedModel, max_states: float) -> Walk:
    p = packed
    box = p.box_size
    if box * int(p.widths.max()) >= KEY_LIMIT:
        raise InferenceError("state keys of this model would not fit 62 bits")
    strides = p.strides
    room = np.zeros((p.free_count + 1, len(p.caps)), np.int64)  # free cards after card k each holder may take
    for k in range(p.free_count - 1, -1, -1):
        room[k] = room[k + 1] + [(int(p.allow[k]) >> j) & 1 for j in range(len(p.caps))]
    keys = [np.zeros(1, np.int64)]
    digits = np.zeros((1, len(p.caps)), np.int8)
    starts, dsts, holders = [], [], []
    states = 1
    for k in range(p.free_count):
        layer, digits, start, dst, holder = kernels.card_step(
            keys[-1],
            digits,
            box,
            strides,
            p.caps,
            p.choices[k],
            p.nchoices[k],
            p.sat[k],
            p.last[k],
            p.full[k],
            room[k + 1],
        )
        keys.append(layer)
        starts.append(start)
        dsts.append(dst)
        holders.append(holder)
        states += len(layer)
        if states > max_states:
            raise InferenceError(f"more than {max_states:.0f} reachable states")
    offsets = np.cumsum([0] + [len(d) for d in dsts])
    edge_start = np.concatenate(
        [start[:-1] + offset for start, offset in zip(starts, offsets)] + [np.full(len(keys[-1]) + 1, offsets[-1])]
    ).astype(np.int64)
    return Walk(
        tuple(keys),
        np.cumsum([0] + [len(k) for k in keys]).astype(np.int64),
        edge_start,
        np.concatenate([np.zeros(0, np.int32)] + dsts),
        np.concatenate([np.zeros(0, np.int8)] + holders),
    )


class SparseTables(PackedTables):
    """Forward (and optionally backward) sums over the reachable states of one packed model.

    The same attributes as :class:`~cardlogic.inference.exact.DealTables`:
    ``count`` is exact when built with ``exact_count`` (else None), ``total``
    its float, ``paths`` the float number of deals of the packed model and
    ``raw_marginals`` the unnormalised free cards x local holders marginals;
    ``states`` is the number of reachable states. More than ``max_states``
    raise :class:`InferenceError` before any sum is taken.
    """

    def __init__(
        self, packed: PackedModel, *, backward: bool = True, exact_count: bool = True, max_states: float = math.inf
    ) -> None:
        super().__init__(packed, exact_count)
        p = packed
        if p.empty:
            return
        self.walk = w = walk(p, max_states)
        self.forward, exact = kernels.sparse_forward(
            w.layer_start, w.edge_start, w.edge_dst, p.limbs() if exact_count else 0
        )
        self.paths = float(self.forward[w.layer_start[-2] :].sum())
        self.total = self.paths * p.arrangements
        if exact_count:
            paths = sum(int(limb) << (kernels.LIMB_BITS * i) for row in exact for i, limb in enumerate(row))
            self.count = paths * p.arrangements
        if backward and self.paths > 0:
            self.backward, self.raw_marginals = kernels.sparse_backward(
                w.layer_start, w.edge_start, w.edge_dst, w.edge_holder, self.forward, len(p.caps)
            )

    def weights(self, k: int, states: np.ndarray) -> np.ndarray:
        """The forward values after ``k`` free cards (a block boundary) of the box ``states`` (0 where unreached)."""
        keys = self.walk.keys[k]
        order = np.argsort(keys)
        at = np.minimum(np.searchsorted(keys, states, sorter=order), len(keys) - 1)
        found = order[at]
        hit = (states >= 0) & (keys[found] == states)
        return np.where(hit, self.forward[self.walk.layer_start[k] + found], 0.0)

    def segment_mass(self, first: int, stop: int, allowed: np.ndarray) -> float:
        """The deals whose free cards ``k`` in ``first..stop-1`` go to local holders in the masks
        ``allowed[k - first]``."""
        w = self.walk
        return kernels.sparse_segment_mass(
            w.layer_start, w.edge_start, w.edge_dst, w.edge_holder, self.forward, self.backward, first, stop, allowed
        )
