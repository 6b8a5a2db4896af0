"""The exact backend agrees with brute-force enumeration, count for count and marginal for marginal."""

from __future__ import annotations

import collections
import concurrent.futures
import contextlib
import math
import sys

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from cardlogic.constraints import Clause, DealModel, InconsistentError
from cardlogic.inference import exact
from cardlogic.inference.base import InferenceError
from cardlogic.inference.csp import CspBackend, deal_bound
from cardlogic.inference.exact import ExactBackend
from cardlogic.inference.packed import pack
from tests.inference.brute_force import consistent_deals, marginal_counts
from tests.inference.strategies import deal_models

EXACT = ExactBackend()
SPARSE = ExactBackend(dense_max_operations=-1, frontier=False)
"""The reachable-states tables forced on, however small the model."""


def brute_force_marginals(model: DealModel, deals: list[dict[int, int]]) -> np.ndarray:
    return np.array(marginal_counts(model, deals), dtype=float) / len(deals)


@st.composite
def small_models(draw: st.DrawFn) -> DealModel:
    """2-5 holders, 3-10 cards, random sizes, allowed masks and clauses; often with no consistent deal."""
    n_holders = draw(st.integers(2, 5))
    n_cards = draw(st.integers(3, 10))
    cuts = sorted(draw(st.lists(st.integers(0, n_cards), min_size=n_holders - 1, max_size=n_holders - 1)))
    sizes = [b - a for a, b in zip([0, *cuts], [*cuts, n_cards])]
    cards = draw(st.lists(st.integers(0, 53), min_size=n_cards, max_size=n_cards, unique=True))
    model = DealModel([f"H{h}" for h in range(n_holders)], sizes, cards)
    every = (1 << n_holders) - 1
    holder_masks = st.integers(1, every)
    for card in cards:
        if draw(st.booleans()):
            with contextlib.suppress(InconsistentError):
                model.restrict(card, draw(holder_masks))
    for _ in range(draw(st.integers(0, 4))):
        pairs = draw(st.lists(st.tuples(st.sampled_from(cards), holder_masks), min_size=1, max_size=4))
        if draw(st.booleans()):
            model.clauses.append(Clause(tuple(pairs)))  # raw, unsimplified
        else:
            with contextlib.suppress(InconsistentError):
                model.require(pairs)
    assume(math.prod((m).bit_count() for m in model.allowed.values()) <= 20_000)
    return model


@pytest.mark.parametrize("backend", [EXACT, SPARSE], ids=["box", "reachable"])
@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(model=small_models(), data=st.data())
def test_exact_matches_brute_force(backend: ExactBackend, model: DealModel, data: st.DataObject) -> None:
    deals = consistent_deals(model)
    assert backend.count(model) == len(deals)
    if not deals:
        with pytest.raises(InconsistentError):
            backend.posterior(model)
        with pytest.raises(InconsistentError):
            backend.joint(model, {})
        return
    chosen = data.draw(st.lists(st.sampled_from(model.cards), max_size=3, unique=True))
    placements = {card: data.draw(st.integers(0, len(model.holders) - 1)) for card in chosen}
    hits = sum(all(deal[c] == h for c, h in placements.items()) for deal in deals)
    assert abs(backend.joint(model, placements) - hits / len(deals)) < 1e-12
    assert_every_answer_matches(model, deals, chosen, data, backend)


def assert_every_answer_matches(
    model: DealModel, deals: list[dict[int, int]], chosen: list[int], data: st.DataObject, backend: ExactBackend = EXACT
) -> None:
    """Count, marginals, the joint placements of ``chosen`` and random chances against the enumerated ``deals``."""
    posterior = backend.posterior(model)
    assert posterior.count == len(deals)
    assert posterior.cards == model.cards and posterior.holders == model.holders
    expected = brute_force_marginals(model, deals)
    assert np.abs(posterior.marginals - expected).max() < 1e-12
    assert ((posterior.marginals == 0) == (expected == 0)).all()  # impossibility is exact
    rows, probabilities = backend.placements(model, chosen)
    frequencies = collections.Counter(tuple(deal[c] for c in chosen) for deal in deals)
    assert {tuple(row): p for row, p in zip(rows.tolist(), probabilities)}.keys() == frequencies.keys()
    for row, p in zip(rows.tolist(), probabilities):
        assert abs(p - frequencies[tuple(row)] / len(deals)) < 1e-12
    # Several restrictions at once (cards to holder masks, some sharing cards).
    every = (1 << len(model.holders)) - 1
    restriction = st.dictionaries(st.sampled_from(model.cards), st.integers(0, every), max_size=4)
    restrictions = data.draw(st.lists(restriction, min_size=1, max_size=4))
    expected = [
        sum(all(mask >> deal[c] & 1 for c, mask in r.items()) for deal in deals) / len(deals) for r in restrictions
    ]
    assert np.allclose(backend.chances(model, restrictions), expected, rtol=0, atol=1e-12)


