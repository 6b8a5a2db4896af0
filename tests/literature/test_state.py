"""The rules of play, as the referee (State), the public state and a player's view enforce them."""

import random
from dataclasses import replace

import pytest

from cardlogic.cards import Card, card_mask, parse_cards
from cardlogic.literature import (
    Ask,
    Claim,
    Game,
    GameError,
    IllegalEventError,
    Pass,
    PlayerState,
    PublicState,
    Result,
    State,
    read_record,
)

from .helpers import mini, play, rejection

C = Card.parse
ANN, BOB, CAT, DAN = range(4)

# Dan collects cards of Cat and Ann, then Bob empties Cat (events on lines 10-19): Ann 2S 3S 4S,
# Cat nothing, Bob 5S 6S 7S 10S 4H 5H, Dan QS KS AS 7H JS 6H 9S 2H 3H; Bob to move.
CAT_EMPTY = """\
Dan asks Cat for JS: yes
Dan asks Cat for 6H: yes
Dan asks Ann for 9S: yes
Dan asks Ann for 2H: yes
Dan asks Ann for 3H: yes
Dan asks Ann for 10S: no
Ann asks Bob for 4S: yes
Ann asks Bob for 6S: no
Bob asks Cat for 6S: yes
Bob asks Cat for 7S: yes
"""
# ... then Bob takes Ann's cards too (lines 20-22): team 0 has none left.
TEAM_EMPTY = CAT_EMPTY + "".join(f"Bob asks Ann for {card}: yes\n" for card in ("2S", "3S", "4S"))

# Dan can gather all of low-hearts; Bob, Cat and Dan hold high-spades.
GATHER = """\
Players: Ann Bob Cat Dan
Sets: LS HS LH
Dealer: Dan
Rules: {rules}
Hand Ann: 2S 3S 4S 5S 4H
Hand Bob: 6S 7S 9S 10S JS
Hand Cat: QS KS 2H 3H
Hand Dan: AS 5H 6H 7H
"""
DAN_HAS_LOW_HEARTS = "Dan asks Cat for 2H: yes\nDan asks Cat for 3H: yes\nDan asks Ann for 4H: yes\n"


def snapshot(state):
    public = state.public if hasattr(state, "public") else state
    hands = state.hands if isinstance(state, State) else getattr(state, "hand", None)
    return (
        public.to_move,
        public.sizes,
        dict(public.claimed),
        dict(public.known),
        public.history,
        public.scores,
        public.may_pass,
        hands,
    )


