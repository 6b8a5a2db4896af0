"""The tracker: what each play says about the hidden cards, and self-play showing the inference sound."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardlogic.belief import Belief
from cardlogic.cards import Card, iter_cards
from cardlogic.constraints import InconsistentError
from cardlogic.knektpass import Bid, Exchange, Play, Rules, State, TakeTrump
from cardlogic.knektpass.tracking import KnektpassTracker

from .helpers import cards, deal_of, random_rules, state_of


def c(text: str) -> Card:
    return Card.parse(text)


def true_deal(state: State, tracker: KnektpassTracker) -> dict[int, int]:
    """Where every card of the tracker's model lies in the referee's deal, as the model counts holders: a card
    played is with its player, a card put down in the discards, the stock's in the stock."""
    n = len(state.deal.game.players)
    where: dict[int, int] = {}
    for player, hand in enumerate(state.hands):
        where.update((card, player) for card in iter_cards(hand))
    for event in state.history:
        if isinstance(event, Play):
            where[event.card] = event.player
    for hand in state.discarded:
        for card in iter_cards(hand):
            where.setdefault(card, tracker.discards)
    where.update((card, tracker.stock) for card in state.stock)
    assert len(tracker.model.holders) == n + 2
    return {card: holder for card, holder in where.items() if card in tracker.model.allowed}


def play_and_track(seed: int, players: int | None = None, check=None) -> int:
    """Play a random deal; track it as a random player (or a spectator) and call ``check(state, tracker)`` after
    every event. Returns the number of events."""
    rng = random.Random(seed)
    players = players or rng.choice((2, 3, 4))
    deal = deal_of(
        players=players,
        dealer=rng.randrange(players),
        turned="9H" if players < 4 else "QD",
        rules=random_rules(rng),
    )
    state = State.shuffled(deal, rng)
    observer = rng.choice([None, *range(players)])
    tracker = KnektpassTracker(deal, observer, 0 if observer is None else state.hands[observer])
    while not state.is_over:
        event = state.push(rng.choice(state.legal_events()))
        tracker.push(event.seen_by(observer))
        check(state, tracker)
    return len(state.history)


