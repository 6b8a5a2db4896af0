"""The three things that happen in Literature: asks, claims and passes of the turn.

Events are immutable values; players are indices into :attr:`Game.players`.
An event may leave its result open (``Ask.yes``, ``Claim.outcome`` None): the
referee (:class:`~cardlogic.literature.state.State`) fills it in.

>>> from cardlogic.cards import Card
>>> Ask(0, 1, Card.parse("5S"), yes=False)
Ask(asker=0, target=1, card=Card('5S'), yes=False)
>>> claim = Claim(2, 0, ((Card.parse("3S"), 4), (Card.parse("2S"), 2)), outcome="correct")
>>> [(str(card), holder) for card, holder in claim.revealed]  # a correct claim reveals what it claimed
[('2S', 2), ('3S', 4)]
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from cardlogic import arguments
from cardlogic.cards import Card

OUTCOMES = ("correct", "void", "opponents")


@dataclass(frozen=True)
class Ask:
    """``asker`` asks ``target`` for ``card``; ``yes`` is the answer (None: not yet known)."""

    asker: int
    target: int
    card: Card
    yes: bool | None = None

    def __post_init__(self) -> None:
        arguments.integer("asker", self.asker)
        arguments.integer("target", self.target)
        if self.yes is not None:
            arguments.boolean("yes", self.yes)  # "no" would be a yes
        if type(self.card) is not Card:
            object.__setattr__(self, "card", Card(self.card))


def _placements(pairs: Iterable[tuple[int, int]]) -> tuple[tuple[Card, int], ...]:
    return tuple(sorted((Card(card), arguments.integer("holder", holder)) for card, holder in pairs))


@dataclass(frozen=True)
class Claim:
    """``claimer`` claims set ``set_index`` of the deck, placing every card of it with a teammate.

    ``assignment`` pairs each card with the claimed holder; ``outcome`` is
    ``correct`` (the team wins the set), ``void`` (nobody does) or ``opponents``
    (the other team does), None while unknown; ``revealed`` pairs each card with
    its true holder at claim time, None when not known. Both tuples are kept
    sorted by card, so equal claims compare equal however they were written. A
    ``correct`` claim reveals exactly its assignment, so ``revealed`` defaults to
    it.
    """

    claimer: int
    set_index: int
    assignment: tuple[tuple[Card, int], ...]
    outcome: str | None = None
    revealed: tuple[tuple[Card, int], ...] | None = None

    def __post_init__(self) -> None:
        arguments.integer("claimer", self.claimer)
        arguments.integer("set_index", self.set_index)
        object.__setattr__(self, "assignment", _placements(self.assignment))
        if self.outcome is not None and self.outcome not in OUTCOMES:
            raise ValueError(f"unknown claim outcome {self.outcome!r} (expected one of {', '.join(OUTCOMES)})")
        if self.revealed is not None:
            object.__setattr__(self, "revealed", _placements(self.revealed))
        elif self.outcome == "correct":
            object.__setattr__(self, "revealed", self.assignment)


@dataclass(frozen=True)
class Pass:
    """``giver``, whose turn it is, hands the turn to ``receiver``, a teammate."""

    giver: int
    receiver: int

    def __post_init__(self) -> None:
        arguments.integer("giver", self.giver)
        arguments.integer("receiver", self.receiver)


Event = Ask | Claim | Pass


def actor(event: Event) -> int:
    """The player who makes ``event``: the asker, the claimer or the giver."""
    if isinstance(event, Ask):
        return event.asker
    if isinstance(event, Claim):
        return event.claimer
    return event.giver
