"""The course of a deal: taking the trump, bids, exchanges, the obligations of play, scoring and the match."""

from __future__ import annotations

import random

import pytest

from cardlogic.cards import Card, iter_cards
from cardlogic.knektpass import (
    Bid,
    Exchange,
    IllegalEventError,
    Match,
    Outcome,
    Play,
    PlayerState,
    PublicState,
    Rules,
    State,
    TakeTrump,
    points_change,
)

from .helpers import cards, deal_of, random_rules, state_of


def c(text: str) -> Card:
    return Card.parse(text)


def to_play(state, exchanges: dict[int, tuple[str, ...]] | None = None):
    """Leave the trump, everyone plays, everyone stands (or exchanges as told, in the first round)."""
    deal = state.deal
    state.push(TakeTrump(deal.dealer, False))
    for p in deal.order:
        state.push(Bid(p, True))
    while state.phase == "exchange":
        p = state.to_move
        discards = (exchanges or {}).pop(p, ())
        state.push(Exchange(p, len(discards), tuple(c(t) for t in discards)))
    assert state.phase == "play"
    return state


def legal_cards(state) -> set[str]:
    return {str(event.card) for event in state.legal_events()}


OBLIGATIONS = ("6C 7C AS 6D 7D", "6H 7H 8S 9S KD", "JC 8C 10S AD QD")


def test_a_player_must_follow_suit_and_beat_the_trick_if_they_can():
    state = to_play(state_of(deal_of(), *OBLIGATIONS))
    state.push(Play(0, c("6D")))
    assert legal_cards(state) == {"KD"}
    state.push(Play(1, c("KD")))
    assert legal_cards(state) == {"AD"}  # QD follows but does not beat KD
    with pytest.raises(IllegalEventError, match="must follow diamonds and beat KD"):
        state.push(Play(2, c("QD")))


def test_following_without_being_able_to_beat_leaves_any_card_of_the_suit():
    state = to_play(state_of(deal_of(), *OBLIGATIONS))
    state.push(Play(0, c("AS")))
    assert legal_cards(state) == {"8S", "9S"}
    with pytest.raises(IllegalEventError, match="must follow spades"):
        state.push(Play(1, c("6H")))


def test_a_void_player_must_beat_with_a_trump_and_then_the_others_must_still_follow():
    state = to_play(state_of(deal_of(), *OBLIGATIONS))
    state.push(Play(0, c("6C")))
    assert legal_cards(state) == {"6H", "7H"}
    with pytest.raises(IllegalEventError, match="must beat 6C with a trump"):
        state.push(Play(1, c("8S")))
    state.push(Play(1, c("7H")))
    assert legal_cards(state) == {"8C"}  # a club cannot beat the trump, but it must be played; JC is a trump
    state.push(Play(2, c("8C")))
    assert state.tricks == (0, 1, 0) and state.to_move == 1


def test_a_void_player_whose_trumps_cannot_beat_the_trick_must_still_trump():
    state = to_play(state_of(deal_of(), "6C 7C AS 6D 7D", "7H 8H 8S 9S KD", "6H 10S AD QD 8D"))
    state.push(Play(0, c("6C")))
    state.push(Play(1, c("7H")))
    assert legal_cards(state) == {"6H"}  # void in clubs, Cat underruffs with the only trump they hold
    with pytest.raises(IllegalEventError, match="must play a trump, though none beats 7H"):
        state.push(Play(2, c("8D")))
    assert state.trick == ((0, c("6C")), (1, c("7H")))  # the refusal left the trick as it was


def test_the_rule_books_example_of_underruffing():
    """Trump 9S, Ann leads 6D, Bob trumps with AS: Cat, void in diamonds, must play 6S though it cannot beat AS."""
    state = to_play(state_of(deal_of(turned="9S"), "6D 7C 8C 9C 10C", "AS 6H 7H 8H 9H", "6S QC KC AC QH"))
    state.push(Play(0, c("6D")))
    state.push(Play(1, c("AS")))
    assert legal_cards(state) == {"6S"}


