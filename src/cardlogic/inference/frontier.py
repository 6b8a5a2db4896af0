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
from the first block of cards that names it to the last: before, its ``k_h``
is 0; after, its factor ``1 / (cap_h - k_h)!`` is taken and only the total of
named cards is kept (for ``a``).

Clauses ("``h`` holds one of these") link the cards of a block; a card a clause
names at ``h`` lists ``h`` by name twice, once with the clause's bit (``+x_h``)
and once without (``-x_h``), so the generic choice never satisfies a clause.
Each block is multiplied out first, by a *local walk* over its own cards whose
state is only the block's named cards per holder and its clause bits: the
block's polynomial, a few dozen monomials once every clause must hold. The
program then moves a whole block at a time between *layers* whose state is the
named cards of the holders open across them. Carrying the clause bits and the
holders named elsewhere through every card of a block instead (as the box
does) reached 15 million states early in the stored 10-player game, for a
spectator; block by block it takes 73,000 states and 0.7 million edges.

The terms carry signs, so the tables are floats that cancel; every card's
marginals must sum to one to within :data:`TOLERANCE`, else the model raises
:class:`~cardlogic.inference.base.InferenceError` and the caller takes another
method. The exact count comes from the same passes in modular arithmetic.

Marginals: the weight of each monomial of a block in the sum (forward before
the block times backward after it) is pulled back through the block's local
walk; a card given by name to one of the block's holders is then one more
term of its local step. A card given to a holder outside the block's span is
a deal of the model without the card and with that holder's capacity one
less: the forward pass redone with the smaller capacity from the holder's
first block on (for cards after its span), or the backward pass from its last
block down (for cards before).

>>> from cardlogic.constraints import DealModel
>>> from cardlogic.inference.packed import pack
>>> model = DealModel(("A", "B", "C"), (2, 2, 2), range(6))
>>> model.require_one_of(0, [0, 1])
>>> model.forbid(2, 1)
>>> tables = FrontierTables(plan(pack(model)))
>>> tables.count, round(float(tables.marginals()[0, 0]), 4)
(33, 0.5455)
"""

from __future__ import annotations

import copy
import dataclasses
import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from cardlogic.constraints import InconsistentError
from cardlogic.inference import kernels
from cardlogic.inference.base import BudgetCache, InferenceError
from cardlogic.inference.packed import PackedModel, forget_packed

TOLERANCE = 1e-7
"""How far a card's marginals may sum from one before cancellation is deemed to have spoiled them."""
MAX_TRANSITIONS = 20_000_000
"""Transitions (a state before a block and a monomial of the block: about 200 ns and 20 bytes each) beyond which
the frontier program gives way, unless told otherwise."""
MAX_LOCAL_STATES = 1_000_000
"""States of one block's local walk beyond which the frontier program gives way (hundreds on the stored games)."""
ORDER_SEARCH = 16
"""Most blocks whose every order is searched (2**16 subsets, a few milliseconds); more are merged first, and
ordered greedily only where merging stops (:data:`MAX_MERGED_CARDS`)."""
MAX_MERGED_CARDS = 8
"""Most cards of blocks merged into one (their local walk multiplies their polynomials)."""
PRIMES = (2_147_483_629, 2_147_483_587, 2_147_483_579, 2_147_483_563, 2_147_483_549, 2_147_483_543)
"""Moduli of the exact count (about 186 bits together, more than the 150 a 54-card deal's count needs)."""


@dataclass(frozen=True, eq=False)
class Step:
    """One card of a block as the local walk takes it: moves are the card's options, then its probes."""

    free: int  # the card's index among the packed model's free cards
    shape: np.ndarray  # (width before, width after, ends the block, every bit of the block)
    options: tuple[np.ndarray, np.ndarray, np.ndarray]
    moves: tuple[np.ndarray, np.ndarray, np.ndarray]  # the options, then the card to each probe holder by name
    is_option: np.ndarray  # per move: 1 for an option, 0 for a probe (passes leave probes out)
    probe_holders: tuple[int, ...]  # the block's holders the card may go to
    elsewhere: tuple[int, ...]  # allowed holders outside the block's (the card reaches them generically)


