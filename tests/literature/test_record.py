"""The record notation: reading, writing, views, and every malformed line reported with its number."""

from dataclasses import replace

import pytest

from cardlogic.cards import Card, parse_cards
from cardlogic.literature import (
    Ask,
    Claim,
    Game,
    InvalidEventError,
    Pass,
    PlayerState,
    Problem,
    PublicState,
    Record,
    RecordError,
    Rules,
    State,
    format_event,
    parse_event,
    read_record,
    scan_record,
    write_record,
)
from cardlogic.literature.decks import Deck

from .helpers import BRIEF, mini

C = Card.parse


class TestReading:
    def test_the_example_record(self):
        record = read_record(BRIEF)
        game = record.game
        assert game.players == ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay") and game.dealer == 5
        assert game.deck == Deck.named("no-8s") and game.rules == Rules(after_claim="team-picks")
        assert record.observer == 0 and record.hands == {0: tuple(parse_cards("2S 3S 9H 10H QC KD AD 4C"))}
        assert not record.is_full and record.lines == [8, 9, 10, 11, 12, 13, 14]
        assert record.events[:2] == [Ask(5, 0, C("5S"), False), Ask(0, 1, C("JH"), True)]
        assert record.events[4] == Claim(
            2, 2, ((C("2H"), 2), (C("3H"), 2), (C("4H"), 4), (C("5H"), 4), (C("6H"), 4), (C("7H"), 4)), "correct"
        )
        assert record.events[5] == Pass(2, 4)
        claim = record.events[6]
        assert claim.set_index == 1 and claim.outcome == "opponents"
        assert dict(claim.revealed) == {C("9S"): 4, C("10S"): 4, C("JS"): 1, C("QS"): 2, C("KS"): 2, C("AS"): 2}

    def test_spellings_comments_and_blank_lines(self):
        text = """\
# a comment line
players:  ann bob cat dan   # trailing comment
SETS: ls hs lh
dealer: DAN
rules: BLUFF=ON after-claim=TEAM-PICKS

hand Ann: 2s 3s 9♠ 2h 3h
HAND bob: 4S 5S ts 4♥ 5H
Hand cat: 6S 7S JS 6H
Hand dan: QS KS AS 7H

dan ASKS ann FOR 9s:YES
Dan asks Cat for 10S : no
cat claims low-SPADES: ann 2s 3s; Cat 4s 5s 6s 7s =>opponents(Ann 2S 3S; Bob 4S 5S; Cat 6S 7S)
cat passes to ANN
"""
        record = read_record(text)
        assert record.game.players == ("ann", "bob", "cat", "dan") and record.game.rules.bluff
        assert record.lines == [12, 13, 14, 15] and record.is_full
        assert (
            write_record(record)
            == """\
Players: ann bob cat dan
Deck: no-8s
Sets: LS HS LH
Dealer: dan
Rules: wrong-claim=split bluff=on must-declare=off high-double=off after-claim=team-picks claim-anytime=off
Hand ann: 2S 3S 9S 2H 3H
Hand bob: 4S 5S 10S 4H 5H
Hand cat: 6S 7S JS 6H
Hand dan: QS KS AS 7H

dan asks ann for 9S: yes
dan asks cat for 10S: no
cat claims low-spades: ann 2S 3S; cat 4S 5S 6S 7S => opponents (ann 2S 3S; bob 4S 5S; cat 6S 7S)
cat passes to ann
"""
        )
        assert record.check() == []

    def test_names_without_their_accents(self):
        """A name is read case and accents aside, as live reads it typed: ``zoe`` is Zoë."""
        text = "Players: Zoë Åsa Bob Dan\nSets: LS HS LH\nDealer: zoe\nMe: asa\nHand ASA: 3S AS 5H 6H 7H\n\n"
        record = read_record(text + "zoe asks dan for 2h: no\n")
        assert record.game.dealer == 0 and record.observer == 1
        assert write_record(record).endswith("Hand Åsa: 3S AS 5H 6H 7H\n\nZoë asks Dan for 2H: no\n")

    def test_teams_and_sizes_headers(self):
        text = """\
Players: Ann Bob Cat Dan Eve
Teams: Bob Cat | Ann Dan Eve
Sizes: Ann=8 Bob=10 Cat=10 Dan=10 Eve=10
"""
        record = read_record(text)
        assert record.game.teams == (1, 0, 0, 1, 1) and record.game.sizes == (8, 10, 10, 10, 10)
        assert record.game.dealer is None and record.hands == {} and record.events == []
        assert read_record("Players: Ann Bob Cat Dan Eve\nSizes: 8 10 10 10 10\n").game.sizes == (8, 10, 10, 10, 10)
        assert (
            write_record(record)
            == """\
Players: Ann Bob Cat Dan Eve
Deck: no-8s
Teams: Bob Cat | Ann Dan Eve
Sizes: Ann=8 Bob=10 Cat=10 Dan=10 Eve=10
Rules: wrong-claim=split bluff=off must-declare=off high-double=off after-claim=continue claim-anytime=off
"""
        )

    def test_sizes_may_confirm_the_dealer(self):
        assert read_record("Players: A B C D E\nDealer: E\nSizes: 10 10 10 9 9\n").game.sizes == (10, 10, 10, 9, 9)

    def test_defaults(self):
        game = read_record("Players: Ann Bob Cat Dan").game
        assert game == Game(("Ann", "Bob", "Cat", "Dan"))
        assert game.sizes == (12,) * 4 and game.teams == (0, 1, 0, 1)


