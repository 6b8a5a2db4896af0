"""The game-agnostic constraint model: what is known about one hidden deal.

Every game in cardlogic reduces its public history to a :class:`DealModel`:

* holders (players, and for other games a stock or a discard pile), with the
  number of cards each was dealt;
* for every card in the deal, the set of holders that may have been dealt it
  (a bitmask over holder indices);
* clauses: "at least one of these (card, holders) pairs happened", e.g. "holder
  ``h`` was dealt at least one card of ``S``" is the clause
  ``{(c, 1 << h) for c in S}``.

A deal is an assignment of every card to one holder. It is *consistent* when
each holder gets exactly its size, every card goes to an allowed holder, and
every clause has a true pair. Inference backends count or sample consistent
deals; nothing here knows about any particular game.

>>> model = DealModel(("Ann", "Bob"), (1, 1), [0, 1])
>>> model.forbid(0, 0)
>>> model.certain_holder(0), model.certain_holder(1)  # hand sizes are for the backends: card 1 is Ann's
(1, None)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from cardlogic.cards import CARDS, Card


class InconsistentError(ValueError):
    """No deal satisfies the constraints; ``card`` is the card that can be nowhere, when one card is to blame."""

    def __init__(self, message: str, card: Card | None = None) -> None:
        super().__init__(message)
        self.card = card


@dataclass(frozen=True)
class Clause:
    """At least one card ``pairs[i][0]`` went to a holder in mask ``pairs[i][1]``."""

    pairs: tuple[tuple[Card, int], ...]

    @property
    def card_mask(self) -> int:
        mask = 0
        for card, _ in self.pairs:
            mask |= 1 << card
        return mask

    def holds_in(self, deal: Mapping[int, int]) -> bool:
        """Whether ``deal`` (card -> holder index) satisfies this clause."""
        return any(holders >> deal[card] & 1 for card, holders in self.pairs)


class DealModel:
    """Holders, hand sizes, allowed holders per card and clauses over one deal.

    The model is mutable through a few narrowing operations (:meth:`restrict`,
    :meth:`forbid`, :meth:`place`, :meth:`require`); each keeps the model
    simplified and raises :class:`InconsistentError` instead of narrowing to an
    obviously empty model, leaving the model unchanged in that case. Finding
    every inconsistency needs an inference backend; these checks are the cheap
    ones (an empty allowed set, a holder given more cards than it was dealt, an
    empty clause).
    """

    def __init__(self, holders: Sequence[str], sizes: Sequence[int], cards: Iterable[int]) -> None:
        if len(holders) != len(sizes):
            raise ValueError("one size per holder")
        if len(holders) > 62:
            raise ValueError("at most 62 holders")
        self.holders: tuple[str, ...] = tuple(holders)
        self.sizes: tuple[int, ...] = tuple(int(s) for s in sizes)
        every = (1 << len(self.holders)) - 1
        self.allowed: dict[Card, int] = {CARDS[c]: every for c in sorted(set(cards))}
        self.clauses: list[Clause] = []
        if sum(self.sizes) != len(self.allowed):
            raise InconsistentError(f"{len(self.allowed)} cards cannot be dealt into hands of {sum(self.sizes)}")

    # -- narrowing -------------------------------------------------------------------------------------------------

    def restrict(self, card: int, holders: int) -> None:
        """Allow ``card`` only at the holders in bitmask ``holders``."""
        self._narrow({card: self.allowed[CARDS[card]] & holders}, [])

    def restrict_all(self, restrictions: Mapping[int, int]) -> None:
        """Allow each card of ``restrictions`` only at the holders of its bitmask: one narrowing for them all."""
        self._narrow({card: self.allowed[CARDS[card]] & holders for card, holders in restrictions.items()}, [])

    def forbid(self, card: int, holder: int) -> None:
        """``card`` was not dealt to ``holder``."""
        self.restrict(card, ~(1 << holder))

    def place(self, card: int, holder: int) -> None:
        """``card`` was dealt to ``holder``."""
        self.restrict(card, 1 << holder)

    def require(self, pairs: Iterable[tuple[int, int]]) -> None:
        """Add the clause: at least one ``(card, holder mask)`` pair happened."""
        self._narrow({}, [Clause(tuple((CARDS[c], m) for c, m in pairs))])

    def require_one_of(self, holder: int, cards: Iterable[int]) -> None:
        """``holder`` was dealt at least one of ``cards``."""
        self.require((c, 1 << holder) for c in cards)

    # -- queries ---------------------------------------------------------------------------------------------------

    @property
    def cards(self) -> tuple[Card, ...]:
        return tuple(self.allowed)

    def certain_holder(self, card: int) -> int | None:
        """The holder ``card`` must have been dealt to by its allowed set alone, else None."""
        mask = self.allowed[CARDS[card]]
        return mask.bit_length() - 1 if mask & (mask - 1) == 0 else None

    def fixed_counts(self) -> list[int]:
        """How many cards are placed at each holder by their allowed sets alone."""
        return _fixed_counts(self.allowed.values(), len(self.holders))

    def is_consistent(self, deal: Mapping[int, int]) -> bool:
        """Whether ``deal`` (card -> holder index, every card of the model) satisfies the model."""
        if set(deal) != set(self.allowed):
            return False
        counts = [0] * len(self.holders)
        for card, holder in deal.items():
            if not self.allowed[CARDS[card]] >> holder & 1:
                return False
            counts[holder] += 1
        return counts == list(self.sizes) and all(clause.holds_in(deal) for clause in self.clauses)

    def consistent_rows(self, deals: np.ndarray) -> np.ndarray:
        """Which rows of ``deals`` (the holder of each card of :attr:`cards`, in that order) satisfy the model, as
        :meth:`is_consistent` for each row at once."""
        holders = deals.astype(np.int64)
        allowed = np.array(list(self.allowed.values()), np.int64)
        ok = np.ones(len(deals), np.bool_)
        ok &= ((allowed >> holders) & 1).all(axis=1)
        for holder, size in enumerate(self.sizes):
            ok &= (holders == holder).sum(axis=1) == size
        column = {card: i for i, card in enumerate(self.allowed)}
        for clause in self.clauses:
            met = np.zeros(len(deals), np.bool_)
            for card, mask in clause.pairs:
                met |= (mask >> holders[:, column[card]]) & 1 == 1
            ok &= met
        return ok

    def copy(self) -> DealModel:
        twin = object.__new__(DealModel)
        twin.holders, twin.sizes = self.holders, self.sizes
        twin.allowed, twin.clauses = dict(self.allowed), list(self.clauses)
        return twin

    def __repr__(self) -> str:
        return f"<DealModel {len(self.allowed)} cards, {len(self.holders)} holders, {len(self.clauses)} clauses>"

    # -- simplification --------------------------------------------------------------------------------------------

    def _narrow(self, allowed: dict[int, int], clauses: list[Clause]) -> None:
        """Apply new allowed sets and clauses, simplify to a fixed point, and commit only if not empty."""
        new_allowed = dict(self.allowed)
        for card, mask in allowed.items():
            new_allowed[CARDS[card]] = mask
        pending = self.clauses + clauses
        while True:
            for card, mask in new_allowed.items():
                if not mask:
                    raise InconsistentError(f"{card} can be nowhere", card)
            kept: list[Clause] = []
            units: dict[int, int] = {}
            for clause in pending:
                pairs = tuple((c, m & new_allowed[c]) for c, m in clause.pairs if m & new_allowed[c])
                if not pairs:
                    raise InconsistentError("a required event cannot have happened")
                if any(new_allowed[c] & ~m == 0 for c, m in pairs):
                    continue  # already true in every deal the allowed sets permit
                if len(pairs) == 1:
                    card, mask = pairs[0]
                    units[card] = units.get(card, -1) & mask
                    continue
                kept.append(Clause(pairs))
            if not units:
                break
            for card, mask in units.items():
                new_allowed[CARDS[card]] &= mask
            pending = kept
        counts = _fixed_counts(new_allowed.values(), len(self.holders))
        for holder, (count, size) in enumerate(zip(counts, self.sizes)):
            if count > size:
                raise InconsistentError(f"{self.holders[holder]} would hold {count} known cards of {size}")
        self.allowed = new_allowed
        self.clauses = _without_subsumed(kept)


def _fixed_counts(masks: Iterable[int], holders: int) -> list[int]:
    """How many of the allowed-holder ``masks`` name exactly one holder, per holder."""
    counts = [0] * holders
    for mask in masks:
        if mask & (mask - 1) == 0:
            counts[mask.bit_length() - 1] += 1
    return counts


def _without_subsumed(clauses: list[Clause]) -> list[Clause]:
    """Drop duplicate clauses and clauses implied by a narrower one."""
    as_sets = [
        (frozenset((c, h) for c, m in cl.pairs for h in range(m.bit_length()) if m >> h & 1), cl) for cl in clauses
    ]
    as_sets.sort(key=lambda item: len(item[0]))
    kept: list[tuple[frozenset, Clause]] = []
    for literals, clause in as_sets:
        if not any(other <= literals for other, _ in kept):
            kept.append((literals, clause))
    return [clause for _, clause in kept]
