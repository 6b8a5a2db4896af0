"""The inference interface: one call per question, the method chosen by cost."""

from __future__ import annotations

import numpy as np
import pytest

import cardlogic.inference as inference
from cardlogic.constraints import Clause, DealModel, InconsistentError


def asked_model() -> DealModel:
    model = DealModel(("A", "B", "C"), (2, 2, 2), range(6))
    model.require_one_of(0, [0, 1, 2])
    model.forbid(3, 1)
    return model


def test_methods_agree_on_a_small_model() -> None:
    model = asked_model()
    exact = inference.infer(model, method="exact")
    csp = inference.infer(model, method="csp")
    assert exact.method == "exact" and exact.count == inference.count(model) == csp.count
    assert np.allclose(csp.marginals, exact.marginals, atol=1e-12)
    sampled = inference.infer(model, method="sample", samples=40_000, seed=3)
    assert np.all(np.abs(sampled.marginals - exact.marginals) <= 5 * sampled.stderr + 1e-9)
    assert inference.joint(model, {0: 0, 3: 2}) == pytest.approx(
        inference.joint(model, {0: 0, 3: 2}, method="csp"), abs=1e-12
    )


def test_auto_is_exact_when_cheap_and_samples_otherwise(monkeypatch: pytest.MonkeyPatch) -> None:
    model = asked_model()
    assert inference.infer(model).method == "exact"
    monkeypatch.setattr(inference, "AUTO_MAX_OPERATIONS", 0)
    assert inference.infer(model, samples=100).method == "sample"
    twelve = DealModel([f"P{h}" for h in range(12)], [4] * 12, range(48))
    assert not inference.exact_is_practical(twelve)


def test_sample_returns_holder_indices_per_card() -> None:
    model = asked_model()
    drawn = inference.sample(model, 100, seed=1)
    assert drawn.shape == (100, 6) and drawn.dtype == np.int8
    assert np.array_equal(drawn, inference.sample(model, 100, seed=1))


def test_inconsistent_models_raise_everywhere() -> None:
    model = DealModel(("A", "B"), (1, 1), [0, 1])
    model.clauses += [Clause(((0, 0b01), (1, 0b10))), Clause(((0, 0b10), (1, 0b01))), Clause(((0, 0b01), (1, 0b01)))]
    assert inference.count(model) == 0
    for method in ("auto", "exact", "sample", "csp"):
        with pytest.raises(InconsistentError):
            inference.infer(model, method=method)


def test_unknown_method_is_rejected() -> None:
    with pytest.raises(ValueError):
        inference.infer(asked_model(), method="guess")
