"""The ranking of the cards (the four jacks on top, a jack in the trump suit), the house rules and the set-up."""

from __future__ import annotations

import itertools

import pytest

from cardlogic.cards import Card, parse_cards
from cardlogic.knektpass import Deal, Game, GameError, Rules, power

from .helpers import deal_of


def c(text: str) -> Card:
    return Card.parse(text)


@pytest.mark.parametrize("trump", ["9S", "9H", "9D", "9C"])
def test_the_four_jacks_are_the_top_trumps_in_a_fixed_order_whatever_the_trump_suit(trump):
    deal = deal_of(turned=trump)
    ranked = deal.ranked(deal.suit_mask(deal.trump_suit))
    assert [str(card) for card in ranked[:4]] == ["JC", "JS", "JH", "JD"]
    assert [str(card) for card in ranked[4:]] == [r + trump[-1] for r in ("A", "K", "Q", "10", "9", "8", "7", "6")]
    for higher, lower in itertools.pairwise(ranked):
        assert deal.beats(higher, lower) and not deal.beats(lower, higher)


def test_a_jack_belongs_to_the_trump_suit_not_to_its_printed_suit():
    deal = deal_of(turned="9H")
    assert deal.suit_of(c("JS")) == deal.trump_suit == 1
    assert not deal.suit_mask(0) >> c("JS") & 1  # spades have no jack
    assert deal.suit_mask(0).bit_count() == 8 and deal.suit_mask(1).bit_count() == 12
    assert deal.beats(c("JD"), c("AH")) and deal.beats(c("JS"), c("AS"))
    # a spade led: the jack of spades does not follow it, it trumps it
    assert deal.winner([c("AS"), c("JS")]) == 1


def test_plain_suits_rank_ace_high_and_only_trumps_beat_another_suit():
    deal = deal_of(turned="9H")
    assert deal.beats(c("AS"), c("KS")) and deal.beats(c("10S"), c("9S"))
    assert not deal.beats(c("AD"), c("6S"))  # a plain card of another suit never takes the trick
    assert deal.beats(c("6H"), c("AS"))  # the lowest trump beats any plain card
    assert deal.winner(parse_cards("6S AD KS")) == 2
    assert deal.winner(parse_cards("6S AD 6H 7H")) == 3


def test_power_puts_the_jacks_above_the_trump_suit_and_the_trump_suit_above_plain_cards():
    assert power(c("JC"), 0) > power(c("JS"), 0) > power(c("JH"), 0) > power(c("JD"), 0) > power(c("AS"), 0)
    assert power(c("2S"), 0) > power(c("AH"), 0)


@pytest.mark.parametrize("players, cards", [(2, 36), (3, 36), (4, 52), (7, 52)])
def test_36_cards_for_two_or_three_players_and_52_for_more(players, cards):
    game = Game(tuple(f"P{i}" for i in range(players)))
    assert len(game.deck) == cards
    if cards == 36:
        assert min(card % 13 for card in game.deck) == 4  # 6 is the lowest rank
    assert Game(tuple(f"P{i}" for i in range(players)), Rules(deck=52)).deck_mask.bit_count() == 52


def test_the_deck_must_hold_five_cards_each_and_the_turned_card():
    Game(tuple(f"P{i}" for i in range(7)), Rules(deck=36))
    with pytest.raises(GameError, match="2 to 7 players"):
        Game(tuple(f"P{i}" for i in range(8)), Rules(deck=36))
    with pytest.raises(GameError, match="2 to 10"):
        Game(tuple(f"P{i}" for i in range(11)))
    with pytest.raises(GameError):
        Game(("Ann",))


def test_names_are_distinct_and_plain():
    with pytest.raises(GameError, match="two players are called"):
        Game(("Ann", "ann", "Bob"))
    with pytest.raises(GameError, match="bad player name"):
        Game(("Ann", "B:b"))
    with pytest.raises(GameError, match="cannot be called Stock"):
        Game(("Ann", "Stock"))
    assert Game(("Ann", "Bob")).player_index("BOB") == 1
    with pytest.raises(GameError, match="unknown player"):
        Game(("Ann", "Bob")).player_index("Cat")


def test_rules_parse_and_print_every_switch():
    rules = Rules.parse("MUST-TRUMP=off Underruff=off points=10 lone=3 penalty=4 rounds=2 deck=52")
    assert rules == Rules(must_trump=False, underruff=False, points=10, lone=3, penalty=4, rounds=2, deck=52)
    assert Rules.parse(str(rules)) == rules
    assert str(Rules()) == "must-trump=on underruff=on points=12 lone=5 penalty=5 rounds=3 deck=auto"
    assert Rules.parse("deck=auto").deck is None


@pytest.mark.parametrize(
    "text, message",
    [
        ("trump=on", "unknown house rule"),
        ("must-trump=yes", "must-trump must be on or off"),
        ("underruff=1", "underruff must be on or off"),
        ("points=x", "points must be a whole number, not .x."),
        ("points=-3", "points must be a whole number, not .-3."),
        ("points=0", "points must be from 1 to 999, not 0"),
        ("points=99999999999999999999", "points must be from 1 to 999"),
        ("rounds=1000", "rounds must be from 0 to 10, not 1000"),
        ("lone=1000", "lone must be from 0 to 999"),
        ("deck=40", "auto, 36 or 52"),
        ("rounds=1 rounds=2", "given twice"),
    ],
)
def test_bad_rules_are_refused_with_the_reason(text, message):
    with pytest.raises(GameError, match=message) as error:
        Rules.parse(text)
    assert error.value.field == "rules"


def test_a_deal_knows_its_seats_and_stock():
    deal = deal_of(players=4, dealer=1)
    assert deal.forehand == 2 and deal.order == (2, 3, 0, 1)
    assert deal.stock_size == 52 - 20 - 1
    assert deal.points == (12, 12, 12, 12)
    with pytest.raises(GameError, match="not in the deck"):
        Deal(Game(("Ann", "Bob")), 0, Card.parse("2S"))
    with pytest.raises(GameError) as error:
        Deal(Game(("Ann", "Bob")), 0, Card.parse("AS"), (1, 2, 3))
    assert error.value.field == "points"
