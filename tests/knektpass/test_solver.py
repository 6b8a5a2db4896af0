"""The trick solver against a plain minimax written straight from the rules."""

from __future__ import annotations

import random

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from cardlogic.cards import Card, card_mask, iter_cards
from cardlogic.knektpass import Deal
from cardlogic.knektpass.solver import TrickSolver

from .helpers import deal_of, random_rules


def legal(deal: Deal, hand: int, trick: list[tuple[int, Card]]) -> list[Card]:
    """The cards the rules let ``hand`` play to ``trick``, written out from the rule book."""
    held = list(iter_cards(hand))
    if not trick:
        return held
    led = deal.suit_of(trick[0][1])
    best = trick[deal.winner([card for _, card in trick])][1]
    follow = [card for card in held if deal.suit_of(card) == led]
    if follow:
        return [card for card in follow if deal.beats(card, best)] or follow
    rules = deal.game.rules
    if rules.must_trump:  # trump if able, and beat a trump already played if able
        trumps = [card for card in held if deal.is_trump(card)]
        return [card for card in trumps if deal.beats(card, best)] or (trumps if rules.underruff else []) or held
    return held


def minimax(deal: Deal, hands: list[int], me: int, to_move: int, trick: list[tuple[int, Card]]) -> int:
    """The tricks ``me`` takes from here, ``me`` maximizing and everyone else minimizing, by full search."""
    if len(trick) == len(hands):
        taker = trick[deal.winner([card for _, card in trick])][0]
        gain = int(taker == me)
        return gain if not any(hands) else gain + minimax(deal, hands, me, taker, [])
    values = []
    for card in legal(deal, hands[to_move], trick):
        rest = list(hands)
        rest[to_move] &= ~card.mask
        values.append(minimax(deal, rest, me, (to_move + 1) % len(hands), [*trick, (to_move, card)]))
    return max(values) if to_move == me else min(values)


def position(seed: int):
    rng = random.Random(seed)
    players = rng.choice((2, 3, 3, 4))
    deal = deal_of(
        players=players,
        turned=rng.choice(("9H", "AS", "6C", "JD")) if players < 4 else "2D",
        rules=random_rules(rng),
    )
    size = rng.randint(1, 4 if players < 4 else 3)
    cards = [card for card in deal.game.deck if card != deal.turned]
    rng.shuffle(cards)
    hands = [card_mask(cards[size * p : size * (p + 1)]) for p in range(players)]
    return rng, deal, hands


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_start_values_agree_with_plain_minimax(seed):
    rng, deal, hands = position(seed)
    me, leader = rng.randrange(len(hands)), rng.randrange(len(hands))
    solver = TrickSolver(deal)
    assert solver.start_values(np.array([hands]), me, leader)[0] == minimax(deal, hands, me, leader, [])


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_move_values_agree_with_plain_minimax_in_the_middle_of_a_trick(seed):
    rng, deal, hands = position(seed)
    k = len(hands)
    leader = rng.randrange(k)
    trick: list[tuple[int, Card]] = []
    for step in range(rng.randrange(k)):  # some players have played to the trick already
        player = (leader + step) % k
        card = rng.choice(legal(deal, hands[player], trick))
        hands[player] &= ~card.mask
        trick.append((player, card))
    me = (leader + len(trick)) % k
    values = TrickSolver(deal).move_values(np.array([hands]), me, trick)[0]
    moves = legal(deal, hands[me], trick)
    assert {Card(c) for c in np.flatnonzero(values >= 0)} == set(moves)
    for card in moves:
        rest = list(hands)
        rest[me] &= ~card.mask
        assert values[card] == minimax(deal, rest, me, (me + 1) % k, [*trick, (me, card)])


def test_the_solver_and_the_state_agree_on_what_may_be_played():
    rng = random.Random(2)
    for _ in range(200):
        _, deal, hands = position(rng.randrange(2**32))
        trick = [(0, next(iter(iter_cards(hands[0]))))]
        assert TrickSolver(deal).legal(hands[1], trick) == legal(deal, hands[1], trick)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_a_batch_of_deals_shares_the_transposition_table_and_still_agrees_with_minimax(seed):
    rng = random.Random(seed)
    players = rng.choice((2, 3, 4))
    deal = deal_of(players=players, turned="9H" if players < 4 else "2D", rules=random_rules(rng))
    size = rng.randint(2, 3)
    rows = []
    for _ in range(8):  # deals sharing cards, so that positions recur across rows
        cards = [card for card in deal.game.deck if card != deal.turned][: size * players + 2]
        rng.shuffle(cards)
        rows.append([card_mask(cards[size * p : size * (p + 1)]) for p in range(players)])
    me, leader = rng.randrange(players), rng.randrange(players)
    values = TrickSolver(deal).start_values(np.array(rows), me, leader)
    assert list(values) == [minimax(deal, row, me, leader, []) for row in rows]
    moves = TrickSolver(deal).move_values(np.array(rows), leader, [])
    for row, got in zip(rows, moves):
        for card in iter_cards(row[leader]):
            rest = list(row)
            rest[leader] &= ~card.mask
            assert got[card] == minimax(deal, rest, leader, (leader + 1) % players, [(leader, card)])