def problems(text):
    return scan_record(text)[1]


HEAD = "Players: Ann Bob Cat Dan\nDealer: Dan\n"


class TestMalformedRecords:
    @pytest.mark.parametrize(
        "text, line, message",
        [
            ("Deck: no-8s\n", 1, "needs a Players header"),
            ("Players: Ann Bob Cat\n", 1, "4 to 12 players"),
            ("Players: Ann Bob ann Dan\n", 1, "two players are called ann"),
            ("Players: Zoë Bob Zoe Dan\n", 1, "Zoë and Zoe are typed alike (case and accents aside): rename one"),
            (HEAD + "Deck: no-9s\n", 3, "unknown deck 'no-9s'"),
            (HEAD + "Sets: LS XX\n", 3, "unknown set 'XX'"),
            (HEAD + "Sets: LS HS LH LS\n", 3, "the set low-spades is named twice"),
            (HEAD + "Sets: LS HS low-spades\n", 3, "the set low-spades is named twice"),
            (HEAD + "Colour: red\n", 3, "unknown header 'Colour'"),
            (HEAD + "Dealer: Ann\n", 3, "Dealer given twice (first on line 2)"),
            (HEAD + "Rules: bluff=maybe\n", 3, "bluff must be on or off"),
            (HEAD + "Teams: Ann Bob Cat Dan\n", 3, "two groups of names"),
            (HEAD + "Teams: Ann Cat | Bob Zed\n", 3, "unknown player 'Zed'"),
            (HEAD + "Teams: Ann Cat | Bob Dan Ann\n", 3, "Ann is listed twice"),
            (HEAD + "Teams: Ann Cat | Bob\n", 3, "Teams leaves out Dan"),
            (HEAD + "Teams: Ann Cat Bob Dan |\n", 3, "both teams need at least one player"),
            ("Players: Ann Bob Cat Dan\nDealer: Zed\n", 2, "unknown player 'Zed'"),
            ("Players: Ann Bob Cat Dan\nDealer: Ann Bob\n", 2, "Dealer must name one player"),
            ("Players: A B C D E\nSizes: 10 10 10 10\n", 2, "one number per player"),
            ("Players: A B C D E\nSizes: A=10 B=10 C=10 D=10\n", 2, "Sizes leaves out E"),
            ("Players: A B C D E\nSizes: A=10 B=10 C=x D=10 E=8\n", 2, "bad size 'C=x'"),
            ("Players: A B C D E\nSizes: 10 10 10 10 10\n", 2, "add up to 50, but the deck has 48"),
            ("Players: A B C D E\nDealer: A\nSizes: 10 10 10 9 9\n", 3, "dealing from A gives sizes"),
            ("Players: A B C D E\n", 1, "name a dealer or give sizes"),
            (HEAD + "Me: Zed\n", 3, "unknown player 'Zed'"),
            (HEAD + "Me: Ann\n", 3, "Me needs a 'Hand Ann:' line"),
            (HEAD + "Me: Ann\nHand Bob: 4S 5S 6S 7S 9S 10S JS QS KS AS 2H 3H\n", 4, "give every player's hand"),
            (HEAD + "Hand Zed: 2S\n", 3, "unknown player 'Zed'"),
            (HEAD + "Hand Ann: 2S 3S XS\n", 3, "unknown card 'XS'"),
            (HEAD + "Hand Ann: 2S 8S\n", 3, "8S is not in play in this deck"),
            (HEAD + "Hand Ann: 2S 3S\n", 3, "Ann was dealt 12 cards, not 2"),
            (HEAD + "Me: Ann\nHand Ann: 2S 3S 4S 5S 6S 7S 9S 10S JS QS KS 2S\n", 4, "2S is also in Ann's hand"),
        ],
    )
    def test_bad_set_up(self, text, line, message):
        found = problems(text)
        assert found and found[0].line == line and message in found[0].message, found
        with pytest.raises(RecordError) as info:
            read_record(text, source="game.txt")
        assert info.value.line == line and message in info.value.message
        assert str(info.value).startswith(f"game.txt:{line}: ")

    def test_hand_lines_that_clash(self):
        ann = "Hand Ann: 2S 3S 4S 5S 6S 7S 9S 10S JS QS KS AS\n"
        found = problems(HEAD + ann + ann.replace("Ann", "Bob"))
        assert found[0] == Problem(4, "2S is also in Ann's hand")
        assert problems(HEAD + "Me: Ann\n" + ann + ann)[0] == Problem(5, "Ann's hand is given twice")

    @pytest.mark.parametrize(
        "event, message",
        [
            ("Dan asks Ann", "not an event"),
            ("Dan asks Ann for 2S maybe", "not an event"),
            ("Dan asks Ann for 2S: maybe", "the answer must be yes or no, not 'maybe'"),
            ("Dan asks Ann for 2S", "the ask needs its answer"),
            ("Dan asks Zed for 2S: no", "unknown player 'Zed'"),
            ("Dan asks Ann for 2Z: no", "unknown card '2Z'"),
            ("Dan asks Ann for 8S: no", "8S is not in play in this deck"),
            ("Dan claims high-stars: Dan 9S => correct", "unknown set 'high-stars'"),
            ("Dan claims HS: Dan 9S 10S JS QS KS AS", "the claim needs its outcome"),
            ("Dan claims HS: Dan 9S 10S JS QS KS AS => lost", "the outcome must be one of correct, void, opponents"),
            ("Dan claims HS: Dan; Bob 9S 10S JS QS KS AS => void", "must be a name and its cards, not 'Dan'"),
            ("Dan claims HS: Dan 9S 10S JS QS KS AS => void (Dan)", "a name and its cards"),
            ("Dan claims HS Dan 9S => void", "not an event"),
            ("Dan passes Bob", "not an event"),
            ("Dan passes to Zed", "unknown player 'Zed'"),
            ("Hand Dan: 2S", "headers must come before the first event"),
        ],
    )
    def test_bad_event_lines(self, event, message):
        text = HEAD + "\nDan asks Ann for 2S: no\n" + event + "\n"
        found = problems(text)
        assert found == [Problem(5, found[0].message)] and message in found[0].message

    def test_every_malformed_line_is_reported_and_the_rest_is_read(self):
        text = HEAD + "\nDan asks Ann for 2S: no\nnonsense\nAnn asks Dan for 2Q: yes\nAnn passes to Cat\n"
        record, found = scan_record(text)
        assert [problem.line for problem in found] == [5, 6]
        assert record.events == [Ask(3, 0, C("2S"), False), Pass(0, 2)] and record.lines == [4, 7]
        with pytest.raises(RecordError) as info:
            read_record(text)
        assert info.value.line == 5 and [p.line for p in info.value.problems] == [5, 6]

    def test_a_set_up_that_makes_no_game_gives_no_record(self):
        record, found = scan_record("Players: Ann\nnonsense\n")
        assert record is None and [p.line for p in found] == [1]


