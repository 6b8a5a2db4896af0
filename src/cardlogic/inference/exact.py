"""Exact inference: count the consistent deals of a model and every card's exact marginals.

The model is packed once into arrays (:func:`pack`): cards with a single allowed
holder are *known* and taken off their holder's capacity; the others, the *free*
cards, are grouped into blocks (connected components of cards sharing a clause)
and ordered block by block. A dynamic program then walks the free cards one at a
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

import functools
import hashlib
import math
import operator
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal, overload

import numpy as np

from cardlogic.cards import Card
from cardlogic.constraints import DealModel, InconsistentError
from cardlogic.inference import kernels
from cardlogic.inference.base import InferenceError, Posterior
from cardlogic.inference.frontier import MAX_TRANSITIONS, FrontierTables, closing_weights, frontier_tables, plan
from cardlogic.inference.sparse import BYTES_PER_STATE, SparseTables

MAX_CLAUSE_BITS = 30
"""Most clauses one block may carry: the table grows as 2**bits."""
DENSE_MAX_OPERATIONS = 1e7
"""Transitions of one pass up to which :class:`ExactBackend` walks the whole box (about 0.15 s; below it the
reachable states measured no faster, beyond it up to 7 times faster on the stored 8-12 player scenarios)."""


@dataclass(frozen=True, eq=False)
class PackedModel:
    """A deal model as the arrays the kernels read (free cards in dynamic-programming order).

    ``empty`` is set when packing already proves there is no consistent deal;
    the arrays are then not meaningful.
    """

    holders: tuple[str, ...]
    cards: tuple[Card, ...]
    template: np.ndarray  # int8 per model card: its known holder, -1 when free
    columns: np.ndarray  # model-card column of each free card
    groups: tuple[tuple[int, ...], ...]  # model holders merged into each local holder (interchangeable ones)
    member_caps: tuple[tuple[int, ...], ...]  # their capacities for the free cards
    caps: np.ndarray  # capacity of each local holder for the free cards: the sum over its group
    segment_bounds: tuple[tuple[int, int], ...]  # steps [start, end) spanned by each segment's blocks
    choices: np.ndarray  # (n, H) local holders each free card may go to
    nchoices: np.ndarray
    allow: np.ndarray  # local holder bitmask of each free card
    sat: np.ndarray  # (n, H) clause bits set by each (card, holder)
    last: np.ndarray  # card ends its block
    full: np.ndarray  # all clause bits of the card's block
    widths: np.ndarray  # (n + 1,) 2**bits carried at each step
    offsets: np.ndarray  # (n + 2,) start of each step's slice of a table; offsets[n + 1] is the table size
    layer_sizes: np.ndarray  # (n + 1,) box states of each digit sum
    clause_cards: np.ndarray  # free-card indices of the clause pairs, grouped by clause
    clause_holders: np.ndarray  # local holder mask of each pair
    clause_start: np.ndarray
    card_clauses: np.ndarray  # clauses of each free card, grouped by card
    card_clause_start: np.ndarray
    empty: bool = False

    @property
    def free_count(self) -> int:
        return len(self.columns)

    @property
    def fingerprint(self) -> bytes:
        """A digest of the arrays the dynamic programs read: equal for models they cannot tell apart."""
        return hashlib.blake2b(
            b"".join(
                np.ascontiguousarray(a).tobytes()
                for a in (self.caps, self.choices, self.nchoices, self.sat, self.last, self.full)
            )
        ).digest()

    @property
    def box_size(self) -> int:
        return int(np.prod(self.caps + 1, dtype=np.float64)) if len(self.caps) else 1

    @property
    def entries(self) -> int:
        """Entries of one forward or backward table."""
        return int(self.offsets[-1])

    @property
    def operations(self) -> float:
        """Transitions one pass visits: the running time scale."""
        n = self.free_count
        return float(np.sum(self.layer_sizes[:n] * self.widths[:n] * self.nchoices, dtype=np.float64))

    def limbs(self) -> int:
        """62-bit limbs enough for the count: bounded by the multinomial of the free cards over the capacities."""
        bound = math.factorial(self.free_count)
        for cap in self.caps:
            bound //= math.factorial(int(cap))
        return bound.bit_length() // kernels.LIMB_BITS + 1

    @property
    def leaders(self) -> tuple[int, ...]:
        """The first model holder of each local holder's group: what a holder mask says of the group."""
        return tuple(group[0] for group in self.groups)

    @property
    def arrangements(self) -> int:
        """Deals of the model per deal of the packed one: the ways to share each group's cards among its members."""
        ways = 1
        for member_caps in self.member_caps:
            ways *= math.factorial(sum(member_caps)) // math.prod(math.factorial(c) for c in member_caps)
        return ways

    @property
    def steps(self) -> tuple[np.ndarray, ...]:
        """The per-card arrays as the table kernels take them, in one tuple (see :mod:`kernels`)."""
        return self.offsets, self.widths, self.choices, self.nchoices, self.sat, self.last, self.full

    @property
    def clauses(self) -> tuple[np.ndarray, ...]:
        """The clause arrays as the sampling kernels take them, in one tuple (see :func:`kernels.find_deal`)."""
        return self.clause_cards, self.clause_holders, self.clause_start, self.card_clauses, self.card_clause_start

    @property
    def strides(self) -> np.ndarray:
        """Place value of each local holder's digit in a box index."""
        return np.concatenate([[1], np.cumprod(self.caps[:-1] + 1)]).astype(np.int64)[: len(self.caps)]

    def spread(self, local: np.ndarray) -> np.ndarray:
        """Model cards x holders marginals from ``local`` ones (free cards x local holders) and the known cards.

        A group's members are interchangeable: each holds a share of the group's cards in proportion to its size.
        """
        out = np.zeros((len(self.cards), len(self.holders)))
        known = np.flatnonzero(self.template >= 0)
        out[known, self.template[known]] = 1.0
        for j, (group, member_caps) in enumerate(zip(self.groups, self.member_caps)):
            for holder, cap in zip(group, member_caps):
                out[self.columns, holder] = local[:, j] * (cap / sum(member_caps))
        return out

    def memory(self, exact_count: bool = True) -> int:
        """Bytes the tables of :class:`DealTables` take (box bookkeeping, forward, backward, limbs)."""
        per_entry = 16 + (8 * self.limbs() if exact_count else 0)
        return int(self.box_size * 16 + self.entries * per_entry)


