"""The cache of costly builds that exact inference keeps per model."""

from __future__ import annotations

import concurrent.futures
import sys

import pytest

from cardlogic.inference import InferenceError
from cardlogic.inference.base import BudgetCache


def test_a_build_is_kept_and_a_failure_within_a_budget_fails_again_at_once() -> None:
    builds: list[tuple[str, float]] = []

    def build(key: str, budget: float) -> str:
        builds.append((key, budget))
        if budget < 10:
            raise InferenceError(f"{key} needs 10")
        return key.upper()

    cache: BudgetCache[str] = BudgetCache(2)
    assert cache.get("a", 10, lambda budget: build("a", budget)) == "A"
    assert cache.get("a", 10, lambda budget: build("a", budget)) == "A"
    for _ in range(2):
        with pytest.raises(InferenceError, match="b needs 10"):
            cache.get("b", 5, lambda budget: build("b", budget))
    assert cache.get("b", 20, lambda budget: build("b", budget)) == "B"
    assert builds == [("a", 10), ("b", 5), ("b", 20)]


def test_threads_share_one_cache_safely() -> None:
    # Advice's look-ahead threads read and evict entries of one cache at once.
    cache: BudgetCache[int] = BudgetCache(2)
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads often, inside the cache's bookkeeping too
    try:
        with concurrent.futures.ThreadPoolExecutor(8) as pool:
            found = list(pool.map(lambda k: cache.get(k % 5, 1.0, lambda _: k % 5), range(5000)))
    finally:
        sys.setswitchinterval(interval)
    assert found == [k % 5 for k in range(5000)]