class TestAsking:
    def test_the_dealer_asks_first(self):
        assert play().to_move == DAN

    def test_yes_moves_the_card_and_the_asker_asks_again(self):
        state = play("Dan asks Ann for 9S: yes")
        assert state.to_move == DAN
        assert state.public.sizes == (4, 5, 4, 5)
        assert state.public.known == {C("9S"): DAN}
        assert state.hands[DAN] & C("9S").mask and not state.hands[ANN] & C("9S").mask

    def test_no_passes_the_turn_to_the_target(self):
        state = play("Dan asks Ann for 10S: no")
        assert state.to_move == ANN and state.public.sizes == (5, 5, 4, 4) and not state.public.known

    def test_the_referee_fills_in_the_answer(self):
        state = play()
        assert state.push(Ask(DAN, ANN, C("9S"))) == Ask(DAN, ANN, C("9S"), yes=True)
        assert state.push(Ask(DAN, CAT, C("10S"))) == Ask(DAN, CAT, C("10S"), yes=False)

    @pytest.mark.parametrize(
        "events, line, message",
        [
            ("Ann asks Bob for 4S: yes", 10, "it is Dan's turn, not Ann's"),
            ("Dan asks Bob for 4S: yes", 10, "Dan cannot ask their teammate Bob"),
            ("Dan asks Dan for 4S: yes", 10, "Dan cannot ask themself"),
            ("Dan asks Ann for 2S: yes", 10, "Dan holds no other card of low-spades"),
            ("Dan asks Ann for KS: no", 10, "Dan holds KS and cannot ask for it"),
            ("Dan asks Ann for 9S: no", 10, "the answer no is impossible: 9S is with Ann"),
            ("Dan asks Ann for 10S: yes", 10, "the answer yes is impossible: 10S is with Bob"),
            ("Dan asks Ann for 9S: yes\nDan asks Ann for 9S: no", 11, "Dan holds 9S"),
            (CAT_EMPTY + "Bob asks Cat for 2S: no", 20, "Bob cannot ask Cat: they have no cards"),
            (TEAM_EMPTY + "Bob asks Ann for 9S: no", 23, "only claims are possible: Bob's opponents have no cards"),
        ],
    )
    def test_illegal_asks(self, events, line, message):
        error = rejection(events)
        assert (error.line, error.message) == (line, message) or (error.line == line and message in error.message)

    def test_bluff_lets_a_player_ask_for_a_card_they_hold(self):
        state = play("Dan asks Ann for KS: no", rules="bluff=on")
        assert state.to_move == ANN and state.hands[DAN] & C("KS").mask
        assert "KS is with Dan" in rejection("Dan asks Ann for KS: yes", rules="bluff=on").message

    def test_bluff_still_needs_another_card_of_the_set(self):
        assert "holds no other card" in rejection("Dan asks Ann for 2S: no", rules="bluff=on").message

    def test_asking_about_a_claimed_set(self):
        events = "Dan claims high-spades: Dan 9S 10S JS QS KS AS => opponents (Ann 9S; Bob 10S; Cat JS; Dan QS KS AS)"
        state = play(events)
        with pytest.raises(IllegalEventError, match="high-spades is already claimed"):
            state.push(Ask(DAN, ANN, C("9S")))

    def test_cards_outside_the_deck(self):
        with pytest.raises(IllegalEventError, match="8S is not in play"):
            play().push(Ask(DAN, ANN, C("8S")))
        with pytest.raises(IllegalEventError, match="no player has index 7"):
            play().push(Ask(DAN, 7, C("9S")))


class TestMustDeclare:
    def test_a_player_holding_a_whole_set_must_claim_it_before_asking(self):
        error = rejection(DAN_HAS_LOW_HEARTS + "Dan asks Cat for KS: yes", "must-declare=on", GATHER)
        assert error.line == 13 and "Dan holds all of low-hearts and must claim it" in error.message

    def test_without_the_rule_asking_is_fine(self):
        assert play(DAN_HAS_LOW_HEARTS + "Dan asks Cat for KS: yes", header=GATHER).to_move == DAN

    def test_claiming_first_is_fine(self):
        state = play(
            DAN_HAS_LOW_HEARTS + "Dan claims LH: Dan 2H 3H 4H 5H 6H 7H => correct\nDan asks Cat for KS: yes",
            "must-declare=on",
            GATHER,
        )
        assert state.public.claimed == {2: 1}

    def test_the_public_cannot_know_and_the_player_can(self):
        record = read_record(
            GATHER.format(rules="must-declare=on") + "\n" + DAN_HAS_LOW_HEARTS + "Dan asks Cat for KS: yes"
        )
        spectator = replace(record, hands={})
        assert spectator.check() == []
        assert [line for line, _ in record.view_as("Dan").check()] == [13]
        assert record.view_as("Ann").check() == []


