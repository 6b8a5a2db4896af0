"""Determinized playouts: paired, reproducible, and able to tell a winning ask from a losing one."""

from __future__ import annotations

import numpy as np

from cardlogic.cards import Card, iter_cards
from cardlogic.literature import Ask, Game, Rules, State
from cardlogic.literature.advice import AdvisorWeights, advise, ask_advice
from cardlogic.literature.belief import LiteratureBelief
from cardlogic.literature.decks import Deck
from cardlogic.literature.playouts import playout_scores
from cardlogic.literature.tournament import pair_setup


def cards(text: str) -> int:
    return sum(1 << Card.parse(word) for word in text.split())


def ann_after_bob_took_two_low_spades() -> LiteratureBelief:
    """Ann (2S 3S 4S) to move after Bob took 6S and 7S from Cat: Bob must have held 5S, the only other low spade."""
    game = Game(("Ann", "Bob", "Cat", "Dan"), deck=Deck.named("no-8s", sets=["LS", "HS"]), dealer=0)
    state = State(game, (cards("2S 3S 4S"), cards("5S 9S 10S"), cards("6S 7S JS"), cards("QS KS AS")))
    belief = LiteratureBelief(game, 0, [Card.parse(c) for c in ("2S", "3S", "4S")])
    for ask in (
        Ask(0, 1, Card.parse("6S")),
        Ask(1, 2, Card.parse("6S")),
        Ask(1, 2, Card.parse("7S")),
        Ask(1, 0, Card.parse("JS")),
    ):
        belief.push(state.push(ask))
    return belief


def test_the_ask_that_completes_a_set_outscores_a_sure_no():
    belief = ann_after_bob_took_two_low_spades()
    assert belief.probability("5S", "Bob") == 1.0
    winning, losing = Ask(0, 1, Card.parse("6S")), Ask(0, 3, Card.parse("5S"))
    scores = playout_scores(belief, [winning, losing], deals=64, seed=3)
    assert scores.shape == (2, 64)
    assert scores[0].mean() > scores[1].mean() + 0.5  # Ann takes 6S, 5S and 7S and claims the low spades


def dealers_belief_at_the_deal() -> LiteratureBelief:
    """The belief of the dealer, who asks first, in a 6-player tournament deal."""
    game, rng = pair_setup(6, Deck.named("no-8s"), Rules(), seed=5, pair=0)
    hands = State.shuffled(game, rng).hands
    return LiteratureBelief(game, game.dealer, iter_cards(hands[game.dealer]))


def test_playouts_are_paired_and_reproducible():
    belief = dealers_belief_at_the_deal()
    mover = belief.observer
    asks = [a.event(mover) for a in ask_advice(belief)[:3]]
    first = playout_scores(belief, asks + asks[:1], deals=40, seed=9)
    np.testing.assert_array_equal(first, playout_scores(belief, asks + asks[:1], deals=40, seed=9))
    np.testing.assert_array_equal(first[0], first[3])  # the same ask on the same deals and random numbers
    assert not np.array_equal(first, playout_scores(belief, asks + asks[:1], deals=40, seed=10))


def test_the_advisor_chooses_its_gamble_among_its_best_asks_by_playouts_and_repeats_under_a_seed():
    belief = dealers_belief_at_the_deal()
    weights = AdvisorWeights(playout_candidates=3)
    advice = advise(belief, thorough=False, seed=4, weights=weights)
    event = advice.recommendation.event
    assert isinstance(event, Ask)
    hopeful = [(a.target, a.card) for a in advice.asks if a.p_yes > 0.0]
    assert (event.target, event.card) in hopeful[:3]
    assert advise(belief, thorough=False, seed=4, weights=weights).recommendation == advice.recommendation
    alone = advise(belief, thorough=False, seed=4, weights=AdvisorWeights(playout_candidates=1)).recommendation.event
    assert (alone.target, alone.card) == hopeful[0]  # without playouts, the best value
