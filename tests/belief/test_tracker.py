"""LiteratureTracker: each kind of event becomes exactly the constraints on the initial deal it implies.

The game: Ann and Cat against Bob and Dan, low and high spades (12 cards, 3 each),
Dan dealt and asks first. Players are bits of the holder masks: Ann 1, Bob 2,
Cat 4, Dan 8.
"""

from __future__ import annotations

import pytest

from cardlogic.cards import Card
from cardlogic.constraints import InconsistentError
from cardlogic.literature import Game, IllegalEventError, Rules, parse_event
from cardlogic.literature.decks import Deck
from cardlogic.literature.tracking import LiteratureTracker

ANN, BOB, CAT, DAN = 1, 2, 4, 8
EVERYONE = 15
LOW = ["2S", "3S", "4S", "5S", "6S", "7S"]
HIGH = ["9S", "10S", "JS", "QS", "KS", "AS"]


def game(rules: str = "") -> Game:
    return Game(
        ("Ann", "Bob", "Cat", "Dan"), deck=Deck.named("no-8s", sets=["LS", "HS"]), rules=Rules.parse(rules), dealer=3
    )


def tracker(rules: str = "", observer: int | None = None, hand: str = "") -> LiteratureTracker:
    return LiteratureTracker(game(rules), observer, [Card.parse(t) for t in hand.split()])


def push(tracker: LiteratureTracker, *lines: str) -> None:
    for line in lines:
        tracker.push(parse_event(line, tracker.game))


def allowed(tracker: LiteratureTracker) -> dict[str, int]:
    return {str(card): mask for card, mask in tracker.model.allowed.items()}


def clauses(tracker: LiteratureTracker) -> set[frozenset[tuple[str, int]]]:
    return {frozenset((str(card), mask) for card, mask in clause.pairs) for clause in tracker.model.clauses}


def one_of(cards: list[str], holders: int) -> frozenset[tuple[str, int]]:
    return frozenset((card, holders) for card in cards)


def state(tracker: LiteratureTracker):
    public = tracker.public
    return (
        allowed(tracker),
        clauses(tracker),
        public.history,
        dict(public.known),
        dict(public.claimed),
        public.sizes,
        public.to_move,
    )


def changed(before: dict[str, int], after: dict[str, int]) -> dict[str, int]:
    return {card: mask for card, mask in after.items() if before[card] != mask}


