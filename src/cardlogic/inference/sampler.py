"""Sampled inference: draw consistent deals, reproducibly from a seed, and estimate marginals from them.

Where the exact tables fit (:class:`~cardlogic.inference.exact.DealTables`), deals
are drawn *exactly* uniformly by walking the backward table card by card: each
card goes to a holder with probability proportional to the number of consistent
completions, so late-game models with few deals are as cheap as early ones (no
rejection). Where the tables would be too large (10-12 players early in the
game), a Metropolis chain of card swaps and 3-cycles (:func:`kernels.sample_mcmc`),
started from a consistent deal (:func:`starting_deal`), draws *asymptotically*
uniform, correlated deals instead (method ``"mcmc"``). Its law is uniform over
the deals those moves connect to the start; swaps and 3-cycles connect all deals
that differ by such rotations, which covers the models of real games but is not
proved for every model. Its standard errors assume independent draws; with the
default thinning (4 moves per free card) the chain's errors measured within
about 10% of that on 8-12 player models.

>>> from cardlogic.constraints import DealModel
>>> model = DealModel(("A", "B"), (1, 1), [0, 1])
>>> SamplerBackend().sample(model, 3, seed=1).shape
(3, 2)
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from cardlogic.arguments import MAX_SEED
from cardlogic.constraints import DealModel, InconsistentError
from cardlogic.inference import kernels
from cardlogic.inference.base import InferenceError, Posterior, restriction_hits
from cardlogic.inference.exact import box_of
from cardlogic.inference.packed import PackedModel, pack

CHAINS = max(1, min(2, os.cpu_count() or 1))
"""Independent MCMC chains drawn side by side: one per core, at most two (each pays its own burn-in)."""
_CHAIN_SEED_STEP = 0x9E3779B9
"""How far apart the chains' seeds are, so that no two chains share a random stream."""
_RESTART_SEED_STEP = 0xC2B2AE35
"""How far apart the seeds of a chain start's successive repair attempts are (another odd constant)."""
REPAIR_ATTEMPT_STEPS = 10_000
"""Repair steps of one local search from a matched deal. One that succeeds mostly does within a few hundred steps;
one caught on a plateau stays caught (about 4% of the starts of some 12-player models, at 1,000 steps as at
100,000), so a budget is spent on fresh starts rather than on one long search."""
CHUNK = 65_536
"""Deals drawn at a time when only their counts are wanted: about 3 MB for 48 cards."""
_CHUNK_SEED_STEP = 0x85EBCA6B
"""How far apart the seeds of successive chunks are (a different odd constant from the chains')."""
CHOICE_TABLE_MAX_BYTES = 64 * 2**20
"""The largest choice table exact sampling builds (a float per table entry and choice). A deal draws about three
times faster from it than from the backward table alone, but early in 12-player games it took 500 MB, five times the
backward table, and the advisor draws a few thousand deals there."""