class TestEvents:
    GAME = Game(("Ann", "Bob", "Cat", "Dan"), dealer=3)

    @pytest.mark.parametrize(
        "text, event",
        [
            ("Dan asks Ann for 10S", Ask(3, 0, C("10S"))),
            ("Dan asks Ann for 10S: no", Ask(3, 0, C("10S"), False)),
            ("Cat passes to Ann", Pass(2, 0)),
            (
                "Cat claims LS: Cat 2S 3S 4S; Ann 5S 6S 7S",
                Claim(
                    2, 0, tuple((card, 2 if i < 3 else 0) for i, card in enumerate(parse_cards("2S 3S 4S 5S 6S 7S")))
                ),
            ),
        ],
    )
    def test_parse_and_format(self, text, event):
        assert parse_event(text, self.GAME) == event
        assert format_event(event, self.GAME) == text.replace("LS", "low-spades")

    def test_claim_groups_follow_the_set_order(self):
        claim = parse_event("Cat claims LS: Ann 7S; Cat 6S 2S; Ann 3S 4S 5S => void", self.GAME)
        assert format_event(claim, self.GAME) == "Cat claims low-spades: Cat 2S 6S; Ann 3S 4S 5S 7S => void"

    def test_correct_claims_do_not_repeat_their_holders(self):
        text = "Cat claims low-spades: Cat 2S 3S 4S; Ann 5S 6S 7S => correct"
        claim = parse_event(text, self.GAME)
        assert claim.revealed == claim.assignment and format_event(claim, self.GAME) == text
        odd = replace(claim, revealed=tuple((card, 2) for card, _ in claim.assignment))
        assert format_event(odd, self.GAME).endswith("=> correct (Cat 2S 3S 4S 5S 6S 7S)")

    def test_invalid_event_error(self):
        with pytest.raises(InvalidEventError, match="unknown player 'Zed'"):
            parse_event("Zed passes to Ann", self.GAME)


