"""The record of a whole Knektpass match: the first deal's record, then each later deal's set-up and events.

A match is played deal after deal until someone reaches 0 points. Its record is a deal record (see
:mod:`cardlogic.knektpass.record`) whose events go on past the end of the first deal: each later deal starts with
one line that gives what the table cannot work out, the turned card and the observer's new hand (the dealer and
everyone's points follow from the deal before, as :class:`~cardlogic.knektpass.match.Match` scores it)::

    Players: Ann Bob Cat
    Dealer: Cat
    Trump: KH
    Me: Bob
    Hand Bob: 6H 7H 7C 8C 10C

    Cat takes the trump
    ...
    Bob plays 7C                     # the first deal's last card
    Deal 2: Trump 9S; Hand Bob: AS KS QS 7D 6C
    Ann leaves the trump
    ...

A record with a single deal is a plain deal record; of a longer match, ``knektpass check`` checks every deal and
``belief`` and ``advise`` answer on the deal in play, the last.

>>> text = '''Players: Ann Bob
... Dealer: Bob
... Trump: 9H
... Me: Ann
... Hand Ann: AS KS QS JS 6D
...
... Bob leaves the trump
... Ann folds
... Bob folds
... Deal 2: Trump 6S; Hand Ann: 7S 8S 9S 10S 6H
... '''
>>> match = read_match(text)
>>> [(deal.deal.dealer, deal.deal.turned, len(deal.events)) for deal in match.deals()]
[(1, Card('9H'), 3), (1, Card('6S'), 0)]
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from cardlogic.cards import Card, CardError, format_cards
from cardlogic.knektpass.events import Event
from cardlogic.knektpass.match import Match
from cardlogic.knektpass.record import (
    InvalidEventError,
    Record,
    RecordError,
    format_event,
    scan_record,
    write_record,
)
from cardlogic.knektpass.rules import HAND_SIZE, Deal
from cardlogic.knektpass.state import IllegalEventError, PublicState
from cardlogic.notation import Problem, folded, uncommented

_NEXT_DEAL = re.compile(
    r"deal\s+(?P<number>\d+)\s*:\s*trump\s+(?P<turned>\S+)\s*(?:;\s*hand\s+(?P<name>\S+)\s*:(?P<hand>.*))?",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class NextDeal:
    """A new deal of the match: its turned card and the observer's hand as dealt (empty for a spectator).

    ``number`` counts the deals of the match from 1 (a next deal is 2 or more).
    """

    number: int
    turned: Card
    hand: tuple[Card, ...] = ()


MatchEvent = Event | NextDeal


@dataclass
class MatchRecord:
    """A match as written down: the first deal's set-up (``first``, without events), then every event.

    ``events`` mixes deal events and :class:`NextDeal` lines; ``lines`` gives each one's source line.
    """

    first: Record
    events: list[MatchEvent] = field(default_factory=list)
    lines: list[int] = field(default_factory=list, compare=False)

    def deals(self) -> list[Record]:
        """Each deal's record (set-up from the deal before, events), checked deal by deal.

        Raises :class:`RecordError` at a next deal's line when the deal before it is not over, the match is,
        or the hand does not fit, and at the first illegal event (public rules only; a deal's belief checks the
        rest).
        """
        first = self.first
        deals = [Record(first.deal, first.observer, dict(first.hands), [], first.stock, [])]
        state = PublicState(first.deal)
        for event, line in zip(self.events, self.lines, strict=True):
            current = deals[-1]
            if isinstance(event, NextDeal):
                if event.number != len(deals) + 1:
                    raise RecordError(
                        line, f"deal {event.number} follows deal {len(deals)}: it is deal {len(deals) + 1}"
                    )
                try:
                    deal = next_deal(current.deal, state, event, first.observer)
                except IllegalEventError as error:
                    raise RecordError(line, str(error)) from None
                hands = {} if first.observer is None else {first.observer: event.hand}
                deals.append(Record(deal, first.observer, hands, [], None, []))
                state = PublicState(deal)
                continue
            try:
                state.push(event)
            except ValueError as error:
                raise RecordError(line, str(error)) from None
            current.events.append(event)
            current.lines.append(line)
        return deals


def next_deal(before: Deal, state: PublicState, event: NextDeal, observer: int | None) -> Deal:
    """The deal that follows ``before``, whose play ended in ``state``, as ``event`` starts it for ``observer``.

    Raises :class:`IllegalEventError` when the deal before is not over, the match is over, or the turned card
    or the hand is not one of a deal (a hand for the observer, none for a spectator).
    """
    deal = following_deal(before, state, event.number, event.turned)
    if observer is None and event.hand:
        raise IllegalEventError("a spectator's record gives no hand")
    if observer is not None:
        check_hand(deal, observer, event.hand)
    return deal


def following_deal(before: Deal, state: PublicState, number: int, turned: Card) -> Deal:
    """Deal ``number`` of the match, turning ``turned``, after ``before`` ended in ``state``: what a next deal
    is before anyone's hand is known.

    Raises :class:`IllegalEventError` when the deal before is not over, the match is over, or the turned card
    is not in the deck.
    """
    game = before.game
    if not state.is_over:
        mover = game.players[state.to_move or 0]
        raise IllegalEventError(f"deal {number - 1} is not over: {mover} is to move")
    match = Match(game, before.dealer, before.points)
    match.finish(state.outcome())
    if match.is_over:
        raise IllegalEventError("the match is over: someone has reached 0 points")
    if not game.deck_mask >> turned & 1:
        raise IllegalEventError(f"{turned} is not in the {len(game.deck)}-card deck")
    return match.next_deal(turned)


def check_hand(deal: Deal, player: int, hand: Sequence[Card]) -> None:
    """Raise :class:`IllegalEventError` unless ``hand`` can be ``player``'s as dealt in ``deal``: five cards of
    the deck, none twice, not the turned card."""
    game = deal.game
    if len(hand) != HAND_SIZE:
        raise IllegalEventError(f"{game.players[player]} was dealt {HAND_SIZE} cards, not {len(hand)}")
    if len(set(hand)) != len(hand):
        raise IllegalEventError("a card is named twice in the hand")
    if deal.turned in hand:
        raise IllegalEventError(f"{deal.turned} is the turned card, not in the hand")
    outside = [str(card) for card in hand if not game.deck_mask >> card & 1]
    if outside:
        raise IllegalEventError(f"not in the {len(game.deck)}-card deck: {' '.join(outside)}")


def parse_next_deal(text: str, first: Record) -> NextDeal | None:
    """The :class:`NextDeal` of a ``Deal N: Trump CARD; Hand NAME: CARDS`` line, None when ``text`` is not one.

    Raises :class:`InvalidEventError` for such a line with a bad card or a hand not the observer's.
    """
    match = _NEXT_DEAL.fullmatch(" ".join(text.split()))
    if match is None:
        return None
    game = first.deal.game
    try:
        turned = Card.parse(match["turned"])
        hand = tuple(Card.parse(token) for token in (match["hand"] or "").split())
    except CardError as error:
        raise InvalidEventError(str(error)) from None
    name = match["name"]
    if name is not None and (first.observer is None or folded(name) != folded(game.players[first.observer])):
        raise InvalidEventError(f"a new deal gives only my hand, not {match['name']}'s")
    return NextDeal(int(match["number"]), turned, hand)


def format_match_event(event: MatchEvent, deal: Deal, observer: int | None) -> str:
    """The record line of ``event``, a deal event of ``deal`` or the start of a next deal."""
    if not isinstance(event, NextDeal):
        return format_event(event, deal)
    line = f"Deal {event.number}: Trump {event.turned}"
    if observer is not None:
        line += f"; Hand {deal.game.players[observer]}: {format_cards(event.hand)}"
    return line


def write_match(record: MatchRecord) -> str:
    """The canonical text of ``record``: the first deal's headers, then every event a line."""
    deal, observer = record.first.deal, record.first.observer
    events = [format_match_event(event, deal, observer) for event in record.events]
    return write_record(record.first) + ("\n" + "\n".join(events) + "\n" if events else "")


