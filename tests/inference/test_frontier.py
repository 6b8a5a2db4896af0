"""The frontier program (exact inference early in big games) against brute force, the CSP oracle and the box
tables, on small random models and on full-size simulated games."""

from __future__ import annotations

import collections
import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from cardlogic import inference
from cardlogic.bench.scenarios import load_scenario
from cardlogic.constraints import DealModel, InconsistentError
from cardlogic.inference import InferenceError
from cardlogic.inference.csp import CspBackend, deal_bound
from cardlogic.inference.exact import DealTables, ExactBackend
from cardlogic.inference.frontier import FrontierTables, frontier_tables, plan
from cardlogic.inference.packed import pack
from cardlogic.inference.sparse import walk
from cardlogic.literature import Game
from cardlogic.literature.advice import advise, spectator
from cardlogic.literature.belief import LiteratureBelief
from tests.belief.games import Truth, games, guess_rates, seeds
from tests.inference.brute_force import consistent_deals
from tests.inference.strategies import deal_models
from tests.inference.test_exact import brute_force_marginals, small_models

FRONTIER = ExactBackend(dense_max_operations=-1)
"""Counts and marginals by the frontier program, however small the model."""
SCENARIOS = Path(__file__).resolve().parents[2] / "benchmarks" / "scenarios"


def frontier(model: DealModel) -> FrontierTables:
    return FrontierTables(plan(pack(model)))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(small_models())
def test_frontier_matches_brute_force(model: DealModel) -> None:
    deals = consistent_deals(model)
    tables = frontier(model)
    assert tables.count == len(deals)
    if not deals:
        with pytest.raises(InconsistentError):
            tables.marginals()
        return
    marginals = tables.marginals()
    expected = brute_force_marginals(model, deals)
    assert np.abs(marginals - expected).max() < 1e-9
    assert (marginals[expected == 0] < 1e-12).all()
    posterior = FRONTIER.posterior(model)
    assert posterior.count == len(deals) and np.abs(posterior.marginals - expected).max() < 1e-9


def test_every_card_of_a_merged_block_probes_every_holder_it_may_go_to() -> None:
    """The marginals need a probe of each card at each of its block's holders allowed to it. Eighteen cards that
    name holders and no clause links are more blocks than every order is searched for, so some are merged: here the
    card that may go to none of its merged block's holders comes first (it once left the next card without probes,
    and the marginals failed as if cancellation had spoiled them)."""
    model = DealModel([f"P{h}" for h in range(12)], [4] * 12, range(48))
    model.forbid(0, 0)
    model.forbid(0, 1)
    model.forbid(1, 0)
    for card in range(2, 18):
        model.forbid(card, 2 + card % 10)
    packed = pack(model)
    layout = plan(packed)
    for block in layout.blocks:
        for step in block.steps:
            allow = int(packed.allow[step.free])
            assert step.probe_holders == tuple(j for j in block.holders if allow >> j & 1)
    marginals = FrontierTables(layout).marginals()
    assert np.allclose(marginals.sum(axis=1), 1.0, rtol=0, atol=1e-9)
    assert marginals[0, 0] == marginals[0, 1] == marginals[1, 0] == 0.0
    assert (marginals[1, 1:] > 0).all()


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(model=small_models(), data=st.data())
def test_chances_by_the_frontier_program_match_brute_force(model: DealModel, data: st.DataObject) -> None:
    deals = consistent_deals(model)
    assume(deals)
    every = (1 << len(model.holders)) - 1
    restriction = st.dictionaries(st.sampled_from(model.cards), st.integers(0, every), max_size=4)
    restrictions = data.draw(st.lists(restriction, min_size=1, max_size=4))
    expected = [
        sum(all(mask >> deal[c] & 1 for c, mask in r.items()) for deal in deals) / len(deals) for r in restrictions
    ]
    assert FRONTIER.frontier_chances(model, restrictions) == pytest.approx(expected, abs=1e-12, rel=0)
    assert FRONTIER.chances(model, restrictions) == pytest.approx(expected, abs=1e-12, rel=0)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(model=small_models(), data=st.data())
def test_marginals_given_a_card_reweigh_the_tables_as_brute_force_counts(model: DealModel, data: st.DataObject) -> None:
    """The tables of a model reweighed for one free card at one holder (a look-ahead's yes) give the marginals of
    the deals with it there, wherever they answer; elsewhere they leave it to the narrowed model."""
    deals = consistent_deals(model)
    assume(deals)
    packed = pack(model)
    assume(packed.free_count)
    free = data.draw(st.integers(0, packed.free_count - 1), label="free card")
    card = packed.cards[int(packed.columns[free])]
    holder = data.draw(st.sampled_from([h for h in range(len(model.holders)) if model.allowed[card] >> h & 1]))
    kept = [deal for deal in deals if deal[card] == holder]
    if not kept:
        with pytest.raises(InconsistentError):
            FRONTIER.given(model, card, holder)
        return
    expected = brute_force_marginals(model, kept)
    assert np.abs(FRONTIER.given(model, card, holder) - expected).max() < 1e-9
    group = next(j for j, members in enumerate(packed.groups) if holder in members)
    if len(packed.groups[group]) == 1:  # the tables tell this holder apart
        reweighed = frontier(model).given(free, group)
        assert reweighed is None or np.abs(reweighed - expected).max() < 1e-9


