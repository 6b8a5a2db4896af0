"""The perfect-information trick solver: how many of the remaining tricks a player takes with every hand in view.

With every hand known, the play of a deal is a finite game of perfect
information. :class:`TrickSolver` values it for one player, ``me``, against
everyone else playing to leave ``me`` as few tricks as possible (the paranoid
value: exact and cheap by alpha-beta in :mod:`cardlogic.knektpass.kernels`). The
advisor (:mod:`cardlogic.knektpass.advice`) solves each deal sampled from its
belief this way.

Players are given as positions in the playing order: ``rows[i, j]`` is the hand
(a card mask, without the cards played) of the ``j``-th player who plays, in seat order,
in deal ``i``; the hands of a trick's players not yet to play hold one card more.

>>> from cardlogic.cards import card_mask, parse_cards
>>> from cardlogic.knektpass.rules import Deal, Game
>>> deal = Deal(Game(("Ann", "Bob")), dealer=1, turned=Card.parse("9H"))
>>> solver = TrickSolver(deal)
>>> rows = np.array([[card_mask(parse_cards("JC AS KS QS 6D")), card_mask(parse_cards("JS 6S 7S AD KD"))]])
>>> int(solver.start_values(rows, me=0, leader=0)[0])  # JC draws Bob's JS; AS, KS take his spades; then 6D loses
4
>>> rows[0, 0] &= ~Card.parse("6D").mask  # Ann leads 6D: Bob must follow and beat it, with KD or AD
>>> values = solver.move_values(rows, me=1, trick=[(0, Card.parse("6D"))])
>>> [(str(c), int(values[0, c])) for c in iter_cards(int(rows[0, 1])) if values[0, c] >= 0]
[('KD', 2), ('AD', 2)]
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np

from cardlogic.cards import Card, iter_cards
from cardlogic.knektpass import kernels
from cardlogic.knektpass.rules import Deal

__all__ = ["TrickSolver"]


class TrickSolver:
    """The card tables of one deal's ranking, and the kernel calls over them."""

    def __init__(self, deal: Deal) -> None:
        self.deal = deal
        deck = deal.game.deck
        self.suits = np.zeros(52, np.int64)
        self.beaters = np.zeros(52, np.int64)
        self.suit_masks = np.array([deal.suit_mask(s) for s in range(4)], np.int64)
        self.trumps = int(self.suit_masks[deal.trump_suit])
        self.above = np.full(52, -1, np.int64)
        for card in deck:
            self.suits[card] = deal.suit_of(card)
            self.beaters[card] = sum(1 << other for other in deck if deal.beats(other, card))
        for suit in range(4):
            ranked = deal.ranked(int(self.suit_masks[suit]))  # highest first
            for higher, lower in itertools.pairwise(ranked):
                self.above[lower] = higher
        self.void_rule = deal.game.rules.void_rule
        self.ranking = (self.suits, self.suit_masks, self.beaters, self.above, self.trumps, self.void_rule)

    def start_values(self, rows: np.ndarray, me: int, leader: int) -> np.ndarray:
        """The tricks ``me`` takes in each deal of ``rows`` (hands of five cards) when ``leader`` leads."""
        rows = np.ascontiguousarray(rows, np.int64)
        out = np.zeros(rows.shape[0], np.int64)
        kernels.start_values(rows, me, leader, self.ranking, kernels.new_table(), out)
        return out

    def move_values(self, rows: np.ndarray, me: int, trick: Sequence[tuple[int, int]]) -> np.ndarray:
        """The tricks ``me``, to move after ``trick`` (``(position, card)`` pairs in the order played), takes from
        now after each legal card: ``out[i, card]``, -1 for a card ``me`` may not play."""
        rows = np.ascontiguousarray(rows, np.int64)
        out = np.full((rows.shape[0], 52), -1, np.int64)
        if trick:
            cards = [card for _, card in trick]
            winner = self.deal.winner(cards)
            led, best, best_pos = self.deal.suit_of(cards[0]), cards[winner], trick[winner][0]
        else:
            led, best, best_pos = -1, -1, -1
        kernels.move_values(rows, me, len(trick), led, best, best_pos, self.ranking, kernels.new_table(), out)
        return out

    def legal(self, hand: int, trick: Sequence[tuple[int, int]]) -> list[Card]:
        """The cards of ``hand`` that may be played after ``trick``, as the kernels see it."""
        if not trick:
            return list(iter_cards(hand))
        cards = [card for _, card in trick]
        best = cards[self.deal.winner(cards)]
        mask = kernels.legal_mask(
            hand,
            len(trick),
            self.deal.suit_of(cards[0]),
            best,
            self.suit_masks,
            self.beaters,
            self.trumps,
            self.void_rule,
        )
        return list(iter_cards(mask))