class TestClaims:
    GATHER_HS = "Dan asks Cat for JS: yes\nDan asks Ann for 9S: yes\n"  # team 1 now holds all of high-spades

    @pytest.mark.parametrize(
        "claim, outcome, claimed",
        [
            ("Dan claims HS: Bob 10S; Dan 9S JS QS KS AS => correct", "correct", {1: 1}),
            ("Dan claims HS: Dan 9S 10S JS QS KS AS => void (Bob 10S; Dan 9S JS QS KS AS)", "void", {1: None}),
        ],
    )
    def test_outcomes_when_the_team_holds_the_set(self, claim, outcome, claimed):
        state = play(self.GATHER_HS + claim)
        assert state.public.history[-1].outcome == outcome and state.public.claimed == claimed
        assert state.public.sizes == (4, 4, 3, 1)

    def test_a_void_claim_goes_to_the_opponents_under_wrong_claim_opponents(self):
        claim = "Dan claims HS: Dan 9S 10S JS QS KS AS => opponents (Bob 10S; Dan 9S JS QS KS AS)"
        state = play(self.GATHER_HS + claim, rules="wrong-claim=opponents")
        assert state.public.claimed == {1: 0} and state.public.scores == (1, 0)
        error = rejection(self.GATHER_HS + claim.replace("opponents (", "void ("), rules="wrong-claim=opponents")
        assert "no claim is void under wrong-claim=opponents" in error.message

    @pytest.mark.parametrize("rules", ["wrong-claim=split", "wrong-claim=opponents"])
    def test_a_claim_missing_an_opponents_card_is_lost(self, rules):
        state = play(
            "Dan claims HS: Dan 9S 10S JS QS KS AS => opponents (Ann 9S; Bob 10S; Cat JS; Dan QS KS AS)", rules=rules
        )
        assert state.public.claimed == {1: 0} and state.public.scores == (1, 0)
        assert state.public.sizes == (4, 4, 3, 1) and state.to_move == DAN

    def test_the_referee_fills_in_outcome_and_revealed_holders(self):
        state = play(self.GATHER_HS)
        cards = parse_cards("9S 10S JS QS KS AS")
        claim = state.push(Claim(DAN, 1, tuple((card, DAN) for card in cards)))
        assert claim.outcome == "void"
        assert dict(claim.revealed) == {**dict.fromkeys(cards, DAN), C("10S"): BOB}

    @pytest.mark.parametrize(
        "claim, message",
        [
            ("Dan claims HS: Bob 10S; Dan 9S JS QS KS AS => void", "the claim is correct"),
            ("Dan claims HS: Dan 9S 10S JS QS KS AS => correct", "10S is with Bob, not Dan"),
            ("Dan claims HS: Dan 9S 10S JS QS KS AS => opponents (Bob 10S; Dan 9S JS QS KS AS)", "the claim is void"),
            ("Dan claims HS: Dan 9S 10S JS QS KS AS => void (Bob 10S JS; Dan 9S QS KS AS)", "JS is with Dan, not Bob"),
            ("Dan claims HS: Ann 9S; Dan 10S JS QS KS AS => opponents", "cannot place cards with Ann"),
            ("Dan claims HS: Dan 9S 10S JS QS KS => opponents", "leaves out AS of high-spades"),
            ("Dan claims HS: Dan 9S 10S JS QS KS AS AS => opponents", "names AS twice"),
            ("Dan claims HS: Dan 9S 10S JS QS KS AS 2H => opponents", "2H is not in high-spades"),
            (
                "Dan claims HS: Bob 10S; Dan 9S JS QS KS AS => correct\nDan claims HS: Dan 9S 10S JS QS KS AS => void",
                "high-spades is already claimed",
            ),
        ],
    )
    def test_bad_claims(self, claim, message):
        error = rejection(self.GATHER_HS + claim)
        assert message in error.message and error.line == 12 + claim.count("\n")

    def test_a_claim_is_made_on_ones_turn(self):
        assert "it is Dan's turn, not Ann's" in rejection("Ann claims LS: Ann 2S 3S 4S 5S 6S 7S => opponents").message

    def test_claimed_cards_leave_play_and_known(self):
        state = play(self.GATHER_HS + "Dan claims HS: Bob 10S; Dan 9S JS QS KS AS => correct")
        assert not state.public.known and not any(h & state.game.deck.sets[1].mask for h in state.hands)


