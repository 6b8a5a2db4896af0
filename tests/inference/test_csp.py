"""The CSP oracle against the itertools brute force, and its size guard."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardlogic.constraints import DealModel, InconsistentError
from cardlogic.inference.base import InferenceError
from cardlogic.inference.csp import CspBackend, deal_bound
from tests.inference.brute_force import consistent_deals, marginal_counts
from tests.inference.strategies import deal_models

SETTINGS = settings(max_examples=80, deadline=None)


def _frozen(deals):
    return sorted(tuple(sorted((int(c), h) for c, h in deal.items())) for deal in deals)


@SETTINGS
@given(deal_models())
def test_enumerates_exactly_the_brute_force_deals(model):
    backend = CspBackend()
    truth = consistent_deals(model)
    assert _frozen(backend.deals(model)) == _frozen(truth)
    assert backend.count(model) == len(truth) <= deal_bound(model)
    assert backend.last is not None and backend.last.deals == len(truth)


@SETTINGS
@given(deal_models())
def test_posterior_matches_brute_force_marginals(model):
    truth = consistent_deals(model)
    if not truth:
        with pytest.raises(InconsistentError):
            CspBackend().posterior(model)
        return
    posterior = CspBackend().posterior(model)
    assert (posterior.method, posterior.count, posterior.samples, posterior.stderr) == ("csp", len(truth), 0, None)
    assert posterior.cards == model.cards and posterior.holders == model.holders
    counts = marginal_counts(model, truth)
    for i, card in enumerate(model.cards):
        for holder in range(len(model.holders)):
            assert posterior.probability(card, holder) == pytest.approx(
                counts[i][holder] / len(truth), abs=1e-12, rel=0
            )


@SETTINGS
@given(st.data())
def test_joint_matches_brute_force(data):
    model = data.draw(deal_models())
    truth = consistent_deals(model)
    cards = data.draw(st.lists(st.sampled_from(model.cards), min_size=1, max_size=3, unique=True))
    placements = {card: data.draw(st.integers(0, len(model.holders) - 1)) for card in cards}
    if not truth:
        with pytest.raises(InconsistentError):
            CspBackend().joint(model, placements)
        return
    hits = sum(all(deal[c] == h for c, h in placements.items()) for deal in truth)
    assert CspBackend().joint(model, placements) == pytest.approx(hits / len(truth), abs=1e-12, rel=0)


@SETTINGS
@given(st.data())
def test_chances_match_brute_force(data):
    model = data.draw(deal_models())
    truth = consistent_deals(model)
    every = (1 << len(model.holders)) - 1
    restrictions = data.draw(
        st.lists(
            st.dictionaries(st.sampled_from(model.cards), st.integers(0, every), max_size=3), min_size=1, max_size=3
        )
    )
    if not truth:
        with pytest.raises(InconsistentError):
            CspBackend().chances(model, restrictions)
        return
    expected = [
        sum(all(mask >> deal[c] & 1 for c, mask in r.items()) for deal in truth) / len(truth) for r in restrictions
    ]
    assert CspBackend().chances(model, restrictions) == pytest.approx(expected, abs=1e-12, rel=0)


def test_holder_no_card_may_reach_means_no_deal():
    model = DealModel(("A", "B", "C"), (1, 1, 1), [0, 1, 2])
    for card in range(3):
        model.restrict(card, 0b011)  # C cannot be filled, which the model's cheap checks do not see
    assert CspBackend().count(model) == 0
    assert list(CspBackend().deals(model)) == []


def test_empty_model_has_one_empty_deal():
    model = DealModel(("A", "B"), (0, 0), [])
    assert list(CspBackend().deals(model)) == [{}]
    assert CspBackend().posterior(model).count == 1


def test_refuses_a_model_too_big_to_enumerate_before_searching():
    model = DealModel(("A", "B", "C", "D"), (10, 10, 10, 10), range(40))
    with pytest.raises(InferenceError, match="max_deals"):
        CspBackend().posterior(model)
    with pytest.raises(InferenceError):
        next(CspBackend().deals(model))


def test_max_deals_is_configurable_and_counts_only_what_allowed_sets_permit():
    model = DealModel(("A", "B"), (2, 2), range(4))
    assert deal_bound(model) == 6
    with pytest.raises(InferenceError):
        CspBackend(max_deals=5).count(model)
    model.place(0, 0)
    assert deal_bound(model) == 3 and CspBackend(max_deals=3).count(model) == 3


def test_reports_deals_per_second():
    model = DealModel(("A", "B", "C"), (3, 3, 3), range(9))
    backend = CspBackend()
    assert backend.last is None
    assert backend.count(model) == 1680
    assert backend.last.deals == 1680 and backend.last.seconds > 0 and backend.last.rate > 0


def test_single_card_model():
    model = DealModel(("A", "B", "C"), (0, 1, 0), [5])
    posterior = CspBackend().posterior(model)
    assert posterior.count == 1 and posterior.marginals.tolist() == [[0.0, 1.0, 0.0]]