def test_without_underruff_a_void_player_whose_trumps_cannot_beat_the_trick_plays_anything():
    rules = Rules(underruff=False)
    state = to_play(state_of(deal_of(rules=rules), "6C 7C AS 6D 7D", "7H 8H 8S 9S KD", "6H 10S AD QD 8D"))
    state.push(Play(0, c("6C")))
    state.push(Play(1, c("7H")))
    assert legal_cards(state) == {"6H", "10S", "AD", "QD", "8D"}


def test_without_compulsory_trumping_a_void_player_plays_anything():
    state = to_play(state_of(deal_of(rules=Rules(must_trump=False)), *OBLIGATIONS))
    state.push(Play(0, c("6C")))
    assert legal_cards(state) == {str(card) for card in iter_cards(cards("6H 7H 8S 9S KD"))}
    state.push(Play(1, c("8S")))
    assert state.best() == (0, c("6C"))


def test_the_jack_of_the_lead_suit_does_not_follow_it():
    state = to_play(state_of(deal_of(), "AS 6C 7C 6D 7D", "JS 9S 8C 9C 10C", "6H 7H 8H 10S 8D"))
    state.push(Play(0, c("AS")))
    assert legal_cards(state) == {"9S"}  # JS is a trump here: Bob holds a spade and must follow with it


def test_the_taker_of_a_trick_leads_the_next_and_five_tricks_end_the_deal():
    state = to_play(state_of(deal_of(players=2), "AS KS QS 10S 9S", "6D 7D 8D 9D 10D"))
    for _ in range(5):
        lead = next(iter(iter_cards(state.hands[0])))
        state.push(Play(0, lead))
        state.push(state.legal_events()[0])
        assert state.to_move in (0, None)
    assert state.is_over and state.tricks == (5, 0)
    outcome = state.outcome()
    assert outcome.kind == "tricks" and outcome.changes == (-5, 0) and outcome.points == (7, 12)


def test_the_dealer_takes_the_turned_card_for_one_of_theirs():
    state = state_of(deal_of(), "6C 7C AS 6D 7D", "7H 8H 8S 9S KD", "6H 10S AD QD 8D")
    with pytest.raises(IllegalEventError, match="name the card"):
        state.push(TakeTrump(2, True))
    with pytest.raises(IllegalEventError, match="does not hold AS"):
        state.push(TakeTrump(2, True, c("AS")))
    state.push(TakeTrump(2, True, c("8D")))
    assert state.hands[2] == cards("6H 10S AD QD 9H") and state.discarded[2] == cards("8D")
    assert state.discard_count == 1 and state.took and state.phase == "bid" and state.to_move == 0


def test_nobody_else_can_play_the_turned_card_and_a_card_left_is_out_of_play():
    public = PublicState(deal_of())
    public.push(TakeTrump(2, False))
    for p in (0, 1, 2):
        public.push(Bid(p, True))
    for p in (0, 1, 2):
        public.push(Exchange(p, 0))
    with pytest.raises(IllegalEventError, match="out of play"):
        public.push(Play(0, c("9H")))
    public.push(Play(0, c("AS")))
    with pytest.raises(IllegalEventError, match="played already"):
        public.push(Play(1, c("AS")))


def test_exchanges_run_in_rounds_until_everyone_stands_or_three_rounds_are_over():
    state = state_of(deal_of(), "6C 7C AS 6D 7D", "7H 8H 8S 9S KD", "6H 10S AD QD 8D")
    state.push(TakeTrump(2, False))
    for p in (0, 1, 2):
        state.push(Bid(p, True))
    top = state.stock[:3]
    steps = [(0, "6C"), (1, ""), (2, "8D"), (0, "7C"), (2, ""), (0, "6D")]
    for player, discards in steps:
        assert state.phase == "exchange" and state.to_move == player
        recorded = state.push(Exchange(player, len(discards.split()), tuple(c(t) for t in discards.split())))
        assert recorded.draws is not None and len(recorded.draws) == recorded.count
    assert state.round == 3 and state.phase == "play" and state.to_move == 0
    assert state.exchanged == (3, 0, 1) and state.stock_left == 20 - 4 and state.discard_count == 4
    assert state.hands[0] & cards("6C 7C 6D") == 0
    assert top[0] in iter_cards(state.hands[0])  # the first draw is the top of the stock


