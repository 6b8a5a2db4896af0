"""Cards as small integers and sets of cards as integer bitmasks.

A card is a :class:`Card`, an ``int`` from 0 to 53: ``suit * 13 + rank`` for the
52 suited cards (ranks 2..A are 0..12, suits spades, hearts, diamonds, clubs)
and 52, 53 for the red and black jokers. A set of cards is a plain ``int`` with
bit ``card`` set, so the same numbers go straight into numba kernels.

>>> Card.parse("10h"), Card.parse("A♣"), Card.parse("rj")
(Card('10H'), Card('AC'), Card('RJ'))
>>> str(Card.parse("ts"))
'10S'
>>> [str(c) for c in iter_cards(card_mask(Card.parse(t) for t in ("QS", "2S")))]
['2S', 'QS']
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Self

from cardlogic import arguments

RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUITS = ("S", "H", "D", "C")
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
RED_JOKER = 52
BLACK_JOKER = 53
CARD_COUNT = 54

_SUIT_ALIASES = {"S": 0, "H": 1, "D": 2, "C": 3, "♠": 0, "♥": 1, "♦": 2, "♣": 3, "♤": 0, "♡": 1, "♢": 2, "♧": 3}
_RANK_ALIASES = {name: index for index, name in enumerate(RANKS)} | {"T": 8}


class CardError(ValueError):
    """A card token that names no card."""


class Card(int):
    """One card of the 54-card universe, an ``int`` usable as an array index."""

    __slots__ = ()

    def __new__(cls, index: int) -> Self:
        index = arguments.integer("card", index)  # Card(2.9) is a TypeError, not 4S
        if not 0 <= index < CARD_COUNT:
            raise CardError(f"no card has index {index}")
        return int.__new__(cls, index)

    @classmethod
    def from_rank_suit(cls, rank: int, suit: int) -> Card:
        """The suited card of ``rank`` (0 for 2 .. 12 for ace) and ``suit`` (0..3)."""
        return CARDS[suit * 13 + rank]

    @classmethod
    def parse(cls, token: str) -> Card:
        """Read a token such as ``10H``, ``th``, ``Q♠`` or ``BJ`` (case-insensitive).

        Raises :class:`CardError` for anything else.
        """
        text = arguments.text("token", token).strip().upper()
        if text == "RJ":
            return CARDS[RED_JOKER]
        if text == "BJ":
            return CARDS[BLACK_JOKER]
        if len(text) >= 2 and text[:-1] in _RANK_ALIASES and text[-1] in _SUIT_ALIASES:
            return cls.from_rank_suit(_RANK_ALIASES[text[:-1]], _SUIT_ALIASES[text[-1]])
        raise CardError(f"unknown card {token!r}")

    @property
    def is_joker(self) -> bool:
        return self >= RED_JOKER

    @property
    def rank(self) -> int:
        """0 for 2 .. 12 for ace; jokers have no rank."""
        if self.is_joker:
            raise CardError(f"{self} has no rank")
        return self % 13

    @property
    def suit(self) -> int:
        """0..3 for spades, hearts, diamonds, clubs; jokers have no suit."""
        if self.is_joker:
            raise CardError(f"{self} has no suit")
        return self // 13

    @property
    def mask(self) -> int:
        return 1 << self

    def __str__(self) -> str:
        if self == RED_JOKER:
            return "RJ"
        if self == BLACK_JOKER:
            return "BJ"
        return RANKS[self % 13] + SUITS[self // 13]

    def __repr__(self) -> str:
        return f"Card('{self}')"


CARDS: tuple[Card, ...] = tuple(int.__new__(Card, i) for i in range(CARD_COUNT))


def is_card(token: str) -> bool:
    """Whether ``token`` names a card (as :meth:`Card.parse` reads it)."""
    try:
        Card.parse(token)
    except CardError:
        return False
    return True


def card_mask(cards: Iterable[int]) -> int:
    """The bitmask of ``cards``."""
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def iter_cards(mask: int) -> Iterator[Card]:
    """The cards of ``mask`` in increasing order."""
    while mask:
        low = mask & -mask
        yield CARDS[low.bit_length() - 1]
        mask ^= low


def parse_cards(text: str) -> list[Card]:
    """Read whitespace-separated card tokens."""
    return [Card.parse(token) for token in text.split()]


def format_cards(cards: Iterable[int]) -> str:
    """Canonical tokens separated by spaces, in the order given."""
    return " ".join(str(CARDS[c]) for c in cards)
