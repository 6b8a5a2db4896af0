"""Exact inference: count the consistent deals of a model and every card's exact marginals.

The model is packed once into arrays (:func:`~cardlogic.inference.packed.pack`,
shared with the other exact programs). A dynamic program then walks the free cards one at a
time over the box of remaining capacities (see :mod:`cardlogic.inference.kernels`
for the state encoding). One forward and one backward pass give every marginal;
the forward pass also carries the exact count as multi-limb integers, since
counts pass 2**53 long before the 1e45 a 12-player deal can reach.

The cost is known before running (:attr:`PackedModel.entries`, the table size,
and :attr:`PackedModel.operations`), so callers can fall back to sampling.

>>> from cardlogic.constraints import DealModel
>>> model = DealModel(("A", "B"), (2, 2), range(4))
>>> model.require_one_of(0, [0, 1])
>>> backend = ExactBackend()
>>> backend.count(model), round(backend.posterior(model).probability(0, 0), 4)
(5, 0.6)
"""

from __future__ import annotations

import math
import threading
from collections.abc import Mapping, Sequence
from typing import Literal, overload

import numpy as np

from cardlogic.constraints import DealModel, InconsistentError
from cardlogic.inference import kernels
from cardlogic.inference.base import InferenceError, Posterior, distinct_rows
from cardlogic.inference.frontier import (
    MAX_TRANSITIONS,
    FrontierTables,
    closing_tables,
    closing_weights,
    frontier_tables,
    plan,
)
from cardlogic.inference.packed import PackedModel, PackedTables, pack
from cardlogic.inference.sparse import BYTES_PER_STATE, SparseTables

DENSE_MAX_OPERATIONS = 1e7
"""Transitions of one pass up to which :class:`ExactBackend` walks the whole box (about 0.15 s; below it the
reachable states measured no faster, beyond it up to 7 times faster on the stored 8-12 player scenarios)."""


BOX_CACHE_BYTES = 128 * 2**20
"""Bytes of capacity boxes kept for reuse beyond the last one: a 12-player box takes up to about 90 MB (16 bytes a
state), and sixteen kept by number held over 600 MB through an advisor's game."""


def box_of(packed: PackedModel) -> tuple[np.ndarray, ...]:
    """Layer bookkeeping of ``packed``'s capacity box (see :func:`kernels.build_box`), cached by capacities."""
    caps = tuple(int(c) for c in packed.caps)
    with _BOXES_LOCK:
        arrays = _BOXES.get(caps)
    if arrays is None:
        arrays = kernels.build_box(np.array(caps, np.int64))
        for array in arrays:
            array.flags.writeable = False
    with _BOXES_LOCK:  # the advice's threads share the cache
        _BOXES.pop(caps, None)
        _BOXES[caps] = arrays  # the most recently used last
        kept = 0
        for key in reversed(list(_BOXES)):
            kept += sum(array.nbytes for array in _BOXES[key])
            if kept > BOX_CACHE_BYTES and key != caps:
                del _BOXES[key]
    return arrays


_BOXES: dict[tuple[int, ...], tuple[np.ndarray, ...]] = {}
"""Capacity boxes by capacities, least recently used first (see :data:`BOX_CACHE_BYTES`)."""
_BOXES_LOCK = threading.Lock()


def closing_start(packed: PackedModel, cards: Sequence[int]) -> int:
    """The first free card of the first block of ``packed`` (packed with ``cards`` closing) holding one of
    ``cards``: every free card from it on is a closing card's block."""
    wanted = set(cards)
    first = min(
        (k for k in range(packed.free_count) if packed.cards[packed.columns[k]] in wanted), default=packed.free_count
    )
    while first > 0 and not packed.last[first - 1]:  # back to the start of the first closing block
        first -= 1
    return first