class TestTurnAfterClaims:
    CLAIM = "Dan claims HS: Dan 9S 10S JS QS KS AS => opponents (Ann 9S; Bob 10S; Cat JS; Dan QS KS AS)\n"
    TEAM_PICKS = "after-claim=team-picks"
    # Dan's whole hand is low spades, half of them with Bob, so claiming them leaves Dan without cards.
    DAN_EMPTIES = """\
Players: Ann Bob Cat Dan
Sets: LS HS LH
Dealer: Dan
Rules: {rules}
Hand Ann: QS KS AS 2H 3H
Hand Bob: 6S 7S 9S 10S JS
Hand Cat: 4H 5H 6H 7H
Hand Dan: 2S 3S 4S 5S
"""
    DAN_CLAIMS_LS = "Dan claims LS: Dan 2S 3S 4S 5S; Bob 6S 7S => correct\n"

    def test_the_claimer_keeps_the_turn_with_cards(self):
        state = play(self.CLAIM)
        assert state.to_move == DAN and state.public.sizes[DAN] == 1 and not state.public.may_pass
        assert not any(isinstance(e, Pass) for e in state.legal_events())
        message = rejection(self.CLAIM + "Dan passes to Bob").message
        assert message == (
            "Dan keeps the turn after their claim while they have cards (after-claim=continue; "
            "Rules: after-claim=team-picks lets the team pick who asks next)"
        )

    def test_a_claimer_without_cards_must_pass_to_a_teammate_with_cards(self):
        for rules in ("", self.TEAM_PICKS):
            state = play(self.DAN_CLAIMS_LS, rules, self.DAN_EMPTIES)
            assert state.to_move == DAN and state.public.may_pass and state.legal_events() == [Pass(DAN, BOB)]
            assert play(self.DAN_CLAIMS_LS + "Dan passes to Bob", rules, self.DAN_EMPTIES).to_move == BOB
            error = rejection(self.DAN_CLAIMS_LS + "Dan asks Ann for 9S: no", rules, self.DAN_EMPTIES)
            assert error.message == "Dan has no cards and must pass the turn to a teammate"

    def test_under_team_picks_the_claimer_may_pass_once(self):
        state = play(self.CLAIM + "Dan passes to Bob", self.TEAM_PICKS)
        assert state.to_move == BOB and not state.public.may_pass
        message = rejection(self.CLAIM + "Dan passes to Bob\nBob passes to Dan", self.TEAM_PICKS).message
        assert "only right after their own claim" in message
        assert "only right after their own claim" in rejection("Dan passes to Bob", self.TEAM_PICKS).message

    @pytest.mark.parametrize(
        "event, message",
        [
            ("Dan passes to Ann", "Dan cannot pass to Ann: not a teammate"),
            ("Dan passes to Dan", "Dan cannot pass to Dan: not a teammate"),
        ],
    )
    def test_passes_go_to_teammates(self, event, message):
        assert message in rejection(self.CLAIM + event, self.TEAM_PICKS).message

    def test_asking_after_a_claim_ends_the_chance_to_pass(self):
        state = play(self.CLAIM + "Dan asks Ann for 2H: yes", self.TEAM_PICKS)
        assert (
            not state.public.may_pass
            and state.legal_events()
            and all(not isinstance(e, Pass) for e in state.legal_events())
        )

    @pytest.mark.parametrize("rules", ["", TEAM_PICKS])
    def test_once_the_opponents_have_no_cards_the_mover_claims_every_set_alone(self, rules):
        events = TEAM_EMPTY + "Bob claims LS: Bob 2S 3S 4S 5S 6S 7S => correct\n"
        state = play(events, rules)
        assert state.to_move == BOB and state.public.endgame and not state.public.may_pass
        message = rejection(events + "Bob passes to Dan", rules).message
        assert message == "Bob cannot pass: the opponents have no cards, so Bob claims every set left alone"
        events += "Bob claims HS: Bob 10S; Dan 9S JS QS KS AS => correct\n"
        events += "Bob claims LH: Bob 4H 5H; Dan 2H 3H 6H 7H => correct\n"
        assert play(events, rules).result() == Result((0, 3), 1)

    @pytest.mark.parametrize("rules", ["", TEAM_PICKS])
    def test_a_mover_left_without_cards_in_the_endgame_still_claims_alone(self, rules):
        header = """\
Players: Ann Bob Cat Dan
Sets: LS HS LH
Sizes: Ann=3 Bob=6 Cat=3 Dan=6
Rules: {rules}
Hand Ann: AS 2H 3H
Hand Bob: 9S 10S JS QS KS 7H
Hand Cat: 4H 5H 6H
Hand Dan: 2S 3S 4S 5S 6S 7S
"""
        asks = (("Ann", "AS"), ("Ann", "2H"), ("Ann", "3H"), ("Cat", "4H"), ("Cat", "5H"), ("Cat", "6H"))
        events = "".join(f"Bob asks {whom} for {card}: yes\n" for whom, card in asks)
        events += "Bob claims HS: Bob 9S 10S JS QS KS AS => correct\nBob claims LH: Bob 2H 3H 4H 5H 6H 7H => correct\n"
        state = play(events, rules, header)
        assert state.public.sizes == (0, 0, 0, 6) and state.to_move == BOB and not state.public.may_pass
        assert [type(e) for e in state.legal_events()] == [Claim]
        assert "Bob cannot pass" in rejection(events + "Bob passes to Dan", rules, header).message
        state = play(events + "Bob claims LS: Dan 2S 3S 4S 5S 6S 7S => correct", rules, header)
        assert state.result() == Result((0, 3), 1)

    OUT_OF_TURN = "Ann claims LH: Ann 2H 3H; Cat 4H 5H 6H 7H => opponents (Ann 2H 3H; Bob 4H 5H; Cat 6H; Dan 7H)\n"

    def test_claims_on_any_turn_under_claim_anytime(self):
        assert rejection(self.OUT_OF_TURN).message == "it is Dan's turn, not Ann's"
        state = play(self.OUT_OF_TURN, "claim-anytime=on")
        assert state.to_move == ANN and state.public.claimed == {2: 1} and not state.public.may_pass
        state = play(self.OUT_OF_TURN, "claim-anytime=on after-claim=team-picks")
        assert state.to_move == ANN and state.public.may_pass
        error = rejection(self.OUT_OF_TURN + "Bob asks Ann for 2S: no", "claim-anytime=on")
        assert error.message == "it is Ann's turn, not Bob's"

    def test_an_out_of_turn_claim_needs_cards_and_opponents_with_cards(self):
        events = self.DAN_CLAIMS_LS + "Dan passes to Bob\nDan claims HS: Bob 9S 10S JS; Dan QS KS AS => opponents\n"
        assert "it is Bob's turn, not Dan's" in rejection(events, "claim-anytime=on", self.DAN_EMPTIES).message
        events = TEAM_EMPTY + "Dan claims LS: Bob 2S 3S 4S 5S 6S 7S => correct\n"
        assert rejection(events, "claim-anytime=on").message == "it is Bob's turn, not Dan's"

    def test_forced_claims_when_a_team_has_no_cards(self):
        state = play(TEAM_EMPTY)
        assert state.public.team_cards(0) == 0 and state.to_move == BOB
        assert all(isinstance(e, Claim) for e in state.legal_events())
        assert {e.set_index for e in state.legal_events()} == {0, 1, 2}

    def test_when_the_claiming_team_runs_out_the_opponents_move(self):
        events = CAT_EMPTY + "Bob asks Ann for 9S: no\n"
        events += "Ann claims LS: Ann 2S 3S 4S 5S 6S 7S => opponents (Ann 2S 3S 4S; Bob 5S 6S 7S)\n"
        state = play(events)
        assert state.public.team_cards(0) == 0 and state.to_move == BOB and not state.public.may_pass
        assert state.public.claimed == {0: 1}
        assert "only right after their own claim" in rejection(events + "Bob passes to Dan").message

    def test_the_next_opponent_after_the_claimer_moves(self):
        text = """\
Players: Ann Bob Cat Dan Eve Fay
Sets: LS HS
Dealer: Eve
Hand Ann: 2S 3S
Hand Bob: 9S 10S
Hand Cat: 4S 5S
Hand Dan: JS QS
Hand Eve: 6S 7S
Hand Fay: KS AS

Eve claims LS: Ann 2S 3S; Cat 4S 5S; Eve 6S 7S => correct
"""
        state = read_record(text).replay()
        assert state.to_move == 5 and not state.public.may_pass and state.public.scores == (1, 0)


