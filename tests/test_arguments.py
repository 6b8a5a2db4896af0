"""Wrong types and values thrown at the public API: a typed error of the project's own, or a correct answer.

Never a silent wrong answer (``Card(2.9)`` as 4S, ``yes="no"`` as a yes, holder -1 as the last one), and never
an AttributeError, IndexError, OverflowError or a numba/numpy error from inside.
"""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardlogic.arguments import MAX_DRAWN_DEALS, MAX_SAMPLES, MAX_SEED, ArgumentError, ArgumentTypeError
from cardlogic.cards import CARD_COUNT, Card, card_mask
from cardlogic.knektpass import Bid, Deal, KnektpassBelief
from cardlogic.knektpass import Game as KnektpassGame
from cardlogic.knektpass import PlayerState as KnektpassPlayerState
from cardlogic.knektpass import Rules as KnektpassRules
from cardlogic.knektpass import parse_event as parse_knektpass_event
from cardlogic.knektpass import read_record as read_knektpass_record
from cardlogic.knektpass.advice import advise as advise_knektpass
from cardlogic.literature import Ask, Claim, Deck, Game, Pass, PlayerState, Rules, State, parse_event, read_record
from cardlogic.literature.advice import advise
from cardlogic.literature.belief import LiteratureBelief
from cardlogic.literature.tournament import Match

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
MINI = read_record((EXAMPLES / "mini.txt").read_text())
BOB = read_knektpass_record((EXAMPLES / "knektpass" / "bob.txt").read_text())
BELIEF = LiteratureBelief.from_record(MINI)

JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 60),
    st.sampled_from([2**32, 2**63, 2**70, -(2**70), 10**8, MAX_SAMPLES + 1, MAX_SEED]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=4),
    st.sampled_from(["2S", "8S", "Ann", "no", "yes", "", "12", "RJ"]),
    st.lists(st.integers(0, 3), max_size=2),
    st.sampled_from([np.int64(3), np.float64(1.5), np.array([1, 2]), object()]),
)


def typed(error: BaseException) -> bool:
    """Whether ``error`` is one of the project's own ValueErrors or TypeErrors."""
    return isinstance(error, ValueError | TypeError) and type(error).__module__.startswith("cardlogic")


def attempt(call, *args, **kwargs):
    """``call(*args, **kwargs)``, or None when it raised a typed error (anything else fails the test)."""
    try:
        return call(*args, **kwargs)
    except Exception as error:  # noqa: BLE001 (any error at all, to require that it is a typed one)
        assert typed(error), f"{type(error).__module__}.{type(error).__name__}: {error}"
        return None


def is_int(value) -> bool:
    return isinstance(value, int | np.integer) and not isinstance(value, bool)


@settings(max_examples=150, deadline=None)
@given(JUNK)
def test_a_card_is_an_index_of_the_54_or_a_name_else_a_typed_error(value):
    card = attempt(Card, value)
    if card is not None:
        assert is_int(value) and card == value and 0 <= value < CARD_COUNT
    elif is_int(value):
        assert not 0 <= value < CARD_COUNT
    parsed = attempt(Card.parse, value)
    assert parsed is None or (isinstance(value, str) and isinstance(parsed, Card))
    deck = attempt(Deck.named, value)
    assert deck is None or isinstance(value, str)


@settings(max_examples=150, deadline=None)
@given(JUNK)
def test_a_bool_field_takes_only_a_bool(value):
    ask = attempt(Ask, 0, 1, Card.parse("2S"), yes=value)
    assert (ask is not None) == (value is None or isinstance(value, bool))
    assert (attempt(Bid, 0, plays=value) is not None) == isinstance(value, bool)
    assert (attempt(advise, BELIEF, thorough=value) is not None) == isinstance(value, bool)


@settings(max_examples=150, deadline=None)
@given(JUNK)
def test_event_players_are_integers(value):
    for event in (lambda: Ask(value, 1, 5), lambda: Pass(0, value), lambda: Claim(value, 0, ())):
        made = attempt(event)
        assert (made is not None) == is_int(value)


@settings(max_examples=150, deadline=None)
@given(JUNK, JUNK)
def test_a_belief_answers_for_a_card_of_its_deck_and_one_of_its_holders(card, holder):
    chance = attempt(BELIEF.probability, card, holder)
    if chance is not None:
        assert 0.0 <= chance <= 1.0
        index = Card.parse(card) if isinstance(card, str) else card
        assert index in MINI.game.deck.cards
        assert isinstance(holder, str) or 0 <= holder < len(MINI.game.players)


@settings(max_examples=100, deadline=None)
@given(JUNK)
def test_seeds_and_sample_counts_are_checked_where_they_enter(value):
    in_seeds = is_int(value) and 0 <= value <= MAX_SEED
    assert (attempt(LiteratureBelief.from_record, MINI, seed=value) is not None) == in_seeds
    in_samples = is_int(value) and 1 <= value <= MAX_SAMPLES
    assert (attempt(LiteratureBelief.from_record, MINI, samples=value) is not None) == in_samples
    drawn = attempt(BELIEF.sample, value)
    assert (drawn is not None) == (is_int(value) and 1 <= value <= MAX_DRAWN_DEALS)
    if drawn is not None:
        assert drawn[1].shape == (value, len(drawn[0]))
    assert (attempt(BELIEF.sample, 1, seed=value) is not None) == in_seeds
    assert (attempt(Match, ("random", "counting"), seed=value) is not None) == in_seeds


