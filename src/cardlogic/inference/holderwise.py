"""Exact inference holder by holder, over how many cards of each type are still unassigned.

The dynamic program of :mod:`cardlogic.inference.exact` walks the cards and
keeps, as its state, the cards each holder has taken: a box of
``prod(cap + 1)`` states, hundreds of millions once every player of a 10-12
player game has been named by an ask. This one walks the holders instead.
Free cards with the same allowed holders and the same clause pairs are
*interchangeable*, one *type*; a state says how many cards of each class of
types are still unassigned. A holder takes ``k`` of the ``r`` cards left of
a class in ``comb(r, k)`` ways, one class at a time (a digit counts the cards
it has taken so far), and its clauses are checked when it is done. Once a
holder is done, its column of the allowed sets and its clauses no longer
tell cards apart: classes that agree on every holder still to come merge,
so the states shrink as the walk goes on. Holders are taken in the order
that keeps the estimated states smallest (:func:`holder_order`).

Marginals come from one backward pass and a forward pass that carries, per
state and type, the paths times the cards of the type still unassigned
(:func:`kernels.layered_moments`); the count is exact (31-bit limbs).

>>> from cardlogic.constraints import DealModel
>>> from cardlogic.inference.exact import pack
>>> model = DealModel(("A", "B"), (2, 2), range(4))
>>> model.require_one_of(0, [0, 1])
>>> tables = HolderTables(pack(model))
>>> tables.count, round(float(tables.marginals()[0, 0]), 4)
(5, 0.6)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from cardlogic.constraints import InconsistentError
from cardlogic.inference import kernels
from cardlogic.inference.exact import PackedModel

KEY_LIMIT = 1 << 62
"""Keys (mixed-radix state numbers) must stay below this."""

Signature = tuple[int, tuple[tuple[int, int], ...]]


@dataclass(frozen=True)
class CardTypes:
    """The free cards of a packed model grouped into types: same allowed holders, same clause pairs."""

    of_card: np.ndarray  # type of each free card
    sizes: tuple[int, ...]
    allow: tuple[int, ...]  # local holder mask of each type
    pairs: tuple[tuple[tuple[int, int], ...], ...]  # (clause, local holder mask) pairs of each type
    clause_holders: tuple[int, ...]  # the holders each clause names

    @classmethod
    def of(cls, packed: PackedModel) -> CardTypes:
        p = packed
        pairs: list[list[tuple[int, int]]] = [[] for _ in range(p.free_count)]
        clause_holders = []
        for q in range(len(p.clause_start) - 1):
            named = 0
            for i in range(p.clause_start[q], p.clause_start[q + 1]):
                pairs[int(p.clause_cards[i])].append((q, int(p.clause_holders[i])))
                named |= int(p.clause_holders[i])
            clause_holders.append(named)
        index: dict[Signature, int] = {}
        of_card = np.empty(p.free_count, np.int64)
        for k in range(p.free_count):
            of_card[k] = index.setdefault((int(p.allow[k]), tuple(sorted(pairs[k]))), len(index))
        sizes = np.bincount(of_card, minlength=len(index))
        return cls(of_card, tuple(int(s) for s in sizes), tuple(a for a, _ in index), tuple(c for _, c in index),
                   tuple(clause_holders))

    def signature(self, t: int, undone: int) -> Signature:
        """What holders in the mask ``undone`` can still tell of a card of type ``t``."""
        return self.allow[t] & undone, tuple((q, m & undone) for q, m in self.pairs[t] if m & undone)

    def classes(self, undone: int) -> list[list[int]]:
        """The types that the holders in ``undone`` cannot tell apart, grouped (types no such holder may take left out)."""
        groups: dict[Signature, list[int]] = {}
        for t in range(len(self.sizes)):
            if self.allow[t] & undone:
                groups.setdefault(self.signature(t, undone), []).append(t)
        return list(groups.values())


def holder_order(packed: PackedModel, types: CardTypes) -> tuple[tuple[int, ...], float]:
    """The order of the local holders, chosen greedily, and the estimated states it visits in all.

    Each next holder is the one after which the fewest states can remain, counted
    as the vectors of remaining cards per class within each class's bounds
    (at most what the holders to come can take, at least what those done cannot
    have taken) whose sum is the capacity still to fill, times the open clause
    bits; the within-holder steps are estimated at that times the holder's capacity.
    """
    caps = [int(c) for c in packed.caps]
    undone = (1 << len(caps)) - 1
    order: list[int] = []
    total = 1.0
    while undone:
        best = None
        for h in range(len(caps)):
            if undone >> h & 1:
                states = _states_bound(types, caps, undone & ~(1 << h))
                if best is None or states < best[1]:
                    best = (h, states)
        h, states = best
        total += states * (caps[h] + 1) * len(types.sizes)
        order.append(h)
        undone &= ~(1 << h)
    return tuple(order), total


def _states_bound(types: CardTypes, caps: list[int], undone: int) -> float:
    """At most how many states remain once the holders outside ``undone`` are done (see :func:`holder_order`)."""
    remaining = sum(c for h, c in enumerate(caps) if undone >> h & 1)
    poly = np.ones(1)
    for members in types.classes(undone):
        allow = types.allow[members[0]] & undone
        high = min(sum(types.sizes[t] for t in members), sum(c for h, c in enumerate(caps) if allow >> h & 1))
        low = sum(max(0, types.sizes[t] - sum(c for h, c in enumerate(caps) if types.allow[t] & ~undone >> h & 1))
                  for t in members)
        if low > high:
            return 0.0
        span = np.zeros(high + 1)
        span[low:] = 1.0
        poly = np.convolve(poly, span)[:remaining + 1]
    states = float(poly[remaining]) if remaining < len(poly) else 0.0
    open_clauses = sum(1 for named in types.clause_holders if named & undone and named & ~undone)
    return states * 2.0 ** open_clauses


class HolderTables:
    """The layered state graph of a packed model walked holder by holder, its count and marginals.

    ``count`` is the model's number of consistent deals, exact when built with
    ``exact_count`` (else None); ``total`` its float; ``paths`` the float number
    of deals of the packed model (its groups' cards dealt to each group as one holder).
    """

    def __init__(self, packed: PackedModel, order: tuple[int, ...] | None = None, *, exact_count: bool = True,
                 types: CardTypes | None = None) -> None:
        self.packed = packed
        self.types = CardTypes.of(packed) if types is None else types
        self.order = holder_order(packed, self.types)[0] if order is None else order
        self.count: int | None = 0 if exact_count else None
        self.total = self.paths = 0.0
        if packed.empty:
            return
        self._build()
        limbs = self._limbs() if exact_count else 0
        final, exact = kernels.layered_count(self.layer_start, self.edge_start, self.edge_dst, self.edge_r,
                                             self.edge_k, limbs)
        self.paths = float(final.sum())
        self.total = self.paths * packed.arrangements
        if exact_count:
            paths = sum(int(limb) << (31 * i) for row in exact for i, limb in enumerate(row))
            self.count = paths * packed.arrangements

    def _limbs(self) -> int:
        bound = math.factorial(self.packed.free_count)
        for cap in self.packed.caps:
            bound //= math.factorial(int(cap))
        return bound.bit_length() // 31 + 1

    @property
    def states(self) -> int:
        """States of every layer in all."""
        return int(self.layer_start[-1])

    def _build(self) -> None:
        """Walk the holders in order, building each layer's keys and the edges between layers.

        A holder takes from its classes group by group, a group being the
        classes that merge once it is done; each group is merged (or, taken
        by no holder after this one, checked to be used up) right after its
        last take, so the fine classes of one group at most are in the keys at a time.
        """
        types, caps, order = self.types, [int(c) for c in self.packed.caps], self.order
        undone = (1 << len(caps)) - 1
        layout = _Layout(types, types.classes(undone), undone, caps, order[0] if order else None)
        keys = np.array([layout.start()], np.int64)
        self._layers = [keys]
        self._steps: list[tuple[np.ndarray, ...]] = []
        self._taking: list[np.ndarray] = []
        self._holder: list[int] = []
        for position, h in enumerate(order):
            after = undone & ~(1 << h)
            merged = {t: c for c, members in enumerate(types.classes(after)) for t in members}
            groups: dict[int, list[tuple]] = {}
            for name in layout.names:
                if name[0] == "c":
                    groups.setdefault(merged.get(min(name[1]), -1), []).append(name)
            # Used-up classes first (their digits go), then merging groups (the keys shrink), then lone classes.
            ranked = sorted(groups, key=lambda g: (g >= 0, len(groups[g]) == 1, g))
            takes = [name for g in ranked for name in groups[g] if types.allow[min(name[1])] >> h & 1]
            for target in ranked:
                names = groups[target]
                for name in names:
                    if name in takes:
                        later = takes[takes.index(name) + 1:]
                        hits = [q for q, m in types.pairs[min(name[1])] if m >> h & 1]
                        # Clauses ending at this holder are checked at their last class.
                        closing = [q for q in hits if not types.clause_holders[q] & after
                                   and not any(q == p and m >> h & 1 for n in later for p, m in types.pairs[min(n[1])])]
                        keys = self._step(kernels.take_step(
                            keys, layout.stride(name), layout.radix(name), layout.stride(("t",)), caps[h],
                            np.array([layout.stride(("q", q)) for q in hits], np.int64),
                            np.array([layout.stride(("q", q)) for q in closing], np.int64),
                            np.array([layout.stride(n) for n in later], np.int64),
                            np.array([layout.radix(n) for n in later], np.int64), target < 0), sorted(name[1]), h)
                if target < 0 or len(names) > 1:
                    merged_name = ("c", frozenset().union(*(name[1] for name in names)))
                    new = layout.replace(names, [] if target < 0 else [merged_name])
                    keys = self._recode(keys, layout, new, {name: kernels.EMPTY if target < 0 else merged_name
                                                            for name in names})
                    layout = new
            following = order[position + 1] if position + 1 < len(order) else None
            new = _Layout(types, [sorted(name[1]) for name in layout.names if name[0] == "c"], after, caps, following)
            finished = {("q", q): kernels.EMPTY for q, named in enumerate(types.clause_holders)
                        if ("q", q) in layout.names and not named & after}
            keys = self._recode(keys, layout, new, {("t",): kernels.FULL, **finished})
            layout, undone = new, after
        self.layer_start = np.cumsum([0] + [len(k) for k in self._layers]).astype(np.int64)
        edge_counts = np.cumsum([0] + [len(dst) for _, dst, *_ in self._steps])
        self.edge_start = np.concatenate([start[:-1] + offset for (start, *_), offset in zip(self._steps, edge_counts)]
                                         + [np.full(len(keys) + 1, edge_counts[-1])]).astype(np.int64)
        self.edge_dst = np.concatenate([np.zeros(0, np.int64)] + [dst for _, dst, _, _ in self._steps])
        self.edge_r = np.concatenate([np.zeros(0, np.int8)] + [r for _, _, r, _ in self._steps])
        self.edge_k = np.concatenate([np.zeros(0, np.int8)] + [k for _, _, _, k in self._steps])
        self.taking = np.array(self._taking, np.bool_).reshape(len(self._taking), len(types.sizes))
        self.holder = np.array(self._holder, np.int64)
        del self._layers, self._steps, self._taking, self._holder

    def _step(self, result: tuple[np.ndarray, ...], taken: list[int], holder: int) -> np.ndarray:
        """Record one step's edges (holder ``holder`` taking from the class of types ``taken``); its new keys."""
        keys, *edges = result
        self._layers.append(keys)
        self._steps.append(tuple(edges))
        row = np.zeros(len(self.types.sizes), np.bool_)
        row[taken] = True
        self._taking.append(row)
        self._holder.append(holder)
        return keys

    def _recode(self, keys: np.ndarray, old: _Layout, new: _Layout, targets: dict) -> np.ndarray:
        """Re-encode ``keys`` from ``old`` into ``new``: digits named in ``targets`` go there (a name, or
        :data:`kernels.EMPTY` / :data:`kernels.FULL`), the others to their namesakes."""
        where = [targets.get(name, name) for name in old.names]
        codes = np.array([w if isinstance(w, int) else new.names.index(w) for w in where], np.int64)
        return self._step(kernels.recode_step(keys, np.array(old.strides, np.int64), np.array(old.radices, np.int64),
                                              codes, np.array(new.strides, np.int64)), [], -1)

    def marginals(self) -> np.ndarray:
        """P(card dealt to holder), model cards x holders; raises InconsistentError without deals."""
        p = self.packed
        if self.total == 0:
            raise InconsistentError("no deal satisfies the constraints")
        backward = kernels.layered_backward(self.layer_start, self.edge_start, self.edge_dst, self.edge_r,
                                            self.edge_k)
        per_type = kernels.layered_moments(self.layer_start, self.edge_start, self.edge_dst, self.edge_r,
                                           self.edge_k, backward, self.taking, self.holder,
                                           np.array(self.types.sizes, np.float64))
        raw = np.zeros((p.free_count, len(p.caps)))
        raw[:, :per_type.shape[1]] = per_type[self.types.of_card] / self.paths
        out = np.zeros((len(p.cards), len(p.holders)))
        known = np.flatnonzero(p.template >= 0)
        out[known, p.template[known]] = 1.0
        for j, (group, member_caps) in enumerate(zip(p.groups, p.member_caps)):
            for member, cap in zip(group, member_caps):
                out[p.columns, member] = raw[:, j] * (cap / sum(member_caps))
        return out


class _Layout:
    """The digits of a layer's keys, by name: ``("c", types)`` the cards left of a class, ``("t",)`` the cards the
    current holder has taken so far, ``("q", clause)`` whether an open clause is satisfied yet."""

    def __init__(self, types: CardTypes | None, classes: list[list[int]], undone: int, caps: list[int],
                 holder: int | None, names: list[tuple] | None = None, radices: list[int] | None = None) -> None:
        if names is None:
            names = [("c", frozenset(members)) for members in classes]
            radices = [sum(types.sizes[t] for t in members) + 1 for members in classes]
            if holder is not None:
                names.append(("t",))
                radices.append(caps[holder] + 1)
            for q, named in enumerate(types.clause_holders):
                if named & undone and (named & ~undone or holder is not None and named >> holder & 1):
                    names.append(("q", q))
                    radices.append(2)
        self.names, self.radices = names, radices
        self.strides = [math.prod(radices[:d]) for d in range(len(radices))]
        self.sizes = {name: radix - 1 for name, radix in zip(names, radices) if name[0] == "c"}
        if math.prod(radices) >= KEY_LIMIT:
            raise OverflowError("state keys would not fit 62 bits")

    def stride(self, name: tuple) -> int:
        return self.strides[self.names.index(name)]

    def radix(self, name: tuple) -> int:
        return self.radices[self.names.index(name)]

    def start(self) -> int:
        """The first key: every class full, nothing taken, no clause satisfied."""
        return sum(size * self.stride(name) for name, size in self.sizes.items())

    def replace(self, names: list[tuple], by: list[tuple]) -> _Layout:
        """This layout with the digits ``names`` replaced by class digits ``by`` (sizes summed)."""
        kept = [(n, r) for n, r in zip(self.names, self.radices) if n not in names]
        added = [(name, sum(self.sizes[n] for n in names) + 1) for name in by]
        return _Layout(None, [], 0, [], None, [n for n, _ in kept + added], [r for _, r in kept + added])