class TestScoring:
    TIE = (
        DAN_HAS_LOW_HEARTS
        + """\
Dan claims LH: Dan 2H 3H 4H 5H 6H 7H => correct
Dan passes to Bob
Bob asks Ann for 2S: yes
Bob asks Ann for 3S: yes
Bob asks Ann for 4S: yes
Bob asks Ann for 5S: yes
Bob claims LS: Bob 2S 3S 4S 5S 6S 7S => correct
Bob claims HS: Bob 9S 10S JS QS KS; Dan AS => opponents (Bob 9S 10S JS; Cat QS KS; Dan AS)
"""
    )

    def test_high_sets_score_double(self):
        state = play(self.TIE, "high-double=on after-claim=team-picks", GATHER)
        assert state.is_over and state.public.scores == (2, 2) and state.result() == Result((2, 2), None)

    def test_without_high_double(self):
        assert play(self.TIE, "after-claim=team-picks", GATHER).result() == Result((1, 2), 1)

    def test_void_sets_score_nothing(self):
        claim = "Dan claims HS: Dan 9S 10S JS QS KS AS => void (Bob 10S; Dan 9S JS QS KS AS)"
        state = play(TestClaims.GATHER_HS + claim)
        assert state.public.scores == (0, 0) and not state.is_over

    def test_result_needs_a_finished_game(self):
        with pytest.raises(ValueError, match="not over"):
            play().result()


