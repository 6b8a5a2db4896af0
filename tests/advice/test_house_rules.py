"""``strong`` and the advisor play whole games under both ``after-claim`` rules at every table size, legally, and
``strong`` claims what careful players claim: certain sets at once where holding them buys nothing, and no guess
before the endgame."""

from __future__ import annotations

import random

import pytest

from cardlogic.cards import card_mask, parse_cards
from cardlogic.literature import Ask, Claim, Event, Game, Pass, PlayerState, Rules, State, read_record
from cardlogic.literature.advice import STALEMATE_ASKS
from cardlogic.literature.bots import StrongBot, make_bot
from cardlogic.literature.decks import Deck
from cardlogic.literature.tournament import NAMES, Match

SETS = {4: ["LS", "HS"], 6: ["LS", "HS", "LH"], 12: ["LS", "HS", "LH", "HH"]}
"""Few sets, so that advisor games stay fast; 12 players hold 24 cards, two each. Other tables play the whole deck."""


def play(players: int, after_claim: str, teams: tuple[str, str], seed: int) -> list[tuple[str, bool, object]]:
    """One whole game (the referee raises on an illegal event): each event with its bot and whether its mover might
    only claim what is certain: the opponents had cards and no stalemate had set in (:data:`STALEMATE_ASKS`)."""
    rng = random.Random(seed)
    game = Game(
        NAMES[:players],
        deck=Deck.named("no-8s", sets=SETS[players]) if players in SETS else Deck.named("no-8s"),
        rules=Rules(after_claim=after_claim),
        dealer=rng.randrange(players),
    )
    state = State.shuffled(game, rng)
    hands = state.hands
    views = [PlayerState(game, p, hands[p]) for p in range(players)]
    bots = [make_bot(teams[game.team_of(p)], game, p, hands[p], seed=seed * 64 + p) for p in range(players)]
    played = []
    while not state.is_over:
        mover = state.public.movers[0]
        sure_only = bool(state.public.team_cards(1 - game.team_of(mover)))
        sure_only &= state.public.vain_asks(mover) < STALEMATE_ASKS
        event = state.push(bots[mover].choose(views[mover]))
        for view in views:
            view.push(event)
        played.append((teams[game.team_of(mover)], sure_only, event))
        assert len(played) < 40 * len(game.deck.cards)
    return played


@pytest.mark.parametrize("players", [4, 6, 12])
@pytest.mark.parametrize("after_claim", ["continue", "team-picks"])
def test_strong_and_the_advisor_play_whole_games(players, after_claim):
    played = play(players, after_claim, ("strong", "advisor"), seed=players)
    for k, (bot, sure_only, event) in enumerate(played):
        if isinstance(event, Claim) and bot == "strong" and sure_only:
            assert event.outcome == "correct"  # strong guesses only in the endgame or a stalemate
        if isinstance(event, Pass) and after_claim == "continue":
            claim = played[k - 1][2]  # a pass follows the giver's claim that left them without cards
            assert isinstance(claim, Claim) and claim.claimer == event.giver


@pytest.mark.parametrize("after_claim", ["continue", "team-picks"])
def test_strong_against_counting_with_the_whole_deck_at_eight_players(after_claim):
    played = play(8, after_claim, ("strong", "counting"), seed=3)
    assert all(e.outcome == "correct" for bot, hold, e in played if bot == "strong" and hold and isinstance(e, Claim))


# Ann gathers all of high spades with her first ask, and still holds 2S, so she has asks left.
HELD = """\
Players: Ann Bob Cat Dan
Sets: LS HS LH
Sizes: Ann=6 Bob=4 Cat=4 Dan=4
Rules: {rules}
Hand Ann: 10S JS QS KS AS 2S
Hand Bob: 9S 3S 4S 5S
Hand Cat: 6S 7S 2H 3H
Hand Dan: 4H 5H 6H 7H

Ann asks Bob for 9S: yes
"""


def strong_choice(rules: str) -> Event:
    record = read_record(HELD.format(rules=rules))
    hand = card_mask(record.hands[0])
    view = PlayerState(record.game, 0, hand)
    for event in record.events:
        view.push(event)
    return StrongBot(record.game, 0, hand, seed=1).choose(view)


def test_strong_claims_a_certain_set_at_once_under_continue():
    assert strong_choice("") == Claim(0, 1, tuple((card, 0) for card in parse_cards("9S 10S JS QS KS AS")))


def test_strong_holds_a_certain_set_back_under_team_picks():
    event = strong_choice("after-claim=team-picks")
    assert isinstance(event, Ask) and event.card in parse_cards("3S 4S 5S 6S 7S")


def off_turn_claims(match: Match, games: int) -> dict[str, list[Claim]]:
    """Each bot's claims made on another player's turn, over ``games`` games of ``match``."""
    claims: dict[str, list[Claim]] = {name: [] for name in match.bots}
    for index in range(games):
        record = match.record(index)
        _, _, teams = match.setup(index)
        state = State(record.game, tuple(card_mask(record.hands[p]) for p in range(len(record.game.players))))
        for event in record.events:
            if isinstance(event, Claim) and event.claimer not in state.public.movers:
                claims[teams[record.game.team_of(event.claimer)]].append(event)
            state.push(event)
    return claims


@pytest.mark.parametrize("name", ["counting", "strong", "advisor"])
def test_bots_claim_a_certain_set_on_the_opponents_turn_under_claim_anytime(name):
    # Ann holds all of high spades, and her "no" has given Bob the turn
    record = read_record(HELD.format(rules="claim-anytime=on") + "Ann asks Bob for 3S: no\n")
    hand = card_mask(record.hands[0])
    view = PlayerState(record.game, 0, hand)
    for event in record.events:
        view.push(event)
    claim = make_bot(name, record.game, 0, hand, seed=1).interject(view)
    assert claim == Claim(0, 1, tuple((card, 0) for card in parse_cards("9S 10S JS QS KS AS")))


@pytest.mark.parametrize("bots", [("strong", "counting"), ("advisor", "counting")])
def test_bots_off_turn_claims_in_games_are_right_and_only_where_the_rules_allow_them(bots):
    claims = off_turn_claims(Match(bots, players=4, rules="claim-anytime=on", seed=5), games=2)
    assert all(claim.outcome == "correct" for claim in claims[bots[0]] + claims["counting"])
    assert not any(off_turn_claims(Match(bots, players=4, seed=5), games=1).values())  # the default forbids them
