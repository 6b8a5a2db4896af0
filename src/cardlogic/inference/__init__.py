"""Inference over deal models: one interface to the exact, sampling and CSP backends.

>>> from cardlogic.constraints import DealModel
>>> model = DealModel(("A", "B"), (2, 2), range(4))
>>> model.require_one_of(0, [0, 1])
>>> count(model), infer(model).method, round(joint(model, {0: 0, 1: 0}), 3)
(5, 'exact', 0.2)
>>> infer(model, method="sample", samples=1000).samples
1000

``method="auto"`` is exact while the exact tables are cheap (see
:func:`exact_is_practical`) and sampling beyond. An inconsistent model raises
:class:`~cardlogic.constraints.InconsistentError` from every method.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from cardlogic.constraints import DealModel
from cardlogic.inference.base import Backend, InferenceError, Posterior
from cardlogic.inference.exact import DENSE_MAX_OPERATIONS, ExactBackend
from cardlogic.inference.frontier import frontier_tables
from cardlogic.inference.packed import PackedModel, pack
from cardlogic.inference.sampler import SamplerBackend
from cardlogic.inference.sparse import walk

__all__ = [
    "Backend",
    "CspBackend",
    "ExactBackend",
    "InferenceError",
    "Posterior",
    "SamplerBackend",
    "backend",
    "budget_scale",
    "budgeted",
    "chances",
    "count",
    "exact_is_practical",
    "infer",
    "joint",
    "placements",
    "sample",
]

METHODS = ("auto", "exact", "sample", "csp")
AUTO_MAX_OPERATIONS = 6e7
"""Transitions of one dense pass above which ``auto`` tries the reachable states (about 1 s; 15-20 ns each)."""
AUTO_MAX_BYTES = 1_000_000_000
AUTO_MAX_STATES = 400_000
"""Reachable states above which ``auto`` samples (about 0.15 s to walk and sum, warm, on this project's machine).

Advice makes several exact passes over narrowed models per call: at 1e6 states the player to move early in the
stored 10-player game was exact too (0.3 s a posterior) but its advice took 1.4 s instead of 0.27 s sampled."""
AUTO_JOINT_MAX_OPERATIONS = 1e7
"""Transitions of one dense pass up to which ``auto`` answers chances and placements by the dense tables (about
0.15 s): advice asks several, and the dense tables of a model near :data:`AUTO_MAX_OPERATIONS` took 1-2.5 s a
question early in 10-player games (the reachable states, up to :data:`AUTO_MAX_STATES`, are tried first)."""
AUTO_FRONTIER_TRANSITIONS = 4_000_000
"""Transitions of the frontier program up to which ``auto`` answers by it (200-400 ns each, warm, for the counts and
every marginal: at most about 0.6 s; the stored scenarios need at most 0.7 million, a 10-player spectator early)."""


def __getattr__(name: str) -> Any:
    if name == "CspBackend":  # python-constraint2 is loaded only when asked for
        from cardlogic.inference.csp import CspBackend

        return CspBackend
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def exact_is_practical(model: DealModel, max_operations: float | None = None, *, marginals: bool = False) -> bool:
    """Whether exact inference on ``model`` takes about as long as ``max_operations`` transitions of a dense pass
    (None: :data:`AUTO_MAX_OPERATIONS`, about a second) and at most a gigabyte.

    Dense tables of that cost answer at once; beyond, the reachable states are
    walked (cached for the answer that follows), at most :data:`AUTO_MAX_STATES`
    scaled by ``max_operations``, so a model beyond that costs this walk before sampling takes over.
    With ``marginals`` (the question is only counts and marginals, not placements
    or chances), the frontier program is tried first, up to :data:`AUTO_FRONTIER_TRANSITIONS`
    (scaled likewise).
    """
    try:
        packed = pack(model)
    except InferenceError:  # beyond what the exact programs take at all (a block of too many clauses)
        return False
    scale = budget_scale(max_operations)
    if packed.empty or (packed.operations <= AUTO_MAX_OPERATIONS * scale and packed.memory() <= AUTO_MAX_BYTES):
        return True
    # The frontier program first, as ExactBackend.tables answers.
    attempts: list[tuple[Callable[[PackedModel, float], object], float]] = [(walk, AUTO_MAX_STATES * scale)]
    if marginals:
        attempts.insert(0, (frontier_tables, AUTO_FRONTIER_TRANSITIONS * scale))
    for attempt, budget in attempts:
        try:
            attempt(packed, budget)
            return True
        except InferenceError:
            continue
    return False


def budgeted(max_operations: float | None = None) -> ExactBackend:
    """The exact backend within ``auto``'s budget for placements and chances (see :func:`exact_is_practical`,
    scaled by ``max_operations`` likewise): their packings keep more holders apart than the one that budget was
    judged on, and advice asks several, so the dense tables stop at :data:`AUTO_JOINT_MAX_OPERATIONS`."""
    scale = budget_scale(max_operations)
    return ExactBackend(
        max_bytes=AUTO_MAX_BYTES,
        max_states=AUTO_MAX_STATES * scale,
        dense_max_operations=min(AUTO_JOINT_MAX_OPERATIONS * scale, DENSE_MAX_OPERATIONS),
        max_operations=AUTO_JOINT_MAX_OPERATIONS * scale,
        max_transitions=AUTO_FRONTIER_TRANSITIONS * scale,
    )


def budget_scale(max_operations: float | None) -> float:
    """``max_operations`` (None: :data:`AUTO_MAX_OPERATIONS`) as a share of ``auto``'s default budget."""
    limit = AUTO_MAX_OPERATIONS if max_operations is None else max_operations
    return limit / AUTO_MAX_OPERATIONS if limit > 0 else 0.0