class SamplerBackend:
    """Marginals estimated from ``samples`` deals drawn with ``seed``.

    Exact uniform sampling is used while the tables take at most ``max_bytes``
    and one pass at most ``max_operations`` transitions; beyond, the chain of
    :func:`~cardlogic.inference.kernels.sample_mcmc` with ``burn_in`` and
    ``thin`` counted in moves per free card.
    """

    name = "sample"

    def __init__(
        self,
        samples: int = 20_000,
        seed: int = 0,
        *,
        max_bytes: int = 1_000_000_000,
        max_operations: float = 6e7,
        burn_in: int = 500,
        thin: int = 4,
    ) -> None:
        self.samples = samples
        self.seed = seed
        self.max_bytes = max_bytes
        self.max_operations = max_operations
        self.burn_in = burn_in
        self.thin = thin

    def uses_tables(self, packed: PackedModel) -> bool:
        """Whether ``packed`` is sampled exactly (else by the chain)."""
        return packed.empty or (
            packed.memory(exact_count=False) <= self.max_bytes and packed.operations <= self.max_operations
        )

    def sample(self, model: DealModel, n: int, seed: int) -> np.ndarray:
        """``n`` deals as an int8 array ``n x len(model.cards)`` of holder indices (known cards included)."""
        return self.draw(model, n, seed)[0]

    def posterior(self, model: DealModel) -> Posterior:
        """The marginals of :attr:`samples` deals, counted as they are drawn (see :meth:`counts`)."""
        counts, method = self.counts(model, self.samples, self.seed)
        return posterior_of_counts(model, counts, method, self.samples)

    def counts(self, model: DealModel, n: int, seed: int) -> tuple[np.ndarray, str]:
        """How many of ``n`` deals give each card to each holder (int64, cards x holders), and how they were drawn.

        The deals are drawn :data:`CHUNK` at a time and counted (:func:`kernels.count_holders`), so memory stays
        a few megabytes whatever ``n``; the first chunk is :meth:`draw`'s deals for ``seed``, each later one is
        drawn with a seed of its own.
        """
        drawer, method = self.drawer(model)
        counts = np.zeros((len(model.cards), len(model.holders)), np.int64)
        for index, start in enumerate(range(0, n, CHUNK)):
            chunk_seed = (seed + index * _CHUNK_SEED_STEP) % (MAX_SEED + 1)
            kernels.count_holders(drawer(min(CHUNK, n - start), chunk_seed), counts)
        return counts, method

    def joint(self, model: DealModel, placements: Mapping[int, int]) -> float:
        """The fraction of sampled deals with every card of ``placements`` at its holder."""
        return self.chances(model, [{card: 1 << holder for card, holder in placements.items()}])[0]

    def chances(self, model: DealModel, restrictions: Sequence[Mapping[int, int]]) -> list[float]:
        """The fraction of sampled deals obeying each restriction (card -> holder mask)."""
        deals, _ = self.draw(model, self.samples, self.seed)
        return [hits / len(deals) for hits in restriction_hits(deals, model.cards, restrictions)]

    def draw(self, model: DealModel, n: int, seed: int) -> tuple[np.ndarray, str]:
        """``n`` deals (as :meth:`sample`) and how they were drawn: ``"sample"`` (exactly uniform) or ``"mcmc"``."""
        drawer, method = self.drawer(model)
        return drawer(n, seed), method

    def drawer(self, model: DealModel, deals: int | None = None) -> tuple[Callable[[int, int], np.ndarray], str]:
        """A function drawing ``(n, seed)`` deals of ``model`` (its tables built once, for draw after draw), and its
        method's name; ``deals``: about how many it will draw in all (None: many, see :func:`sampling_tables`)."""
        packed = pack(model)
        if self.uses_tables(packed):
            tables = sampling_tables(packed, deals)
            return (lambda n, seed: sample_exact(packed, n, seed, tables)), "sample"
        return (lambda n, seed: sample_mcmc(packed, n, seed, burn_in=self.burn_in, thin=self.thin)), "mcmc"


def posterior_of(model: DealModel, deals: np.ndarray, method: str) -> Posterior:
    """The marginals of ``deals`` drawn from ``model`` by ``method``, with their binomial standard errors."""
    marginals = frequencies(deals, len(model.holders))
    stderr = np.sqrt(marginals * (1 - marginals) / len(deals))
    return Posterior(method, model.holders, model.cards, marginals, samples=len(deals), stderr=stderr)


def posterior_of_counts(model: DealModel, counts: np.ndarray, method: str, n: int) -> Posterior:
    """The marginals of ``n`` deals drawn from ``model`` by ``method`` and counted in ``counts`` (see
    :meth:`SamplerBackend.counts`), with their binomial standard errors."""
    marginals = counts / max(n, 1)
    stderr = np.sqrt(marginals * (1 - marginals) / max(n, 1))
    return Posterior(method, model.holders, model.cards, marginals, samples=n, stderr=stderr)


def frequencies(deals: np.ndarray, holders: int, weights: np.ndarray | None = None) -> np.ndarray:
    """Fraction of ``deals`` (samples x cards of holder indices) giving each card to each holder; given
    ``weights`` (one per deal), the share of their total weight."""
    if weights is not None:
        cards = deals.shape[1]
        flat = np.arange(cards) * holders + deals.astype(np.int64)
        shares = np.bincount(flat.ravel(), np.repeat(weights, cards), cards * holders).reshape(cards, holders)
        return shares / max(float(weights.sum()), np.finfo(float).tiny)
    counts = np.zeros((deals.shape[1], holders), np.int64)
    kernels.count_holders(np.ascontiguousarray(deals), counts)
    return counts / max(len(deals), 1)


def sample_exact(
    packed: PackedModel, n: int, seed: int, tables: tuple[np.ndarray, np.ndarray] | None = None
) -> np.ndarray:
    """``n`` exactly uniform deals of ``packed``, from its :func:`sampling_tables` (built unless given)."""
    backward, cdf = sampling_tables(packed) if tables is None else tables
    local = kernels.sample_exact(box_of(packed), packed.steps, backward, cdf, n, seed)
    return share_out(packed, local, seed)