@settings(max_examples=2000, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_self_play_the_true_deal_is_always_consistent_with_the_tracker(seed):
    def check(state, tracker):
        assert tracker.model.is_consistent(true_deal(state, tracker))
        assert tracker.in_play() == [card for card in tracker.model.cards if not state.played >> card & 1]

    play_and_track(seed, check=check)


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_self_play_every_certain_fact_of_the_belief_is_true(seed):
    """The belief (exact on these small deals) is checked after every event: its certain facts hold in the true
    deal, and the true deal has a positive probability at every card."""

    def check(state, tracker):
        truth = true_deal(state, tracker)
        belief = Belief(tracker, method="exact")
        for fact in belief.certain():
            assert (truth[fact.card] == fact.holder) == fact.has
        marginals = belief.marginals()
        for card, row in zip(marginals.cards, marginals.probabilities):
            assert row[truth[card]] > 0

    play_and_track(seed, players=2, check=check)


def playing(deal_hands: tuple[str, ...], observer: int = 0, rules: Rules | None = None):
    """Ann's (or the observer's) tracker and the referee, everyone playing and standing, before the first card."""
    deal = deal_of(rules=rules)
    state = state_of(deal, *deal_hands)
    tracker = KnektpassTracker(deal, observer, state.hands[observer])
    for event in [
        TakeTrump(2, False),
        Bid(0, True),
        Bid(1, True),
        Bid(2, True),
        Exchange(0, 0),
        Exchange(1, 0),
        Exchange(2, 0),
    ]:
        tracker.push(state.push(event).seen_by(observer))
    return state, tracker


HANDS = ("6C 7C AS 6D 7D", "6H 7H 8S 9S KD", "JC 8C 10S AD QD")


def push(state, tracker, *plays: str) -> None:
    for play in plays:
        player, card = play.split()
        tracker.push(state.push(Play(int(player), c(card))).seen_by(tracker.observer))


def allowed_at(tracker, text: str, player: int) -> list[str]:
    return [str(card) for card in iter_cards(cards(text)) if tracker.model.allowed[card] >> player & 1]


def test_not_following_suit_shows_a_void():
    state, tracker = playing(HANDS)
    push(state, tracker, "0 6C", "1 7H")
    assert allowed_at(tracker, "9C 10C QC KC AC 8C", 1) == []
    assert allowed_at(tracker, "9C 10C", 2) == ["9C", "10C"]


def test_following_without_beating_shows_no_higher_card_of_the_suit():
    state, tracker = playing(("9S 6C 7C 6D 7D", "6S 7S 8C 9C KD", "JC 8D 10S AD QD"))
    push(state, tracker, "0 9S", "1 7S")  # Bob could not beat 9S
    assert allowed_at(tracker, "8S 10S QS KS AS", 1) == ["8S"]


def test_without_underruff_a_void_player_under_a_high_trump_shows_only_no_higher_trump():
    hands = ("6C 7C AS 6D 7D", "AH 8S 9S KD 10D", "7H 8D 10S AD QD")
    state, tracker = playing(hands, rules=Rules(underruff=False))
    push(state, tracker, "0 6C", "1 AH", "2 8D")  # Cat, void in clubs, cannot beat AH and need not trump
    assert allowed_at(tracker, "JC JS JH JD KH 6H", 2) == ["6H", "KH"]


def test_a_void_player_discarding_under_a_high_trump_shows_no_trump_at_all():
    state, tracker = playing(("6C 7C AS 6D 7D", "AH 8S 9S KD 10D", "9D 8D 10S AD QD"))
    push(state, tracker, "0 6C", "1 AH", "2 8D")  # under underruff=on Cat would have had to play even a low trump
    assert allowed_at(tracker, "JC JS JH JD KH 6H", 2) == []


def test_a_void_player_underruffing_shows_only_no_higher_trump():
    state, tracker = playing(("6C 7C AS 6D 7D", "AH 8S 9S KD 10D", "7H 8D 10S AD QD"))
    push(state, tracker, "0 6C", "1 AH", "2 7H")  # Cat held no jack, the only trumps above AH
    assert allowed_at(tracker, "JC JS JH JD KH 6H", 2) == ["6H", "KH"]


def test_a_void_player_discarding_instead_of_trumping_has_no_trump():
    deal_hands = ("6C 7C AS 6D 7D", "8S 9S KD 10D QS", "JH 8C 10S AD QD")
    state, tracker = playing(deal_hands, observer=2)
    push(state, tracker, "0 6C", "1 8S")  # Bob is void in clubs and does not trump: he has no trump at all
    trumps = [card for card in tracker.model.cards if state.deal.is_trump(card) and card != c("JH")]
    assert all(not tracker.model.allowed[card] >> 1 & 1 for card in trumps)


def test_without_compulsory_trumping_a_discard_says_nothing_about_trumps():
    deal_hands = ("6C 7C AS 6D 7D", "8S 9S KD 10D QS", "JH 8C 10S AD QD")
    state, tracker = playing(deal_hands, observer=2, rules=Rules(must_trump=False))
    push(state, tracker, "0 6C", "1 8S")
    assert tracker.model.allowed[c("AH")] >> 1 & 1


def test_the_turned_card_taken_is_with_the_dealer_until_the_dealer_exchanges():
    deal = deal_of()
    state = state_of(deal, *HANDS)
    tracker = KnektpassTracker(deal, 0, state.hands[0])
    for event in [
        TakeTrump(2, True, c("QD")),
        Bid(0, True),
        Bid(1, True),
        Bid(2, True),
        Exchange(0, 0),
        Exchange(1, 0),
    ]:
        tracker.push(state.push(event).seen_by(0))
    assert tracker.model.certain_holder(c("9H")) == 2
    tracker.push(state.push(Exchange(2, 1, (c("9H"),))).seen_by(0))
    assert tracker.model.allowed[c("9H")] == 1 << 2 | 1 << tracker.discards


def test_the_observers_own_discards_are_placed_in_the_discards():
    deal = deal_of()
    state = state_of(deal, *HANDS)
    tracker = KnektpassTracker(deal, 0, state.hands[0])
    for event in [TakeTrump(2, False), Bid(0, True), Bid(1, True), Bid(2, True), Exchange(0, 2, (c("6C"), c("7C")))]:
        tracker.push(state.push(event).seen_by(0))
    assert tracker.model.sizes[tracker.discards] == 2 and tracker.model.sizes[tracker.stock] == 18
    assert tracker.model.certain_holder(c("6C")) == tracker.discards
    drawn = [card for card in iter_cards(state.hands[0]) if card not in (c("AS"), c("6D"), c("7D"))]
    assert all(tracker.model.certain_holder(card) == 0 for card in drawn)


def test_a_revoke_is_inconsistent_and_changes_nothing():
    state, tracker = playing(HANDS, observer=0)
    push(state, tracker, "0 6C", "1 7H", "2 8C")  # Bob shows he has no club
    model, history = tracker.model, tracker.position.history
    with pytest.raises(InconsistentError):
        tracker.push(Play(1, c("9C")))  # Bob to lead; a club now would be a revoke
    assert tracker.model is model and tracker.position.history == history


def test_pop_restores_the_model_and_explain_names_the_play():
    state, tracker = playing(HANDS)
    before = tracker.model
    push(state, tracker, "0 6C", "1 7H")
    assert tracker.explain(c("AC")) == [(8, 1 << 1)]
    tracker.pop()
    tracker.pop()
    assert tracker.model is before and tracker.explain(c("AC")) == []
    assert tracker.moved() == {}