def pack(
    model: DealModel,
    closing: Iterable[int] = (),
    segments: Sequence[Iterable[int]] = (),
    separating: Iterable[int] = (),
) -> PackedModel:
    """Pack ``model`` for the kernels: known cards out, interchangeable holders grouped, free cards ordered.

    Holders that no card or clause tells apart (every free card is allowed at all
    of them or at none, every clause pair names all or none) are merged into one
    local holder whose capacity is the sum of theirs; a holder allowed for a card
    of ``closing`` is never merged, nor holders on both sides of a ``separating`` mask. The blocks
    holding any card of ``closing`` come last (for :meth:`ExactBackend.placements`);
    the blocks holding cards of one of ``segments`` stay together, and
    :attr:`PackedModel.segment_bounds` gives the steps they span (for
    :meth:`ExactBackend.chances`).
    """
    cards = model.cards
    column = {card: i for i, card in enumerate(cards)}
    n_holders = len(model.holders)
    template = np.full(len(cards), -1, np.int8)
    caps = list(model.sizes)
    free: list[Card] = []
    for card, mask in model.allowed.items():
        holder = model.certain_holder(card)
        if holder is None:
            free.append(card)
        elif mask:
            template[column[card]] = holder
            caps[holder] -= 1
    empty = any(not mask for mask in model.allowed.values()) or any(cap < 0 for cap in caps)
    active = [h for h in range(n_holders) if caps[h] > 0]
    active_mask = sum(1 << h for h in active)
    allowed: dict[int, int] = {card: model.allowed[card] & active_mask for card in free}
    empty = empty or any(not m for m in allowed.values()) or sum(caps[h] for h in active) != len(free)

    # Clauses over free cards, as {card: holder mask}; satisfied ones dropped.
    clauses: list[dict[Card, int]] = []
    for clause in model.clauses:
        pairs: dict[Card, int] = {}
        satisfied = False
        for card, mask in clause.pairs:
            known = template[column[card]]
            if known >= 0:
                satisfied = satisfied or bool(mask >> int(known) & 1)
                continue
            mask &= allowed[card]
            if mask == allowed[card]:
                satisfied = True
            if mask:
                pairs[card] = pairs.get(card, 0) | mask
        if satisfied:
            continue
        if not pairs:
            empty = True
            continue
        clauses.append(pairs)

    groups = _interchangeable(
        active,
        [allowed[card] for card in free],
        [mask for pairs in clauses for mask in pairs.values()] + list(separating),
        functools.reduce(operator.or_, (allowed.get(card, 0) for card in closing), 0),
    )
    first_of = [group[0] for group in groups]

    def to_local(mask: int) -> int:
        return sum(1 << j for j, h in enumerate(first_of) if mask >> h & 1)

    allow = {card: to_local(mask) for card, mask in allowed.items()}
    clauses = [{card: to_local(mask) for card, mask in pairs.items()} for pairs in clauses]

    # Blocks: connected components of free cards sharing a clause.
    root = _components(free, clauses)
    members: dict[int, list[Card]] = {}
    for card in free:
        members.setdefault(root[card], []).append(card)
    block_clauses: dict[int, list[dict[Card, int]]] = {r: [] for r in members}
    for pairs in clauses:
        block_clauses[root[next(iter(pairs))]].append(pairs)
    if any(len(cl) > MAX_CLAUSE_BITS for cl in block_clauses.values()):
        raise InferenceError(f"a block carries more than {MAX_CLAUSE_BITS} clauses")
    # Units of blocks kept together: each segment's blocks (merged where segments share one).
    segment_roots = [{root[card] for card in cards_ if card in root} for cards_ in segments]
    unit = _components(members, segment_roots)
    units: dict[int, list[int]] = {}
    for r in members:
        units.setdefault(unit[r], []).append(r)
    # Layers are narrowest at both ends of the order: put the units with most clauses there.
    closing_roots = {root[card] for card in closing if card in root}
    ranked = sorted(
        (u for u in units if not closing_roots & set(units[u])),
        key=lambda u: (-sum(len(block_clauses[r]) for r in units[u]), min(min(members[r]) for r in units[u])),
    )
    front, back = ranked[0::2], ranked[1::2]
    block_order = [r for u in front + back[::-1] for r in units[u]]
    block_order += sorted(closing_roots, key=lambda r: min(members[r]))

    n = len(free)
    h_count = len(groups)
    choices = np.zeros((n, max(h_count, 1)), np.int64)
    nchoices = np.zeros(n, np.int64)
    allow_arr = np.zeros(n, np.int64)
    sat = np.zeros((n, max(h_count, 1)), np.int64)
    last = np.zeros(n, np.bool_)
    full = np.zeros(n, np.int64)
    widths = np.ones(n + 1, np.int64)
    columns = np.zeros(n, np.int64)
    index: dict[Card, int] = {}
    block_start: dict[int, int] = {}
    k = 0
    for r in block_order:
        block = members[r]
        block_start[r] = k
        bits = len(block_clauses[r])
        for pos, card in enumerate(block):
            index[card] = k
            columns[k] = column[card]
            allow_arr[k] = allow[card]
            options = [j for j in range(h_count) if allow[card] >> j & 1]
            choices[k, : len(options)] = options
            nchoices[k] = len(options)
            for q, pairs in enumerate(block_clauses[r]):
                mask = pairs.get(card, 0)
                for j in options:
                    if mask >> j & 1:
                        sat[k, j] |= 1 << q
            full[k] = (1 << bits) - 1
            last[k] = pos == len(block) - 1
            widths[k] = 1 if pos == 0 else 1 << bits
            k += 1
    clause_cards: list[int] = []
    clause_holders: list[int] = []
    clause_start = [0]
    by_card: list[list[int]] = [[] for _ in range(n)]
    for q, pairs in enumerate(clauses):
        for card, mask in sorted(pairs.items(), key=lambda item: index[item[0]]):
            clause_cards.append(index[card])
            clause_holders.append(mask)
            by_card[index[card]].append(q)
        clause_start.append(len(clause_cards))
    card_clause_start = np.cumsum([0] + [len(qs) for qs in by_card])

    unit_span: dict[int, tuple[int, int]] = {}
    for r, start in block_start.items():
        low, high = unit_span.get(unit[r], (start, start))
        unit_span[unit[r]] = (min(low, start), max(high, start + len(members[r])))
    segment_bounds = [unit_span[unit[next(iter(roots))]] if roots else (0, 0) for roots in segment_roots]

    cap_arr = np.array([sum(caps[h] for h in group) for group in groups], np.int64)
    layer_sizes = np.ones(1, np.int64)
    for cap in cap_arr:  # coefficients of prod (1 + x + ... + x**cap)
        layer_sizes = np.convolve(layer_sizes, np.ones(int(cap) + 1, np.int64))
    if len(layer_sizes) != n + 1:
        empty = True
        layer_sizes = np.resize(layer_sizes, n + 1)
    offsets = np.zeros(n + 2, np.int64)
    offsets[1:] = np.cumsum(layer_sizes * widths)

    return PackedModel(
        holders=model.holders,
        cards=cards,
        template=template,
        columns=columns,
        groups=tuple(groups),
        member_caps=tuple(tuple(caps[h] for h in group) for group in groups),
        caps=cap_arr,
        segment_bounds=tuple(segment_bounds),
        choices=choices,
        nchoices=nchoices,
        allow=allow_arr,
        sat=sat,
        last=last,
        full=full,
        widths=widths,
        offsets=offsets,
        layer_sizes=layer_sizes,
        clause_cards=np.array(clause_cards, np.int64),
        clause_holders=np.array(clause_holders, np.int64),
        clause_start=np.array(clause_start, np.int64),
        card_clauses=np.array([q for qs in by_card for q in qs], np.int64),
        card_clause_start=np.asarray(card_clause_start, np.int64),
        empty=empty,
    )


