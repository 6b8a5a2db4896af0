"""Sampled beliefs: chi-square fits of the sampler's marginals against exact ones, and the chain's start."""

from __future__ import annotations

import numpy as np

from cardlogic import inference
from cardlogic.belief import Belief
from cardlogic.decks import Deck
from cardlogic.inference.exact import pack
from cardlogic.inference.sampler import SamplerBackend, starting_deal
from cardlogic.literature import Game, Rules

from .games import NAMES, Truth


def spectator_after(truth: Truth, events: int) -> Belief:
    belief = Belief(truth.game)
    for event in truth.events[:events]:
        belief.tracker.push(event)
    return belief


class TestChain:
    def test_starts_on_twelve_player_models_with_many_ask_clauses(self):
        # 45 free cards in hands of 4 under 30 "holds another card of the set" clauses: a search of
        # 20 000 nodes gives up, and moving random cards stalled at about ten broken clauses.
        game = Game(NAMES, deck=Deck.named("no-8s"), rules=Rules(high_double=True), dealer=0)
        truth = Truth.simulate(game, 15, guess_rate=0.0)
        model = spectator_after(truth, 40).tracker.model
        assert len(model.clauses) == 30 and not inference.exact_is_practical(model)
        packed = pack(model)
        for seed in range(5):
            starting_deal(packed, seed)  # no InferenceError
        deals = SamplerBackend(samples=200, seed=1).sample(model, 200, 1)
        assert all(model.is_consistent(dict(zip(model.cards, map(int, row)))) for row in deals)
        assert np.ptp(deals, axis=0).any()  # the chain moves
