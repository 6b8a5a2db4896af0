"""The Knektpass belief: the shared Belief over the Knektpass tracker, read from records."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardlogic.cards import iter_cards
from cardlogic.knektpass import RecordError, read_record
from cardlogic.knektpass.belief import KnektpassBelief

from .helpers import TRICKS_SO_FAR, random_record

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "knektpass" / "bob.txt"


def test_a_view_gives_the_observers_belief_with_the_players_discards_and_stock_as_holders():
    belief = KnektpassBelief.from_record(read_record(EXAMPLE.read_text()))
    assert belief.holders == ("Ann", "Bob", "Cat", "discards", "stock") and belief.observer == 1
    assert belief.probability("AC", "Bob") == 1.0 and belief.probability("6S", "Ann") == 0.0  # played: out of play
    assert belief.probability("KH", "Cat") + belief.probability("KH", "discards") == 1.0  # Cat took it, then exchanged
    assert belief.view.to_move == 1 and belief.hand == tuple(iter_cards(belief.view.hand))


def test_a_full_record_with_me_is_read_as_that_players_view_and_without_as_a_spectators():
    record, _ = random_record(21, players=3)
    spectator = KnektpassBelief.from_record(record)
    assert spectator.observer is None and spectator.hand == ()
    record.observer = 0
    assert KnektpassBelief.from_record(record).hand == KnektpassBelief.from_record(record.view_as(0)).hand


def test_the_line_of_the_first_impossible_event_is_named():
    text = EXAMPLE.read_text() + "Bob plays 6H\nCat plays 9H\nCat plays 7S\n"
    with pytest.raises(RecordError) as error:
        KnektpassBelief.from_record(read_record(text))
    assert (error.value.line, error.value.message) == (22, "Cat cannot hold 7S: they showed no spades on line 21")


@pytest.mark.parametrize(
    ("plays", "message"),
    [
        ("Bob plays 6S\nCat plays 9S\nAnn plays JD", "Ann cannot hold JD: they showed no trumps on line 19"),
        (
            "Bob plays 6S\nCat plays 10S\nAnn plays 9S\nCat plays 7C\nAnn plays AS",
            "Ann cannot hold AS: they did not beat 10S on line 22",
        ),
        (
            "Bob plays 6S\nCat plays 9S\nAnn plays 7C\nCat plays 8C\nAnn plays 10S",
            "Ann cannot hold 10S: they showed no spades on line 22",
        ),
    ],
)
def test_a_card_its_player_cannot_hold_names_the_play_that_showed_it(plays, message):
    text = TRICKS_SO_FAR + plays + "\n"
    with pytest.raises(RecordError) as error:
        KnektpassBelief.from_record(read_record(text))
    assert (error.value.line, error.value.message) == (len(text.splitlines()), message)


@pytest.mark.parametrize(("underruff", "reason"), [("on", "showed no trumps"), ("off", "did not beat 9S with a trump")])
def test_a_plain_card_on_a_plain_lead_shows_no_trump_under_underruff_and_none_that_beats_without(underruff, reason):
    first_trick = TRICKS_SO_FAR.splitlines()[:-3]  # Bob takes the first trick and leads spades
    text = "\n".join(first_trick).replace("Me: Bob", f"Rules: underruff={underruff}\nMe: Bob")
    text += "\nBob plays 6S\nCat plays 9S\nAnn plays 7C\nCat plays 8C\nAnn plays QH\n"
    with pytest.raises(RecordError) as error:
        KnektpassBelief.from_record(read_record(text))
    assert (error.value.line, error.value.message) == (22, f"Ann cannot hold QH: they {reason} on line 20")


def test_holders_are_named_case_insensitively():
    belief = KnektpassBelief.from_record(read_record(EXAMPLE.read_text()))
    assert belief.probability("AC", "bob") == 1.0
    assert belief.probability("7S", "Stock") == belief.probability("7S", 4)