@settings(max_examples=100, deadline=None)
@given(JUNK)
def test_player_counts_and_rule_values_are_checked(value):
    match = attempt(Match, ("random", "counting"), players=value)
    assert (match is not None) == (is_int(value) and 4 <= value <= 12)
    rules = attempt(KnektpassRules.parse, f"points={value}")
    assert rules is None or 1 <= rules.points <= 999
    rules = attempt(KnektpassRules.parse, f"rounds={value}")
    assert rules is None or 0 <= rules.rounds <= 10


@settings(max_examples=50, deadline=None)
@given(JUNK)
def test_what_is_not_a_belief_or_a_random_generator_is_a_type_error(value):
    with pytest.raises(ArgumentTypeError):
        advise(value)
    with pytest.raises(ArgumentTypeError):
        advise_knektpass(value)
    with pytest.raises(ArgumentTypeError):
        State.shuffled(MINI.game, value)
    assert isinstance(State.shuffled(MINI.game, random.Random(0)), State)


def test_the_messages_name_the_argument():
    cases = [
        (lambda: BELIEF.probability("2S", -1), ArgumentError, "holder must be from 0 to 3, not -1"),
        (lambda: BELIEF.probability("8S", 0), ArgumentError, "card 8S is not in this game's deck"),
        (lambda: BELIEF.sample(10**8), ArgumentError, "n must be from 1 to 1000000, not 100000000"),
        (lambda: Card(2.9), ArgumentTypeError, "card must be an integer, not 2.9"),
        (lambda: Match(("random", "counting"), players=13), ArgumentError, "players must be from 4 to 12, not 13"),
        (
            lambda: KnektpassBelief(BOB.deal, prior="uniform"),
            ArgumentError,
            "unknown prior 'uniform'; expected one of rules, players",
        ),
        (lambda: Rules(bluff="off"), ArgumentTypeError, "bluff must be True or False, not 'off'"),
    ]
    for call, kind, message in cases:
        with pytest.raises(kind) as error:
            call()
        assert str(error.value) == message


@settings(max_examples=150, deadline=None)
@given(JUNK)
def test_a_games_set_up_takes_only_values_of_its_types(value):
    players = ("Ann", "Bob", "Cat", "Dan")
    game = attempt(Game, players, dealer=value)
    assert (game is not None) == (value is None or (is_int(value) and 0 <= value < 4))
    for switch in ("bluff", "must_declare", "high_double", "claim_anytime"):  # "off" would be a truthy on
        assert (attempt(Rules, **{switch: value}) is not None) == isinstance(value, bool)
    deal = attempt(Deal, KnektpassGame(players[:3]), dealer=value, turned=Card.parse("9H"))
    assert (deal is not None) == (is_int(value) and 0 <= value < 3)
    deal = attempt(Deal, KnektpassGame(players[:3]), dealer=0, turned=value)
    assert deal is None or deal.turned == value
    deal = attempt(Deal, KnektpassGame(players[:3]), dealer=0, turned=Card.parse("9H"), points=(12, 12, value))
    assert (deal is not None) == is_int(value)
    for parse in (Rules.parse, KnektpassRules.parse):
        assert attempt(parse, value) is None or isinstance(value, str)
    assert attempt(parse_event, value, MINI.game) is None or isinstance(value, str)
    assert attempt(parse_knektpass_event, value, BOB.deal) is None or isinstance(value, str)


@settings(max_examples=100, deadline=None)
@given(JUNK)
def test_an_observer_is_a_seat_and_a_hand_is_what_each_game_takes(value):
    game, deal = MINI.game, BOB.deal
    ann = MINI.hands[0]
    made = attempt(PlayerState, game, value, card_mask(ann))
    assert (made is not None) == (is_int(value) and 0 <= value < 4 and game.sizes[value] == len(ann))
    made = attempt(PlayerState, game, 0, value)
    assert made is None or (is_int(value) and made.hand == value and int(value).bit_count() == len(ann))
    made = attempt(KnektpassPlayerState, deal, value, card_mask(BOB.hands[1]))
    assert (made is not None) == (is_int(value) and 0 <= value < 3)
    assert attempt(LiteratureBelief, game, 0, value, prior="rules") is None or sorted(value) == sorted(ann)
    assert attempt(KnektpassBelief, deal, 1, value) is None or value == card_mask(BOB.hands[1])


def test_a_hand_given_in_the_other_games_form_says_which_form_it_takes():
    with pytest.raises(ArgumentTypeError, match=r"the observer's cards .*iter_cards"):
        LiteratureBelief(MINI.game, 0, card_mask(MINI.hands[0]))
    with pytest.raises(ArgumentTypeError, match=r"hand must be an integer"):
        KnektpassBelief(BOB.deal, 1, list(BOB.hands[1]))
