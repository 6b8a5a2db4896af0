"""The Knektpass choice model and the players' prior: no consistent deal is ruled out, the weighted belief is the
likelihood-weighted enumeration, it falls back to the rules when its weights collapse, and fitting finds the habits
of the bots it watched."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardlogic import inference
from cardlogic.cards import Card
from cardlogic.knektpass import Bid, Deal, Exchange, IllegalEventError, Play, State, TakeTrump
from cardlogic.knektpass import belief as belief_module
from cardlogic.knektpass.belief import KnektpassBelief
from cardlogic.knektpass.choices import (
    DEFAULT_MODEL,
    ChoiceModel,
    ChoiceModelError,
    History,
    final_hands,
    fit,
    hands_of,
)
from cardlogic.knektpass.tournament import played_deals

from .helpers import cards, deal_of, random_record, state_of

ADVERSARIAL = ChoiceModel(
    **{name: (10.0 if i % 2 else -10.0) for i, name in enumerate(ChoiceModel.WEIGHTS)}, temperature=0.05, mix=0.01
)
"""A model as sure as it can be of habits no bot has: it explains random play as badly as a model may."""
HABITS = ChoiceModel(cheapest_win=3.0, lowest=2.0, lead_trump=-1.0, bid_bias=-3.0, bid_trumps=4.0)
"""A model of a greedy player's habits, with weights a fit might find."""


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from([DEFAULT_MODEL, HABITS, ADVERSARIAL]))
def test_no_consistent_deal_gets_likelihood_zero_whatever_the_players_did(seed, model):
    record, state = random_record(seed)
    observer = seed % len(record.deal.game.players)
    belief = KnektpassBelief.from_record(record.view_as(observer))
    history = History(record.deal, belief.view.history)
    truth = np.array([final_hands(state)])
    assert np.isfinite(model.log_likelihoods(history, truth, skip=observer)).all()
    deals = inference.sample(belief.model, 50, seed % 1000)
    hands = hands_of(deals, belief.model.cards, len(record.deal.game.players))
    assert np.isfinite(model.log_likelihoods(history, hands, skip=observer)).all()


def test_a_hand_that_cannot_make_the_play_has_likelihood_zero():
    deal = deal_of(2, turned="9H")
    state = state_of(deal, "AS KS QS JS 6D", "6C 7C 8C 6S 7S")
    history = History(deal)
    for event in (TakeTrump(1, False), Bid(0, True), Bid(1, True), Exchange(0, 0), Exchange(1, 0)):
        history.push(state.push(event))
    history.push(state.push(Play(0, Card.parse("6D"))))
    history.push(state.push(Play(1, Card.parse("6C"))))  # no diamond and no trump: Bob may discard
    ann = cards("AS KS QS JS 6D")
    assert np.isfinite(HABITS.log_likelihoods(history, np.array([final_hands(state)]))[0])
    with_a_diamond = [ann, cards("6C 7D 8C 6S 7S")]  # Bob had to follow
    without_the_card = [ann, cards("7D 7C 8C 6S 7S")]
    assert (HABITS.log_likelihoods(history, np.array([with_a_diamond, without_the_card])) == -np.inf).all()


