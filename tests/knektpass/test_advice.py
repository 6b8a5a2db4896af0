"""Advice: every choice valued over sampled deals, the obvious choices found, and a reproducible answer."""

from __future__ import annotations

import random
import time

import pytest

from cardlogic.cards import Card
from cardlogic.knektpass import Bid, Exchange, Play, State, TakeTrump
from cardlogic.knektpass.advice import AdviceError, advise
from cardlogic.knektpass.belief import KnektpassBelief

from .helpers import deal_of, state_of


def c(text: str) -> Card:
    return Card.parse(text)


def tracked(state: State, observer: int, events) -> KnektpassBelief:
    belief = KnektpassBelief(state.deal, observer, state.hands[observer])
    for event in events:
        belief.push(state.push(event).seen_by(observer))
    return belief


TOP = ("JC JS JH JD AH", "6S 7S 8S 9S 10S", "6D 7D 8D 9D 10D")


def test_only_the_player_to_move_gets_advice():
    state = state_of(deal_of(), *TOP)
    with pytest.raises(AdviceError, match="not Ann's turn"):
        advise(KnektpassBelief(state.deal, 0, state.hands[0]))
    with pytest.raises(AdviceError, match="spectator"):
        advise(KnektpassBelief(state.deal))


def test_the_top_trumps_stand_pat_and_take_every_trick():
    state = state_of(deal_of(), *TOP)
    belief = tracked(state, 0, [TakeTrump(2, False), Bid(0, True), Bid(1, True), Bid(2, True)])
    advice = advise(belief, samples=16)
    assert advice.phase == "exchange" and advice.best == Exchange(0, 0)
    assert [option.event.count for option in advice.options] == [0, 1, 2, 3, 4, 5]
    stand = advice.options[0]
    assert (stand.points, stand.chance, stand.tricks) == (-5.0, 1.0, 5.0)
    # an exchange puts down the weakest cards first: here the lowest trump
    assert next(o.event for o in advice.options if o.event.count == 1).discards == (c("AH"),)


def test_with_a_trick_minimum_of_nothing_the_expected_points_are_minus_the_tricks():
    state = state_of(deal_of(), *TOP)
    belief = tracked(state, 1, [TakeTrump(2, False), Bid(0, True), Bid(1, True), Bid(2, True), Exchange(0, 0)])
    stand = next(o for o in advise(belief, samples=16).options if o.event.count == 0)
    assert stand.points == -stand.tricks and stand.chance == 1.0


def test_the_last_bidder_after_everyone_folded_plays_alone():
    state = state_of(deal_of(), *TOP)
    belief = tracked(state, 2, [TakeTrump(2, False), Bid(0, False), Bid(1, False)])
    advice = advise(belief)
    assert advice.best == Bid(2, True) and advice.options[0].points == -5.0
    assert advice.options[1].event == Bid(2, False) and advice.options[1].points == 0.0


def test_a_lead_is_valued_for_every_card_in_hand():
    state = state_of(deal_of(players=2), "JC JS JH JD AH", "KS 6C 7C 8C 9C")
    belief = tracked(state, 0, [TakeTrump(1, False), Bid(0, True), Bid(1, True), Exchange(0, 0), Exchange(1, 0)])
    advice = advise(belief, samples=8)
    assert {option.event for option in advice.options} == {
        Play(0, card) for card in (c("JC"), c("JS"), c("JH"), c("JD"), c("AH"))
    }
    assert all((o.points, o.chance, o.tricks) == (-5.0, 1.0, 5.0) for o in advice.options)
    assert advice.best == Play(0, c("AH"))  # equal values: the lowest card goes first


def test_a_player_who_must_follow_is_offered_only_the_legal_cards():
    state = state_of(deal_of(), "6C 7C AS 6D 7D", "6H 7H 8S 9S KD", "JC 8C 10S AD QD")
    belief = tracked(
        state,
        1,
        [
            TakeTrump(2, False),
            Bid(0, True),
            Bid(1, True),
            Bid(2, True),
            Exchange(0, 0),
            Exchange(1, 0),
            Exchange(2, 0),
            Play(0, c("6D")),
        ],
    )
    assert [option.event for option in advise(belief, samples=8).options] == [Play(1, c("KD"))]


def test_the_dealer_is_offered_to_leave_the_trump_or_take_it_for_each_card():
    state = State.shuffled(deal_of(), random.Random(5))
    advice = advise(KnektpassBelief(state.deal, 2, state.hands[2]), samples=8)
    assert advice.phase == "trump" and len(advice.options) == 6
    assert {o.event.take for o in advice.options} == {True, False}


def test_advice_is_reproducible_from_its_seed():
    state = State.shuffled(deal_of(), random.Random(9))
    belief = tracked(state, 0, [TakeTrump(2, False)])
    assert advise(belief, seed=3) == advise(belief, seed=3)


def test_one_decision_takes_well_under_a_second_warm():
    state = State.shuffled(deal_of(), random.Random(9))
    belief = tracked(state, 0, [TakeTrump(2, False), Bid(0, True), Bid(1, True), Bid(2, True)])
    advise(belief)
    start = time.perf_counter()
    advise(belief)
    assert time.perf_counter() - start < 1.0  # the target is 0.1 s; measured in benchmarks/knektpass_advice.py
