"""A Knektpass match at the table (:class:`~cardlogic.table.knektpass.LiveMatch`) and its record: short forms,
next deals, undo across deals, refusals that change nothing, the autosave text."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardlogic.cards import Card
from cardlogic.constraints import InconsistentError
from cardlogic.knektpass import Bid, Exchange, Game, Play, PlayerState, Record, RecordError, TakeTrump, read_record
from cardlogic.knektpass.belief import KnektpassBelief
from cardlogic.knektpass.match_record import MatchRecord, NextDeal, read_match, write_match
from cardlogic.knektpass.tournament import observed_match
from cardlogic.table.core import Incomplete
from cardlogic.table.knektpass import LiveMatch
from tests.cli.knektpass_scripted import GAME, bobs_match, short_form
from tests.knektpass.helpers import TRICKS_SO_FAR


def typed_in(match: MatchRecord, count: int | None = None) -> LiveMatch:
    """A live match of ``match``'s set-up with its first ``count`` events typed in short forms."""
    live = LiveMatch(MatchRecord(match.first))
    for event in match.events[:count]:
        line, answer = short_form(event)
        try:
            live.push_line(line)
        except Incomplete as question:
            assert answer is not None, line
            live.push(question.complete(answer))
    return live


def test_short_forms_type_a_whole_match_deal_after_deal():
    match = bobs_match()
    live = typed_in(match)
    assert list(live.events) == match.events
    assert sum(isinstance(event, NextDeal) for event in match.events) == 2
    status = live.status()
    assert status.over and min(status.scores) <= 0
    finished = live.match_after()
    assert finished is not None and finished.winner is not None
    assert status.to_move().startswith("the game is over, Bob ")
    assert status.to_move().endswith(f": {GAME.players[finished.winner]} wins")
    assert read_match(live.text()) == read_match(write_match(match))


def test_a_short_form_names_its_player_by_prefix_or_leaves_the_mover():
    live = typed_in(bobs_match(), 0)
    dealer = live.deal.dealer
    name = GAME.players[dealer]
    assert live.parse(f"{name[:2]} leave") == TakeTrump(dealer, False)
    assert live.parse("leaves") == TakeTrump(dealer, False)
    assert live.parse(f"{name} takes the trump") == TakeTrump(dealer, True)
    assert live.parse("ann 6s") == Play(0, Card.parse("6S"))
    assert live.parse("cat out") == Bid(2, False) and live.parse("cat folds") == Bid(2, False)
    assert live.parse("ann 2") == Exchange(0, 2) and live.parse("ann stands") == Exchange(0, 0)
    with pytest.raises(ValueError, match="unknown player 'zed'"):
        live.parse("zed 6s")


def test_my_own_exchange_and_next_deal_ask_for_what_only_i_saw():
    match = bobs_match()
    index = next(i for i, e in enumerate(match.events) if isinstance(e, Exchange) and e.player == 1 and e.count)
    live = typed_in(match, index)
    count = match.events[index].count
    with pytest.raises(Incomplete, match=f"which {count} cards did I put down, and which did I draw"):
        live.parse(f"ex {count}")
    with pytest.raises(Incomplete, match=r"^which card did I put down, and which did I draw"):
        live.parse("ex 1")  # not "which 1 cards"
    over = next(i for i, e in enumerate(match.events) if isinstance(e, NextDeal))
    live = typed_in(match, over)
    with pytest.raises(Incomplete, match=r"deal 2: \w+ deals, trump"):
        live.parse("deal 9s")


def test_every_question_says_an_empty_answer_drops_the_line():
    """As Literature's questions do (``...; empty drops it``): Knektpass's said nothing of it."""
    match = bobs_match()
    live = LiveMatch(MatchRecord(match.first))
    questions = []
    for event in match.events:
        line, answer = short_form(event)
        try:
            live.push_line(line)
        except Incomplete as question:
            questions.append(question.question)
            live.push(question.complete(answer or ""))
    dealt_by_me = LiveMatch(
        read_match("Players: Ann Bob Cat\nDealer: Bob\nTrump: KH\nMe: Bob\nHand Bob: 6H 7H 7C 8C 10C\n")
    )
    with pytest.raises(Incomplete) as asked:
        dealt_by_me.parse("take")
    questions.append(asked.value.question)
    kinds = ("did I draw?", "deal 2: ", "for the turned KH?")  # my exchange, my next hand, the card I put down
    assert all(any(kind in question for question in questions) for kind in kinds), questions
    assert all(question.endswith("; empty drops it") for question in questions), questions


def test_undo_crosses_back_into_the_deal_before():
    match = bobs_match()
    over = next(i for i, e in enumerate(match.events) if isinstance(e, NextDeal))
    live = typed_in(match, over + 2)
    before = live.text()
    live.undo(2)
    assert live.number == 1 and live.view.is_over and len(live.events) == over
    live.undo()
    assert not live.view.is_over
    for event in match.events[over - 1 : over + 2]:
        live.push(event)
    assert live.text() == before and live.number == 2