class TestRecords:
    def test_full_record_round_trip(self):
        record = mini("Dan asks Ann for 9S: yes\nDan asks Cat for 10S: no")
        assert record.is_full and read_record(write_record(record)) == record
        assert isinstance(record.replay(), State)

    def test_view_as(self):
        record = mini("Dan asks Ann for 9S: yes\nDan asks Cat for 10S: no")
        view = record.view_as("cat")
        assert view.observer == 2 and view.hands == {2: record.hands[2]} and view.events == record.events
        assert view.lines == record.lines and not view.is_full
        assert "Me: Cat\nHand Cat: 6S 7S JS 6H\n" in write_record(view)
        assert read_record(write_record(view)) == view and isinstance(view.replay(), PlayerState)
        assert view.view_as(2) == view
        with pytest.raises(RecordError, match="does not show Ann's hand"):
            view.view_as("Ann")
        with pytest.raises(RecordError, match="unknown player 'Zed'"):
            record.view_as("Zed")
        with pytest.raises(RecordError, match="no player has index 4"):
            record.view_as(4)

    def test_spectator_records(self):
        record = replace(mini("Dan asks Ann for 9S: yes"), hands={})
        assert isinstance(record.replay(), PublicState) and read_record(write_record(record)) == record

    def test_lines_of_a_record_built_in_code(self):
        record = mini("Dan asks Ann for 9S: yes\nDan asks Cat for 10S: no")
        built = Record(record.game, None, record.hands, list(record.events))
        assert built == record and built.lines == [11, 12]
        assert write_record(built).splitlines()[10] == "Dan asks Ann for 9S: yes"

    def test_replay_stops_at_the_first_illegal_event_and_check_goes_on(self):
        record = mini(
            "Dan asks Ann for 9S: no\nAnn asks Bob for 4S: yes\nDan asks Ann for 2H: no\nDan asks Cat for 6H: yes"
        )
        with pytest.raises(RecordError) as info:
            record.replay()
        assert info.value.line == 10 and "9S is with Ann" in info.value.message
        assert [problem.line for problem in record.check()] == [10, 11, 12]
