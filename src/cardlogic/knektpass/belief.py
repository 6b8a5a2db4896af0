"""One observer's belief about a deal of Knektpass, from a record: the tracker, checked against inference.

This is the Knektpass side of what the generic :mod:`cardlogic.belief` offers a
tracker; until that lands here it asks :mod:`cardlogic.inference` directly.

>>> from cardlogic.knektpass.record import read_record
>>> text = '''Players: Ann Bob
... Dealer: Bob
... Trump: 9H
... Me: Ann
... Hand Ann: AS KS QS JS 6D
...
... Bob leaves the trump
... Ann plays
... Bob plays
... Ann stands
... Bob stands
... Ann plays 6D
... Bob plays 7S  # Bob shows he has no diamond, and no trump
... '''
>>> tracker = tracker_of(read_record(text))
>>> marginals(tracker)[1][Card.parse("8D")]  # P(8D with Ann, Bob, the discards, the stock)
(0.0, 0.0, 0.0, 1.0)
"""

from __future__ import annotations

from dataclasses import replace

from cardlogic import inference
from cardlogic.cards import Card, card_mask
from cardlogic.constraints import DealModel, InconsistentError
from cardlogic.knektpass.record import Record, RecordError
from cardlogic.knektpass.state import IllegalEventError
from cardlogic.knektpass.tracking import KnektpassTracker


def is_consistent(model: DealModel) -> bool:
    """Whether some deal satisfies ``model`` (exactly where the tables are cheap, else by the sampler's search)."""
    try:
        if inference.exact_is_practical(model):
            return inference.count(model) > 0
        inference.sample(model, 1)
    except InconsistentError:
        return False
    return True


def tracker_of(record: Record) -> KnektpassTracker:
    """The tracker of the record's observer (``Me:``; a spectator's when it names none) after every event.

    A full record with a ``Me`` is read as that player's view. Raises
    :class:`RecordError` naming the line of the first event that is illegal or
    that leaves no deal consistent with what came before.
    """
    if record.observer is not None and record.is_full:
        record = record.view_as(record.observer)
    elif record.observer is None and record.hands:
        record = replace(record, hands={}, stock=None, events=[e.seen_by(None) for e in record.events])
    hand = card_mask(record.hands[record.observer]) if record.observer is not None else 0
    tracker = KnektpassTracker(record.deal, record.observer, hand)
    for event, line in zip(record.events, record.lines, strict=True):
        try:
            tracker.push(event)
        except IllegalEventError as error:
            raise RecordError(line, str(error)) from None
        except InconsistentError as error:
            raise RecordError(line, f"no deal explains this event and those before it: {error}") from None
        if tracker.position.phase in ("play", "over") and not is_consistent(tracker.model):
            raise RecordError(line, "no deal explains this event and those before it")
    return tracker


def marginals(tracker: KnektpassTracker, method: str = "auto", samples: int = 20_000,
              seed: int = 0) -> tuple[str, dict[Card, tuple[float, ...]], int | None]:
    """The method used and P(each card in play lies with each holder of the model), with the exact count of
    deals (None when sampled)."""
    posterior = inference.infer(tracker.model, method, samples, seed)
    table = {card: tuple(float(p) for p in posterior.marginals[posterior.cards.index(card)])
             for card in tracker.in_play()}
    return posterior.method, table, posterior.count
