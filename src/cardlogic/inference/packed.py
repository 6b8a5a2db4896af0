"""A deal model packed into the arrays the exact programs and the sampler read.

:func:`pack` takes cards with a single allowed holder as *known* and off their
holder's capacity; the others, the *free* cards, are grouped into blocks
(connected components of cards sharing a clause) and ordered block by block;
holders that nothing tells apart are merged into one local holder. The dense
tables (:mod:`~cardlogic.inference.exact`), the reachable states
(:mod:`~cardlogic.inference.sparse`), the frontier program
(:mod:`~cardlogic.inference.frontier`) and the sampler all start from the same
:class:`PackedModel`, which sits below all of them.

>>> from cardlogic.constraints import DealModel
>>> model = DealModel(("A", "B", "C"), (2, 2, 2), range(6))
>>> model.place(0, 0)
>>> packed = pack(model)
>>> packed.free_count, packed.groups, packed.arrangements  # nothing tells the holders apart: one local holder
(5, ((0, 1, 2),), 30)
"""

from __future__ import annotations

import functools
import hashlib
import math
import operator
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from cardlogic.cards import Card
from cardlogic.constraints import DealModel, InconsistentError
from cardlogic.inference import kernels
from cardlogic.inference.base import BudgetCache, InferenceError

MAX_CLAUSE_BITS = 30
"""Most clauses one block may carry: the table grows as 2**bits."""


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


class PackedTables:
    """What the dense tables and the reachable states' sums of a packed model share: ``packed``, ``paths`` (the
    float number of deals of the packed model, a group's cards dealt to the group as one holder), ``total`` (the
    model's, a float), ``count`` (exact, or None), ``backward`` (the backward table) and ``raw_marginals`` (free
    cards x local holders, unnormalised; None without a backward pass)."""

    def __init__(self, packed: PackedModel, exact_count: bool) -> None:
        """No deals counted yet: ``count`` 0 (None without ``exact_count``), no backward table or marginals."""
        self.packed = packed
        self.count: int | None = 0 if exact_count else None
        self.total = self.paths = 0.0
        self.backward: np.ndarray | None = None
        self.raw_marginals: np.ndarray | None = None

    def marginals(self) -> np.ndarray:
        """P(card dealt to holder), model cards x holders; raises InconsistentError without deals."""
        if self.total == 0:
            raise InconsistentError("no deal satisfies the constraints")
        if self.raw_marginals is None:
            raise ValueError("tables built without the backward pass give counts, not marginals")
        return self.packed.spread(self.raw_marginals / self.paths)


_PACKED: BudgetCache[PackedModel] = BudgetCache(64)
"""The last packed models by what they were packed from: a belief's questions in one state pack the same models
again and again (the consistency check, the marginals, each look-ahead, each set's claim twice), about 5 ms each
at 12 players."""


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
    last, kept = tuple(closing), tuple(tuple(cards) for cards in segments)
    apart = tuple(separating)
    key = (model.holders, model.sizes, tuple(model.allowed.items()), tuple(model.clauses), last, kept, apart)
    return _PACKED.get(key, 0.0, lambda _: _packed(model, last, kept, apart))


def forget_packed() -> None:
    """Empty the cache of :func:`pack` (to time a pass from scratch)."""
    _PACKED.clear()


def _packed(
    model: DealModel, closing: tuple[int, ...], segments: tuple[tuple[int, ...], ...], separating: tuple[int, ...]
) -> PackedModel:
    """:func:`pack` worked out (the packed model is shared: its arrays are read, never written)."""
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
