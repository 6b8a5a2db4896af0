"""An impossible event names what it contradicts: the card that can be nowhere and the earlier events to blame.

The game of test_tracker: Ann and Cat against Bob and Dan, low and high spades, Dan
dealt and asks first.
"""

from __future__ import annotations

import pytest

from cardlogic.cards import Card
from cardlogic.constraints import DealModel, InconsistentError
from cardlogic.literature import RecordError, parse_event, read_record
from cardlogic.literature.belief import LiteratureBelief

from .test_tracker import push, tracker

SETUP = "Players: Ann Bob Cat Dan\nSets: LS HS\nDealer: Dan\n\n"  # events start on line 5


def test_a_card_that_can_be_nowhere_is_named():
    model = DealModel(("A", "B"), (1, 1), [0, 1])
    model.forbid(0, 0)
    with pytest.raises(InconsistentError) as info:
        model.forbid(0, 1)
    assert info.value.card == Card(0) and str(info.value) == "2S can be nowhere"


def test_the_event_contradicted_is_the_first_after_which_the_new_one_fails():
    t = tracker()
    push(t, "Dan asks Ann for 2S: no", "Ann asks Dan for 9S: no", "Dan asks Ann for 3S: no")
    # The yes would put 9S at Dan, which event 1 (Dan said no) ruled out.
    assert t.contradicted(parse_event("Ann asks Dan for 9S: yes", t.game)) == 1
    assert t.contradicted(parse_event("Ann asks Dan for 10S: no", t.game)) is None  # possible: nothing to blame


def test_a_yes_after_a_no_names_the_no():
    record = read_record(
        SETUP + "Dan asks Ann for 2S: no\nAnn asks Dan for 9S: no\nDan asks Ann for 3S: no\nAnn asks Dan for 9S: yes\n"
    )
    with pytest.raises(RecordError) as info:
        LiteratureBelief.from_record(record)
    assert (info.value.line, info.value.message) == (8, "9S can be nowhere: Ann and Dan ruled out by line 6")


def test_an_emptied_clause_names_the_ask_that_made_it():
    # Dan asked for 2S, so held another low spade; the reveal gives Dan none (and nothing moved since).
    record = read_record(
        SETUP + "Dan asks Ann for 2S: no\n"
        "Ann claims LS: Ann 2S 3S 4S; Cat 5S 6S 7S => opponents (Ann 3S; Bob 2S 4S; Cat 5S 6S 7S)\n"
    )
    with pytest.raises(RecordError) as info:
        LiteratureBelief.from_record(record)
    assert info.value.line == 6 and info.value.message.endswith(": it contradicts line 5 (Dan asks Ann for 2S: no)")