class TestPushAndPop:
    def test_pop_restores_the_exact_state(self):
        record = mini(
            TestTurnAfterClaims.CLAIM + "Dan passes to Bob\nBob asks Ann for 2S: yes\n", "after-claim=team-picks"
        )
        state = record.start()
        before = []
        for event in record.events:
            before.append(snapshot(state))
            state.push(event)
        for event in reversed(record.events):
            assert state.pop() == event
            assert snapshot(state) == before.pop()
        with pytest.raises(IndexError):
            state.pop()

    @pytest.mark.parametrize(
        "event",
        [
            Ask(ANN, BOB, C("4S")),
            Ask(DAN, ANN, C("9S"), yes=False),
            Claim(DAN, 1, ((C("9S"), DAN),), outcome="correct"),
            Pass(DAN, BOB),
            Ask(DAN, ANN, C("8S")),
            "not an event",
        ],
    )
    def test_a_rejected_event_changes_nothing(self, event):
        referee = play()
        states = (referee, PublicState(referee.game), PlayerState(referee.game, DAN, referee.hands[DAN]))
        for state in states:
            before = snapshot(state)
            try:
                state.push(event)
            except IllegalEventError:
                assert snapshot(state) == before
            else:
                assert state is not referee, "the referee must reject it"
                state.pop()

    def test_legal_events_can_all_be_pushed(self):
        for events in ("", CAT_EMPTY, TEAM_EMPTY, TestTurnAfterClaims.CLAIM):
            state = play(events)
            legal = state.legal_events()
            assert legal
            for event in legal:
                before = snapshot(state)
                state.push(event)
                state.pop()
                assert snapshot(state) == before

    def test_legal_asks_at_the_start(self):
        asks = [e for e in play().legal_events() if isinstance(e, Ask)]
        # Dan holds QS KS AS (ask 9S 10S JS) and 7H (ask 2H..6H) of Ann and Cat: 8 cards x 2 targets.
        assert len(asks) == 16 and {e.target for e in asks} == {ANN, CAT}
        # With bluff, Dan may also ask for QS KS AS, but still not for 7H, his only low heart.
        assert len([e for e in play(rules="bluff=on").legal_events() if isinstance(e, Ask)]) == 22