def is_match(text: str) -> bool:
    """Whether ``text`` goes on past its first deal: it has a ``Deal N:`` line."""
    return any(_NEXT_DEAL.fullmatch(" ".join(uncommented(raw).split())) for raw in text.splitlines())


def read_match(text: str, source: str = "<record>") -> MatchRecord:
    """Read a match record; raise :class:`RecordError` at its first malformed line (notation only: see
    :meth:`MatchRecord.deals` for the rest)."""
    lines = text.removeprefix("\ufeff").splitlines()
    starts: dict[int, str] = {}
    for number, raw in enumerate(lines, 1):
        content = uncommented(raw)
        if _NEXT_DEAL.fullmatch(" ".join(content.split())):
            starts[number] = content
            lines[number - 1] = ""  # read apart: the deal record reader would take it for a late header
    record, problems = scan_record("\n".join(lines) + "\n")
    if record is not None:
        for number, content in starts.items():
            try:
                parse_next_deal(content, record)
            except InvalidEventError as error:
                problems.append(Problem(number, str(error)))
    if problems:
        problems.sort(key=lambda problem: problem.line)
        raise RecordError(problems[0].line, problems[0].message, source, problems)
    assert record is not None
    merged: list[tuple[int, MatchEvent]] = list(zip(record.lines, record.events, strict=True))
    merged += [(number, event) for number, content in starts.items() if (event := parse_next_deal(content, record))]
    merged.sort(key=lambda pair: pair[0])
    first = Record(record.deal, record.observer, dict(record.hands), [], record.stock, [])
    return MatchRecord(first, [event for _, event in merged], [number for number, _ in merged])


__all__ = [
    "MatchEvent",
    "MatchRecord",
    "NextDeal",
    "following_deal",
    "format_match_event",
    "is_match",
    "next_deal",
    "parse_next_deal",
    "read_match",
    "write_match",
]