def test_doc_example() -> None:
    model = DealModel(("A", "B"), (2, 2), range(4))
    model.require_one_of(0, [0, 1])
    posterior = EXACT.posterior(model)
    assert posterior.count == 5
    assert posterior.probability(0, 0) == pytest.approx(0.6, abs=1e-15)
    assert EXACT.joint(model, {0: 0, 1: 0}) == pytest.approx(0.2, abs=1e-15)


def test_counts_far_beyond_float_precision_are_exact() -> None:
    # An 8-player observer view at the start: 7 unknown hands of 6.
    model = DealModel([f"P{h}" for h in range(8)], [6] * 8, range(48))
    for card in range(6):
        model.place(card, 0)
    assert EXACT.count(model) == math.factorial(42) // math.factorial(6) ** 7  # about 1.4e31
    # Twelve hands of 4 with two cards of each known: 24 free cards, 2 per hand.
    model = DealModel([f"P{h}" for h in range(12)], [4] * 12, range(48))
    for h in range(12):
        model.place(4 * h, h)
        model.place(4 * h + 1, h)
    expected = math.factorial(24) // 2**12
    assert expected > 2**64
    posterior = EXACT.posterior(model)
    assert posterior.count == expected
    assert posterior.probability(2, 5) == pytest.approx(1 / 12, abs=1e-14)


def test_clauses_multiply_like_inclusion_exclusion() -> None:
    # Two hands of 6 over one 6-card half-suit plus 6 other cards; A asked for the half-suit.
    model = DealModel(("A", "B"), (6, 6), range(12))
    model.require_one_of(0, range(6))
    model.require_one_of(1, range(6))
    # Total C(12,6); minus deals where A has none of 0..5 (1) and where B has none (1).
    assert EXACT.count(model) == math.comb(12, 6) - 2


def test_exact_zero_marks_impossible_placements() -> None:
    model = DealModel(("A", "B", "C"), (1, 1, 1), [0, 1, 2])
    model.restrict(0, 0b011)
    model.restrict(1, 0b011)  # so 2 must be at C, and C holds nothing else
    posterior = EXACT.posterior(model)
    assert posterior.probability(2, 2) == 1.0
    assert posterior.probability(0, 2) == 0.0 and posterior.probability(1, 2) == 0.0
    assert EXACT.joint(model, {0: 2}) == 0.0


def test_cost_is_known_before_running_and_bounded() -> None:
    model = DealModel([f"P{h}" for h in range(12)], [4] * 12, range(48))
    for holder in range(12):
        model.forbid(holder, holder)  # every holder told apart from the others
    packed = pack(model)
    assert packed.box_size == 5**12 and packed.operations > 1e9
    with pytest.raises(InferenceError):
        ExactBackend(max_bytes=10**9, frontier=False).count(model)
    # The frontier program names each holder for one card only: inclusion-exclusion over the forbidden pairs.
    expected = sum(
        (-1) ** t
        * math.comb(12, t)
        * math.factorial(48 - t)
        // (math.factorial(3) ** t * math.factorial(4) ** (12 - t))
        for t in range(13)
    )
    assert ExactBackend(max_bytes=10**9).count(model) == expected


class TestInterchangeableHolders:
    """Holders nothing tells apart are counted as one holder with the sum of their capacities."""

    @pytest.mark.parametrize("players", range(4, 13))
    def test_the_deal_counts_in_closed_form_for_a_spectator_and_a_player(self, players: int) -> None:
        size, cards = divmod(48, players)
        if cards:
            pytest.skip("the deck does not split evenly")
        spectator = DealModel([f"P{h}" for h in range(players)], [size] * players, range(48))
        assert len(pack(spectator).caps) == 1
        posterior = EXACT.posterior(spectator)
        assert posterior.count == math.factorial(48) // math.factorial(size) ** players
        assert np.allclose(posterior.marginals, 1 / players, rtol=1e-12, atol=0)
        player = spectator.copy()
        for card in range(48):
            player.place(card, 0) if card < size else player.forbid(card, 0)
        posterior = EXACT.posterior(player)
        assert posterior.count == math.factorial(48 - size) // math.factorial(size) ** (players - 1)
        assert np.allclose(posterior.marginals[size:, 1:], 1 / (players - 1), rtol=1e-12, atol=0)
        assert (posterior.marginals[size:, 0] == 0).all()

    def test_members_of_unequal_sizes_share_their_group_in_proportion(self) -> None:
        model = DealModel(("A", "B", "C", "D"), (1, 2, 3, 2), range(8))
        model.place(0, 3)
        model.require_one_of(3, [1, 2])
        packed = pack(model)
        assert packed.groups == ((0, 1, 2), (3,)) and packed.member_caps == ((1, 2, 3), (1,))
        deals = consistent_deals(model)
        posterior = EXACT.posterior(model)
        assert posterior.count == len(deals)
        assert np.abs(posterior.marginals - brute_force_marginals(model, deals)).max() < 1e-12

    def test_holders_of_a_placed_card_stay_apart(self) -> None:
        model = DealModel(("A", "B", "C"), (2, 2, 2), range(6))
        assert len(pack(model).caps) == 1
        assert len(pack(model, closing=[0]).caps) == 3
        rows, probabilities = EXACT.placements(model, [0, 1])
        assert sorted(map(tuple, rows.tolist())) == [(a, b) for a in range(3) for b in range(3)]
        assert np.allclose(probabilities[(rows[:, 0] == rows[:, 1])], 1 / 15)  # 3 of 5 partners elsewhere


