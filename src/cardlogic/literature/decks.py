"""Decks: the cards in play and how they split into claimable sets.

A :class:`Deck` is immutable. It lists its :class:`CardSet` groups (half-suits,
or four-of-a-rank sets for the ``fours`` variant) in a fixed order; a set's index
in that order is how the rest of cardlogic refers to it.

>>> deck = Deck.named("no-8s")
>>> len(deck.cards), len(deck.sets)
(48, 8)
>>> deck.set_of(Card.parse("9H")).name
'high-hearts'
>>> Deck.named("no-8s", sets=["LS", "high-hearts"]).set_names()
['low-spades', 'high-hearts']
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from cardlogic import arguments
from cardlogic.cards import BLACK_JOKER, CARDS, RANKS, RED_JOKER, SUIT_NAMES, Card, card_mask

RANK_SET_NAMES = (
    "twos",
    "threes",
    "fours",
    "fives",
    "sixes",
    "sevens",
    "eights",
    "nines",
    "tens",
    "jacks",
    "queens",
    "kings",
    "aces",
)
DECK_NAMES = ("no-8s", "no-2s", "no-7s", "jokers", "fours")


class DeckError(ValueError):
    """An unknown deck variant or set name."""


@dataclass(frozen=True)
class CardSet:
    """A group of cards claimed together."""

    name: str
    short: str
    cards: tuple[Card, ...]
    high: bool = False

    @property
    def mask(self) -> int:
        return card_mask(self.cards)

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class Deck:
    """The cards in play, split into claimable sets."""

    name: str
    sets: tuple[CardSet, ...]
    _set_index: dict[int, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        index = {card: i for i, card_set in enumerate(self.sets) for card in card_set.cards}
        object.__setattr__(self, "_set_index", index)

    @classmethod
    def named(cls, name: str, sets: Iterable[str] | None = None) -> Deck:
        """The deck variant ``name`` (see ``DECK_NAMES``), optionally keeping only ``sets``.

        Set names may be long (``low-spades``) or short (``LS``), case-insensitive; the
        kept sets stay in deck order.
        """
        key = arguments.text("name", name).strip().lower()
        builders = {"no-8s": _no_8s, "no-2s": _no_2s, "no-7s": _no_7s, "jokers": _jokers, "fours": _fours}
        if key not in builders:
            raise DeckError(f"unknown deck {name!r} (expected one of {', '.join(DECK_NAMES)})")
        deck = cls(key, builders[key]())
        return deck if sets is None else deck.restricted(sets)

    def restricted(self, names: Iterable[str]) -> Deck:
        """This deck with only the named sets in play; :class:`DeckError` for an unknown set or one named twice."""
        wanted: set[int] = set()
        for name in names:
            index = self.set_index(name)
            if index in wanted:
                raise DeckError(f"the set {self.sets[index].name} is named twice")
            wanted.add(index)
        if not wanted:
            raise DeckError("no sets named")
        return Deck(self.name, tuple(s for i, s in enumerate(self.sets) if i in wanted))

    @property
    def cards(self) -> tuple[Card, ...]:
        return tuple(card for card_set in self.sets for card in card_set.cards)

    @property
    def mask(self) -> int:
        return card_mask(self.cards)

    def set_names(self) -> list[str]:
        return [s.name for s in self.sets]

    def set_index(self, name: str) -> int:
        """The index of the set called ``name`` (long or short form, case-insensitive)."""
        key = name.strip().lower()
        for i, card_set in enumerate(self.sets):
            if key in (card_set.name, card_set.short.lower()):
                return i
        raise DeckError(f"unknown set {name!r} in deck {self.name} (expected one of {', '.join(self.set_names())})")

    def set_index_of(self, card: int) -> int:
        """The index of the set holding ``card``; :class:`DeckError` if it is not in play."""
        try:
            return self._set_index[card]
        except KeyError:
            raise DeckError(f"{CARDS[card]} is not in play in deck {self.name}") from None

    def set_of(self, card: int) -> CardSet:
        return self.sets[self.set_index_of(card)]

    def __contains__(self, card: object) -> bool:
        return card in self._set_index


def _half_suits(low_ranks: Iterable[int], high_ranks: Iterable[int]) -> tuple[CardSet, ...]:
    low, high = tuple(low_ranks), tuple(high_ranks)
    sets = []
    for suit, suit_name in enumerate(SUIT_NAMES):
        letter = suit_name[0].upper()
        sets.append(CardSet(f"low-{suit_name}", f"L{letter}", tuple(Card.from_rank_suit(r, suit) for r in low)))
        sets.append(CardSet(f"high-{suit_name}", f"H{letter}", tuple(Card.from_rank_suit(r, suit) for r in high), True))
    return tuple(sets)


def _no_8s() -> tuple[CardSet, ...]:
    return _half_suits(range(6), range(7, 13))


def _no_2s() -> tuple[CardSet, ...]:
    return _half_suits(range(1, 7), range(7, 13))


def _no_7s() -> tuple[CardSet, ...]:
    return _half_suits((12, 0, 1, 2, 3, 4), range(6, 12))


def _jokers() -> tuple[CardSet, ...]:
    eights = tuple(Card.from_rank_suit(6, suit) for suit in range(4)) + (CARDS[RED_JOKER], CARDS[BLACK_JOKER])
    return _no_8s() + (CardSet("eights", "E", eights),)


def _fours() -> tuple[CardSet, ...]:
    # Nines and up count as high sets, like the high half-suits.
    return tuple(
        CardSet(RANK_SET_NAMES[r], RANKS[r], tuple(Card.from_rank_suit(r, s) for s in range(4)), r >= 7)
        for r in range(13)
    )
