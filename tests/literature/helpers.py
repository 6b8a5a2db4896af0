"""Small games written as records, so scenario tests read like the rules."""

from __future__ import annotations

from cardlogic.literature import Record, RecordError, State, read_record

# Ann and Cat (team 0) against Bob and Dan (team 1); 18 cards dealt from Ann, so Ann and Bob get 5.
MINI = """\
Players: Ann Bob Cat Dan
Sets: LS HS LH
Dealer: Dan
Rules: {rules}
Hand Ann: 2S 3S 9S 2H 3H
Hand Bob: 4S 5S 10S 4H 5H
Hand Cat: 6S 7S JS 6H
Hand Dan: QS KS AS 7H
"""


def mini(events: str = "", rules: str = "", header: str = MINI) -> Record:
    """The mini game (or ``header``) followed by ``events``, one a line."""
    return read_record(header.format(rules=rules) + "\n" + events)


def play(events: str = "", rules: str = "", header: str = MINI) -> State:
    """The referee after every event of the mini game."""
    state = mini(events, rules, header).replay()
    assert isinstance(state, State)
    return state


def rejection(events: str, rules: str = "", header: str = MINI) -> RecordError:
    """The error replaying ``events`` raises (they must be illegal)."""
    record = mini(events, rules, header)
    try:
        record.replay()
    except RecordError as error:
        return error
    raise AssertionError("the events were accepted")