def test_the_weighted_belief_is_the_enumeration_of_the_consistent_deals_weighed_by_the_same_likelihood(monkeypatch):
    deal = deal_of(2, turned="9H")
    state = state_of(deal, "AS KS QS JS 6D", "7D 8D 9D 6C 7H")
    seen = [TakeTrump(1, False), Bid(0, True), Bid(1, True), Exchange(0, 0), Exchange(1, 0)]
    seen += [Play(0, Card.parse("6D")), Play(1, Card.parse("7D")), Play(1, Card.parse("7H"))]
    monkeypatch.setattr(belief_module, "WEIGHED_DEALS", 40_000)
    belief = KnektpassBelief(deal, 0, state.hands[0], prior="players", choices=HABITS, samples=40_000, seed=3)
    for event in seen:
        belief.push(state.push(event).seen_by(0))
    assert belief.prior_answered.startswith("players (effective sample size")
    model = belief.model
    unknown = [j for j, card in enumerate(model.cards) if model.allowed[card] != 1 << 0]
    rows = []
    for hand in itertools.combinations(unknown, 5):
        row = np.full(len(model.cards), belief.stock, np.int8)
        row[[j for j, card in enumerate(model.cards) if model.allowed[card] == 1 << 0]] = 0
        row[list(hand)] = 1
        rows.append(row)
    deals = np.array(rows)
    deals = deals[model.consistent_rows(deals)]
    hands = hands_of(deals, model.cards, 2)
    history = History(deal, belief.view.history)
    weights = np.exp(HABITS.log_likelihoods(history, hands, skip=0))
    weights /= weights.sum()
    for j, card in enumerate(model.cards):
        if belief.view.played >> card & 1:
            continue
        exact = float(weights[deals[:, j] == 1].sum())
        uniform = float((deals[:, j] == 1).mean())
        assert belief.probability(card, "Bob") == pytest.approx(exact, abs=0.02), str(card)
        if abs(exact - uniform) > 0.1:
            assert abs(belief.probability(card, "Bob") - uniform) > 0.05  # the likelihood moved it, and so did we
    # Joint questions too, about the two hidden cards whose chance of being at Bob the likelihood moves most.
    at_bob = {
        j: float(weights[deals[:, j] == 1].sum()) for j in unknown if not belief.view.played >> model.cards[j] & 1
    }
    first, second = sorted(at_bob, key=lambda j: -abs(at_bob[j] - (deals[:, j] == 1).mean()))[:2]
    assert abs(at_bob[first] - (deals[:, first] == 1).mean()) > 0.02
    card, other = model.cards[first], model.cards[second]
    assert belief.joint({card: "Bob"}) == pytest.approx(belief.probability(card, "Bob"), abs=1e-12)
    assert belief.chances([{card: 0b10}]) == [pytest.approx(at_bob[first], abs=0.01)]
    both = float(weights[(deals[:, first] == 1) & (deals[:, second] == 1)].sum())
    assert belief.joint({card: "Bob", other: "Bob"}) == pytest.approx(both, abs=0.01)
    assert belief.given({card: "Bob"})[other][1] == pytest.approx(both / at_bob[first], abs=0.03)
    either = (1, belief.stock)
    rows, chances = belief.assignments([card, other], 0b10 | 1 << belief.stock)
    shares = {tuple(row): chance for row, chance in zip(rows.tolist(), chances)}
    condition = float(weights[np.isin(deals[:, first], either) & np.isin(deals[:, second], either)].sum())
    assert shares.get((1, 1), 0.0) == pytest.approx(both / condition, abs=0.02)


def test_a_collapsed_weighting_is_said_and_the_rules_answer():
    for seed in range(40):
        record, _ = random_record(seed, players=3)
        view = record.view_as(0)
        hand = cards(" ".join(map(str, view.hands[0])))
        players = KnektpassBelief(view.deal, 0, hand, prior="players", choices=ADVERSARIAL)
        rules = KnektpassBelief(view.deal, 0, players.view.hand)
        for event in view.events:  # up to the middle of the play, where the hands are still hidden
            if players.view.tricks_played == 2:
                break
            players.push(event)
            rules.push(event)
        if players.prior_answered.startswith("rules (the players' prior collapsed"):
            for card in players.in_play():
                for holder in range(len(players.holders)):
                    assert players.probability(card, holder) == rules.probability(card, holder)
            assert players.weighting is None and players.resolved_method == rules.resolved_method
            return
    pytest.fail("no random deal made the adversarial model collapse")


def test_the_players_prior_survives_pops_and_pushes_as_a_fresh_belief_would_answer():
    record, _ = random_record(5, players=3)
    view = record.view_as(1)
    fresh = KnektpassBelief.from_record(view, prior="players")
    again = KnektpassBelief.from_record(view, prior="players")
    events = again.view.history
    card = fresh.in_play()[0]
    for _ in range(3):
        again.pop()
    again.probability(card, 0)  # worked out for the earlier state, then pushed on
    for event in events[-3:]:
        again.push(event)
    assert fresh.prior_answered == again.prior_answered
    assert fresh.probability(card, 0) == again.probability(card, 0)