@dataclass(frozen=True, eq=False)
class Block:
    """A block of cards as one move of the frontier program: its local walk and its polynomial.

    ``holders`` are the local holders the block names or passes over (open across it), in slot order;
    ``values[i]``/``edges[i]`` are the local walk's layer before card ``i`` and the edges of card ``i``; the last
    layer is the polynomial: ``monomials`` (named cards per slot) and ``coefficients``.
    """

    steps: tuple[Step, ...]
    holders: tuple[int, ...]
    values: tuple[np.ndarray, ...]
    edges: tuple[tuple[np.ndarray, ...], ...]
    monomials: np.ndarray
    coefficients: np.ndarray
    in_kw: int
    in_radix: np.ndarray
    out_kw: int
    out_stride: np.ndarray
    slots: tuple[np.ndarray, np.ndarray, np.ndarray]  # slot_from, slot_to, caps
    closing: tuple[int, ...]  # local holders whose span ends here, in slot order

    @property
    def local_states(self) -> int:
        return sum(len(v) for v in self.values)


@dataclass(frozen=True, eq=False)
class Plan:
    """A packed model as a sequence of blocks; ``first``/``last`` give each local holder's span of blocks (-1 when
    no card names it)."""

    packed: PackedModel
    blocks: tuple[Block, ...]
    first: tuple[int, ...]
    last: tuple[int, ...]
    generic: int  # free cards
    unnamed_factor: float  # prod 1/cap! over the holders no card names
    probes: bool  # the local walks hold the marginals' probes
    closing: int | None = None  # the block of the closing cards (see plan)


@lru_cache(maxsize=4)
def _factorials(n: int) -> tuple[np.ndarray, np.ndarray]:
    fact = np.array([float(math.factorial(i)) for i in range(n + 1)])
    return fact, 1.0 / fact


def plan(packed: PackedModel, closing_from: int | None = None, *, probes: bool = True) -> Plan:
    """Order ``packed``'s blocks for the frontier program, and walk each block's cards to its polynomial.

    Without ``probes`` the local walks leave out the moves the marginals need (a count alone: several times
    fewer local states). With ``closing_from``, the blocks of the free cards from that one on are walked as one
    block (the plan's ``closing``), whose cards name every holder they may go to (for :func:`closing_weights`).
    """
    p = packed
    closing_from = p.free_count if closing_from is None else closing_from
    n_local = len(p.caps)
    caps = [int(c) for c in p.caps]
    everyone = (1 << n_local) - 1
    named: list[int] = []  # holders each card names
    positive: list[bool] = []
    for k in range(p.free_count):
        allow = int(p.allow[k])
        in_clauses = sum(1 << j for j in range(n_local) if p.sat[k, j])
        exceptions = (everyone & ~allow) | in_clauses
        positive.append(k >= closing_from or allow.bit_count() <= exceptions.bit_count())
        named.append(allow if positive[-1] else exceptions)

    blocks: list[list[int]] = []  # each block's cards, its clauses' ends among them marked in `ends`
    ends: list[list[bool]] = []
    current: list[int] = []
    for k in range(p.free_count):
        current.append(k)
        if p.last[k]:
            # Cards naming fewer holders first, so the block's local states stay few.
            current.sort(key=lambda k: (named[k].bit_count(), k))
            if current[0] >= closing_from and blocks and blocks[-1][0] >= closing_from:
                blocks[-1] += current
                ends[-1] += [False] * (len(current) - 1) + [True]
            else:
                blocks.append(current)
                ends.append([False] * (len(current) - 1) + [True])
            current = []
    _merge_blocks(blocks, ends, named, [block[0] >= closing_from for block in blocks])
    block_named = [_union(named[k] for k in block) for block in blocks]
    # Each block's polynomial over the holders it names: its size and the most cards it gives each holder order
    # the blocks.
    work, degrees = [], np.zeros((len(blocks), n_local), np.int64)
    for b, block in enumerate(blocks):
        monomials = _walked(p, block, ends[b], _bits(block_named[b]), named, positive, probes=False).monomials
        work.append(len(monomials))
        if len(monomials):
            degrees[b, _bits(block_named[b])] = monomials.max(axis=0)
    order = _block_order(block_named, work, degrees, caps)

    first = [-1] * n_local
    last = [-1] * n_local
    for position, b in enumerate(order):
        for j in _bits(block_named[b]):
            if first[j] < 0:
                first[j] = position
            last[j] = position

    def layer(position: int) -> tuple[list[int], int]:
        """The layer before block ``position``: the holders open across it, and the width of its closed count."""
        return (
            [j for j in range(n_local) if 0 <= first[j] < position <= last[j]],
            1 + sum(caps[j] for j in range(n_local) if 0 <= last[j] < position),
        )

    laid_out = []
    for position, b in enumerate(order):
        holders = [j for j in range(n_local) if 0 <= first[j] <= position <= last[j]]
        (digits_in, kw_in), (digits_out, kw_out) = layer(position), layer(position + 1)
        local = _walked(p, blocks[b], ends[b], holders, named, positive, probes=probes)
        in_radix = np.array([caps[j] + 1 for j in digits_in], np.int64)
        laid_out.append(
            Block(
                steps=local.steps,
                holders=tuple(holders),
                values=local.values,
                edges=local.edges,
                monomials=local.monomials,
                coefficients=local.values[-1],
                in_kw=kw_in,
                in_radix=in_radix,
                out_kw=kw_out,
                out_stride=np.cumprod([1] + [caps[j] + 1 for j in digits_out])[: len(digits_out)].astype(np.int64),
                slots=(
                    np.array([digits_in.index(j) if j in digits_in else -1 for j in holders], np.int64),
                    np.array([digits_out.index(j) if j in digits_out else -1 for j in holders], np.int64),
                    np.array([caps[j] for j in holders], np.int64),
                ),
                closing=tuple(j for j in holders if last[j] == position),
            )
        )
    unnamed = 1.0
    for j in range(n_local):
        if first[j] < 0:
            unnamed /= math.factorial(caps[j])
    closing = next((position for position, b in enumerate(order) if blocks[b][0] >= closing_from), None)
    return Plan(p, tuple(laid_out), tuple(first), tuple(last), p.free_count, unnamed, probes, closing)