class TestAsks:
    def test_an_ask_answered_no(self):
        t = tracker()
        push(t, "Dan asks Ann for 2S: no")
        # Dan lacked 2S (bluff=off) and Ann lacked it; Dan held another low spade, none of which has moved.
        assert changed(dict.fromkeys(LOW + HIGH, EVERYONE), allowed(t)) == {"2S": BOB | CAT}
        assert clauses(t) == {one_of(LOW[1:], DAN)}

    def test_under_bluff_the_asker_may_hold_the_asked_card(self):
        t = tracker("bluff=on")
        push(t, "Dan asks Ann for 2S: no")
        assert changed(dict.fromkeys(LOW + HIGH, EVERYONE), allowed(t)) == {"2S": BOB | CAT | DAN}
        assert clauses(t) == {one_of(LOW[1:], DAN)}

    def test_an_ask_answered_yes_places_the_card_where_it_was_dealt(self):
        t = tracker()
        push(t, "Dan asks Ann for 2S: yes")
        assert changed(dict.fromkeys(LOW + HIGH, EVERYONE), allowed(t)) == {"2S": ANN}
        assert clauses(t) == {one_of(LOW[1:], DAN)}
        assert dict(t.public.known) == {Card.parse("2S"): 3}

    def test_a_moved_card_with_the_asker_stands_for_the_other_card(self):
        t = tracker()
        push(t, "Dan asks Ann for 2S: yes")
        before = allowed(t)
        push(t, "Dan asks Ann for 3S: no")  # Dan holds 2S publicly: no new clause about low spades
        assert clauses(t) == {one_of(LOW[2:], DAN)}  # only the old one, without 3S that Dan lacks
        assert changed(before, allowed(t)) == {"3S": BOB | CAT}

    def test_the_clause_leaves_out_cards_that_moved_to_someone_else(self):
        t = tracker()
        push(t, "Dan asks Ann for 2S: yes", "Dan asks Ann for 9S: no", "Ann asks Bob for 4S: no")
        # Ann holds another low spade: not 2S (publicly with Dan), so one she was dealt and still has.
        assert one_of(["3S", "5S", "6S", "7S"], ANN) in clauses(t)
        assert allowed(t)["4S"] == CAT | DAN

    def test_answers_about_moved_cards_add_nothing(self):
        t = tracker()
        push(t, "Dan asks Ann for 2S: yes", "Dan asks Ann for 9S: no", "Ann asks Dan for 2S: yes")
        assert allowed(t)["2S"] == ANN and t.public.known[Card.parse("2S")] == 0
        before = state(t)
        push(t, "Ann asks Bob for 5S: no")  # 2S, publicly back with Ann, is her other low spade: no new clause
        assert allowed(t)["2S"] == ANN
        assert clauses(t) == {clause - {("5S", ANN)} for clause in before[1]}  # Ann lacks 5S
        assert changed(before[0], allowed(t)) == {"5S": CAT | DAN}

    def test_must_declare_says_the_asker_held_no_whole_set(self):
        t = tracker("must-declare=on")
        push(t, "Dan asks Ann for 2S: no")
        # Low spades: 2S is not Dan's, so that clause holds already. High spades: one is not Dan's.
        assert clauses(t) == {one_of(LOW[1:], DAN), one_of(HIGH, ANN | BOB | CAT)}

    def test_without_must_declare_nothing_is_said_about_other_sets(self):
        t = tracker()
        push(t, "Dan asks Ann for 2S: no")
        assert not any(card in HIGH for clause in clauses(t) for card, _ in clause)

    def test_a_yes_for_a_card_the_target_lacked_is_impossible(self):
        t = tracker()
        push(t, "Dan asks Ann for 2S: no")
        before = state(t)
        with pytest.raises(InconsistentError):
            push(t, "Ann asks Dan for 2S: yes")
        assert state(t) == before


class TestClaims:
    CLAIM = "Ann claims HS: Ann 9S 10S JS; Cat QS KS AS => opponents (Ann 9S 10S; Bob JS QS; Dan KS AS)"

    def test_a_wrong_claim_fixes_every_revealed_card(self):
        t = tracker()
        push(t, "Dan asks Ann for 2S: no", self.CLAIM)
        assert {card: allowed(t)[card] for card in HIGH} == {
            "9S": ANN,
            "10S": ANN,
            "JS": BOB,
            "QS": BOB,
            "KS": DAN,
            "AS": DAN,
        }
        assert [str(card) for card in t.in_play()] == LOW
        assert t.public.claimed == {1: 1}

    def test_a_correct_claim_fixes_its_assignment(self):
        t = tracker()
        push(t, "Dan asks Ann for 2S: no", "Ann claims HS: Ann 9S 10S JS; Cat QS KS AS => correct")
        assert {card: allowed(t)[card] for card in HIGH} == {
            "9S": ANN,
            "10S": ANN,
            "JS": ANN,
            "QS": CAT,
            "KS": CAT,
            "AS": CAT,
        }

    def test_a_moved_card_is_revealed_where_it_went(self):
        t = tracker()
        push(t, "Dan asks Ann for 9S: yes")
        assert allowed(t)["9S"] == ANN
        push(t, "Dan claims HS: Dan 9S 10S JS; Bob QS KS AS => correct")
        assert allowed(t)["9S"] == ANN  # dealt to Ann, claimed from Dan
        assert {card: allowed(t)[card] for card in HIGH[1:]} == {"10S": DAN, "JS": DAN, "QS": BOB, "KS": BOB, "AS": BOB}

    def test_a_claim_contradicting_the_model_changes_nothing(self):
        t = tracker()
        push(t, "Dan asks Ann for 9S: no")  # Ann lacks 9S
        before = state(t)
        with pytest.raises(InconsistentError):
            push(t, "Ann claims HS: Ann 9S 10S JS; Cat QS KS AS => correct")
        assert state(t) == before

    def test_a_pass_adds_nothing(self):
        t = tracker("after-claim=team-picks")
        push(
            t,
            "Dan asks Ann for 2S: no",
            "Ann claims HS: Ann 9S 10S JS; Cat QS KS AS => opponents (Ann 9S; Bob 10S JS; Dan QS; Cat KS AS)",
        )
        before = state(t)
        push(t, "Ann passes to Cat")
        assert state(t)[:2] == before[:2] and t.public.to_move == 2


