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

# The README's record example before it was fixed: Dan asks for 9S (line 11), so he held another high spade, yet
# the wrong claim's reveal (line 14) gives him none; every rule is kept, but no deal explains it.
BRIEF = """\
Players: Ann Bob Cat Dan Eve Fay
Deck: no-8s
Dealer: Fay
Rules: wrong-claim=split bluff=off after-claim=team-picks
Me: Ann
Hand Ann: 2S 3S 9H 10H QC KD AD 4C

Fay asks Ann for 5S: no
Ann asks Bob for JH: yes
Ann asks Dan for KH: no
Dan asks Cat for 9S: no
Cat claims low-hearts: Cat 2H 3H; Eve 4H 5H 6H 7H => correct
Cat passes to Eve
Eve claims HS: Eve 9S 10S JS; Cat QS KS AS => opponents (Eve 9S 10S; Cat QS KS AS; Bob JS)
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
