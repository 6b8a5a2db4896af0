"""Exact inference early in big games: a dynamic program whose state holds only the holders on its frontier.

The capacity box of :mod:`~cardlogic.inference.exact` tracks every holder at
every step: 5**12 states once the twelve hands of a 12-player game have been
told apart. Early in a game, though, most cards may go almost anywhere. Write
each card's choice as a polynomial in one variable ``x_h`` per holder: a card
allowed at holders ``A`` is ``sum(x_h for h in A)``, or, when ``A`` misses only
a few holders ``E``, ``X - sum(x_h for h in E)`` with ``X`` the sum over every
holder (the *generic* choice). The number of deals is the coefficient of
``prod(x_h ** cap_h)`` in the product over cards; with ``k_h`` the cards a term
gives holder ``h`` by name and ``a`` the generic ones, that coefficient is
``a! / prod((cap_h - k_h)!)``. So a holder needs a place in the state only
from the first card that names it to the last: before, its ``k_h`` is 0;
after, its factor ``1 / (cap_h - k_h)!`` is taken and only the total of named
cards is kept (for ``a``). With the blocks ordered so that few holders are
named on both sides of a cut, the stored 12-player start reaches 61,000 states
in all where the box has 25 million.

Clauses ("``h`` holds one of these") keep their bits as in the box program; a
card a clause names at ``h`` lists ``h`` by name twice, once with the bits
(``+x_h``) and once without (``-x_h``), so the generic choice never satisfies
a clause. The terms carry signs, so the tables are floats that cancel; every
card's marginals must sum to one to within :data:`TOLERANCE`, else the model
raises :class:`~cardlogic.inference.base.InferenceError` and the caller takes
another method. The exact count comes from the same forward pass in modular
arithmetic (:func:`exact_count`).

Marginals: a card given by name to a holder open at its step is one more term
at that step (forward times backward). A card given to a holder outside its
span is a deal of the model without the card and with that holder's capacity
one less: the forward pass redone with the smaller capacity from the holder's
first card on (for cards after its span), or the backward pass from its last
card down (for cards before).

>>> from cardlogic.constraints import DealModel
>>> from cardlogic.inference.exact import pack
>>> model = DealModel(("A", "B", "C"), (2, 2, 2), range(6))
>>> model.require_one_of(0, [0, 1])
>>> model.forbid(2, 1)
>>> tables = FrontierTables(plan(pack(model)))
>>> tables.count, round(float(tables.marginals()[0, 0]), 4)
(33, 0.5455)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np

from cardlogic.constraints import InconsistentError
from cardlogic.inference import kernels
from cardlogic.inference.base import BudgetCache, InferenceError

if TYPE_CHECKING:
    from cardlogic.inference.exact import PackedModel

TOLERANCE = 1e-7
"""How far a card's marginals may sum from one before cancellation is deemed to have spoiled them."""
MAX_OPERATIONS = 1e9
"""Transitions of one pass over the whole layers beyond which the frontier program is not tried (its reached
states then numbered millions on the stored scenarios: early 10-player games, a 12-player spectator's start)."""
FIRST_OPERATIONS = 1e8
"""Transitions of one pass over the whole layers up to which the frontier program is tried before the reachable
states of the box: its reached states then numbered at most a few hundred thousand on the stored games (early on),
while beyond, from the middle game on, the walk reached fewer."""
ORDER_SEARCH = 16
"""Most blocks whose every order is searched (2**16 subsets, a few milliseconds); more are ordered greedily."""
PRIMES = (2_147_483_629, 2_147_483_587, 2_147_483_579, 2_147_483_563, 2_147_483_549, 2_147_483_543)
"""Moduli of the exact count (about 186 bits together, more than the 150 a 54-card deal's count needs)."""


@dataclass(frozen=True, eq=False)
class Step:
    """One card's move from layer ``i`` to layer ``i + 1`` as the frontier kernels take it."""

    free: int  # the card's index among the packed model's free cards
    in_size: int
    shape: np.ndarray
    in_radix: np.ndarray
    out_stride: np.ndarray
    slot_holders: tuple[int, ...]  # local holder of each slot
    slots: tuple[np.ndarray, np.ndarray, np.ndarray]
    options: tuple[np.ndarray, np.ndarray, np.ndarray]
    probes: tuple[np.ndarray, np.ndarray, np.ndarray]  # the card to each allowed slot holder, by name
    moves: tuple[np.ndarray, np.ndarray, np.ndarray]  # the options, then the probes
    probe_holders: tuple[int, ...]
    elsewhere: tuple[int, ...]  # allowed local holders outside the slots (the card reaches them generically)
    closing: tuple[int, ...]  # local holders whose span ends here, in the order of the edges' closing counts


