"""The reachable-states tables on full-size simulated games: the true deal is never ruled out, and they agree with
the dense tables where those are cheap enough to compare."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from cardlogic.inference import InferenceError
from cardlogic.inference.exact import DealTables, ExactBackend
from cardlogic.inference.packed import pack
from cardlogic.literature import Game
from tests.belief.games import Truth, games, guess_rates, seeds

SPARSE = ExactBackend(max_states=400_000, dense_max_operations=-1, frontier=False)


@settings(max_examples=40, deadline=None, derandomize=True, database=None)
@given(games(min_players=8), seeds, guess_rates, st.data())
def test_the_true_deal_is_never_ruled_out(game: Game, seed: int, guess_rate: float, data: st.DataObject) -> None:
    truth = Truth.simulate(game, seed, guess_rate)
    model = truth.drawn_model(data, 0.5)
    try:
        posterior = SPARSE.posterior(model)
    except InferenceError:  # beyond the budget: the chain's ground
        return
    assert posterior.count > 0 and model.is_consistent(truth.deal)
    assert np.allclose(posterior.marginals.sum(axis=1), 1.0, rtol=0, atol=1e-9)
    for i, card in enumerate(model.cards):
        assert posterior.marginals[i, truth.deal[card]] > 0, f"{card}'s true holder has probability 0"
    packed = pack(model)
    if packed.operations <= 3e7:
        dense = DealTables(packed)
        assert dense.count == posterior.count
        assert np.abs(dense.marginals() - posterior.marginals).max() < 1e-9
