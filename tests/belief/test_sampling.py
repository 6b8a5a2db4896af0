"""Sampled beliefs: chi-square fits of the sampler's marginals and deals against exact ones, and the chain's start.

The late-game states are the ones naive rejection cannot serve: the last point
of a simulated 6-player game where at least six cards are still uncertain and
fewer than one shuffle in 10 000 of the unplaced cards into the open slots is
consistent.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from cardlogic import inference
from cardlogic.constraints import DealModel
from cardlogic.inference.packed import pack
from cardlogic.inference.sampler import SamplerBackend, starting_deal
from cardlogic.literature import Game, Record, Rules
from cardlogic.literature.belief import LiteratureBelief
from cardlogic.literature.decks import Deck
from tests.stats import chi_square_pvalue

from .games import NAMES, Truth

SAMPLES = 20_000


def spectator_after(truth: Truth, events: int) -> LiteratureBelief:
    belief = LiteratureBelief(truth.game, prior="rules")
    for event in truth.events[:events]:
        belief.push_unchecked(event)
    return belief


class TestChain:
    def test_starts_on_twelve_player_models_with_many_ask_clauses(self):
        # 45 free cards in hands of 4 under 30 "holds another card of the set" clauses: a search of
        # 20 000 nodes gives up, and moving random cards stalled at about ten broken clauses.
        game = Game(NAMES, deck=Deck.named("no-8s"), rules=Rules(high_double=True), dealer=0)
        truth = Truth.simulate(game, 15, guess_rate=0.0)
        model = spectator_after(truth, 40).model
        assert len(model.clauses) == 30 and not inference.exact_is_practical(model)
        packed = pack(model)
        for seed in range(5):
            starting_deal(packed, seed)  # no InferenceError
        deals = SamplerBackend(samples=200, seed=1).sample(model, 200, 1)
        assert all(model.is_consistent(dict(zip(model.cards, map(int, row)))) for row in deals)
        assert np.ptp(deals, axis=0).any()  # the chain moves


def acceptance(model: DealModel, count: int) -> float:
    """The chance that a shuffle of the unplaced cards into the open slots is consistent (rejection's rate)."""
    slots = [size - fixed for size, fixed in zip(model.sizes, model.fixed_counts())]
    shuffles = math.factorial(sum(slots)) // math.prod(math.factorial(s) for s in slots)
    return count / shuffles


def late_state(deck: str, seed: int, observer: int | None) -> Record:
    """The record up to the last point of a 6-player game with 6+ uncertain cards and rejection below 1e-4."""
    game = Game(NAMES[:6], deck=Deck.named(deck), rules=Rules(bluff=seed % 2 == 1), dealer=seed % 6)
    truth = Truth.simulate(game, seed)
    hands = {} if observer is None else {observer: truth.hand(observer)}
    belief = LiteratureBelief.from_record(
        Record(game, observer, hands, list(truth.events)), method="exact", prior="rules"
    )
    while belief.public.history:
        belief.pop()
        marginals = belief.marginals()
        uncertain = ((marginals.probabilities > 0) & (marginals.probabilities < 1)).any(axis=1).sum()
        if uncertain >= 6 and acceptance(belief.model, marginals.count) < 1e-4:
            return Record(game, observer, hands, list(belief.public.history))
    raise AssertionError("no such point in the game")


LATE = [
    ("no-8s", 1, None),
    ("no-8s", 2, 0),
    ("no-2s", 3, 4),
    ("no-7s", 5, None),
    ("jokers", 1, None),
    ("jokers", 3, 2),
    ("fours", 2, None),
    ("fours", 0, 0),
]


@pytest.mark.parametrize("deck, seed, observer", LATE)
def test_late_game_marginals_fit_the_exact_ones(deck, seed, observer):
    record = late_state(deck, seed, observer)
    exact = LiteratureBelief.from_record(record, method="exact", prior="rules")
    sampled = LiteratureBelief.from_record(record, method="sample", samples=SAMPLES, seed=seed, prior="rules")
    e, s = exact.marginals(), sampled.marginals()
    assert (s.method, s.count, s.samples) == ("sample", None, SAMPLES)
    assert s.cards == e.cards
    rows = [i for i, row in enumerate(e.probabilities) if row.max() < 1]
    pvalues = [chi_square_pvalue(s.probabilities[i] * SAMPLES, e.probabilities[i] * SAMPLES) for i in rows]
    assert min(pvalues) * len(pvalues) > 1e-3, "some card's sampled distribution is off (Bonferroni over cards)"
    certain = e.probabilities.max(axis=1) == 1
    assert np.array_equal(s.probabilities[certain], e.probabilities[certain])
    assert np.allclose(s.stderr, np.sqrt(s.probabilities * (1 - s.probabilities) / SAMPLES))


@pytest.mark.parametrize("deck, seed, observer", LATE[:4])
def test_late_game_deals_fit_the_exact_joint_of_two_cards(deck, seed, observer):
    exact = LiteratureBelief.from_record(late_state(deck, seed, observer), method="exact", prior="rules")
    e = exact.marginals()
    uncertain = [i for i, row in enumerate(e.probabilities) if row.max() < 1]
    first, second = uncertain[0], uncertain[-1]
    cards, deals = exact.sample(SAMPLES, seed=seed)
    assert cards == e.cards
    players = range(len(exact.game.players))
    observed = [np.count_nonzero((deals[:, first] == a) & (deals[:, second] == b)) for a in players for b in players]
    expected = [exact.joint({cards[first]: a, cards[second]: b}) * SAMPLES for a in players for b in players]
    assert sum(expected) == pytest.approx(SAMPLES)
    assert chi_square_pvalue(observed, expected) > 1e-3