def test_a_player_cannot_draw_more_than_five_cards_or_than_the_stock_holds():
    state = state_of(deal_of(), "6C 7C AS 6D 7D", "7H 8H 8S 9S KD", "6H 10S AD QD 8D")
    state.push(TakeTrump(2, False))
    for p in (0, 1, 2):
        state.push(Bid(p, True))
    hands = [list(iter_cards(h)) for h in state.hands]
    for p in (0, 1, 2):
        state.push(Exchange(p, 5, tuple(hands[p])))
    assert state.stock_left == 5
    with pytest.raises(IllegalEventError, match="at most 5"):
        state.push(Exchange(0, 6, tuple(iter_cards(state.hands[0])) + (c("AC"),)))
    state.push(Exchange(0, 5, tuple(iter_cards(state.hands[0]))))
    assert state.stock_left == 0 and state.phase == "play"  # an empty stock ends the exchange at once


def test_an_exchange_must_put_down_cards_the_player_holds():
    state = state_of(deal_of(), "6C 7C AS 6D 7D", "7H 8H 8S 9S KD", "6H 10S AD QD 8D")
    state.push(TakeTrump(2, False))
    for p in (0, 1, 2):
        state.push(Bid(p, True))
    with pytest.raises(IllegalEventError, match="name the 1 cards"):
        state.push(Exchange(0, 1))
    with pytest.raises(IllegalEventError, match="does not hold KD"):
        state.push(Exchange(0, 1, (c("KD"),)))


def test_when_everyone_folds_the_deal_is_void_and_the_same_dealer_deals_again():
    state = state_of(deal_of(), *OBLIGATIONS)
    state.push(TakeTrump(2, False))
    for p in (0, 1, 2):
        state.push(Bid(p, False))
    assert state.is_over and state.to_move is None
    outcome = state.outcome()
    assert outcome.kind == "redeal" and outcome.changes == (0, 0, 0) and outcome.points == (12, 12, 12)
    match = Match(state.deal.game, dealer=2)
    match.finish(outcome)
    assert match.dealer == 2 and match.points == (12, 12, 12) and not match.is_over


def test_a_lone_player_wins_the_deal_at_once():
    state = state_of(deal_of(points=(12, 4, 9)), *OBLIGATIONS)
    state.push(TakeTrump(2, False))
    for p, plays in ((0, False), (1, True), (2, False)):
        state.push(Bid(p, plays))
    assert state.is_over
    outcome = state.outcome()
    assert outcome.kind == "lone" and outcome.playing == (1,) and outcome.points == (12, -1, 9)
    match = Match(state.deal.game, dealer=2, points=(12, 4, 9))
    match.finish(outcome)
    assert match.is_over and match.winner == 1 and match.dealer == 0


def test_two_players_are_enough_for_a_deal_and_folded_players_sit_out_the_tricks():
    state = state_of(deal_of(), *OBLIGATIONS)
    state.push(TakeTrump(2, False))
    for p, plays in ((0, True), (1, False), (2, True)):
        state.push(Bid(p, plays))
    state.push(Exchange(0, 0))
    state.push(Exchange(2, 0))
    state.push(Play(0, c("6C")))
    assert state.to_move == 2  # Bob folded
    state.push(Play(2, c("8C")))
    assert state.tricks == (0, 0, 1) and state.to_move == 2


@pytest.mark.parametrize(
    "tricks, minimum, change", [(0, 0, 0), (2, 0, -2), (3, 3, -3), (1, 2, 5), (0, 2, 10), (0, 5, 25), (5, 1, -5)]
)
def test_scoring_takes_a_point_per_trick_off_or_adds_five_per_trick_short(tricks, minimum, change):
    assert points_change(tricks, minimum, 5) == change


def test_the_trick_minimum_is_the_number_of_cards_exchanged():
    state = to_play(state_of(deal_of(players=2), "AS KS QS 10S 9S", "6D 7D 8D 9D 10D"), {1: ("6D", "7D")})
    while not state.is_over:
        state.push(state.legal_events()[0])
    outcome = state.outcome()
    assert outcome.minimums == (0, 2)
    assert outcome.changes[1] == points_change(outcome.tricks[1], 2, 5)