@st.composite
def models_with_alike_holders(draw: st.DrawFn) -> DealModel:
    """3-6 holders of which only the first two are ever named by a restriction or clause."""
    n_holders = draw(st.integers(3, 6))
    sizes = draw(st.lists(st.integers(0, 3), min_size=n_holders, max_size=n_holders))
    assume(3 <= sum(sizes) <= 10)
    model = DealModel([f"H{h}" for h in range(n_holders)], sizes, range(sum(sizes)))
    every = (1 << n_holders) - 1
    named = st.sampled_from([0b01, 0b10, 0b11])
    for card in model.cards:
        if draw(st.booleans()):
            with contextlib.suppress(InconsistentError):
                model.restrict(card, every & ~draw(named) if draw(st.booleans()) else draw(named))
    for _ in range(draw(st.integers(0, 3))):
        pairs = draw(st.lists(st.tuples(st.sampled_from(model.cards), named), min_size=1, max_size=3))
        with contextlib.suppress(InconsistentError):
            model.require(pairs)
    assume(math.prod((m).bit_count() for m in model.allowed.values()) <= 50_000)
    return model


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(models_with_alike_holders(), st.data())
def test_grouped_holders_match_brute_force(model: DealModel, data: st.DataObject) -> None:
    deals = consistent_deals(model)
    assert EXACT.count(model) == len(deals)
    assert SPARSE.count(model) == len(deals)
    if deals:
        chosen = data.draw(st.lists(st.sampled_from(model.cards), min_size=1, max_size=3, unique=True))
        assert_every_answer_matches(model, deals, chosen, data)
        assert_every_answer_matches(model, deals, chosen, data, SPARSE)


def test_clause_order_does_not_change_counts() -> None:
    model = DealModel(("A", "B", "C"), (3, 3, 3), range(9))
    model.require_one_of(0, [0, 1, 2])
    model.require([(3, 0b110), (4, 0b100), (5, 0b010)])
    model.require_one_of(2, [5, 6, 7, 8])
    shuffled = model.copy()
    shuffled.clauses = shuffled.clauses[::-1]
    assert EXACT.count(model) == EXACT.count(shuffled) == len(consistent_deals(model)) > 0


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(deal_models(max_holders=6, max_cards=12, max_restrictions=12, max_clauses=6), st.data())
def test_reachable_states_match_the_csp_oracle(model: DealModel, data: st.DataObject) -> None:
    assume(deal_bound(model) <= 100_000)
    oracle = CspBackend()
    count = oracle.count(model)
    assert SPARSE.count(model) == count
    if not count:
        return
    assert np.abs(SPARSE.posterior(model).marginals - oracle.posterior(model).marginals).max() < 1e-12
    every = (1 << len(model.holders)) - 1
    restrictions = data.draw(
        st.lists(
            st.dictionaries(st.sampled_from(model.cards), st.integers(0, every), min_size=1, max_size=4),
            min_size=1,
            max_size=3,
        )
    )
    assert np.allclose(SPARSE.chances(model, restrictions), oracle.chances(model, restrictions), rtol=0, atol=1e-12)
    placements = {card: data.draw(st.integers(0, len(model.holders) - 1)) for card in restrictions[0]}
    assert SPARSE.joint(model, placements) == pytest.approx(oracle.joint(model, placements), abs=1e-12)


def test_capacity_boxes_kept_for_reuse_stay_within_their_byte_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(exact, "_BOXES", {})
    monkeypatch.setattr(exact, "BOX_CACHE_BYTES", 1000)
    models = [DealModel(("A", "B", "C", "D"), (caps, caps, caps, 1), range(3 * caps + 1)) for caps in range(2, 12)]
    for model in models:
        box = exact.box_of(pack(model))
        assert exact.box_of(pack(model)) is box  # the last one is always kept
        kept = [sum(array.nbytes for array in arrays) for arrays in exact._BOXES.values()]
        assert sum(kept[:-1]) <= exact.BOX_CACHE_BYTES
    assert len(exact._BOXES) < len(models)


def test_capacity_boxes_are_shared_safely_by_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    # The advice ranks its asks in threads, each building and evicting boxes of the one cache.
    monkeypatch.setattr(exact, "_BOXES", {})
    monkeypatch.setattr(exact, "BOX_CACHE_BYTES", 1000)
    packed = [pack(DealModel(("A", "B", "C", "D"), (caps, caps, caps, 1), range(3 * caps + 1))) for caps in range(2, 9)]
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads often, inside the cache's bookkeeping too
    try:
        with concurrent.futures.ThreadPoolExecutor(8) as pool:
            boxes = list(pool.map(lambda k: exact.box_of(packed[k % len(packed)]), range(2000)))
    finally:
        sys.setswitchinterval(interval)
    assert all(len(box) == len(boxes[0]) for box in boxes)
