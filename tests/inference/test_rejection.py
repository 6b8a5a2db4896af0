"""The naive rejection sampler: only consistent deals, honest acceptance, uniform output."""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest
from hypothesis import assume, given, settings

from cardlogic.constraints import DealModel
from cardlogic.inference.rejection import RejectionSampler
from tests.inference.brute_force import consistent_deals, marginal_counts
from tests.inference.strategies import deal_models
from tests.stats import chi_square_pvalue


def _narrow_model() -> DealModel:
    """3 holders x 8 cards: card 0 placed with A, the other 7 shuffle into open slots (2, 3, 2); 37 deals."""
    model = DealModel(("A", "B", "C"), (3, 3, 2), range(8))
    model.place(0, 0)
    model.forbid(1, 1)
    model.restrict(2, 0b110)
    model.require_one_of(1, [3, 4, 5])
    model.require([(6, 0b001), (7, 0b100)])
    model.require([(3, 0b100), (5, 0b011), (7, 0b010)])
    return model


def _four_hands() -> DealModel:
    """4 holders x 9 cards, sizes (3, 2, 2, 2), one card placed, clauses on several holders."""
    model = DealModel(("A", "B", "C", "D"), (3, 2, 2, 2), range(9))
    model.place(8, 3)
    model.forbid(0, 0)
    model.restrict(1, 0b0110)
    model.require_one_of(0, [2, 3, 4])
    model.require_one_of(2, [0, 5, 6])
    model.require([(7, 0b1000), (5, 0b0001), (6, 0b0010)])
    return model


@settings(max_examples=60, deadline=None)
@given(deal_models())
def test_returns_only_consistent_deals_reproducibly(model):
    assume(consistent_deals(model))
    first = RejectionSampler().sample(model, 50, seed=7, max_tries=200_000)
    kept = len(first.deals)
    assert first.deals.dtype == np.int8 and first.deals.shape == (kept, len(model.cards))
    assert kept == 50 or first.tries == 200_000
    assert first.acceptance == kept / first.tries
    for row in first.deals:
        assert model.is_consistent(dict(zip(model.cards, row.tolist())))
    again = RejectionSampler().sample(model, 50, seed=7)
    assert np.array_equal(first.deals, again.deals) and first.tries == again.tries


def test_gives_up_after_max_tries_on_a_model_without_deals():
    model = DealModel(("A", "B", "C"), (1, 1, 1), [0, 1, 2])
    for card in range(3):
        model.restrict(card, 0b011)
    result = RejectionSampler().sample(model, 10, seed=0, max_tries=5000)
    assert result.deals.shape == (0, 3) and result.tries == 5000 and result.acceptance == 0.0


def test_acceptance_rate_matches_consistent_share_of_proposals():
    model = _narrow_model()
    proposals = math.factorial(7) // (math.factorial(2) * math.factorial(3) * math.factorial(2))
    share = len(consistent_deals(model)) / proposals
    result = RejectionSampler().sample(model, 4000, seed=3)
    assert abs(result.acceptance - share) < 4 * math.sqrt(share * (1 - share) / result.tries)


@pytest.mark.parametrize("build", [_narrow_model, _four_hands])
def test_marginals_pass_chi_square_against_brute_force(build):
    model = build()
    truth = consistent_deals(model)
    expected = marginal_counts(model, truth)
    n = 20_000
    deals = RejectionSampler().sample(model, n, seed=11).deals
    for i in range(len(model.cards)):
        observed = np.bincount(deals[:, i], minlength=len(model.holders))
        p = chi_square_pvalue(observed.tolist(), [n * c / len(truth) for c in expected[i]])
        assert p > 0.001 / len(model.cards), (model.cards[i], observed, expected[i])


def test_every_consistent_deal_is_equally_likely():
    model = _narrow_model()
    truth = consistent_deals(model)
    n = 30_000
    seen = Counter(map(tuple, RejectionSampler().sample(model, n, seed=5).deals.tolist()))
    keys = [tuple(deal[c] for c in model.cards) for deal in truth]
    assert set(seen) <= set(keys)
    assert chi_square_pvalue([seen[k] for k in keys], [n / len(keys)] * len(keys)) > 0.001