def _components(items: Iterable[int], links: Iterable[Iterable[int]]) -> dict[int, int]:
    """Each of ``items`` mapped to one representative of its component, items being joined by sharing a link."""
    parent = {item: item for item in items}

    def find(item: int) -> int:
        while parent[item] != item:
            parent[item] = parent[parent[item]]
            item = parent[item]
        return item

    for link in links:
        linked = list(link)
        for item in linked[1:]:
            parent[find(item)] = find(linked[0])
    return {item: find(item) for item in parent}


def _interchangeable(
    holders: Sequence[int], card_masks: Sequence[int], pair_masks: Sequence[int], distinct: int
) -> list[tuple[int, ...]]:
    """``holders`` grouped by what the masks say of them (in order of first member); ``distinct`` ones stay alone."""
    groups: dict[tuple, list[int]] = {}
    for h in holders:
        key = (
            (h,)
            if distinct >> h & 1
            else (tuple(m >> h & 1 for m in card_masks), tuple(m >> h & 1 for m in pair_masks))
        )
        groups.setdefault(key, []).append(h)
    return [tuple(group) for group in groups.values()]


def box_of(packed: PackedModel) -> tuple[np.ndarray, ...]:
    """Layer bookkeeping of ``packed``'s capacity box (see :func:`kernels.build_box`), cached by capacities."""
    return _box(tuple(int(c) for c in packed.caps))