def test_a_big_game_reweighs_its_tables_for_a_look_ahead_as_the_narrowed_model_counts() -> None:
    belief = LiteratureBelief.from_record(load_scenario(SCENARIOS / "10p-no-8s-early.txt").record)
    model = belief.model
    packed = pack(model)
    tables = frontier_tables(packed)
    holders = [j for j, members in enumerate(packed.groups) if len(members) == 1]
    reweighed = next(
        (free, j, found)
        for free in range(packed.free_count)
        for j in holders
        if (found := tables.given(free, j)) is not None
    )
    free, j, found = reweighed
    narrowed = model.copy()
    narrowed.place(packed.cards[int(packed.columns[free])], packed.groups[j][0])
    assert np.abs(found - ExactBackend().marginals(narrowed)).max() < 1e-9


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(deal_models(max_holders=7, max_cards=14, max_restrictions=14, max_clauses=7))
def test_frontier_matches_the_csp_oracle(model: DealModel) -> None:
    assume(deal_bound(model) <= 100_000)
    oracle = CspBackend()
    count = oracle.count(model)
    tables = frontier(model)
    assert tables.count == count
    if count:
        assert np.abs(tables.marginals() - oracle.posterior(model).marginals).max() < 1e-9


@pytest.mark.parametrize("players", [4, 6, 8, 12])
def test_an_unconstrained_deal_counts_in_closed_form(players: int) -> None:
    size = 48 // players
    model = DealModel([f"P{i}" for i in range(players)], [size] * players, range(48))
    model.forbid(0, 0)  # one holder told apart, so the program has a holder to name
    tables = frontier(model)
    everything = math.factorial(48) // math.factorial(size) ** players
    assert tables.count == everything - everything // players
    assert tables.marginals()[0, 0] == 0.0
    assert np.allclose(tables.marginals()[0, 1:], 1 / (players - 1))
    assert np.allclose(tables.marginals()[1:, 0], size / 47)  # P0's hand is 12 of the 47 other cards
    assert np.allclose(tables.marginals()[1:, 1:], (1 - size / 47) / (players - 1))


@settings(max_examples=25, deadline=None, derandomize=True, database=None)
@given(games(min_players=8), seeds, guess_rates, st.data())
def test_full_size_games_keep_the_true_deal_and_agree_with_the_box(
    game: Game, seed: int, guess_rate: float, data: st.DataObject
) -> None:
    truth = Truth.simulate(game, seed, guess_rate)
    model = truth.drawn_model(data, 1 / 3)
    try:
        tables = FrontierTables(plan(pack(model)), max_transitions=1_000_000)
        marginals = tables.marginals()
    except InferenceError:  # beyond the budget, or cancellation: the other routes answer
        return
    assert tables.count > 0 and model.is_consistent(truth.deal)
    assert np.allclose(marginals.sum(axis=1), 1.0, rtol=0, atol=1e-7)
    for i, card in enumerate(model.cards):
        assert marginals[i, truth.deal[card]] > 0, f"{card}'s true holder has probability 0"
    packed = pack(model)
    if packed.operations <= 3e7:
        dense = DealTables(packed)
        assert dense.count == tables.count
        # the frontier program's signed terms cancel: 3e-9 seen on a 12-player fours game (numpy 2.4, numba 0.68),
        # well inside the 1e-7 its own precision check allows
        assert np.abs(dense.marginals() - marginals).max() < 1e-8


def test_auto_answers_the_start_of_a_12_player_game_exactly() -> None:
    """The stored 12-player scenario early on: the box has 25 million states, the frontier program a few
    thousand; ``auto`` gives the player exact marginals, and exact chances and placements for its advice."""
    scenario = load_scenario(SCENARIOS / "12p-no-8s-early.txt")
    belief = LiteratureBelief.from_record(scenario.record, prior="rules")
    assert belief.resolved_method == "exact"
    posterior = belief.posterior()
    assert posterior.method == "exact" and posterior.count > 0
    assert np.allclose(posterior.marginals.sum(axis=1), 1.0, rtol=0, atol=1e-9)
    assert inference.infer(belief.model).method == "exact"
    public = spectator(belief)
    advice = advise(belief, public)
    assert advice.method == "exact" and belief.chance_method == ("exact", 0) and advice.claims
    assert public.posterior().method in ("exact", "mcmc")  # within the leak figures' budget or not


def test_a_budget_a_model_went_beyond_does_not_stop_a_larger_one() -> None:
    model = DealModel(tuple("ABCD"), (3, 3, 3, 3), range(12))
    for holder in range(4):
        model.forbid(holder, holder)
    packed = pack(model)
    for build in (walk, frontier_tables):
        with pytest.raises(InferenceError):
            build(packed, 10)
        with pytest.raises(InferenceError):  # known to fail within 10: at once
            build(packed, 5)
        assert build(packed, 1e9) is build(packed, 10)  # built again for the larger budget, then cached


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(model=small_models(), data=st.data())
def test_placements_by_the_frontier_program_match_brute_force(model: DealModel, data: st.DataObject) -> None:
    deals = consistent_deals(model)
    assume(deals)
    chosen = data.draw(st.lists(st.sampled_from(model.cards), min_size=1, max_size=3, unique=True))
    rows, probabilities = FRONTIER.placements(model, chosen)
    frequencies = collections.Counter(tuple(deal[c] for c in chosen) for deal in deals)
    assert {tuple(row): p for row, p in zip(rows.tolist(), probabilities)}.keys() == frequencies.keys()
    for row, p in zip(rows.tolist(), probabilities):
        assert p == pytest.approx(frequencies[tuple(row)] / len(deals), abs=1e-12, rel=0)