class TestPublicState:
    def test_asks_need_answers_and_wrong_claims_revealed_holders(self):
        state = PublicState(play().game)
        with pytest.raises(IllegalEventError, match="needs its answer"):
            state.push(Ask(DAN, ANN, C("9S")))
        claim = Claim(DAN, 1, tuple((card, DAN) for card in parse_cards("9S 10S JS QS KS AS")), outcome="opponents")
        with pytest.raises(IllegalEventError, match="revealed holders"):
            state.push(claim)
        with pytest.raises(IllegalEventError, match="needs its outcome"):
            state.push(replace(claim, outcome=None))

    def test_known_cards_and_sizes_decide_what_is_certain(self):
        state = PublicState(play().game)
        state.push(Ask(DAN, ANN, C("9S"), yes=True))
        with pytest.raises(IllegalEventError, match="Dan holds 9S and cannot ask"):
            state.push(Ask(DAN, CAT, C("9S"), yes=False))
        state.push(Ask(DAN, CAT, C("JS"), yes=False))
        assert state.to_move == CAT
        # Cat asks Dan for 9S: everyone saw it move to Dan, so the answer is yes.
        with pytest.raises(IllegalEventError, match="the answer no is impossible: 9S is with Dan"):
            state.push(Ask(CAT, DAN, C("9S"), yes=False))
        assert state.push(Ask(CAT, DAN, C("9S"))) == Ask(CAT, DAN, C("9S"), yes=True)

    def test_what_is_certain_publicly(self):
        record = mini(CAT_EMPTY)
        state = PublicState(record.game)
        for event in record.events:
            state.push(event)
        assert state.holder_of(C("JS")) == DAN and state.holder_of(C("2S")) is None
        assert not state.may_hold(CAT, C("2S")) and not state.may_hold(ANN, C("JS"))
        assert state.may_hold(ANN, C("2S")) and state.may_hold(BOB, C("2S"))
        assert state.sizes == (3, 6, 0, 9)

    def test_a_claim_is_public_when_all_holders_are_known(self):
        record = mini(TestClaims.GATHER_HS)
        state = PublicState(record.game)
        for event in record.events:
            state.push(event)
        assert state.known == {C("JS"): DAN, C("9S"): DAN}
        claim = Claim(DAN, 1, tuple((card, DAN) for card in parse_cards("9S 10S JS QS KS AS")), outcome="void")
        with pytest.raises(IllegalEventError, match="revealed holders"):
            state.push(claim)

    def test_a_dealerless_game_starts_with_whoever_acts(self):
        game = Game(("Ann", "Bob", "Cat", "Dan"), dealer=None, sizes=(12, 12, 12, 12))
        state = PublicState(game)
        assert state.to_move is None
        with pytest.raises(IllegalEventError, match="only right after their own claim"):
            state.push(Pass(ANN, CAT))
        state.push(Ask(CAT, DAN, C("5S"), yes=False))
        assert state.to_move == DAN

    def test_movers_tell_not_started_from_over(self):
        dealerless = PublicState(Game(("Ann", "Bob", "Cat", "Dan"), dealer=None, sizes=(12, 12, 12, 12)))
        assert dealerless.to_move is None and dealerless.movers == (ANN, BOB, CAT, DAN)
        state = play()
        assert state.public.movers == (DAN,)
        while not state.is_over:
            state.push(_claim_anything(state) if state.hands[state.to_move] else state.legal_events()[0])
        assert state.to_move is None and state.public.movers == () and state.legal_events() == []


def _claim_anything(state: State) -> Claim:
    """A claim of the first unclaimed set by the player to move, each card placed with the claimer."""
    mover, index = state.to_move, state.public.unclaimed[0]
    return Claim(mover, index, tuple((card, mover) for card in state.game.deck.sets[index].cards))