@lru_cache(maxsize=16)
def _box(caps: tuple[int, ...]) -> tuple[np.ndarray, ...]:
    arrays = kernels.build_box(np.array(caps, np.int64))
    for array in arrays:
        array.flags.writeable = False
    return arrays


class DealTables:
    """The forward (and optionally backward) tables of one packed model.

    ``count``, the model's number of consistent deals, is exact when built with
    ``exact_count``; ``total`` is its float. ``paths`` is the float number of
    deals of the packed model (a group's cards dealt to the group as one holder),
    the denominator of the tables' own weights.
    """

    def __init__(self, packed: PackedModel, *, backward: bool = True, exact_count: bool = True) -> None:
        self.packed = packed
        self.count: int | None = 0 if exact_count else None
        self.total = self.paths = 0.0
        self.backward: np.ndarray | None = None
        self.raw_marginals: np.ndarray | None = None
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

    def marginals(self) -> np.ndarray:
        """P(card dealt to holder), model cards x holders; raises InconsistentError without deals."""
        if self.total == 0:
            raise InconsistentError("no deal satisfies the constraints")
        if self.raw_marginals is None:
            raise ValueError("tables built without the backward pass give counts, not marginals")
        return self.packed.spread(self.raw_marginals / self.paths)


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
            packed = pack(narrowed)
            if packed.empty:
                result.append(0.0)
                continue
            tables = FrontierTables(plan(packed, probes=False), max_transitions=self.max_transitions - spent)
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
        wanted = set(cards)
        first = min(
            (k for k in range(packed.free_count) if packed.cards[packed.columns[k]] in wanted),
            default=packed.free_count,
        )
        while first > 0 and not packed.last[first - 1]:  # back to the start of the first closing block
            first -= 1
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
        base = len(model.holders)
        if len(cards) * math.log2(max(base, 2)) < 62:  # a row as one integer, first card most significant: fast
            keys = rows @ (base ** np.arange(len(cards) - 1, -1, -1, dtype=np.int64))
            _, first_rows, inverse = np.unique(keys, return_index=True, return_inverse=True)
            distinct = rows[first_rows]
        else:
            distinct, inverse = np.unique(rows, axis=0, return_inverse=True)
        return distinct, np.bincount(inverse.ravel(), weights, len(distinct)) / weights.sum()

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