def test_a_next_deal_before_the_deal_is_over_is_refused_and_changes_nothing():
    live = typed_in(bobs_match(), 5)
    text, status = live.text(), live.status()
    with pytest.raises(ValueError, match="deal 1 is not over"):
        live.push_line("deal 9s as ks qs jh 6c")
    with pytest.raises(ValueError):
        live.push_line("ann 6x")
    assert live.text() == text and live.status() == status


def test_a_next_deal_without_my_cards_is_refused_before_they_are_asked_for():
    live = typed_in(bobs_match(), 5)
    mover = GAME.players[live.view.to_move or 0]
    with pytest.raises(ValueError, match=f"^deal 1 is not over: {mover} is to move$"):
        live.parse("deal 9s")
    with pytest.raises(ValueError, match=r"^the match is over"):
        typed_in(bobs_match()).parse("deal 9s")


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), cut=st.floats(0, 1))
def test_any_prefix_of_a_random_match_reads_back_from_its_autosave_text(seed, cut):
    match = bobs_match(seed)
    live = typed_in(match, int(cut * len(match.events)))
    again = LiveMatch(read_match(live.text()), text=live.text())
    assert list(again.events) == list(live.events)
    assert again.status() == live.status() and again.text() == live.text()
    assert live.is_own(write_match(MatchRecord(match.first)))  # a prefix: replacing it loses nothing
    assert not live.is_own(write_match(bobs_match(seed + 1)))


def test_a_card_its_player_cannot_hold_is_refused_naming_the_line_that_showed_it():
    text = TRICKS_SO_FAR + "Bob plays 6S\nCat plays 9S\n"
    live = LiveMatch(read_match(text), text=text)
    status = live.status()
    with pytest.raises(InconsistentError, match=r"^Ann cannot hold JD: they showed no trumps on line 19$"):
        live.push_line("ann jd")
    assert live.text() == text and live.status() == status
    with pytest.raises(RecordError) as error:
        LiveMatch(read_match(text + "Ann plays JD\n"), text=text + "Ann plays JD\n")
    assert (error.value.line, error.value.message) == (22, "Ann cannot hold JD: they showed no trumps on line 19")


def test_a_full_record_is_refused_with_the_command_that_gives_a_view():
    text = "Players: Ann Bob\nDealer: Bob\nTrump: 9H\nHand Ann: AS KS QS JS 6D\nHand Bob: 7S 8S 9S 10S 6H\n"
    with pytest.raises(RecordError, match="knektpass view RECORD --as NAME") as error:
        LiveMatch(read_match(text), text=text)
    assert error.value.line == 4  # Ann's hand, the first one given


def test_why_names_the_play_that_placed_a_card_by_its_autosave_line():
    match = bobs_match()
    first_play = next(i for i, e in enumerate(match.events) if isinstance(e, Play))
    live = typed_in(match, first_play + 1)
    play = match.events[first_play]
    assert isinstance(play, Play)
    line = live.event_lines()[first_play]
    assert live.why(play.card) == [f"{play.card}: played by {GAME.players[play.player]}, line {line}"]
    mine = live.hand()[0]
    assert live.why(mine) == [f"{mine}: in my hand"]


def test_why_lists_the_fewest_plays_that_force_where_a_card_cannot_be():
    match = bobs_match()
    live = typed_in(match, 40)
    belief, lines = live.belief, live.event_lines()
    first = len(live.events) - len(live.view.history)  # the deal's first event in the match
    explained = 0
    for card in live.deal.game.deck:
        out = live.why(card)
        if len(out) < 2 or "forced by" not in out[1]:
            continue
        listed = [int(line.split(":")[0].split()[1]) for line in out[2:]]
        ruled_out = sum(1 << f.holder for f in belief.certain() if f.card == card and not f.has) & ~(1 << 1)
        chain = belief.forcing_events(card, ruled_out)
        assert listed == [lines[first + index] for index in chain] and chain
        assert out[1].endswith(
            f"forced by {len(chain)} play{'s' if len(chain) > 1 else ''}, with what I saw before the first trick:"
        )
        explained += 1
    assert explained


def test_my_own_exchange_may_be_typed_whole_with_its_cards_first():
    match = bobs_match()
    index = next(i for i, e in enumerate(match.events) if isinstance(e, Exchange) and e.player == 1 and e.count)
    live = typed_in(match, index)
    exchange = match.events[index]
    assert isinstance(exchange, Exchange) and exchange.discards is not None and exchange.draws is not None
    typed = f"{' '.join(map(str, exchange.discards))} for {' '.join(map(str, exchange.draws))}".lower()
    assert live.parse(typed) == exchange
    assert live.parse(f"bob ex {typed}") == exchange