class DealTables(PackedTables):
    """The forward (and optionally backward) tables of one packed model.

    ``count``, the model's number of consistent deals, is exact when built with
    ``exact_count``; ``total`` is its float. ``paths`` is the float number of
    deals of the packed model (a group's cards dealt to the group as one holder),
    the denominator of the tables' own weights.
    """

    def __init__(self, packed: PackedModel, *, backward: bool = True, exact_count: bool = True) -> None:
        super().__init__(packed, exact_count)
        if packed.empty:
            return
        p = packed
        self.box = box_of(p)
        fwd, exact = kernels.forward(self.box, p.steps, p.limbs() if exact_count else 0)
        self.forward = fwd
        final = int(p.offsets[p.free_count])
        self.paths = float(fwd[final])
        self.total = self.paths * p.arrangements
        if exact_count:
            paths = sum(int(limb) << (kernels.LIMB_BITS * i) for i, limb in enumerate(exact[final]))
            self.count = paths * p.arrangements
        if backward and self.paths > 0:
            self.backward, self.raw_marginals = kernels.backward(self.box, p.steps, fwd)

    def weights(self, k: int, states: np.ndarray) -> np.ndarray:
        """The forward values after ``k`` free cards (a block boundary) of the box ``states`` (0 where -1)."""
        out = np.zeros(len(states))
        ok = states >= 0
        out[ok] = self.forward[self.packed.offsets[k] + self.box[1][states[ok]]]
        return out

    def segment_mass(self, first: int, stop: int, allowed: np.ndarray) -> float:
        """The deals whose free cards ``k`` in ``first..stop-1`` (whole blocks) go to local holders in the mask
        ``allowed[k - first]``."""
        p = self.packed
        choices, nchoices = p.choices.copy(), p.nchoices.copy()
        for k in range(first, stop):
            options = [j for j in p.choices[k, : p.nchoices[k]] if allowed[k - first] >> j & 1]
            choices[k, : len(options)] = options
            nchoices[k] = len(options)
        steps = (p.offsets, p.widths, choices, nchoices, p.sat, p.last, p.full)
        return kernels.segment_mass(self.box, steps, self.forward, self.backward, first, stop)


FRONTIER_FIRST_OPERATIONS = 1e6
"""Transitions of a dense pass (about 15 ms) beyond which the frontier program is tried before the dense tables
(where it may answer): early in the stored 8-player game the dense passes behind the player's chances took about
0.2 s where the frontier program takes a few milliseconds."""


