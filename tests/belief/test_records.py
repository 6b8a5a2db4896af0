"""Records no deal explains are rejected at the first line that makes them impossible, and rejected events
change nothing; the belief command's errors, JSON and table."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardlogic import inference
from cardlogic.cards import Card, iter_cards
from cardlogic.cli import main
from cardlogic.constraints import InconsistentError
from cardlogic.literature import (
    Ask,
    Claim,
    Game,
    IllegalEventError,
    Record,
    RecordError,
    play_random_game,
    read_record,
    write_record,
)
from cardlogic.literature.belief import LiteratureBelief
from cardlogic.literature.decks import Deck
from cardlogic.literature.tracking import LiteratureTracker

from .games import Truth, games, seeds

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

# Ann and Cat against Bob and Dan; 18 cards dealt from Ann, so Ann and Bob get 5, Cat and Dan 4.
MINI = """\
Players: Ann Bob Cat Dan
Sets: LS HS LH
Dealer: Dan
"""
ANN = "Me: Ann\nHand Ann: 2S 3S 9S 2H 3H\n"
# Dan was dealt a single card, so he cannot ask for cards of two different sets.
SHORT_DAN = """\
Players: Ann Bob Cat Dan
Sets: LS HS LH
Sizes: Ann=6 Bob=6 Cat=5 Dan=1
"""


def record(header: str, events: str) -> Record:
    """``header``, a blank line, then ``events``: the first event is on the line after the blank one."""
    return read_record(header + "\n" + events)


def first_event_line(header: str) -> int:
    return header.count("\n") + 2


def rejected_at(text_record: Record, **options) -> RecordError:
    with pytest.raises(RecordError) as caught:
        LiteratureBelief.from_record(text_record, **options)
    return caught.value


class TestRejectedLine:
    def test_an_answer_the_observers_hand_contradicts(self):
        header = MINI + ANN
        line = first_event_line(header)
        error = rejected_at(
            record(
                header,
                "Dan asks Ann for 4S: no\n"
                "Ann asks Bob for 4S: no\n"
                "Bob asks Ann for 5S: yes\n"  # Ann never held 5S
                "Ann asks Bob for 6S: no\n",
            )
        )
        assert error.line == line + 2 and "impossible" in error.message

    def test_a_card_left_nowhere_by_a_chain_of_noes(self):
        line = first_event_line(MINI)
        error = rejected_at(
            record(
                MINI,
                "Dan asks Ann for 4S: no\n"
                "Ann asks Bob for 5S: no\n"  # Ann and Bob lack 5S
                "Bob asks Cat for 5S: no\n"  # so does Cat: it is Dan's
                "Cat asks Dan for 5S: no\n"  # and Dan lacks it
                "Dan asks Ann for 6S: no\n",
            )
        )
        assert error.line == line + 3

    @pytest.mark.parametrize("method", ["auto", "exact", "sample"])
    def test_two_asks_needing_more_cards_than_dealt(self, method):
        line = first_event_line(SHORT_DAN)
        error = rejected_at(
            record(
                SHORT_DAN,
                "Dan asks Ann for 2S: yes\n"  # Dan was dealt another low spade
                "Dan asks Ann for 9S: no\n"  # and a high spade: two cards
                "Ann asks Bob for 9S: no\n",
            ),
            method=method,
            samples=200,
        )
        assert (error.line, error.message) == (line + 1, "no deal is consistent with this event")

    def test_a_counting_contradiction_is_found_among_many_good_lines(self):
        good = "Dan asks Ann for 2S: yes\n" + "Dan asks Ann for 3S: no\nAnn asks Dan for 3S: no\n" * 9
        line = first_event_line(SHORT_DAN)
        error = rejected_at(record(SHORT_DAN, good + "Dan asks Ann for 9S: no\nAnn asks Dan for 4H: no\n"))
        assert error.line == line + 19

    def test_an_illegal_line_after_the_impossible_one_is_not_blamed(self):
        # Line 2 leaves no deal; line 3 is illegal by itself (2S is publicly with Dan), but the record
        # was already impossible a line earlier.
        line = first_event_line(SHORT_DAN)
        error = rejected_at(
            record(SHORT_DAN, "Dan asks Ann for 2S: yes\nDan asks Ann for 9S: no\nAnn asks Dan for 2S: no\n")
        )
        assert (error.line, error.message) == (line + 1, "no deal is consistent with this event")

    def test_an_illegal_line_is_blamed_when_everything_before_it_is_possible(self):
        line = first_event_line(SHORT_DAN)
        error = rejected_at(
            record(SHORT_DAN, "Dan asks Ann for 2S: yes\nDan asks Ann for 3S: no\nAnn asks Dan for 2S: no\n")
        )
        assert error.line == line + 2 and "2S is with Dan" in error.message

    def test_lines_follow_comments_and_blank_lines(self):
        text = SHORT_DAN + "\n# Dan's first ask\nDan asks Ann for 2S: yes\n\n\nDan asks Ann for 9S: no  # impossible\n"
        error = rejected_at(read_record(text))
        assert error.line == text.splitlines().index("Dan asks Ann for 9S: no  # impossible") + 1


def first_impossible(game_record: Record) -> int | None:
    """The line of the first event after which no deal is consistent, by pushing one event at a time."""
    observer = game_record.observer
    tracker = LiteratureTracker(game_record.game, observer, game_record.hands.get(observer, ()))
    for event, line in zip(game_record.events, game_record.lines):
        try:
            tracker.push(event)
        except ValueError:  # illegal, or obviously impossible
            return line
        if inference.count(tracker.model) == 0:
            return line
    return None


def corrupt(event, game, data: st.DataObject):
    """``event`` with one detail changed: an ask's answer or target, or a claim's revealed holders."""
    if isinstance(event, Ask):
        if data.draw(st.booleans(), label="flip the answer"):
            return Ask(event.asker, event.target, event.card, not event.yes)
        card = data.draw(st.sampled_from(game.deck.set_of(event.card).cards), label="asked card")
        return Ask(event.asker, event.target, card, event.yes)
    if isinstance(event, Claim):
        card, _ = data.draw(st.sampled_from(event.revealed), label="moved card")
        holder = data.draw(st.integers(0, len(game.players) - 1), label="new holder")
        revealed = tuple((c, holder if c == card else h) for c, h in event.revealed)
        return Claim(event.claimer, event.set_index, event.assignment, event.outcome, revealed)
    return None


@settings(max_examples=150, deadline=None, derandomize=True, database=None)
@given(games(max_players=5, max_sets=3), seeds, st.data())
def test_corrupted_games_are_rejected_at_the_first_impossible_line(game, seed, data):
    truth = Truth.simulate(game, seed, guess_rate=0.1)
    observer = data.draw(st.one_of(st.none(), st.integers(0, len(game.players) - 1)), label="observer")
    hands = {} if observer is None else {observer: truth.hand(observer)}
    events = list(truth.events)
    candidates = [i for i, e in enumerate(events) if isinstance(e, (Ask, Claim))]
    index = data.draw(st.sampled_from(candidates), label="corrupted event")
    bad = corrupt(events[index], game, data)
    events[index] = bad
    game_record = read_record(write_record(Record(game, observer, hands, events)))
    expected = first_impossible(game_record)
    if expected is None:  # the change kept the record possible
        LiteratureBelief.from_record(game_record)
    else:
        assert rejected_at(game_record).line == expected


def snapshot(belief: LiteratureBelief):
    """Everything a push could change: the model, the public position, and the answers."""
    model, public = belief.model, belief.public
    marginals = belief.marginals()
    return (
        dict(model.allowed),
        list(model.clauses),
        model.sizes,
        dict(public.known),
        dict(public.claimed),
        public.sizes,
        public.history,
        public.to_move,
        marginals.cards,
        marginals.probabilities.tolist(),
        marginals.count,
        belief.certain(),
    )


class TestRejectedPush:
    @pytest.mark.parametrize("method", ["exact", "sample"])
    @pytest.mark.parametrize(
        "event, error",
        [
            (Ask(0, 3, Card.parse("3S"), yes=True), IllegalEventError),  # Ann is not to move
            (Ask(3, 0, Card.parse("2S"), yes=True), IllegalEventError),  # 2S is publicly Dan's already
            (Ask(3, 0, Card.parse("9S"), yes=False), InconsistentError),  # Dan would need a high spade too
            (Ask(3, 2, Card.parse("3H"), yes=True), InconsistentError),  # and a low heart
        ],
    )
    def test_a_rejected_event_changes_nothing(self, method, event, error):
        belief = LiteratureBelief.from_record(
            record(SHORT_DAN, "Dan asks Ann for 2S: yes\n"), method=method, samples=2000, prior="rules"
        )
        before = snapshot(belief)
        with pytest.raises(error):
            belief.push(event)
        assert snapshot(belief) == before
        good = Ask(3, 0, Card.parse("3S"), yes=False)
        assert belief.push(good) == good
        fresh = LiteratureBelief.from_record(
            record(SHORT_DAN, "Dan asks Ann for 2S: yes\nDan asks Ann for 3S: no\n"),
            method=method,
            samples=2000,
            prior="rules",
        )
        assert snapshot(belief) == snapshot(fresh)

    @pytest.mark.parametrize("event", [Ask(0, 3, Card.parse("3S"), yes=True), Ask(3, 0, Card.parse("9S"), yes=False)])
    def test_under_the_default_prior_a_rejected_event_leaves_no_trace(self, event):
        """The players' prior keeps the deals it weighed from one state to the next: a rejected event must not
        touch them, so the next event gives what it gives with no rejection before it."""
        start = record(SHORT_DAN, "Dan asks Ann for 2S: yes\n")
        belief, untouched = LiteratureBelief.from_record(start), LiteratureBelief.from_record(start)
        assert belief.prior == "players"
        before = snapshot(belief)
        assert snapshot(untouched) == before  # both weighed the same deals in this state: the same seed
        with pytest.raises(ValueError):
            belief.push(event)
        assert snapshot(belief) == before
        good = Ask(3, 0, Card.parse("3S"), yes=False)
        belief.push(good)
        untouched.push(good)
        assert snapshot(belief) == snapshot(untouched)
        assert belief.prior_answered == untouched.prior_answered

    def test_a_rejected_event_leaves_the_players_prior_as_it_was_where_it_drew_fewer_deals_than_it_may(self):
        """A game of 12 players followed event by event, as at the table: the players' prior refills its deals
        after each event within a quarter of its budget, short of all it may draw. Asked again after a refusal, it
        answers from the same deals, drawing none."""
        game = Game(tuple("ABCDEFGHIJKL"), deck=Deck.named("jokers"), dealer=0)
        hands, events = play_random_game(game, 0)
        belief = LiteratureBelief(game, 0, list(iter_cards(hands[0])), samples=2000)
        for event in events[:56]:
            belief.push(event)
            belief.marginals()
        before = snapshot(belief)
        with pytest.raises(InconsistentError):
            belief.push(dataclasses.replace(events[56], yes=not events[56].yes))
        assert snapshot(belief) == before

    def test_an_answer_the_observers_hand_contradicts(self):
        belief = LiteratureBelief.from_record(record(MINI + ANN, "Dan asks Ann for 4S: no\nAnn asks Bob for 4S: no\n"))
        before = snapshot(belief)
        with pytest.raises(IllegalEventError):
            belief.push(Ask(1, 0, Card.parse("5S"), yes=True))  # Ann never held 5S
        with pytest.raises(InconsistentError):  # Dan, Ann and Bob lack 4S, so Cat holds it
            belief.push(Ask(1, 2, Card.parse("4S"), yes=False))
        assert snapshot(belief) == before

    def test_pop_after_push_restores_the_belief(self):
        belief = LiteratureBelief.from_record(record(MINI + ANN, "Dan asks Ann for 4S: no\n"))
        before = snapshot(belief)
        event = belief.push(Ask(0, 1, Card.parse("4S"), yes=False))
        assert snapshot(belief) != before
        assert belief.pop() == event and snapshot(belief) == before


class TestBeliefCommand:
    def run(self, capsys, *argv):
        code = main(["belief", *argv])
        out, err = capsys.readouterr()
        return code, out, err

    def test_an_impossible_record(self, capsys, write):
        path = write(SHORT_DAN + "\nDan asks Ann for 2S: yes\nDan asks Ann for 9S: no\nAnn asks Dan for 2S: no\n")
        assert self.run(capsys, path) == (1, "", f"{path}:6: no deal is consistent with this event\n")

    def test_an_illegal_record(self, capsys, write):
        path = write(MINI + ANN + "\nDan asks Ann for 4S: no\nAnn asks Bob for 4S: no\nBob asks Ann for 5S: yes\n")
        code, out, err = self.run(capsys, path)
        assert (code, out, err) == (1, "", f"{path}:9: the answer yes is impossible: Ann does not hold 5S\n")

    def test_a_malformed_record(self, capsys, write):
        path = write(MINI + "\nDan asks Ann for 4X: no\n")
        assert self.run(capsys, path) == (1, "", f"{path}:5: unknown card '4X'\n")

    def test_json_of_the_bundled_view(self, capsys):
        path = str(EXAMPLES / "ann-view.txt")
        code, out, err = self.run(capsys, path, "--json", "--prior", "rules")
        assert (code, err) == (0, "")
        data = json.loads(out)
        assert list(data) == ["observer", "method", "deals", "samples", "players", "cards", "prior"]
        belief = LiteratureBelief.from_record(read_record((EXAMPLES / "ann-view.txt").read_text()), prior="rules")
        marginals = belief.marginals()
        assert data["observer"] == "Ann" and data["method"] == "exact" and data["samples"] == 0
        assert isinstance(data["deals"], str) and data["deals"] == str(belief.count()) and int(data["deals"]) > 1
        assert data["players"] == list(belief.game.players)
        assert list(data["cards"]) == [str(card) for card in belief.in_play()]
        for card, row in zip(marginals.cards, marginals.probabilities):
            cell = data["cards"][str(card)]
            assert list(cell) == data["players"] and all(isinstance(p, float) for p in cell.values())
            assert sum(cell.values()) == pytest.approx(1.0, abs=1e-9)
            assert list(cell.values()) == row.tolist()
            assert cell["Ann"] == float(belief.view.hand >> card & 1)

    def test_json_sampled(self, capsys):
        path = str(EXAMPLES / "ann-view.txt")
        argv = (path, "--json", "--method", "sample", "--samples", "5000", "--seed", "1", "--prior", "rules")
        code, out, err = self.run(capsys, *argv)
        assert (code, err) == (0, "")
        data = json.loads(out)
        assert list(data) == ["observer", "method", "deals", "samples", "players", "cards", "prior"]
        assert (data["observer"], data["method"], data["deals"], data["samples"]) == ("Ann", "sample", None, 5000)
        exact = json.loads(self.run(capsys, path, "--json", "--prior", "rules")[1])["cards"]
        assert list(data["cards"]) == list(exact)
        for card, cell in data["cards"].items():
            assert list(cell) == data["players"] and sum(cell.values()) == pytest.approx(1.0, abs=1e-9)
            for player, p in cell.items():
                assert p * 5000 == pytest.approx(round(p * 5000), abs=1e-6)  # a frequency out of 5000 draws
                assert (p == 0) == (exact[card][player] == 0) or 0 < exact[card][player] < 2e-3
        assert self.run(capsys, *argv)[1] == out  # the seed fixes the draws

    def test_the_table(self, capsys):
        code, out, err = self.run(capsys, str(EXAMPLES / "ann-view.txt"), "--prior", "rules")
        assert (code, err) == (0, "")
        belief = LiteratureBelief.from_record(read_record((EXAMPLES / "ann-view.txt").read_text()), prior="rules")
        assert "Ann's view" in out and "Ann (me)" in out and f"exact over {belief.count():,} consistent deals" in out
        assert all(str(card) in out for card in belief.in_play())

    def test_the_table_of_a_sampled_spectator(self, capsys, write):
        path = write(MINI + "\nDan asks Ann for 4S: no\nAnn asks Bob for 5S: yes\n")
        code, out, err = self.run(capsys, path, "--method", "sample", "--samples", "1000", "--prior", "rules")
        assert (code, err) == (0, "")
        assert "Spectator's view" in out and "sampled from 1,000 deals" in out

    def test_a_method_that_cannot_answer(self, capsys):
        path = str(EXAMPLES / "ann-view.txt")
        code, out, err = self.run(capsys, path, "--method", "csp")
        assert (code, out) == (1, "") and err.startswith(f"{path}: csp: up to ") and err.count("\n") == 1


def test_a_push_the_method_cannot_judge_changes_nothing():
    # Enumerating every deal of a 6-player game is refused: the push raises, and must leave no trace.
    game_record = read_record((EXAMPLES / "ann-view.txt").read_text())
    belief = LiteratureBelief(game_record.game, 0, game_record.hands[0], method="csp")
    before = (dict(belief.model.allowed), list(belief.model.clauses), belief.public.history)
    with pytest.raises(inference.InferenceError):
        belief.push(game_record.events[0])
    assert (dict(belief.model.allowed), list(belief.model.clauses), belief.public.history) == before