class TestPlayerState:
    def test_legal_events_of_the_view_are_the_referees_for_that_player(self):
        state = play()
        view = PlayerState(state.game, DAN, state.hands[DAN])
        referee_asks = [e for e in state.legal_events() if isinstance(e, Ask)]
        assert [e for e in view.legal_events() if isinstance(e, Ask)] == referee_asks
        assert view.legal_asks(DAN) == sorted(
            referee_asks, key=lambda a: (state.game.deck.set_index_of(a.card), a.card)
        )
        assert view.legal_asks(ANN) == [] and PlayerState(state.game, ANN, state.hands[ANN]).legal_events() == []

    def test_bluff_asks_are_listed_only_when_asked_for(self):
        state = play(rules="bluff=on")
        view = PlayerState(state.game, DAN, state.hands[DAN])
        bluffs = [a for a in view.legal_asks(DAN, bluffs=True) if view.hand >> a.card & 1]
        assert len(bluffs) == 6 and not any(view.hand >> a.card & 1 for a in view.legal_asks(DAN))

    def test_a_view_lists_only_the_claims_it_knows_to_be_correct(self):
        record = mini(TestClaims.GATHER_HS)
        referee = play(TestClaims.GATHER_HS)
        view = PlayerState(record.game, DAN, card_mask(record.hands[DAN]))
        for event in record.events:
            view.push(event)
        assert [e.set_index for e in referee.legal_events() if isinstance(e, Claim)] == [1]
        assert not [e for e in view.legal_events() if isinstance(e, Claim)]  # 10S is Bob's: Dan cannot know it

    def test_answers_about_the_players_own_cards(self):
        record = mini("Dan asks Ann for 9S: no")
        view = record.view_as("Ann")
        assert [(line, "9S" in message) for line, message in view.check()] == [(10, True)]
        assert mini("Dan asks Ann for QS: yes").view_as("Ann").check()[0].message.startswith("the answer yes")
        assert (
            mini("Dan asks Cat for 9S: yes").view_as("Ann").check()[0].message
            == "the answer yes is impossible: 9S is with Ann"
        )
        assert mini("Dan asks Cat for 9S: no").view_as("Ann").check() == []

    def test_the_players_own_asks(self):
        view = mini("Dan asks Ann for 10S: no\nAnn asks Bob for 7H: no").view_as("Ann")
        assert "Ann holds no other card of low-hearts" not in str(view.check())
        view = mini("Dan asks Ann for 10S: no\nAnn asks Bob for 9S: no").view_as("Ann")
        assert view.check()[0].message.startswith("Ann holds 9S and cannot ask")
        view = mini("Dan asks Ann for 10S: no\nAnn asks Bob for 7H: no").view_as("Cat")
        assert view.check() == []

    def test_revealed_holders_must_agree_with_the_hand(self):
        claim = "Dan claims HS: Dan 9S 10S JS QS KS AS => opponents (Bob 9S 10S; Cat JS; Dan QS KS AS)"
        assert replace(mini(claim), hands={}, observer=None).check() == []
        assert mini(claim).view_as("Ann").check() == [(10, "9S is with Ann, not Bob")]
        assert mini(claim).view_as("Cat").check() == []  # Cat cannot know where 9S was

    def test_hand_must_fit_the_game(self):
        game = play().game
        with pytest.raises(GameError, match="dealt 5 cards, not 1"):
            PlayerState(game, ANN, C("2S").mask)
        with pytest.raises(GameError, match="not in play"):
            PlayerState(game, CAT, card_mask(parse_cards("2S 3S 4S 8S")))


class TestDeal:
    def test_deal_follows_the_dealing_rule(self):
        game = Game(("Ann", "Bob", "Cat", "Dan", "Eve"), dealer=2)
        state = State.shuffled(game, random.Random(5))
        assert tuple(h.bit_count() for h in state.hands) == game.sizes == (10, 9, 9, 10, 10)
        assert State.shuffled(game, random.Random(5)).hands == state.hands

    def test_dealerless_deal_uses_the_sizes(self):
        game = Game(("Ann", "Bob", "Cat", "Dan", "Eve"), sizes=(8, 10, 10, 10, 10))
        assert tuple(h.bit_count() for h in State.shuffled(game, random.Random(1)).hands) == game.sizes

    @pytest.mark.parametrize(
        "hands, message",
        [
            ([1, 2], "2 hands for 4 players"),
            ([0b11111, 0b11111 << 5, 0b1111 << 10, 0b1111 << 14], "the hands are not the deck"),
        ],
    )
    def test_bad_hands(self, hands, message):
        with pytest.raises(GameError, match=message):
            State(play().game, hands)

    def test_overlapping_and_wrong_sized_hands(self):
        hands = list(play().hands)
        with pytest.raises(GameError, match="dealt twice"):
            State(play().game, [hands[0], hands[0], hands[2], hands[3]])
        with pytest.raises(GameError, match="was dealt 5 cards, not 4"):
            State(play().game, [hands[0] & ~C("2S").mask, hands[1], hands[2] | C("2S").mask, hands[3]])
