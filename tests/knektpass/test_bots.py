"""The bots: greedy's rules one by one, every bot legal over whole deals, and the advisor blind to hidden cards."""

from __future__ import annotations

import random

import pytest

from cardlogic.cards import Card
from cardlogic.knektpass import Bid, Exchange, Play, PlayerState, State, TakeTrump
from cardlogic.knektpass.bots import BOTS, AdvisorBot, GreedyBot, make_bot

from .helpers import cards, deal_of, state_of


def c(text: str) -> Card:
    return Card.parse(text)


class Table:
    """A referee and every player's view, kept in step."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.views = [PlayerState(state.deal, p, state.hands[p]) for p in range(len(state.hands))]

    def push(self, *events) -> None:
        for event in events:
            recorded = self.state.push(event)
            for p, view in enumerate(self.views):
                view.push(recorded.seen_by(p))

    def greedy(self, player: int):
        return GreedyBot(self.state.deal, player, self.views[player].hand).choose(self.views[player])


HANDS = ("6C QC AS 6H 7D", "7H 8S 9S KD 10S", "JC 8C KS AD QD")


def test_greedy_takes_the_turned_card_for_its_weakest_card():
    table = Table(state_of(deal_of(dealer=0), *HANDS))
    assert table.greedy(0) == TakeTrump(0, True, c("6C"))


def test_greedy_plays_whenever_it_holds_a_trump():
    table = Table(state_of(deal_of(), "6C QC AS 6S 7D", "7H 8S 9S KD 10S", "JC 8C KS AD QD"))
    table.push(TakeTrump(2, False))
    assert table.greedy(0) == Bid(0, False)
    table.push(Bid(0, False))
    assert table.greedy(1) == Bid(1, True)


def test_greedy_exchanges_its_non_trumps_below_a_queen_in_the_first_round_then_stands():
    table = Table(state_of(deal_of(), *HANDS))
    table.push(TakeTrump(2, False), Bid(0, True), Bid(1, True), Bid(2, True))
    assert table.greedy(0) == Exchange(0, 2, (c("6C"), c("7D")))  # QC, AS and the trump 6H stay
    table.push(Exchange(0, 2, (c("6C"), c("7D"))))
    assert table.greedy(1) == Exchange(1, 3, (c("8S"), c("9S"), c("10S")))
    table.push(Exchange(1, 3, (c("8S"), c("9S"), c("10S"))))
    assert table.greedy(2) == Exchange(2, 1, (c("8C"),))
    table.push(Exchange(2, 1, (c("8C"),)))
    assert table.views[0].round == 2 and table.greedy(0) == Exchange(0, 0)


def test_greedy_plays_the_lowest_card_that_takes_the_trick_else_the_lowest():
    table = Table(state_of(deal_of(), "6C 7C AS 6D 7D", "6H 7H 8S 9S KD", "JC QS KS 10S 8D"))
    table.push(
        TakeTrump(2, False), Bid(0, True), Bid(1, True), Bid(2, True), Exchange(0, 0), Exchange(1, 0), Exchange(2, 0)
    )
    assert table.greedy(0) == Play(0, c("6C"))  # leading: the lowest card
    table.push(Play(0, c("6C")))
    assert table.greedy(1) == Play(1, c("6H"))  # the lowest trump that takes it
    table.push(Play(1, c("6H")))
    assert table.greedy(2) == Play(2, c("JC"))  # void in clubs, it must beat 6H: JC
    table.push(Play(2, c("JC")))
    assert table.greedy(2) == Play(2, c("8D"))  # Cat leads its lowest card
    table.push(Play(2, c("8D")))
    assert table.greedy(0) == Play(0, c("6D")) and table.state.legal_events() == [Play(0, c("6D")), Play(0, c("7D"))]
    table.push(Play(0, c("6D")))
    assert table.greedy(1) == Play(1, c("KD"))  # the only card that takes it


@pytest.mark.parametrize("name", sorted(BOTS))
def test_every_bot_plays_whole_deals_legally(name):
    for seed in range(4 if name == "advisor" else 40):
        rng = random.Random(seed)
        players = rng.choice((2, 3, 4))
        state = State.shuffled(deal_of(players=players, turned="9H" if players < 4 else "2C"), rng)
        views = [PlayerState(state.deal, p, state.hands[p]) for p in range(players)]
        bots = [make_bot(name, state.deal, p, state.hands[p], seed=seed) for p in range(players)]
        while not state.is_over:
            event = state.push(bots[state.to_move].choose(views[state.to_move]))
            for p, view in enumerate(views):
                view.push(event.seen_by(p))
        assert state.outcome().kind in ("redeal", "lone", "tricks")


def test_the_advisor_decides_from_its_view_alone():
    """Two deals with Ann's hand and everything Ann has seen the same, the other hands different: the advisor,
    with the same seed, makes the same choices."""
    first = state_of(deal_of(), "6C QC AS 6H 7D", "7H 8S 9S KD 10S", "JC 8C KS AD QD")
    second = state_of(deal_of(), "6C QC AS 6H 7D", "JC 8C KS AD QD", "7H 8S 9S KD 10S")
    choices = []
    for state in (first, second):
        table = Table(state)
        table.push(TakeTrump(2, False))
        bot = AdvisorBot(state.deal, 0, state.hands[0], seed=1)
        bid = bot.choose(table.views[0])
        table.push(bid, Bid(1, True), Bid(2, True))
        choices.append((bid, bot.choose(table.views[0])))
    assert choices[0] == choices[1]
    assert choices[0][0] == Bid(0, True)


def test_an_unknown_bot_is_refused():
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("clever", deal_of(), 0, cards("6C QC AS 6H 7D"))