@dataclass(frozen=True, eq=False)
class Plan:
    """A packed model as a sequence of frontier steps.

    ``first``/``last`` give each local holder's span of steps (-1 when no card names it);
    ``operations`` is the transitions of one pass over the whole layers (an upper bound of the reached ones).
    """

    packed: PackedModel
    steps: tuple[Step, ...]
    layer_sizes: tuple[int, ...]
    first: tuple[int, ...]
    last: tuple[int, ...]
    generic: int  # free cards
    unnamed_factor: float  # prod 1/cap! over the holders no card names

    @property
    def operations(self) -> float:
        return float(sum(step.in_size * len(step.options[0]) for step in self.steps))


@lru_cache(maxsize=4)
def _factorials(n: int) -> tuple[np.ndarray, np.ndarray]:
    fact = np.array([float(math.factorial(i)) for i in range(n + 1)])
    return fact, 1.0 / fact


def plan(packed: PackedModel) -> Plan:
    """Order ``packed``'s free cards for the frontier program and lay out its layers."""
    p = packed
    n_local = len(p.caps)
    caps = [int(c) for c in p.caps]
    everyone = (1 << n_local) - 1
    named: list[int] = []  # holders each card names
    positive: list[bool] = []
    for k in range(p.free_count):
        allow = int(p.allow[k])
        in_clauses = sum(1 << j for j in range(n_local) if p.sat[k, j])
        exceptions = (everyone & ~allow) | in_clauses
        positive.append(allow.bit_count() <= exceptions.bit_count())
        named.append(allow if positive[-1] else exceptions)

    blocks: list[list[int]] = []
    current: list[int] = []
    for k in range(p.free_count):
        current.append(k)
        if p.last[k]:
            blocks.append(current)
            current = []
    order = _block_order([_union(named[k] for k in block) for block in blocks],
                         [int(p.full[block[0]]).bit_length() for block in blocks], [len(block) for block in blocks], caps)
    cards: list[int] = []
    ends: list[bool] = []  # the card ends its block
    open_before = 0
    remaining = [_union(named[k] for k in blocks[b]) for b in order]
    for position, b in enumerate(order):
        later = _union(remaining[position + 1:])
        # Inside a block: cards naming holders already open (or closing here) first, new holders last.
        cards += sorted(blocks[b], key=lambda k: ((named[k] & ~open_before).bit_count(), k))
        ends += [False] * (len(blocks[b]) - 1) + [True]
        open_before = (open_before | remaining[position]) & later

    n = len(cards)
    first = [-1] * n_local
    last = [-1] * n_local
    for i, k in enumerate(cards):
        for j in _bits(named[k]):
            if first[j] < 0:
                first[j] = i
            last[j] = i
    # Layer i sits before step i: its digits are the holders named on both sides.
    layers = []
    for i in range(n + 1):
        digits = [j for j in range(n_local) if 0 <= first[j] < i <= last[j]]
        closed = 1 + sum(caps[j] for j in range(n_local) if 0 <= last[j] < i)
        inside = 0 < i < n and not ends[i - 1]
        width = int(p.full[cards[i]]) + 1 if inside else 1
        layers.append((digits, closed, width))
    layer_sizes = tuple(int(np.prod([caps[j] + 1 for j in d], dtype=np.int64)) * kw * w for d, kw, w in layers)

    steps = []
    for i, k in enumerate(cards):
        digits_in, kw_in, w_in = layers[i]
        digits_out, kw_out, w_out = layers[i + 1]
        slot_holders = tuple(j for j in range(n_local) if first[j] <= i <= last[j] and first[j] >= 0)
        slot = {j: q for q, j in enumerate(slot_holders)}
        slots = (np.array([digits_in.index(j) if j in digits_in else -1 for j in slot_holders], np.int64),
                 np.array([digits_out.index(j) if j in digits_out else -1 for j in slot_holders], np.int64),
                 np.array([caps[j] for j in slot_holders], np.int64))
        allow = int(p.allow[k])
        options: list[tuple[int, float, int]] = []
        if positive[k]:
            options += [(slot[j], 1.0, int(p.sat[k, j])) for j in _bits(allow)]
        else:
            options.append((-1, 1.0, 0))
            options += [(slot[j], -1.0, 0) for j in _bits(named[k])]
            options += [(slot[j], 1.0, int(p.sat[k, j])) for j in _bits(named[k] & allow)]
        probe_holders = tuple(j for j in slot_holders if allow >> j & 1)
        probes = [(slot[j], 1.0, int(p.sat[k, j])) for j in probe_holders]
        out_stride = np.cumprod([1] + [caps[j] + 1 for j in digits_out])[:len(digits_out)].astype(np.int64)
        steps.append(Step(
            free=k, in_size=layer_sizes[i],
            shape=np.array([kw_in, w_in, kw_out, w_out, ends[i], int(p.full[k])], np.int64),
            in_radix=np.array([caps[j] + 1 for j in digits_in], np.int64), out_stride=out_stride,
            slot_holders=slot_holders, slots=slots, options=_options(options),
            probes=_options(probes), moves=_options(options + probes), probe_holders=probe_holders,
            elsewhere=() if positive[k] else tuple(j for j in _bits(allow) if j not in slot),
            closing=tuple(j for j in slot_holders if last[j] == i)))
    unnamed = 1.0
    for j in range(n_local):
        if first[j] < 0:
            unnamed /= math.factorial(caps[j])
    return Plan(p, tuple(steps), layer_sizes, tuple(first), tuple(last), n, unnamed)


