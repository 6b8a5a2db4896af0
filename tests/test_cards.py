import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardlogic.cards import CARD_COUNT, CARDS, Card, CardError, card_mask, format_cards, iter_cards, parse_cards
from cardlogic.literature.decks import DECK_NAMES, Deck, DeckError


@pytest.mark.parametrize(
    "token, canonical",
    [("10H", "10H"), ("th", "10H"), ("qs", "QS"), ("A♣", "AC"), ("rj", "RJ"), ("BJ", "BJ"), ("2♦", "2D"), ("k♥", "KH")],
)
def test_tokens_parse_to_canonical_names(token, canonical):
    assert str(Card.parse(token)) == canonical


@pytest.mark.parametrize("token", ["", "1H", "11S", "QX", "J", "10", "JJ", "8"])
def test_bad_tokens_raise_card_error(token):
    with pytest.raises(CardError):
        Card.parse(token)


def test_every_card_round_trips_through_its_name():
    assert [Card.parse(str(c)) for c in CARDS] == list(range(CARD_COUNT))


@given(st.sets(st.integers(0, CARD_COUNT - 1)))
def test_masks_round_trip(cards):
    assert list(iter_cards(card_mask(cards))) == sorted(cards)


def test_format_and_parse_cards():
    assert format_cards(parse_cards("2s th bj")) == "2S 10H BJ"


@pytest.mark.parametrize(
    "name, n_cards, n_sets, size",
    [("no-8s", 48, 8, 6), ("no-2s", 48, 8, 6), ("no-7s", 48, 8, 6), ("jokers", 54, 9, 6), ("fours", 52, 13, 4)],
)
def test_decks_partition_their_cards(name, n_cards, n_sets, size):
    deck = Deck.named(name)
    assert len(deck.cards) == len(set(deck.cards)) == n_cards
    assert len(deck.sets) == n_sets and all(len(s.cards) == size for s in deck.sets)
    assert all(deck.set_of(c) is deck.sets[deck.set_index_of(c)] for c in deck.cards)


def test_removed_rank_is_absent():
    assert Card.parse("8S") not in Deck.named("no-8s")
    assert Card.parse("2S") not in Deck.named("no-2s")
    assert Card.parse("7S") not in Deck.named("no-7s")
    assert format_cards(Deck.named("no-7s").sets[0].cards) == "AS 2S 3S 4S 5S 6S"
    assert Card.parse("RJ") in Deck.named("jokers") and Card.parse("8C") in Deck.named("jokers")


def test_set_names_long_short_and_restriction():
    deck = Deck.named("no-8s")
    assert deck.set_index("HC") == deck.set_index("high-clubs") == 7
    assert Deck.named("fours", sets=["aces", "twos"]).set_names() == ["twos", "aces"]
    assert len(Deck.named("no-8s", sets=["ls", "hs", "lh"]).cards) == 18
    with pytest.raises(DeckError):
        deck.set_index("middle-spades")
    with pytest.raises(DeckError):
        Deck.named("no-9s")
    assert all(len(Deck.named(n).sets) for n in DECK_NAMES)