class ExactBackend:
    """Exact counts and marginals by dynamic programming over remaining hand capacities.

    Small models use the dense tables of the whole capacity box (:class:`DealTables`);
    beyond ``dense_max_operations`` transitions a pass, or where those tables
    would take more than ``max_bytes``, answers come from the frontier program
    (:mod:`~cardlogic.inference.frontier`; tried already beyond
    :data:`FRONTIER_FIRST_OPERATIONS`) where it takes at most ``max_transitions``
    transitions, and else from the reachable states of the box
    (:class:`~cardlogic.inference.sparse.SparseTables`), at most ``max_states``
    of them (and ``max_bytes``), or the dense tables where they take at most
    ``max_operations`` transitions a pass; a model needing more raises
    :class:`~cardlogic.inference.base.InferenceError`.
    """

    name = "exact"

    def __init__(
        self,
        max_bytes: int = 2_000_000_000,
        max_states: float = 4_000_000,
        dense_max_operations: float = DENSE_MAX_OPERATIONS,
        frontier: bool = True,
        max_operations: float = math.inf,
        max_transitions: float = MAX_TRANSITIONS,
    ) -> None:
        self.max_bytes = max_bytes
        self.max_states = min(max_states, max_bytes // BYTES_PER_STATE)
        self.dense_max_operations = dense_max_operations
        self.frontier = frontier
        self.max_operations = max_operations
        self.max_transitions = max_transitions

    def _tables(
        self, model: DealModel, *, backward: bool, exact_count: bool
    ) -> DealTables | SparseTables | FrontierTables:
        return self.tables(pack(model), backward=backward, exact_count=exact_count, frontier=self.frontier)

    @overload
    def tables(
        self, packed: PackedModel, *, backward: bool, exact_count: bool, frontier: Literal[False] = False
    ) -> DealTables | SparseTables: ...

    @overload
    def tables(
        self, packed: PackedModel, *, backward: bool, exact_count: bool, frontier: bool
    ) -> DealTables | SparseTables | FrontierTables: ...

    def tables(
        self, packed: PackedModel, *, backward: bool, exact_count: bool, frontier: bool = False
    ) -> DealTables | SparseTables | FrontierTables:
        """The cheaper tables of ``packed`` that fit: dense while a pass is cheap; else (with ``frontier``, for
        counts and marginals) the frontier program first (before dense passes of more than
        :data:`FRONTIER_FIRST_OPERATIONS`), then the reachable states."""
        if self._dense_is_cheap(packed, exact_count, frontier):
            return DealTables(packed, backward=backward, exact_count=exact_count)
        if frontier:
            try:
                tables = frontier_tables(packed, self.max_transitions)
                if backward:
                    tables.check()
                if exact_count:
                    tables.exact()
                return tables
            except InferenceError:
                pass
            if self._dense_is_cheap(packed, exact_count):
                return DealTables(packed, backward=backward, exact_count=exact_count)
        try:
            return SparseTables(packed, backward=backward, exact_count=exact_count, max_states=self.max_states)
        except InferenceError:  # its message gives the sizes
            if packed.memory(exact_count) <= self.max_bytes and packed.operations <= self.max_operations:
                return DealTables(packed, backward=backward, exact_count=exact_count)
            raise

    def _dense_is_cheap(self, packed: PackedModel, exact_count: bool, frontier: bool = False) -> bool:
        """Whether the dense tables answer first: within ``dense_max_operations`` a pass, or (where the frontier
        program may answer instead) :data:`FRONTIER_FIRST_OPERATIONS`."""
        limit = min(self.dense_max_operations, FRONTIER_FIRST_OPERATIONS) if frontier else self.dense_max_operations
        return packed.empty or (packed.memory(exact_count) <= self.max_bytes and packed.operations <= limit)

    def posterior(self, model: DealModel) -> Posterior:
        tables = self._tables(model, backward=True, exact_count=True)
        marginals = tables.marginals()
        return Posterior(self.name, model.holders, model.cards, marginals, count=tables.count)

    def marginals(self, model: DealModel) -> np.ndarray:
        """P(card dealt to holder), model cards x holders, without the exact count (faster than :meth:`posterior`)."""
        return self._tables(model, backward=True, exact_count=False).marginals()

    def given(self, model: DealModel, card: int, holder: int) -> np.ndarray:
        """:meth:`marginals` of ``model`` with ``card`` dealt to ``holder``.

        Where the frontier program answers ``model`` and the card may go to the holder by name in its block, its
        tables of ``model`` (cached: the belief's own marginals built them) are reweighed
        (:meth:`FrontierTables.given`); otherwise the narrowed model is answered from scratch.
        """
        packed = pack(model)
        column = packed.cards.index(card)
        group = next((j for j, members in enumerate(packed.groups) if holder in members), None)
        free = np.flatnonzero(packed.columns == column)
        if (
            self.frontier
            and not self._dense_is_cheap(packed, False, frontier=True)
            and len(free)
            and group is not None
            and len(packed.groups[group]) == 1
        ):
            try:
                marginals = frontier_tables(packed, self.max_transitions).given(int(free[0]), group)
                if marginals is not None:
                    return marginals
            except InferenceError:
                pass
        narrowed = model.copy()
        narrowed.place(card, holder)
        return self.marginals(narrowed)

    def count(self, model: DealModel) -> int:
        """The exact number of consistent deals (0 for an inconsistent model)."""
        count = self._tables(model, backward=False, exact_count=True).count
        assert count is not None  # tables built with exact_count carry it
        return count

    def frontier_chances(self, model: DealModel, restrictions: Sequence[Mapping[int, int]]) -> list[float]:
        """:meth:`chances` as ratios of exact counts by the frontier program: one count of the model under each
        restriction of two cards or more (a single card's chance is a sum of its marginals). InferenceError where
        the counts together pass ``max_transitions``."""
        whole = frontier_tables(pack(model), self.max_transitions)
        spent = whole.transitions
        deals = whole.exact()
        if deals == 0:
            raise InconsistentError("no deal satisfies the constraints")
        result = []
        marginals = None
        for restriction in restrictions:
            if len(restriction) == 1:
                ((card, mask),) = restriction.items()
                marginals = whole.marginals() if marginals is None else marginals
                row = marginals[model.cards.index(card)]
                result.append(float(sum(row[h] for h in range(len(row)) if mask >> h & 1)))
                continue
            narrowed = model.copy()
            try:
                narrowed.restrict_all(restriction)
            except InconsistentError:
                result.append(0.0)
                continue
            # Packed with its cards last, as the placements of a claim then ask for it: one pass serves both.
            closing = pack(narrowed, closing=list(restriction))
            if closing.empty:
                result.append(0.0)
                continue
            try:
                tables = closing_tables(
                    closing, closing_start(closing, list(restriction)), self.max_transitions - spent
                )
            except InferenceError:  # the closing cards walked as one block can cost more: count them block by block
                tables = FrontierTables(
                    plan(pack(narrowed), probes=False), max_transitions=self.max_transitions - spent
                )
            spent += tables.transitions
            result.append(tables.exact() / deals)
        return result

    def placements(
        self, model: DealModel, cards: Sequence[int], limit: int = 2_000_000
    ) -> tuple[np.ndarray, np.ndarray]:
        """The exact joint distribution of the dealt holders of ``cards``.

        Returns ``(holders, probabilities)``: one row of holder indices (in the order
        of ``cards``) per placement with a consistent deal, and its probability.
        One forward pass with the blocks of ``cards`` last, then every placement of
        those blocks is weighed at once (by the frontier program where the dense
        tables are costly); :class:`InferenceError` when they have more than ``limit``
        placements.
        """
        packed = pack(model, closing=cards)
        if packed.empty:
            raise InconsistentError("no deal satisfies the constraints")
        first = closing_start(packed, cards)
        if float(np.prod(packed.nchoices[first:], dtype=np.float64)) > limit:
            raise InferenceError(f"more than {limit} placements of {len(cards)} cards")
        local, states = kernels.closing_placements(
            packed.strides, packed.caps, packed.choices, packed.nchoices, packed.sat, packed.last, packed.full, first
        )
        weights = None
        if self.frontier and not self._dense_is_cheap(packed, False, frontier=True):
            valid = states >= 0
            try:
                weights = np.zeros(len(states))
                weights[valid] = closing_weights(packed, first, local[valid], self.max_transitions)
            except InferenceError:
                weights = None
        if weights is None:
            tables = self.tables(packed, backward=False, exact_count=False)
            weights = tables.weights(first, states)
        if weights.sum() <= 0:
            raise InconsistentError("no deal satisfies the constraints")
        column_of: dict[int, int] = {card: i for i, card in enumerate(packed.cards)}
        step_of = {int(packed.columns[k]): k - first for k in range(first, packed.free_count)}
        rows = np.empty((len(weights), len(cards)), np.int64)
        for i, card in enumerate(cards):
            column = column_of[card]
            if column in step_of:
                rows[:, i] = np.array(packed.leaders)[local[:, step_of[column]]]
            else:
                rows[:, i] = packed.template[column]
        keep = weights > 0
        rows, weights = rows[keep], weights[keep]
        distinct, inverse = distinct_rows(rows, len(model.holders))
        return distinct, np.bincount(inverse, weights, len(distinct)) / weights.sum()

    def chances(self, model: DealModel, restrictions: Sequence[Mapping[int, int]]) -> list[float]:
        """P(every card of ``restrictions[i]`` was dealt to a holder in its bitmask), for each ``i``.

        One forward and one backward pass over an order that keeps each
        restriction's blocks together, then one more walk over just those blocks
        with the restriction applied (``segment_mass`` of the tables): all of them
        together cost about one more forward pass. Floats, not exact counts.
        Where those tables are costly, the frontier program counts the model under
        each restriction instead (:meth:`frontier_chances`).
        """
        packed = pack(
            model,
            segments=[list(r) for r in restrictions],
            separating=[mask for r in restrictions for mask in r.values()],
        )
        if packed.empty:
            raise InconsistentError("no deal satisfies the constraints")
        if self.frontier and not self._dense_is_cheap(packed, False, frontier=True):
            try:
                return self.frontier_chances(model, restrictions)
            except InferenceError:
                pass
        tables = self.tables(packed, backward=True, exact_count=False)
        raw = tables.raw_marginals
        if tables.paths == 0 or raw is None:
            raise InconsistentError("no deal satisfies the constraints")
        column: dict[int, int] = {card: i for i, card in enumerate(packed.cards)}
        step = {int(c): k for k, c in enumerate(packed.columns)}
        leaders = packed.leaders
        result = []
        for restriction, (first, stop) in zip(restrictions, packed.segment_bounds):
            allowed = np.full(stop - first, -1, np.int64)
            possible = True
            narrowed: list[tuple[int, list[int]]] = []
            for card, mask in restriction.items():
                known = int(packed.template[column[card]])
                if known >= 0:
                    possible = possible and bool(mask >> known & 1)
                    continue
                k = step[column[card]]
                options = [j for j in packed.choices[k, : packed.nchoices[k]] if mask >> leaders[j] & 1]
                allowed[k - first] = sum(1 << int(j) for j in options)
                narrowed.append((k, options))
            if not possible:
                result.append(0.0)
                continue
            if not narrowed:
                result.append(1.0)
                continue
            if len(narrowed) == 1:  # one free card: its marginals answer, no walk needed
                k, options = narrowed[0]
                result.append(float(raw[k, options].sum()) / tables.paths)
                continue
            result.append(tables.segment_mass(first, stop, allowed) / tables.paths)
        return result

    def joint(self, model: DealModel, placements: Mapping[int, int]) -> float:
        whole = self._tables(model, backward=False, exact_count=False).total
        if whole == 0:
            raise InconsistentError("no deal satisfies the constraints")
        narrowed = model.copy()
        try:
            for card, holder in placements.items():
                narrowed.place(card, holder)
        except InconsistentError:
            return 0.0
        return self._tables(narrowed, backward=False, exact_count=False).total / whole
