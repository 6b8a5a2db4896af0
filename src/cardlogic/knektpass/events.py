"""The four things that happen in a deal of Knektpass, in this order.

* :class:`TakeTrump`: the dealer takes the turned card for one of their cards, or leaves it;
* :class:`Bid`: each player in turn from forehand plays or folds;
* :class:`Exchange`: in up to three rounds, each player still exchanging discards some cards and draws as many;
* :class:`Play`: a card played to a trick.

Events are immutable values; players are indices into :attr:`Game.players`.
What only the actor sees (the dealer's discard, the cards exchanged and drawn)
may be None: :meth:`seen_by` gives the event as another player sees it.

>>> from cardlogic.cards import Card
>>> exchange = Exchange(1, 2, (Card.parse("6S"), Card.parse("7S")), (Card.parse("AH"), Card.parse("9C")))
>>> exchange.seen_by(0)
Exchange(player=1, count=2, discards=None, draws=None)
>>> seen_by(exchange, 1) == exchange
True
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from cardlogic import arguments
from cardlogic.cards import Card


def _cards(cards: tuple[int, ...] | None) -> tuple[Card, ...] | None:
    return None if cards is None else tuple(sorted(Card(c) for c in cards))


@dataclass(frozen=True)
class TakeTrump:
    """The dealer ``player`` takes the turned card (``take``), putting ``discard`` face down, or leaves it.

    ``discard`` is None when not shown (or when the card is left).
    """

    player: int
    take: bool
    discard: Card | None = None

    def __post_init__(self) -> None:
        arguments.integer("player", self.player)
        arguments.boolean("take", self.take)
        if self.discard is not None:
            if not self.take:
                raise ValueError("a dealer who leaves the turned card discards nothing")
            object.__setattr__(self, "discard", Card(self.discard))

    def seen_by(self, player: int | None) -> TakeTrump:
        return self if player == self.player else replace(self, discard=None)


@dataclass(frozen=True)
class Bid:
    """``player`` plays this deal (``plays``) or folds."""

    player: int
    plays: bool

    def __post_init__(self) -> None:
        arguments.integer("player", self.player)
        arguments.boolean("plays", self.plays)  # "no" would play

    def seen_by(self, player: int | None) -> Bid:
        return self


@dataclass(frozen=True)
class Exchange:
    """``player`` discards ``count`` cards (``discards``) face down and draws as many (``draws``) from the stock.

    ``count`` 0 means the player stands: they exchange no more this deal (and
    both tuples are empty). ``discards`` and ``draws`` are None when not shown;
    both are kept sorted.
    """

    player: int
    count: int
    discards: tuple[Card, ...] | None = None
    draws: tuple[Card, ...] | None = None

    def __post_init__(self) -> None:
        arguments.integer("player", self.player)
        arguments.integer("count", self.count)
        if self.count == 0:  # standing shows nothing, to everyone
            object.__setattr__(self, "discards", ())
            object.__setattr__(self, "draws", ())
        object.__setattr__(self, "discards", _cards(self.discards))
        object.__setattr__(self, "draws", _cards(self.draws))
        for cards in (self.discards, self.draws):
            if cards is not None and len(cards) != self.count:
                raise ValueError(f"an exchange of {self.count} shows {len(cards)} cards")
        if self.count < 0:
            raise ValueError("an exchange cannot have a negative count")

    def seen_by(self, player: int | None) -> Exchange:
        return self if player == self.player else replace(self, discards=None, draws=None)


@dataclass(frozen=True)
class Play:
    """``player`` plays ``card`` to the trick."""

    player: int
    card: Card

    def __post_init__(self) -> None:
        arguments.integer("player", self.player)
        if type(self.card) is not Card:
            object.__setattr__(self, "card", Card(self.card))

    def seen_by(self, player: int | None) -> Play:
        return self


Event = TakeTrump | Bid | Exchange | Play


def seen_by(event: Event, player: int | None) -> Event:
    """``event`` as ``player`` (None: a spectator) sees it: another player's hidden cards left out."""
    return event.seen_by(player)