def test_an_illegal_event_is_refused_by_a_history_and_leaves_it_as_it_was():
    deal = deal_of(3)
    history = History(deal, [TakeTrump(2, False), Bid(0, True)])
    kinds = history.kinds().tolist()
    with pytest.raises(IllegalEventError, match="it is Bob's turn, not Cat's"):
        history.push(Bid(2, True))
    assert history.events == 2 and history.kinds().tolist() == kinds
    history.push(Bid(1, True))
    assert history.events == 3 and len(history.recorded) == 3


def test_an_unknown_prior_is_refused():
    with pytest.raises(ValueError, match="unknown prior 'bots'"):
        KnektpassBelief(deal_of(3), prior="bots")


def test_fitting_on_greedy_play_finds_its_habit_of_the_cheapest_winning_card_and_explains_it_better():
    deals = played_deals(("greedy", "greedy", "greedy"), 12, seed=4)
    games = [(History(s.deal, s.history), np.array([final_hands(s)])) for s in deals]
    found = fit(ChoiceModel(), games, "test")
    assert found.cheapest_win > 2 and found.fitted_on == "test"
    before = sum(ChoiceModel().log_likelihoods(h, x)[0] for h, x in games)
    after = sum(found.log_likelihoods(h, x)[0] for h, x in games)
    assert after > before + 50


def played_by_model(model: ChoiceModel, deal: Deal, rng: random.Random) -> tuple[History, np.ndarray]:
    """A deal whose plays and bids are drawn from ``model`` (every legal choice's chance is the likelihood the model
    gives the history with it), where the dealer leaves the turned card and nobody exchanges: every hand at the bid
    is then the deal's, and every bid is modelled."""
    state = State.shuffled(deal, rng)
    while not state.is_over:
        legal = state.legal_events()
        modelled = [e for e in legal if isinstance(e, (Play, Bid))]
        if not modelled:
            state.push(next(e for e in legal if getattr(e, "count", 1) == 0 or getattr(e, "take", True) is False))
            continue
        hands = np.array([final_hands(state)])
        logs = np.array([model.log_likelihoods(History(deal, (*state.history, e)), hands)[0] for e in modelled])
        chances = np.exp(logs - logs.max())
        state.push(rng.choices(modelled, weights=chances.tolist())[0])
    return History(deal, state.history), np.array([final_hands(state)])


def test_fitting_recovers_the_weights_that_played():
    """Fit on 40 deals whose choices the model drew: each weight that played comes back near its value, and the
    true weights explain the deals as well as the fitted ones to within chance (the likelihood-ratio statistic
    below the 0.999 quantile of chi-square with 12 degrees of freedom; some weights are loosely identified: a
    lead's share of the hand in its suit varies little)."""
    truth = ChoiceModel(cheapest_win=2.0, lowest=1.5, lead_trump=-1.0, lead_top=1.0, bid_bias=-1.0, bid_trumps=1.5)
    rng = random.Random(17)
    turned = ("9H", "KS", "7C")
    games = [played_by_model(truth, deal_of(3, dealer=i % 3, turned=rng.choice(turned)), rng) for i in range(40)]
    found = fit(ChoiceModel(), games, "synthetic")
    for name in ChoiceModel.WEIGHTS:
        if getattr(truth, name):
            assert abs(getattr(found, name) - getattr(truth, name)) < 0.75, (name, found)

    def log_likelihood(model: ChoiceModel) -> float:
        return sum(model.log_likelihoods(history, hands)[0] for history, hands in games)

    assert 2 * (log_likelihood(found) - log_likelihood(truth)) < 32.9
    assert log_likelihood(truth) > log_likelihood(ChoiceModel()) + 30


def test_a_model_reads_back_what_it_wrote_and_a_bad_file_names_its_problem():
    assert ChoiceModel.from_json(HABITS.to_json()) == HABITS
    with pytest.raises(ChoiceModelError, match=r"model\.json:1: unknown fields colour"):
        ChoiceModel.from_json('{"colour": 1}', "model.json")
    with pytest.raises(ChoiceModelError, match="mix"):
        ChoiceModel(mix=0)
    with pytest.raises(ChoiceModelError, match="temperature"):
        ChoiceModel(temperature=0)


def test_the_advisor_over_the_players_prior_plays_legal_deals():
    for state in played_deals(("advisor-players", "greedy", "random"), 2, seed=1):
        assert state.is_over