def test_the_game_ends_when_someone_reaches_zero_and_the_lowest_wins():
    state = to_play(state_of(deal_of(players=2, points=(3, 2)), "AS KS QS 10S 9S", "6D 7D 8D 9D 10D"))
    while not state.is_over:
        state.push(state.legal_events()[0])
    match = Match(state.deal.game, dealer=1, points=(3, 2))
    match.finish(state.outcome())
    assert match.points == (-2, 2) and match.is_over and match.winner == 0
    with pytest.raises(ValueError, match="over"):
        match.next_deal(c("AS"))


def test_a_tie_at_the_end_goes_to_the_first_from_the_dealers_left():
    match = Match(deal_of().game, dealer=0, points=(1, 1, 1))
    match.finish(Outcome("tricks", (0, 1, 2), (1, 1, 1), (0, 0, 0), (-1, -1, -1), (0, 0, 0)))
    assert match.winner == 1


def test_events_come_in_their_phase_and_turn_and_an_illegal_one_changes_nothing():
    state = state_of(deal_of(), *OBLIGATIONS)
    with pytest.raises(IllegalEventError, match="the dealer takes or leaves the turned card, not a bid"):
        state.push(Bid(0, True))
    with pytest.raises(IllegalEventError, match="Cat's turn, not Ann's"):
        state.push(TakeTrump(0, False))
    state.push(TakeTrump(2, False))
    before = (state.phase, state.to_move, state.hands, state.history)
    with pytest.raises(IllegalEventError):
        state.push(Bid(1, True))
    assert (state.phase, state.to_move, state.hands, state.history) == before


def test_pop_undoes_every_event():
    rng = random.Random(4)
    state = State.shuffled(deal_of(), rng)
    snapshots = []
    while not state.is_over:
        snapshots.append((state.phase, state.to_move, state.hands, state.stock, state.tricks, state.trick))
        state.push(rng.choice(state.legal_events()))
    while snapshots:
        state.pop()
        assert (state.phase, state.to_move, state.hands, state.stock, state.tricks, state.trick) == snapshots.pop()
    with pytest.raises(IndexError):
        state.pop()


def test_a_players_view_keeps_their_own_cards_and_hides_the_others():
    deal = deal_of()
    hand = cards("6C 7C AS 6D 7D")
    view = PlayerState(deal, 0, hand)
    view.push(TakeTrump(2, True, c("8D")))
    assert view.history[-1] == TakeTrump(2, True)  # the dealer's discard is not Ann's to see
    for p in (0, 1, 2):
        view.push(Bid(p, True))
    with pytest.raises(IllegalEventError, match="name the 1 cards Ann draws"):
        view.push(Exchange(0, 1, (c("6C"),)))
    with pytest.raises(IllegalEventError, match="cannot draw AS"):
        view.push(Exchange(0, 1, (c("6C"),), (c("AS"),)))
    view.push(Exchange(0, 1, (c("6C"),), (c("KC"),)))
    assert view.hand == cards("KC 7C AS 6D 7D") and view.discarded == cards("6C")
    assert view.push(Exchange(1, 2, (c("8H"), c("8S")), (c("9C"), c("10C")))) == Exchange(1, 2)
    view.push(Exchange(2, 0))
    view.push(Exchange(0, 0))
    view.push(Exchange(1, 0))
    assert view.phase == "play" and [str(e.card) for e in view.legal_events()] == ["AS", "6D", "7D", "7C", "KC"]
    view.push(Play(0, c("7C")))
    with pytest.raises(IllegalEventError, match="not Bob's to play"):
        view.push(Play(1, c("6C")))  # Ann put it down
    with pytest.raises(IllegalEventError, match="not Bob's to play"):
        view.push(Play(1, c("AS")))  # Ann holds it


def test_the_referee_plays_every_random_deal_to_the_end_with_legal_events_only():
    for seed in range(200):
        rng = random.Random(seed)
        players = rng.choice((2, 3, 4, 5))
        deal = deal_of(
            players=players,
            dealer=rng.randrange(players),
            turned="9H" if players < 4 else "2S",
            rules=random_rules(rng),
        )
        state = State.shuffled(deal, rng)
        while not state.is_over:
            events = state.legal_events()
            assert events
            state.push(rng.choice(events))
        outcome = state.outcome()
        if outcome.kind == "tricks":
            assert sum(outcome.tricks) == 5
            assert state.played.bit_count() == 5 * len(outcome.playing)
