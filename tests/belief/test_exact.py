"""Exact beliefs against the python-constraint2 enumeration, on small simulated games.

Counts, marginals, joints and certain facts of :class:`LiteratureBelief` with the exact
backend must equal those from enumerating every consistent deal (``method="csp"``)
to 1e-12, at several points of simulated 4-player games with two or three sets,
from the spectator's and players' views.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardlogic import inference
from cardlogic.belief import Fact
from cardlogic.inference.csp import deal_bound
from cardlogic.inference.exact import ExactBackend
from cardlogic.literature import Claim, Game, Record
from cardlogic.literature.belief import LiteratureBelief
from cardlogic.literature.decks import Deck
from cardlogic.literature.tracking import LiteratureTracker

from ..csp_memo import memoized_csp
from .games import Truth, games, guess_rates, seeds

CSP_LIMIT = 10_000
"""Largest deal bound enumerated (python-constraint2 lists some 30 000 deals a second here)."""

SMALL = games(
    min_players=4, max_players=4, decks=("no-8s", "no-2s", "no-7s", "jokers", "fours"), min_sets=2, max_sets=3
)


@pytest.fixture(scope="module", autouse=True)
def csp_searches_each_model_once():
    """The oracle answers the marginals and both joints of a cut from one python-constraint2 search."""
    with memoized_csp() as stats:
        yield stats


def belief_at(truth: Truth, observer: int | None, events: int, method: str) -> LiteratureBelief:
    hands = {} if observer is None else {observer: truth.hand(observer)}
    return LiteratureBelief.from_record(
        Record(truth.game, observer, hands, list(truth.events[:events])), method=method, prior="rules"
    )


def enumerable_cuts(truth: Truth, observer: int | None) -> list[int]:
    """The prefixes after which the consistent deals are few enough to enumerate."""
    tracker = LiteratureTracker(truth.game, observer, truth.hand(observer))
    cuts = [0] if deal_bound(tracker.model) <= CSP_LIMIT else []
    for k, event in enumerate(truth.events, 1):
        tracker.push(event)
        if deal_bound(tracker.model) <= CSP_LIMIT:
            cuts.append(k)
    return cuts


def assert_same_beliefs(exact: LiteratureBelief, csp: LiteratureBelief, truth: Truth, data: st.DataObject) -> None:
    e, c = exact.marginals(), csp.marginals()
    assert (e.method, c.method) == ("exact", "csp")
    assert e.cards == c.cards and e.holders == c.holders
    assert e.count == c.count == exact.count() > 0
    assert np.abs(e.probabilities - c.probabilities).max(initial=0.0) <= 1e-12
    assert exact.certain() == csp.certain()
    # The joint of a whole set placed as a claim would place it: with its true holders, or anywhere.
    in_play = sorted({exact.game.deck.set_index_of(card) for card in e.cards})
    if not in_play:
        return
    index = data.draw(st.sampled_from(in_play), label="set")
    cards = exact.game.deck.sets[index].cards
    k = len(exact.public.history)
    players = st.integers(0, len(exact.game.players) - 1)
    for placements in (
        {card: truth.now[k][card] for card in cards},
        {card: data.draw(players, label=f"holder of {card}") for card in cards},
    ):
        p_exact, p_csp = exact.joint(placements), csp.joint(placements)
        assert abs(p_exact - p_csp) <= 1e-12
        if placements == {card: truth.now[k][card] for card in cards}:
            assert p_exact > 0


@settings(max_examples=60, deadline=None, derandomize=True, database=None)
@given(SMALL, seeds, guess_rates, st.data())
def test_exact_beliefs_equal_enumeration(game, seed, guess_rate, data):
    truth = Truth.simulate(game, seed, guess_rate)
    for observer in (None, data.draw(st.integers(0, 3), label="player")):
        cuts = enumerable_cuts(truth, observer)
        for k in sorted(set(data.draw(st.lists(st.sampled_from(cuts), min_size=1, max_size=3), label="cuts"))):
            assert_same_beliefs(
                belief_at(truth, observer, k, "exact"), belief_at(truth, observer, k, "csp"), truth, data
            )


def allowed_facts(belief: LiteratureBelief) -> list[Fact]:
    """The has/lacks facts the allowed sets of the model state outright (cards in play, current holders)."""
    facts = []
    for card in belief.in_play():
        known = belief.public.known.get(card)
        mask = belief.model.allowed[card] if known is None else 1 << known
        for player, name in enumerate(belief.game.players):
            if mask == 1 << player:
                facts.append(Fact(card, player, True, name))
            elif not mask >> player & 1:
                facts.append(Fact(card, player, False, name))
    return facts


@pytest.fixture(scope="module")
def truth() -> Truth:
    game = Game(("Ann", "Bob", "Cat", "Dan"), deck=Deck.named("no-8s", sets=["LS", "HS", "LH"]), dealer=3)
    return Truth.simulate(game, 5, guess_rate=0.1)


class TestQueries:
    def test_probability_joint_and_sample_agree_with_the_marginals(self, truth):
        claimed_cut = next(k for k, e in enumerate(truth.events, 1) if isinstance(e, Claim))
        for observer in (None, 0, 1):
            for k in (claimed_cut // 2, claimed_cut, claimed_cut + 3):
                belief = belief_at(truth, observer, k, "exact")
                marginals = belief.marginals()
                for card, row in zip(marginals.cards, marginals.probabilities):
                    for player, p in enumerate(row):
                        assert belief.probability(card, player) == p
                        assert belief.probability(str(card), belief.game.players[player]) == p
                        assert belief.joint({card: player}) == pytest.approx(p, abs=1e-12)
                cards, deals = belief.sample(2000, seed=3)
                assert cards == marginals.cards
                assert np.all(marginals.probabilities[np.arange(len(cards)), deals] > 0)  # never an impossible place
                for index in belief.public.claimed:  # out of play: nobody holds these cards now
                    for card in belief.game.deck.sets[index].cards:
                        assert [belief.probability(card, p) for p in range(4)] == [0.0] * 4
                        assert belief.joint({card: truth.now[0].get(card, 0)}) == 0.0

    def test_certain_facts_without_practical_exact_inference_are_the_allowed_sets(self, truth, monkeypatch):
        belief = belief_at(truth, 0, 10, "auto")
        exact_facts = belief.certain()
        assert set(allowed_facts(belief)) < set(exact_facts)  # the example has facts only inference finds

        def refuse(*args, **kwargs):
            raise AssertionError("exact inference run though it is not practical")

        monkeypatch.setattr(inference, "AUTO_MAX_OPERATIONS", 0)  # no model with free cards is practical now
        monkeypatch.setattr(ExactBackend, "posterior", refuse)
        belief = belief_at(truth, 0, 10, "auto")
        assert belief.marginals().method == "mcmc"  # past auto's exact limit the belief samples by the chain
        assert belief.certain() == allowed_facts(belief)