class TestObserverAndUndo:
    def test_the_observers_hand_is_placed_and_nothing_else_is_theirs(self):
        t = tracker(observer=0, hand="2S 9S 10S")
        assert allowed(t) == {card: ANN if card in ("2S", "9S", "10S") else BOB | CAT | DAN for card in LOW + HIGH}
        assert clauses(t) == set()

    def test_a_spectator_has_no_hand(self):
        with pytest.raises(ValueError):
            tracker(hand="2S")

    def test_an_event_the_observers_hand_contradicts_is_illegal_and_changes_nothing(self):
        t = tracker(observer=0, hand="2S 9S 10S")
        before = state(t)
        with pytest.raises(IllegalEventError):
            push(t, "Dan asks Ann for 3S: yes")
        assert state(t) == before

    @pytest.mark.parametrize("rules", ["", "bluff=on", "must-declare=on", "wrong-claim=opponents"])
    def test_pop_restores_the_model_event_by_event(self, rules):
        t = tracker(rules)
        lines = [
            "Dan asks Ann for 2S: yes",
            "Dan asks Ann for 9S: no",
            "Ann asks Dan for 3S: no",
            "Dan asks Cat for 4S: no",
            "Cat claims LS: Ann 2S 3S 4S; Cat 5S 6S 7S => opponents (Dan 2S 5S; Cat 3S; Bob 4S; Ann 6S 7S)",
        ]
        states = [state(t)]
        for line in lines:
            push(t, line)
            states.append(state(t))
        assert len(set(map(repr, states))) == len(states)  # every event changed something
        for expected in reversed(states[:-1]):
            t.pop()
            assert state(t) == expected


class TestExplain:
    def test_each_event_that_rules_a_holder_out_is_listed_with_what_it_ruled_out(self):
        t = tracker()
        push(t, "Dan asks Ann for 2S: no", "Ann asks Bob for 3S: no", "Bob asks Cat for 2S: yes")
        assert t.explain(Card.parse("2S")) == [(0, ANN | DAN), (2, BOB)]  # then dealt to Cat
        assert t.explain(Card.parse("3S")) == [(1, ANN | BOB)]
        assert t.explain(Card.parse("9S")) == []

    def test_a_card_placed_through_a_clause_names_the_event_that_left_it_alone(self):
        t = tracker()
        # Dan held a low spade; asking for every other one but 7S leaves 7S as the one he held.
        push(
            t,
            "Dan asks Ann for 2S: no",
            "Ann asks Dan for 9S: no",
            "Dan asks Ann for 3S: no",
            "Ann asks Dan for 10S: no",
            "Dan asks Ann for 4S: no",
            "Ann asks Dan for JS: no",
            "Dan asks Ann for 5S: no",
            "Ann asks Dan for QS: no",
            "Dan asks Ann for 6S: no",
        )
        assert t.explain(Card.parse("7S")) == [(8, ANN | BOB | CAT)]