def share_out(packed: PackedModel, local: np.ndarray, seed: int) -> np.ndarray:
    """Deals over the model's holders (every card) from deals of ``packed``'s free cards over its local holders."""
    p = packed
    members = np.array([h for group in p.groups for h in group], np.int64)
    member_caps = np.array([c for caps in p.member_caps for c in caps], np.int64)
    group_start = np.cumsum([0] + [len(group) for group in p.groups]).astype(np.int64)
    return kernels.share_out(local, p.columns, p.template, group_start, members, member_caps, seed)


def sampling_tables(packed: PackedModel, deals: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """What :func:`kernels.sample_exact` walks: the backward table (see :func:`kernels.backward`) and the choice
    table of :func:`kernels.choice_table` where that takes at most :data:`CHOICE_TABLE_MAX_BYTES` and pays off for
    about ``deals`` deals (None: many), else an empty one: the backward table is read as each card is placed.

    A choice table costs about two passes over the backward table and saves a few microseconds a deal: it pays off
    once the deals' placed cards (deals times free cards) outnumber the table's entries (8 players early: 50 ms to
    build, 2 ms saved over 1,000 deals, 70 ms over 20,000). Both ways draw the same deals but where rounding tips a
    choice.

    The completions from a state do not depend on how it is reached: no forward pass is made, and with forward
    values of zero the backward pass weighs no marginals (a draw needs neither; they were a third of the time)."""
    if packed.empty:
        raise InconsistentError("no deal satisfies the constraints")
    box = box_of(packed)
    backward, _ = kernels.backward(box, packed.steps, np.zeros(int(packed.offsets[-1])))
    if backward[0] == 0.0:  # no completion from the start, where every draw begins
        raise InconsistentError("no deal satisfies the constraints")
    too_big = 8 * packed.entries * max(packed.choices.shape[1], 1) > CHOICE_TABLE_MAX_BYTES
    if too_big or (deals is not None and deals * packed.free_count < packed.entries):
        return backward, np.zeros((0, 1))
    return backward, kernels.choice_table(box, packed.steps, backward)


def sample_mcmc(packed: PackedModel, n: int, seed: int, *, burn_in: int = 500, thin: int = 4) -> np.ndarray:
    """``n`` deals of ``packed`` from swap chains: ``burn_in`` and ``thin`` moves per free card.

    One independent chain per core (:data:`CHAINS`), each from its own starting
    deal and seed, draws its share in a thread of its own (the kernel releases
    the GIL); their deals follow one another in chain order, so a seed gives the
    same deals whatever the machine's load.
    """
    p = packed
    free = max(p.free_count, 1)
    chains = CHAINS if n >= CHAINS else 1
    shares = [n // chains + (index < n % chains) for index in range(chains)]

    def chain(index: int) -> np.ndarray:
        chain_seed = seed + index * _CHAIN_SEED_STEP
        start = starting_deal(packed, chain_seed)
        return kernels.sample_mcmc(start, p.allow, p.clauses, shares[index], burn_in * free, thin * free, chain_seed)

    if chains == 1:
        local = chain(0)
    else:
        with ThreadPoolExecutor(max_workers=chains) as pool:
            local = np.concatenate(list(pool.map(chain, range(chains))))
    return share_out(packed, local, seed)


def starting_deal(
    packed: PackedModel, seed: int, search_nodes: int = 20_000, repair_steps: int = 2_000_000
) -> np.ndarray:
    """A consistent deal (local holder per free card) to start the chain from.

    A short depth-first search settles small models either way; otherwise a
    deal respecting allowed holders and sizes is found by augmenting paths
    (proving inconsistency when there is none) and its clauses are repaired by
    local search, started afresh from another matched deal every
    :data:`REPAIR_ATTEMPT_STEPS` steps; InferenceError when ``repair_steps``
    in all do not succeed.
    """
    p = packed
    if p.empty:
        raise InconsistentError("no deal satisfies the constraints")
    deal, status = kernels.find_deal(p.caps, p.choices, p.nchoices, p.clauses, seed, search_nodes)
    if status == 1:
        return deal
    if status == 0:
        raise InconsistentError("no deal satisfies the constraints")
    left, attempt = repair_steps, 0
    while left > 0:
        attempt_seed = seed + attempt * _RESTART_SEED_STEP  # the first attempt as the seed alone
        deal, status = kernels.match_deal(p.caps, p.choices, p.nchoices, attempt_seed)
        if status == 0:
            raise InconsistentError("no deal gives every holder its size from its allowed cards")
        steps = min(REPAIR_ATTEMPT_STEPS, left)
        deal, repaired = kernels.repair_deal(deal, p.allow, p.clauses, attempt_seed, steps)
        if repaired:
            return deal
        left, attempt = left - steps, attempt + 1
    raise InferenceError(f"no deal satisfying every clause found in {repair_steps} repair steps")