def _options(options: list[tuple[int, float, int]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    return (np.array([o[0] for o in options], np.int64), np.array([o[1] for o in options], np.float64),
            np.array([o[2] for o in options], np.int64))


def _bits(mask: int) -> list[int]:
    return [j for j in range(mask.bit_length()) if mask >> j & 1]


def _union(masks) -> int:
    out = 0
    for mask in masks:
        out |= mask
    return out


def _block_order(named: list[int], bits: list[int], sizes: list[int], caps: list[int]) -> list[int]:
    """Blocks in an order that keeps the layers small (:func:`kernels.frontier_order` over every order of up to
    :data:`ORDER_SEARCH` blocks; beyond, the cheapest next block first). Blocks naming nobody go first, where the
    state is a single one."""
    order = [b for b, mask in enumerate(named) if not mask]
    left = [b for b, mask in enumerate(named) if mask]
    if len(left) <= ORDER_SEARCH:
        chosen = kernels.frontier_order(np.array([named[b] for b in left], np.int64),
                                        np.array([bits[b] for b in left], np.int64),
                                        np.array([sizes[b] for b in left], np.int64), np.array(caps, np.int64))
        return order + [left[int(i)] for i in chosen]
    done = 0
    while left:
        best = None
        for b in left:
            before = done | named[b]
            after = named[b] | _union(named[c] for c in left if c != b)
            size = math.prod(caps[j] + 1 for j in _bits(before & after)) * (
                1 + sum(caps[j] for j in _bits(done & ~after))) << bits[b]
            key = (size, b)
            if best is None or key < best[0]:
                best = (key, b)
        order.append(best[1])
        left.remove(best[1])
        done |= named[best[1]]
    return order


class FrontierTables:
    """The forward pass of a :class:`Plan` over the reached states only, and from it every marginal.

    The same attributes as :class:`~cardlogic.inference.exact.DealTables`: ``count``
    (exact, once :meth:`exact` has worked it out: at once when built with
    ``exact_count``), ``total``, ``paths`` and ``raw_marginals`` (worked out on
    first use); ``states`` is the number of reached states. More than
    ``max_states`` raise :class:`InferenceError` as soon as a layer passes them.
    """

    def __init__(self, plan_: Plan, *, exact_count: bool = True, max_states: float = math.inf) -> None:
        self.plan = pl = plan_
        self.packed = p = pl.packed
        self.count: int | None = None
        self.total = self.paths = 0.0
        self._raw_marginals: np.ndarray | None = None
        self.states = 1
        if p.empty:
            self.count = 0
            return
        fact, inv_fact = _factorials(max(pl.generic, 1))
        keys, self.forward, self.edges = np.zeros(1, np.int64), [np.ones(1)], []
        for step in pl.steps:
            keys, values, *edges = kernels.frontier_walk(keys, self.forward[-1], step.shape, step.in_radix,
                                                         step.out_stride, step.slots, step.moves,
                                                         len(step.options[0]), inv_fact)
            self.forward.append(values)
            self.edges.append(tuple(edges))
            self.states += len(keys)
            if self.states > max_states:
                raise InferenceError(f"the frontier program passed {max_states:,.0f} states")
        self.closed = keys  # the last layer's key is the named cards of closed holders: no digits or bits are left
        self._finish = fact[pl.generic - keys] * pl.unnamed_factor
        self.paths = float(self.forward[-1] @ self._finish)
        self.total = self.paths * p.arrangements
        if exact_count:
            self.exact()

    def exact(self) -> int:
        """The exact number of deals (worked out once; a float total that cancelled to a few deals is zeroed)."""
        if self.count is None:
            self.count = self._exact_count() * self.packed.arrangements
            if self.count == 0:
                self.total = self.paths = 0.0
        return self.count

    @property
    def raw_marginals(self) -> np.ndarray | None:
        """Unnormalised free cards x local holders marginals (worked out on first use; None without deals).

        Raises :class:`InferenceError` where cancellation has spoiled the floats: a card's marginals sum to one
        within :data:`TOLERANCE` and none is below ``-TOLERANCE``, or they are not given.
        """
        if self._raw_marginals is None and self.paths > 0:
            raw = self._marginals(self._finish)
            local = raw / self.paths
            error = float(np.max(np.abs(local.sum(axis=1) - 1.0))) if len(local) else 0.0
            if error > TOLERANCE or np.any(local < -TOLERANCE):
                raise InferenceError(f"the frontier program lost its precision to cancellation (error {error:.1e})")
            self._raw_marginals = np.clip(raw, 0.0, None)
        return self._raw_marginals

    def _push(self, values: np.ndarray, i: int, reduced: int = -1) -> np.ndarray:
        """Step ``i`` forward; with ``reduced``, that local holder's capacity one less (it matters where it closes)."""
        step = self.plan.steps[i]
        scaled, cap = self._scaling(step, reduced)
        return kernels.frontier_push(values, len(self.forward[i + 1]), self.edges[i], len(step.options[0]), scaled,
                                     cap)

    def _pull(self, after: np.ndarray, i: int, reduced: int = -1) -> np.ndarray:
        step = self.plan.steps[i]
        scaled, cap = self._scaling(step, reduced)
        return kernels.frontier_pull(after, self.edges[i], len(step.options[0]), scaled, cap)

    def _scaling(self, step: Step, reduced: int) -> tuple[int, int]:
        # 1/(cap - 1 - k)! is (cap - k) times 1/(cap - k)!: one capacity less only reweighs the closing edges.
        if reduced in step.closing:
            return step.closing.index(reduced), int(self.packed.caps[reduced])
        return -1, 0

    def _contract(self, values: np.ndarray, after: np.ndarray, i: int, first: int, stop: int) -> np.ndarray:
        return kernels.frontier_contract(values, after, self.edges[i], first, stop)

    def _marginals(self, finish: np.ndarray) -> np.ndarray:
        pl, p = self.plan, self.packed
        steps, forward, caps = pl.steps, self.forward, [int(c) for c in p.caps]
        n, n_local = len(steps), len(caps)
        fact = _factorials(max(pl.generic, 1))[0]
        raw = np.zeros((p.free_count, n_local))
        # The deals of the model with one card fewer and one holder's capacity one less end with (a - 1)!.
        closed = self.closed
        shorter = np.where(closed < pl.generic, fact[np.maximum(pl.generic - 1 - closed, 0)], 0.0) * pl.unnamed_factor
        after, after_short = finish, shorter
        backward_short = [None] * (n + 1)
        backward_short[n] = shorter
        for i in range(n - 1, -1, -1):
            step = steps[i]
            real = len(step.options[0])
            if step.probe_holders:
                raw[step.free, list(step.probe_holders)] = self._contract(forward[i], after, i, real,
                                                                          real + len(step.probe_holders))
            unnamed = [j for j in step.elsewhere if pl.first[j] < 0]
            if unnamed:  # the generic move is move 0
                mass = self._contract(forward[i], after_short, i, 0, 1)[0]
                raw[step.free, unnamed] = mass * np.array([caps[j] for j in unnamed])
            after = self._pull(after, i)
            after_short = self._pull(after_short, i)
            backward_short[i] = after_short
        for j in range(n_local):
            if pl.first[j] < 0:
                continue
            after_span = [i for i in range(pl.last[j] + 1, n) if j in steps[i].elsewhere]
            if after_span:  # forward with j's capacity one less, met by the shorter backward after its span
                values = forward[pl.first[j]]
                for i in range(pl.first[j], after_span[-1] + 1):
                    if i in after_span:
                        raw[steps[i].free, j] = self._contract(values, backward_short[i + 1], i, 0, 1)[0]
                    if i < after_span[-1]:
                        values = self._push(values, i, j)
            before_span = [i for i in range(pl.first[j]) if j in steps[i].elsewhere]
            if before_span:  # backward with j's capacity one less, met by the forward before its span
                values = backward_short[pl.last[j] + 1]
                for i in range(pl.last[j], before_span[0] - 1, -1):
                    if i in before_span:
                        raw[steps[i].free, j] = self._contract(forward[i], values, i, 0, 1)[0]
                    if i > before_span[0]:
                        values = self._pull(values, i, j)
        return raw

    def check(self) -> None:
        """Work out the marginals now: InferenceError where cancellation has spoiled them."""
        _ = self.raw_marginals

    def marginals(self) -> np.ndarray:
        """P(card dealt to holder), model cards x holders; raises InconsistentError without deals and
        InferenceError where cancellation has spoiled the floats."""
        if self.total == 0:
            raise InconsistentError("no deal satisfies the constraints")
        return self.packed.spread(np.minimum(self.raw_marginals / self.paths, 1.0))

    def _exact_count(self) -> int:
        """The packed model's exact number of deals: the forward pass modulo :data:`PRIMES`, joined by the CRT."""
        if self.paths == 0 and not self.forward[-1].any():
            return 0
        bound = math.factorial(self.plan.generic)
        for cap in self.packed.caps:
            bound //= math.factorial(int(cap))
        value, modulus = 0, 1
        for prime in PRIMES:
            if modulus > bound:
                break
            residue = self._count_modulo(prime)
            value += modulus * ((residue - value) * pow(modulus, -1, prime) % prime)
            modulus *= prime
        return value

    def _count_modulo(self, prime: int) -> int:
        pl, caps = self.plan, self.packed.caps
        n = pl.generic
        fact = [1] * (n + 1)
        for i in range(1, n + 1):
            fact[i] = fact[i - 1] * i % prime
        inv_fact = np.array([pow(f, -1, prime) for f in fact], np.int64)
        values = np.ones(1, np.int64)
        for i, step in enumerate(pl.steps):
            signs = np.where(step.options[1] < 0, prime - 1, 1).astype(np.int64)
            closing_caps = np.array([caps[j] for j in step.closing], np.int64)
            values = kernels.frontier_push_modulo(values, len(self.forward[i + 1]), self.edges[i], len(signs), signs,
                                                  closing_caps, inv_fact, prime)
        total = 0
        for closed, value in zip(self.closed.tolist(), values.tolist()):
            total = (total + value * fact[n - closed]) % prime
        for j, first in enumerate(pl.first):
            if first < 0:
                total = total * int(inv_fact[int(caps[j])]) % prime
        return total


_TABLES: BudgetCache[FrontierTables] = BudgetCache(4)
"""The last few forward passes by packed model (or the state budget a model went beyond)."""
_LAYOUTS: BudgetCache[Plan] = BudgetCache(4)
"""The last few plans by packed model: whether to try the program first, then the program itself, read one."""


def _key(packed: PackedModel) -> tuple:
    # The tables carry their packed model, whose holders and known cards (not in the fingerprint) they answer for.
    return (packed.fingerprint, packed.holders, packed.cards, packed.template.tobytes(), packed.columns.tobytes(),
            packed.groups, packed.member_caps)


def layout(packed: PackedModel) -> Plan:
    """:func:`plan` of ``packed``, cached."""
    return _LAYOUTS.get(_key(packed), math.inf, lambda _: plan(packed))


def frontier_first(packed: PackedModel) -> bool:
    """Whether the frontier program is tried before the reachable states of the box: its layers are narrow
    (:data:`FIRST_OPERATIONS`)."""
    return layout(packed).operations <= FIRST_OPERATIONS


def frontier_tables(packed: PackedModel, max_states: float = math.inf) -> FrontierTables:
    """The frontier program's tables of ``packed`` (cached), InferenceError beyond ``max_states`` reached states or
    :data:`MAX_OPERATIONS` dense transitions."""
    def build(budget: float) -> FrontierTables:
        laid_out = layout(packed)
        if laid_out.operations > MAX_OPERATIONS:
            raise InferenceError(f"the frontier program's layers span {laid_out.operations:.1e} transitions")
        return FrontierTables(laid_out, exact_count=False, max_states=budget)

    return _TABLES.get(_key(packed), max_states, build)


def forget_tables() -> None:
    """Empty the caches of :func:`frontier_tables` and :func:`layout` (to time a pass from scratch)."""
    _TABLES.clear()
    _LAYOUTS.clear()