class _LocalWalk:
    """The local walk of one block's ``cards`` (``ends``: the card ends clauses' block, whose bits must then all be
    set) over its ``holders`` (slots in that order): steps, layers, edges, and the polynomial's monomials."""

    def __init__(
        self,
        p: PackedModel,
        cards: list[int],
        ends: list[bool],
        holders: list[int],
        named: list[int],
        positive: list[bool],
        *,
        probes: bool,
    ) -> None:
        slot = {j: q for q, j in enumerate(holders)}
        caps = np.array([int(p.caps[j]) for j in holders], np.int64)
        strides = np.cumprod([1] + [int(c) + 1 for c in caps])[: len(holders)].astype(np.int64)
        keys, values = np.zeros(1, np.int64), [np.ones(1)]
        steps, edges = [], []
        for i, k in enumerate(cards):
            allow, full = int(p.allow[k]), int(p.full[k])
            starts = i == 0 or ends[i - 1]
            options: list[tuple[int, float, int]] = []
            if positive[k]:
                options += [(slot[j], 1.0, int(p.sat[k, j])) for j in _bits(allow)]
            else:
                options.append((-1, 1.0, 0))
                options += [(slot[j], -1.0, 0) for j in _bits(named[k])]
                options += [(slot[j], 1.0, int(p.sat[k, j])) for j in _bits(named[k] & allow)]
            probe_holders = tuple(j for j in holders if allow >> j & 1) if probes else ()
            probe_moves = [(slot[j], 1.0, int(p.sat[k, j])) for j in probe_holders]
            step = Step(
                free=k,
                shape=np.array([1 if starts else full + 1, 1 if ends[i] else full + 1, ends[i], full], np.int64),
                options=_options(options),
                moves=_options(options + probe_moves),
                is_option=np.array([1.0] * len(options) + [0.0] * len(probe_moves)),
                probe_holders=probe_holders,
                elsewhere=() if positive[k] else tuple(j for j in _bits(allow) if j not in slot),
            )
            keys, walked, *card_edges = kernels.frontier_local_walk(
                keys, values[-1], step.shape, strides, caps, step.moves, len(options)
            )
            steps.append(step)
            values.append(walked)
            edges.append(tuple(card_edges))
            if sum(len(v) for v in values) > MAX_LOCAL_STATES:
                raise InferenceError(f"a block's local walk passed {MAX_LOCAL_STATES:,} states")
        self.steps, self.values, self.edges = tuple(steps), tuple(values), tuple(edges)
        self.monomials = (keys[:, None] // strides[None, :]) % (caps + 1)[None, :]


_WALKS: BudgetCache[_LocalWalk] = BudgetCache(1024)
"""The last local walks by what they read of their cards: an event, and each set's claim counted on the model
packed with the set's cards last, leave most blocks as they were (early in 12-player games walking them again
was most of the time of the advice)."""


def _walked(
    p: PackedModel,
    cards: list[int],
    ends: list[bool],
    holders: list[int],
    named: list[int],
    positive: list[bool],
    *,
    probes: bool,
) -> _LocalWalk:
    """:class:`_LocalWalk` of these arguments, known (its steps then naming ``cards``) or walked."""
    key = (
        probes,
        tuple(holders),
        tuple(int(p.caps[j]) for j in holders),
        tuple(ends),
        tuple((int(p.allow[k]), int(p.full[k]), p.sat[k].tobytes(), positive[k], named[k]) for k in cards),
    )
    walk = _WALKS.get(key, 0.0, lambda _: _LocalWalk(p, cards, ends, holders, named, positive, probes=probes))
    if all(step.free == k for step, k in zip(walk.steps, cards)):
        return walk
    moved = copy.copy(walk)
    moved.steps = tuple(dataclasses.replace(step, free=k) for step, k in zip(walk.steps, cards))
    return moved


def _options(options: list[tuple[int, float, int]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    return (
        np.array([o[0] for o in options], np.int64),
        np.array([o[1] for o in options], np.float64),
        np.array([o[2] for o in options], np.int64),
    )


def _bits(mask: int) -> list[int]:
    return [j for j in range(mask.bit_length()) if mask >> j & 1]


def _union(masks) -> int:
    out = 0
    for mask in masks:
        out |= mask
    return out


def _merge_blocks(blocks: list[list[int]], ends: list[list[bool]], named: list[int], fixed: list[bool]) -> None:
    """Merge blocks (in place) until at most :data:`ORDER_SEARCH` name anybody, so that every order of them is
    searched: each time the two that name the most holders in common (the fewest cards first), up to
    :data:`MAX_MERGED_CARDS` cards. ``fixed`` blocks stay apart. On a 12-player game of the fours deck (22 blocks)
    the greedy order took 134 million transitions, the merged blocks' searched order 80,000."""
    masks = [_union(named[k] for k in block) for block in blocks]
    while sum(1 for mask in masks if mask) > ORDER_SEARCH:
        best = None
        for a in range(len(blocks)):
            for b in range(a + 1, len(blocks)):
                size = len(blocks[a]) + len(blocks[b])
                if fixed[a] or fixed[b] or not masks[a] or not masks[b] or size > MAX_MERGED_CARDS:
                    continue
                key = ((masks[a] & masks[b]).bit_count(), -size, -a, -b)
                if best is None or key > best[0]:
                    best = (key, a, b)
        if best is None:
            return
        _, a, b = best
        blocks[a] += blocks.pop(b)
        ends[a] += ends.pop(b)
        masks[a] |= masks.pop(b)
        fixed.pop(b)


def _block_order(named: list[int], work: list[int], degrees: np.ndarray, caps: list[int]) -> list[int]:
    """Blocks in an order that keeps the work small (:func:`kernels.frontier_order` over every order of up to
    :data:`ORDER_SEARCH` blocks; beyond, the smallest polynomial first). Blocks naming nobody go first, where
    the state is a single one."""
    order = [b for b, mask in enumerate(named) if not mask]
    left = [b for b, mask in enumerate(named) if mask]
    if len(left) <= ORDER_SEARCH:
        chosen = kernels.frontier_order(
            np.array([named[b] for b in left], np.int64),
            np.array([work[b] for b in left], np.float64),
            degrees[left],
            np.array(caps, np.int64),
        )
        return order + [left[int(i)] for i in chosen]
    # The states before the next block are the same whichever it is: the smallest polynomial goes next.
    return order + sorted(left, key=lambda b: (work[b], b))


class FrontierTables:
    """The forward pass of a :class:`Plan` over the reached states only, and from it every marginal.

    The same attributes as :class:`~cardlogic.inference.exact.DealTables`: ``count``
    (exact, once :meth:`exact` has worked it out: at once when built with
    ``exact_count``), ``total``, ``paths`` and ``raw_marginals`` (worked out on
    first use); ``states`` is the number of reached states, local ones included,
    and ``transitions`` the pairs of a state and a monomial the passes sweep (their cost);
    ``finish`` weighs the last layer's states (a backward pass starts from it).
    More than ``max_transitions`` raise :class:`InferenceError` before the block that would pass them.
    """

    def __init__(self, plan_: Plan, *, exact_count: bool = True, max_transitions: float = MAX_TRANSITIONS) -> None:
        self.plan = pl = plan_
        self.packed = p = pl.packed
        self.count: int | None = None
        self.total = self.paths = 0.0
        self._raw_marginals: np.ndarray | None = None
        self.states = 1 + sum(block.local_states for block in pl.blocks)
        self.transitions = 0
        if p.empty:
            self.count = 0
            return
        self.forward: list[np.ndarray] = [np.ones(1)]
        self.edges: list[tuple[np.ndarray, ...]] = []
        self._keys, self._probed = [np.zeros(1, np.int64)], [np.zeros(1, np.int8)]
        self._walk(0, max_transitions)
        if exact_count:
            self.exact()

    def _walk(self, start: int, max_transitions: float) -> None:
        """The forward pass from block ``start`` on (the layers before it kept), and the totals it gives."""
        pl = self.plan
        fact, inv_fact = _factorials(max(pl.generic, 1))
        for layers in (self.forward, self._keys, self._probed):
            del layers[start + 1 :]
        del self.edges[start:]
        for block in pl.blocks[start:]:
            keys = self._keys[-1]
            self.transitions += len(keys) * len(block.monomials)  # the block walk makes room for every pair
            if self.transitions > max_transitions:
                raise InferenceError(f"the frontier program passed {max_transitions:,.0f} transitions")
            keys, values, probed, *edges = kernels.frontier_block_walk(
                keys,
                self.forward[-1],
                self._probed[-1],
                block.in_kw,
                block.in_radix,
                block.out_kw,
                block.out_stride,
                block.slots,
                block.monomials,
                block.coefficients,
                inv_fact,
            )
            self.forward.append(values)
            self._keys.append(keys)
            self._probed.append(probed)
            self.edges.append(tuple(edges))
            self.states += len(keys)
        self.closed = self._keys[-1]  # the last layer's key is the named cards of closed holders: no digits left
        self.finish = fact[pl.generic - self.closed] * pl.unnamed_factor
        self.paths = float(self.forward[-1] @ self.finish)
        self.total = self.paths * self.packed.arrangements

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
            if not self.plan.probes:
                raise ValueError("a plan without probes gives counts, not marginals")
            raw = self._marginals(self.finish)
            local = raw / self.paths
            error = float(np.max(np.abs(local.sum(axis=1) - 1.0))) if len(local) else 0.0
            if error > TOLERANCE or np.any(local < -TOLERANCE):
                raise InferenceError(f"the frontier program lost its precision to cancellation (error {error:.1e})")
            self._raw_marginals = np.clip(raw, 0.0, None)
        return self._raw_marginals

    def _push(self, values: np.ndarray, b: int, reduced: int = -1) -> np.ndarray:
        """Block ``b`` forward; with ``reduced``, that local holder's capacity one less (it matters where it
        closes)."""
        block = self.plan.blocks[b]
        scaled, cap = self._scaling(block, reduced)
        return kernels.frontier_push(values, len(self.forward[b + 1]), self.edges[b], block.coefficients, scaled, cap)

    def pull(self, after: np.ndarray, b: int, reduced: int = -1) -> np.ndarray:
        """Block ``b`` backward (see :meth:`_push`)."""
        block = self.plan.blocks[b]
        scaled, cap = self._scaling(block, reduced)
        return kernels.frontier_pull(after, self.edges[b], block.coefficients, scaled, cap)

    def _scaling(self, block: Block, reduced: int) -> tuple[int, int]:
        # 1/(cap - 1 - k)! is (cap - k) times 1/(cap - k)!: one capacity less only reweighs the closing edges.
        if reduced in block.closing:
            return block.closing.index(reduced), int(self.packed.caps[reduced])
        return -1, 0

    def _local_backward(self, b: int, values: np.ndarray, after: np.ndarray) -> list[np.ndarray]:
        """The backward pass of block ``b``'s local walk from its monomials' weight in the sum of ``values``
        (before the block) through the block to ``after``."""
        block = self.plan.blocks[b]
        gradient = kernels.frontier_contract(values, after, self.edges[b], 0, len(block.monomials))
        backward = [gradient]
        for i in range(len(block.steps) - 1, -1, -1):
            backward.append(kernels.frontier_pull(backward[-1], block.edges[i], block.steps[i].is_option, -1, 0))
        return backward[::-1]

    def _generic_mass(self, b: int, backward: list[np.ndarray], i: int) -> float:
        """Card ``i`` of block ``b`` sent to the generic pool: its move 0."""
        block = self.plan.blocks[b]
        return float(kernels.frontier_contract(block.values[i], backward[i + 1], block.edges[i], 0, 1)[0])

    def _marginals(self, finish: np.ndarray) -> np.ndarray:
        pl, p = self.plan, self.packed
        blocks, forward, caps = pl.blocks, self.forward, [int(c) for c in p.caps]
        n, n_local = len(blocks), len(caps)
        fact = _factorials(max(pl.generic, 1))[0]
        raw = np.zeros((p.free_count, n_local))
        # The deals of the model with one card fewer and one holder's capacity one less end with (a - 1)!.
        closed = self.closed
        shorter = np.where(closed < pl.generic, fact[np.maximum(pl.generic - 1 - closed, 0)], 0.0) * pl.unnamed_factor
        after, after_short = finish, shorter
        backward_short = [shorter]  # built from block n down to block 0, then reversed
        for b in range(n - 1, -1, -1):
            block = blocks[b]
            local = self._local_backward(b, forward[b], after)
            for i, step in enumerate(block.steps):
                if step.probe_holders:
                    real = len(step.options[0])
                    raw[step.free, list(step.probe_holders)] = kernels.frontier_contract(
                        block.values[i], local[i + 1], block.edges[i], real, real + len(step.probe_holders)
                    )
            unnamed = [(i, [j for j in step.elsewhere if pl.first[j] < 0]) for i, step in enumerate(block.steps)]
            if any(holders for _, holders in unnamed):
                local_short = self._local_backward(b, forward[b], after_short)
                for i, holders in unnamed:
                    if holders:
                        mass = self._generic_mass(b, local_short, i)
                        raw[block.steps[i].free, holders] = mass * np.array([caps[j] for j in holders])
            after = self.pull(after, b)
            after_short = self.pull(after_short, b)
            backward_short.append(after_short)
        backward_short.reverse()
        for j in range(n_local):
            if pl.first[j] < 0:
                continue
            reaching = [b for b in range(n) if any(j in step.elsewhere for step in blocks[b].steps)]
            after_span = [b for b in reaching if b > pl.last[j]]
            if after_span:  # forward with j's capacity one less, met by the shorter backward after its span
                values = forward[pl.first[j]]
                for b in range(pl.first[j], after_span[-1] + 1):
                    if b in after_span:
                        self._reach(raw, j, b, self._local_backward(b, values, backward_short[b + 1]))
                    if b < after_span[-1]:
                        values = self._push(values, b, j)
            before_span = [b for b in reaching if b < pl.first[j]]
            if before_span:  # backward with j's capacity one less, met by the forward before its span
                values = backward_short[pl.last[j] + 1]
                for b in range(pl.last[j], before_span[0] - 1, -1):
                    if b in before_span:
                        self._reach(raw, j, b, self._local_backward(b, forward[b], values))
                    if b > before_span[0]:
                        values = self.pull(values, b, j)
        return raw

    def _reach(self, raw: np.ndarray, j: int, b: int, backward: list[np.ndarray]) -> None:
        """Every card of block ``b`` that reaches holder ``j`` only generically, given to it."""
        for i, step in enumerate(self.plan.blocks[b].steps):
            if j in step.elsewhere:
                raw[step.free, j] = self._generic_mass(b, backward, i)

    def check(self) -> None:
        """Work out the marginals now: InferenceError where cancellation has spoiled them."""
        _ = self.raw_marginals

    def marginals(self) -> np.ndarray:
        """P(card dealt to holder), model cards x holders; raises InconsistentError without deals and
        InferenceError where cancellation has spoiled the floats."""
        raw = self.raw_marginals
        if self.total == 0 or raw is None:
            raise InconsistentError("no deal satisfies the constraints")
        return self.packed.spread(np.minimum(raw / self.paths, 1.0))

    def given(self, free: int, holder: int) -> np.ndarray | None:
        """P(card dealt to holder), model cards x holders, given that free card ``free`` is dealt to local holder
        ``holder``: these tables walked again from the card's block on (the layers before it, and every block's
        local walk, are kept).

        The card's block is walked locally with only its move to ``holder`` by name (a probe of the marginals),
        and the layers from that block on are walked again with it. None where the card
        reaches ``holder`` only generically (outside its block's holders); InconsistentError where no deal puts it
        there; InferenceError where cancellation has spoiled the floats (as :attr:`raw_marginals`).
        """
        pl = self.plan
        found = next(
            ((b, i) for b, block in enumerate(pl.blocks) for i, step in enumerate(block.steps) if step.free == free),
            None,
        )
        if found is None or holder not in pl.blocks[found[0]].steps[found[1]].probe_holders:
            return None
        b, i = found
        block = pl.blocks[b]
        step = block.steps[i]
        only = np.zeros(len(step.is_option))
        only[len(step.options[0]) + step.probe_holders.index(holder)] = 1.0
        steps = (*block.steps[:i], dataclasses.replace(step, is_option=only), *block.steps[i + 1 :])
        values = list(block.values[: i + 1])
        for j in range(i, len(steps)):
            values.append(
                kernels.frontier_push(values[j], len(block.values[j + 1]), block.edges[j], steps[j].is_option, -1, 0)
            )
        narrowed = dataclasses.replace(block, steps=steps, values=tuple(values), coefficients=values[-1])
        given = copy.copy(self)
        given.plan = dataclasses.replace(pl, blocks=(*pl.blocks[:b], narrowed, *pl.blocks[b + 1 :]))
        # The layers before the card's block stay; from it on they are walked again, the card's probe now a move.
        given.forward, given.edges = list(self.forward), list(self.edges)
        given._keys, given._probed = list(self._keys), list(self._probed)
        given._walk(b, math.inf)
        if given.paths <= 0:
            raise InconsistentError("no deal satisfies the constraints")
        raw = given._marginals(given.finish)
        raw[free] = 0.0
        raw[free, holder] = given.paths
        local = raw / given.paths
        error = float(np.max(np.abs(local.sum(axis=1) - 1.0))) if len(local) else 0.0
        if error > TOLERANCE or np.any(local < -TOLERANCE):
            raise InferenceError(f"the frontier program lost its precision to cancellation (error {error:.1e})")
        return self.packed.spread(np.clip(local, 0.0, 1.0))

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
        nothing = np.zeros(0, np.int64)
        values = np.ones(1, np.int64)
        for b, block in enumerate(pl.blocks):
            coefficients = np.ones(1, np.int64)  # the block's polynomial modulo prime, by its local walk
            for i, step in enumerate(block.steps):
                signs = (np.where(step.moves[1] < 0, prime - 1, 1) * step.is_option).astype(np.int64)
                coefficients = kernels.frontier_push_modulo(
                    coefficients, len(block.values[i + 1]), block.edges[i], signs, nothing, inv_fact, prime
                )
            closing_caps = np.array([caps[j] for j in block.closing], np.int64)
            values = kernels.frontier_push_modulo(
                values, len(self.forward[b + 1]), self.edges[b], coefficients, closing_caps, inv_fact, prime
            )
        total = 0
        for closed, value in zip(self.closed.tolist(), values.tolist()):
            total = (total + value * fact[n - closed]) % prime
        for j, first in enumerate(pl.first):
            if first < 0:
                total = total * int(inv_fact[int(caps[j])]) % prime
        return total


def closing_weights(
    packed: PackedModel, first: int, placements: np.ndarray, max_transitions: float = MAX_TRANSITIONS
) -> np.ndarray:
    """The deals of ``packed`` that each placement of its closing cards completes, in the units of
    ``FrontierTables.paths``: ``placements`` holds the local holder of every free card from ``first`` on (whole
    blocks, each placement satisfying their clauses and capacities).

    The closing cards are walked as one block naming every holder they may go to; a placement's deals depend
    only on its named cards per holder, a monomial of that block, whose weight in the sum (forward before the
    block, backward after it) they are. Raises InferenceError beyond ``max_transitions``, or where cancellation
    leaves a weight below ``-TOLERANCE`` of the total.
    """
    tables = closing_tables(packed, first, max_transitions)
    laid_out = tables.plan
    if laid_out.closing is None:  # no closing card is free
        return np.full(len(placements), tables.paths)
    b = laid_out.closing
    block = laid_out.blocks[b]
    after = tables.finish
    for later in range(len(laid_out.blocks) - 1, b, -1):
        after = tables.pull(after, later)
    by_monomial = kernels.frontier_contract(tables.forward[b], after, tables.edges[b], 0, len(block.monomials))
    counts = np.zeros((len(placements), len(packed.caps)), np.int64)
    for i in range(placements.shape[1]):
        np.add.at(counts, (np.arange(len(placements)), placements[:, i].astype(np.int64)), 1)
    # A monomial's named cards per slot as one number (mixed radix, cap + 1 a slot): matched by sorting.
    caps = block.slots[2]
    strides = np.cumprod(np.concatenate(([1], caps + 1)))[: len(caps)].astype(np.int64)
    codes = block.monomials @ strides
    order = np.argsort(codes)
    wanted = counts[:, list(block.holders)] @ strides
    found = order[np.minimum(np.searchsorted(codes, wanted, sorter=order), len(order) - 1)]
    if not np.array_equal(codes[found], wanted):
        raise ValueError("a placement of the closing cards is not a monomial of their block")
    weights = by_monomial[found]
    total = float(weights.sum())
    if total > 0 and weights.min() < -TOLERANCE * total:
        raise InferenceError("the frontier program lost its precision to cancellation")
    return np.clip(weights, 0.0, None)


_TABLES: BudgetCache[FrontierTables] = BudgetCache(4)
"""The last few forward passes by packed model (or the budget of transitions a model went beyond)."""


def _key(packed: PackedModel) -> tuple:
    # The tables carry their packed model, whose holders and known cards (not in the fingerprint) they answer for.
    return (
        packed.fingerprint,
        packed.holders,
        packed.cards,
        packed.template.tobytes(),
        packed.columns.tobytes(),
        packed.groups,
        packed.member_caps,
    )


def frontier_tables(packed: PackedModel, max_transitions: float = MAX_TRANSITIONS) -> FrontierTables:
    """The frontier program's tables of ``packed`` (cached), InferenceError beyond ``max_transitions`` (or
    :data:`MAX_LOCAL_STATES` in a block)."""
    return _TABLES.get(
        _key(packed),
        max_transitions,
        lambda budget: FrontierTables(plan(packed), exact_count=False, max_transitions=budget),
    )


_CLOSING: BudgetCache[FrontierTables] = BudgetCache(8)
"""The last few forward passes with closing cards, by packed model and first closing card (a claim's chance counts
the deals of the model its placements then weigh: one pass serves both)."""


def closing_tables(packed: PackedModel, first: int, max_transitions: float = MAX_TRANSITIONS) -> FrontierTables:
    """The frontier program's tables of ``packed`` with its free cards from ``first`` on walked as one block
    (cached; see :func:`closing_weights`), InferenceError beyond ``max_transitions``."""
    return _CLOSING.get(
        (_key(packed), first),
        max_transitions,
        lambda budget: FrontierTables(
            plan(packed, closing_from=first, probes=False), exact_count=False, max_transitions=budget
        ),
    )


def forget_tables() -> None:
    """Empty the caches of :func:`frontier_tables` and :func:`closing_tables`, the local walks their plans keep
    and the packed models (to time a pass from scratch)."""
    forget_packed()
    _TABLES.clear()
    _CLOSING.clear()
    _WALKS.clear()
