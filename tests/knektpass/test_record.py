"""The deal record: canonical writing, reading back, views, and every problem reported at its line."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardlogic.cards import Card
from cardlogic.knektpass import (
    Bid,
    Exchange,
    InvalidEventError,
    Play,
    RecordError,
    TakeTrump,
    format_event,
    parse_event,
    read_record,
    scan_record,
    write_record,
)

from .helpers import deal_of, random_record

EXAMPLE = """\
Players: Ann Bob Cat
Dealer: Cat
Trump: 9H
Rules: must-trump=on points=12 lone=5 penalty=5 rounds=3 deck=auto
Points: Ann=12 Bob=7 Cat=12
Me: Ann
Hand Ann: AS KS 7D 8C JD

Cat takes the trump   # the dealer's discard is hidden from Ann
Ann plays
Bob plays
Cat folds
Ann exchanges 2: 7D 8C for QH 6S
Bob exchanges 3
Ann stands
Bob stands
Ann plays AS
Bob plays 9S
"""


def c(text: str) -> Card:
    return Card.parse(text)


def test_the_example_reads_and_replays_as_anns_view():
    record = read_record(EXAMPLE)
    assert record.observer == 0 and not record.is_full and record.deal.points == (12, 7, 12)
    assert record.events[0] == TakeTrump(2, True) and record.events[4] == Exchange(
        0, 2, (c("7D"), c("8C")), (c("QH"), c("6S"))
    )
    assert record.lines[:2] == [9, 10]
    view = record.replay()
    assert view.hand == record.deal.game.deck_mask & (c("KS").mask | c("QH").mask | c("6S").mask | c("JD").mask)
    assert view.trick == () and view.tricks == (1, 0, 0) and view.to_move == 0  # Cat folded


def test_writing_is_canonical_and_reading_it_back_gives_the_same_record():
    record = read_record(EXAMPLE)
    text = write_record(record)
    assert "# the dealer" not in text and "Cat takes the trump\n" in text
    assert read_record(text) == record
    assert write_record(read_record(text)) == text


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_records_of_random_deals_round_trip_and_replay_for_every_observer(seed):
    record, state = random_record(seed)
    again = read_record(write_record(record))
    assert again == record
    assert again.replay().outcome() == state.outcome()
    for player in range(len(record.deal.game.players)):
        view = record.view_as(player)
        assert read_record(write_record(view)) == view
        assert view.replay().hand == state.hands[player]


@pytest.mark.parametrize(
    "line, event",
    [
        ("Cat takes the trump for 8D", TakeTrump(2, True, c("8D"))),
        ("Cat leaves the trump", TakeTrump(2, False)),
        ("Ann plays", Bid(0, True)),
        ("Ann folds", Bid(0, False)),
        ("Bob stands", Exchange(1, 0)),
        ("Bob exchanges 3", Exchange(1, 3)),
        ("Ann plays 10S", Play(0, c("10S"))),
        ("Ann exchanges 1: 7D for AH", Exchange(0, 1, (c("7D"),), (c("AH"),))),
    ],
)
def test_every_event_has_one_canonical_line(line, event):
    deal = deal_of()
    assert parse_event(line, deal) == event
    assert format_event(event, deal) == line
    assert parse_event(line.upper().replace("  ", " "), deal) == event


@pytest.mark.parametrize(
    "line, message",
    [
        ("Dan plays", "unknown player"),
        ("Ann plays 5S", "not in the 36-card deck"),
        ("Ann plays XX", "unknown card"),
        ("Ann exchanges 2: 7D for AH QH", "shows 1 cards put down"),
        ("Ann asks Bob", "not an event"),
        ("Ann exchanges 2: 7D 7D for AH QH", "put down twice"),
    ],
)
def test_bad_event_lines_say_what_is_wrong(line, message):
    with pytest.raises(InvalidEventError, match=message):
        parse_event(line, deal_of())


@pytest.mark.parametrize(
    "change, line, message",
    [
        (("Ann plays AS\n", "Ann plays XX\n"), 17, "unknown card"),
        (("Dealer: Cat\n", ""), 1, "needs a Dealer header"),
        (("Hand Ann: AS KS 7D 8C JD", "Hand Ann: AS KS 7D 8C"), 7, "dealt 5 cards, not 4"),
        (("Hand Ann: AS KS 7D 8C JD", "Hand Ann: AS KS 7D 8C 9H"), 7, "9H is also the turned card"),
        (("Me: Ann\n", "Me: Ann\nMe: Bob\n"), 7, "Me given twice"),
        (("Bob plays 9S\n", "Bob plays 9S\nTrump: AS\n"), 19, "headers must come before"),
        (("Points: Ann=12 Bob=7 Cat=12", "Points: Ann=12 Bob=7"), 5, "every player"),
        (("Rules: must-trump=on", "Rules: must-trump=maybe"), 4, "on or off"),
        (("Me: Ann\n", "Me: Dan\n"), 6, "unknown player"),
        (("Trump: 9H", "Trump: 9H 10H"), 3, "one card"),
        (("Me: Ann\n", "Me: Ann\nStock: 6H\n"), 7, "only a full record"),
    ],
)
def test_problems_are_reported_at_their_line(change, line, message):
    old, new = change
    text = EXAMPLE.replace(old, new)
    with pytest.raises(RecordError, match=message) as error:
        read_record(text, "game.txt")
    assert error.value.line == line
    assert str(error.value).startswith(f"game.txt:{line}: ")


def test_scan_collects_every_malformed_line_and_keeps_the_rest():
    text = EXAMPLE.replace("Ann plays AS", "Ann plays XX").replace("Bob stands", "Bob stnads")
    record, problems = scan_record(text)
    assert [line for line, _ in problems] == [16, 17]
    assert record is not None and len(record.events) == len(read_record(EXAMPLE).events) - 2


def test_replay_names_the_line_of_the_first_illegal_event():
    text = EXAMPLE.replace("Bob plays 9S", "Bob plays 9H")  # the turned card, taken by Cat
    with pytest.raises(RecordError, match="turned card") as error:
        read_record(text).replay()
    assert error.value.line == 18


def test_a_view_hides_the_others_cards_and_needs_the_players_hand():
    record, _ = random_record(11, players=3)
    view = record.view_as("bob")
    assert view.observer == 1 and set(view.hands) == {1} and view.stock is None
    for event in view.events:
        if isinstance(event, Exchange) and event.player != 1 and event.count:  # a stand shows no cards
            assert event.discards is None and event.draws is None
    with pytest.raises(RecordError, match="does not show Ann's hand"):
        view.view_as("Ann")