def spectators_view(match: MatchRecord) -> MatchRecord:
    """``match`` as a spectator saw it: no hand, nobody's hidden cards."""
    events = [NextDeal(e.number, e.turned) if isinstance(e, NextDeal) else e.seen_by(None) for e in match.events]
    return MatchRecord(Record(match.first.deal, None, {}), events)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), players=st.integers(2, 5), spectator=st.booleans())
def test_every_event_of_a_random_deal_is_among_the_choices_offered(seed, players, spectator):
    match = observed_match(Game(("Ann", "Bob", "Cat", "Dan", "Eve")[:players]), 0, seed, deals=1)
    if spectator:
        match = spectators_view(match)
    live = LiveMatch(MatchRecord(match.first))
    for event in match.events:
        choices = live.choices()
        if isinstance(event, Exchange) and event.player == live.observer and event.count:
            assert choices == [Exchange(event.player, 0)]  # my exchange of cards names them: the page's sheet
            assert set(event.discards or ()) <= set(live.hand()) and set(event.draws or ()) <= set(live.drawable())
        else:
            assert event in choices, (live.describe(event), [live.describe(c) for c in choices])
        if isinstance(event, Play) and event.player == live.observer:
            view = live.view
            assert isinstance(view, PlayerState)
            assert [c.card for c in choices] == live.deal.sorted_hand(view.playable(view.hand))  # my legal cards only
        live.push(event)
    assert live.choices() == []  # the deal is over: the next deal is the table's to give


def test_my_take_and_my_bid_come_in_the_order_of_everyone_elses():
    """The page shows the choices as buttons in this order: mine (take or leave the trump, play or fold) must not
    swap places with another player's, or a tap where "plays" was a moment ago folds."""
    record = read_record("Players: Ann Bob Cat\nDealer: Bob\nTrump: KH\nMe: Bob\nHand Bob: 6H 7H 7C 8C 10C\n")
    live = LiveMatch(MatchRecord(record))
    assert [e.take for e in live.choices()] == [True] * 5 + [False]  # for each card I may put down, then leave
    live.push(TakeTrump(1, False))
    assert live.choices() == [Bid(2, True), Bid(2, False)]  # Cat's
    live.push(Bid(2, True))
    live.push(Bid(0, True))
    assert live.choices() == [Bid(1, True), Bid(1, False)]  # mine, in the same order


DAN_TOOK_9S = """Players: Ann Bob Cat Dan
Dealer: Dan
Trump: 9S
Me: Bob
Hand Bob: AS KS QH 7D 6C

Dan takes the trump
Ann plays
Bob plays
Cat folds
Dan plays
Ann stands
Bob stands
Dan stands
"""


@pytest.mark.parametrize(
    ("plays", "message"),
    [
        (["Ann plays 6S", "Bob plays AS", "Dan plays 2H"], "Dan cannot play 2H: they hold 9S"),
        (
            ["Ann plays 6S", "Bob plays AS", "Dan plays JS", "Dan plays JH", "Ann plays 2S", "Bob plays KS"]
            + ["Dan plays JD", "Ann plays 3S", "Bob plays 7D", "Dan plays JC", "Ann plays 4S", "Bob plays QH"]
            + ["Dan plays 10D"],  # Dan's last card is the 9S they took
            "Dan cannot play 10D: they hold only 9S",
        ),
    ],
)
def test_a_play_no_deal_explains_names_the_card_its_player_is_known_to_hold(plays, message):
    """Dan took the turned 9S and kept it: a play that denies it says so, in live and in a record, rather than
    the constraints' '9S can be nowhere' or 'Dan would hold 6 known cards of 5'."""
    live = LiveMatch(read_match(DAN_TOOK_9S))
    for text in plays[:-1]:
        live.push(live.parse(text))
    events = len(live.events)
    with pytest.raises(InconsistentError, match=f"^{message}$"):
        live.push(live.parse(plays[-1]))
    assert len(live.events) == events  # nothing changed
    text = DAN_TOOK_9S + "".join(line + "\n" for line in plays)
    with pytest.raises(RecordError) as refused:
        KnektpassBelief.from_record(read_record(text))
    assert (refused.value.line, refused.value.message) == (len(text.splitlines()), message)


def test_another_players_cards_offered_are_those_the_rules_let_them_play():
    """Dan surely holds the 9S he took: on a spade lead he must follow suit, so the cards offered for him are spades
    only (the 2H he could hold is not), and each one offered is accepted."""
    live = LiveMatch(read_match(DAN_TOOK_9S))
    for text in ["Ann plays 6S", "Bob plays AS"]:
        live.push(live.parse(text))
    offered = live.choices()
    assert offered and all(live.deal.suit_of(play.card) == live.deal.suit_of(Card.parse("9S")) for play in offered)
    assert Play(3, Card.parse("9S")) in offered
    with pytest.raises(InconsistentError):
        live.push(live.parse("Dan plays 2H"))  # not offered, and refused
    for play in offered:
        live.push(play)
        live.undo()
