"""Bots play only legal events, decide from their own view alone, and every game ends."""

from __future__ import annotations

import inspect
import random
from dataclasses import replace
from itertools import permutations

import pytest

from cardlogic import inference
from cardlogic.cards import Card, iter_cards, parse_cards
from cardlogic.literature import Ask, Claim, Game, PlayerState, Rules, State, play_random_game
from cardlogic.literature.belief import LiteratureBelief
from cardlogic.literature.bots import BOTS, AdvisorBot, CountingBot, make_bot
from cardlogic.literature.counting import CountingTracker
from cardlogic.literature.decks import Deck
from cardlogic.literature.rules import AFTER_CLAIM_RULES
from cardlogic.literature.tournament import play_game

NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay")
HONEST = [name for name, bot in BOTS.items() if not getattr(bot, "sees_every_hand", False)]
"""The bots that see only their own view: every one but ``omniscient``."""


def game_for(seed: int) -> Game:
    rng = random.Random(seed)
    players = rng.choice((4, 5, 6))
    sets = rng.sample(["LS", "HS", "LH", "HH", "LD", "HD"], rng.randint(2, 4))
    rules = Rules(
        rng.choice(["split", "opponents"]),
        bluff=rng.random() < 0.3,
        must_declare=rng.random() < 0.3,
        high_double=rng.random() < 0.3,
    )
    dealer = rng.randrange(players)
    rules = replace(rules, after_claim=rng.choice(AFTER_CLAIM_RULES), claim_anytime=rng.random() < 0.3)
    return Game(NAMES[:players], deck=Deck.named("no-8s", sets=sets), rules=rules, dealer=dealer)


@pytest.mark.parametrize("teams", list(permutations(BOTS, 2)))
@pytest.mark.parametrize("seed", range(6))
def test_bots_play_legal_events_to_the_end(teams, seed):
    game = game_for(seed)
    hands = State.shuffled(game, random.Random(seed)).hands
    scores, _, finished = play_game(game, hands, teams, seed)  # the referee raises on an illegal event
    assert finished and sum(scores) <= sum(game.set_value(i) for i in range(len(game.deck.sets)))


@pytest.mark.parametrize("name", HONEST)
@pytest.mark.parametrize("seed", range(3))
def test_a_bot_decides_alike_on_every_deal_its_view_allows(name, seed):
    """Another deal with the bot's hand and the same public history (drawn from the bot's own belief) is one the
    bot cannot tell apart: it makes the same choice."""
    game = game_for(seed)
    hands, events = play_random_game(game, seed)
    cut = len(events) // 3
    referee = State(game, hands)
    for event in events[:cut]:
        referee.push(event)
    mover = referee.public.movers[0]
    belief = LiteratureBelief(game, mover, iter_cards(hands[mover]))
    for event in events[:cut]:
        belief.push_unchecked(event)
    other = next(deal for deal in _dealt_hands(belief, game) if deal != tuple(hands))
    assert other[mover] == hands[mover]
    choices = []
    for dealt in (tuple(hands), other):
        state = State(game, dealt)
        view = PlayerState(game, mover, dealt[mover])
        for event in events[:cut]:
            view.push(state.push(event))  # the referee accepts the same history on both deals
        choices.append(make_bot(name, game, mover, dealt[mover], seed=7).choose(view))
    assert choices[0] == choices[1]


def _dealt_hands(belief: LiteratureBelief, game: Game) -> list[tuple[int, ...]]:
    """Deals consistent with ``belief``, as dealt hands."""
    model = belief.model
    deals = []
    for row in inference.sample(model, 20, seed=1):
        hands = [0] * len(game.players)
        for card, holder in zip(model.cards, row):
            hands[int(holder)] |= 1 << card
        deals.append(tuple(hands))
    return deals


def test_unknown_bot():
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("oracle", game_for(0), 0, 0)


def test_only_the_omniscient_bot_is_given_the_deal():
    assert HONEST == ["random", "counting", "strong", "advisor"]
    for name in HONEST:  # no way in: the deal is not a parameter of an honest bot
        assert "deal" not in inspect.signature(BOTS[name]).parameters
    game = game_for(0)
    hands = State.shuffled(game, random.Random(0)).hands
    bot = make_bot("counting", game, 0, hands[0], deal=hands)
    assert not any(value == hands or value == list(hands) for value in vars(bot).values())
    with pytest.raises(ValueError, match="needs the deal"):
        make_bot("omniscient", game, 0, hands[0])
    with pytest.raises(ValueError, match="its hand"):
        make_bot("omniscient", game, 0, hands[1], deal=hands)