def backend(model: DealModel, method: str = "auto", samples: int = 20_000, seed: int = 0) -> Backend:
    """The backend ``method`` names (``auto`` choosing for ``model``)."""
    if method == "auto":
        method = "exact" if exact_is_practical(model) else "sample"
    if method == "exact":
        return ExactBackend()
    if method == "sample":
        return SamplerBackend(samples, seed)
    if method == "csp":
        from cardlogic.inference.csp import CspBackend

        return CspBackend()
    raise ValueError(f"unknown inference method {method!r}; expected one of {', '.join(METHODS)}")


def infer(model: DealModel, method: str = "auto", samples: int = 20_000, seed: int = 0) -> Posterior:
    """Every card's distribution over holders, by ``method`` (``auto``: exact wherever counts and marginals fit)."""
    if method == "auto":
        method = "exact" if exact_is_practical(model, marginals=True) else "sample"
    return backend(model, method, samples, seed).posterior(model)


def joint(
    model: DealModel, placements: Mapping[int, int], method: str = "auto", samples: int = 20_000, seed: int = 0
) -> float:
    """P(every card of ``placements`` was dealt to its holder), by ``method``."""
    return backend(model, method, samples, seed).joint(model, placements)


def chances(
    model: DealModel,
    restrictions: Sequence[Mapping[int, int]],
    method: str = "auto",
    samples: int = 20_000,
    seed: int = 0,
) -> list[float]:
    """P(every card of ``restrictions[i]`` was dealt to a holder in its bitmask), for each ``i``, by ``method``."""
    return backend(model, method, samples, seed).chances(model, restrictions)


def placements(model: DealModel, cards: Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
    """The exact joint distribution of the dealt holders of ``cards``: (holder rows, probabilities).

    See :meth:`ExactBackend.placements`.
    """
    return ExactBackend().placements(model, cards)


def count(model: DealModel) -> int:
    """The exact number of consistent deals (0 when inconsistent); InferenceError when too large to count."""
    return ExactBackend().count(model)


def sample(model: DealModel, n: int, seed: int = 0) -> np.ndarray:
    """``n`` consistent deals, ``n x len(model.cards)`` int8 holder indices (exactly uniform where tables fit)."""
    return SamplerBackend().sample(model, n, seed)