@pytest.mark.parametrize("seed", range(6))
def test_the_omniscient_bot_asks_only_sure_cards_and_claims_correctly(seed):
    """Its asks are answered yes (unless it had no sure ask: then it gives the turn away), its claims are right."""
    game = game_for(seed)
    state = State.shuffled(game, random.Random(seed))
    hands = state.hands
    teams = ("omniscient", "counting") if seed % 2 else ("counting", "omniscient")
    bots = [make_bot(teams[game.team_of(p)], game, p, hands[p], seed=p, deal=hands) for p in range(len(hands))]
    views = [PlayerState(game, p, hands[p]) for p in range(len(hands))]
    while not state.is_over:
        mover = state.public.movers[0]
        cheats = teams[game.team_of(mover)] == "omniscient"
        sure = [a for a in state.legal_asks(mover) if state.hands[a.target] >> a.card & 1]
        event = state.push(bots[mover].choose(views[mover]))
        for view in views:
            view.push(event)
        if cheats and isinstance(event, Ask):
            assert event.yes or not sure
        if cheats and isinstance(event, Claim):
            assert event.outcome == "correct"
    assert state.public.scores[teams.index("omniscient")] > state.public.scores[teams.index("counting")]


class TestCountingTracker:
    def game(self) -> Game:
        return Game(("A", "B", "C", "D"), deck=Deck.named("no-8s", sets=["LS", "HS"]), dealer=3)

    def test_an_asker_holds_another_card_and_lacks_the_asked_one(self):
        game = self.game()
        tracker = CountingTracker(game, 0, parse_cards("2S 3S 4S 9S 10S 5S"))
        tracker.push(Ask(3, 0, Card.parse("6S"), yes=False))
        assert not tracker.may_hold(3, Card.parse("6S")) and not tracker.may_hold(0, Card.parse("6S"))
        assert tracker.minimum[3][0] == 1

    def test_a_card_lacked_by_all_but_one_player_is_theirs(self):
        game = self.game()
        tracker = CountingTracker(game, 0, parse_cards("2S 3S 4S 9S 10S 5S"))
        tracker.push(Ask(3, 0, Card.parse("6S"), yes=False))
        tracker.push(Ask(0, 1, Card.parse("6S"), yes=False))
        assert tracker.known_holder(Card.parse("6S")) == 2

    def test_the_only_possible_low_spade_of_an_asker_is_theirs(self):
        game = self.game()
        # A holds four low spades; 6S and 7S are elsewhere. D asks for 6S: D must hold 7S.
        tracker = CountingTracker(game, 0, parse_cards("2S 3S 4S 5S 9S 10S"))
        tracker.push(Ask(3, 0, Card.parse("6S"), yes=False))
        assert tracker.known_holder(Card.parse("7S")) == 3

    def test_its_facts_are_true_in_simulated_games(self):
        for seed in range(5):
            game = game_for(seed)
            state = State.shuffled(game, random.Random(seed))
            hands = state.hands
            bots = [CountingBot(game, p, hands[p], seed=p) for p in range(len(hands))]
            views = [PlayerState(game, p, hands[p]) for p in range(len(hands))]
            tracker = CountingTracker(game, 0, iter_cards(hands[0]))
            while not state.is_over:
                mover = state.to_move
                event = state.push(bots[mover].choose(views[mover]))
                for view in views:
                    view.push(event)
                tracker.push(event)
                live = [c for i, s in enumerate(game.deck.sets) if i not in state.public.claimed for c in s.cards]
                for card in live:
                    holder = state.holder_of(card)
                    if tracker.known_holder(card) is not None:
                        assert tracker.known_holder(card) == holder
                    assert tracker.may_hold(holder, card)
                for player, hand in enumerate(state.hands):
                    for index, card_set in enumerate(game.deck.sets):
                        if index not in state.public.claimed:
                            held = sum(1 for c in iter_cards(hand) if c in card_set.cards)
                            assert tracker.minimum[player][index] <= held


def test_the_advisor_bot_believes_the_players_prior_and_says_which_prior_answered():
    game = Game(NAMES, dealer=0)
    hands, events = play_random_game(game, 3)
    referee = State(game, hands)
    view = PlayerState(game, 0, hands[0])
    bot = AdvisorBot(game, 0, hands[0], seed=1)
    assert bot.last_advice is None and bot.belief.prior == AdvisorBot.PRIOR == "players"
    decided = 0
    for event in events:
        if referee.public.movers[0] == 0:
            choice = bot.choose(view)
            assert bot.last_advice is not None and bot.last_advice.recommendation.event == choice
            assert bot.last_advice.prior == bot.belief.prior_answered
            assert bot.last_advice.prior.startswith(("players (", "rules (the players' prior collapsed"))
            decided += 1
        view.push(referee.push(event))
    assert decided
