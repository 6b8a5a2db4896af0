"""How Knektpass players choose: the likelihood of a deal's public history under its hidden hands.

The hidden deal of a :class:`~cardlogic.knektpass.belief.KnektpassBelief` is the
hands after the exchanges, so every card a player plays is a choice among the
legal cards of a hand that deal fixes. The likelihood of the history under a
deal is the product over the modelled choices of the chance that the player
chose what they did:

* a **card played**, among the legal cards of the player's hand then, by a
  softmax over interpretable features (:data:`PLAY_FEATURES`). Following: the
  card wins the trick (``wins``), is the cheapest card that wins it
  (``cheapest_win``), the lowest or the highest legal card (``lowest``,
  ``highest``), a trump on a plain suit (``trumps_in``). Leading: the card is
  the top of its suit among the cards still out of the hand (``lead_top``), a
  trump (``lead_trump``), from a long suit (``lead_length``: the share of the
  hand in its suit), the lowest card (``lead_lowest``). "Lowest" ranks plain
  cards below trumps, then by power;
* **play or fold**, by a logistic on the trumps held (``bid_trumps``), the
  jacks and the trump ace held (``bid_top``) and a bias (``bid_bias``), for a
  player whose hand at the bid is the deal's: one who folded, or who has
  exchanged nothing (yet).

Scores are divided by ``temperature``, and every choice is mixed with the rules
alone (uniform over the legal choices) with weight ``mix``, so no deal the rules
allow gets likelihood 0, whatever the players did. Taking the turned card and the
size of an exchange are left out: the hand they were chosen from is not the deal's
(the cards put down and drawn are hidden), so they weigh every deal alike.

>>> import random
>>> from cardlogic.cards import Card
>>> from cardlogic.knektpass import Deal, Game, State
>>> state = State.shuffled(Deal(Game(("Ann", "Bob", "Cat")), dealer=2, turned=Card.parse("9H")), random.Random(5))
>>> history = History(state.deal)
>>> while state.phase != "over" and state.tricks_played < 2:
...     history.push(state.push(state.legal_events()[0]))
>>> hands = np.array([final_hands(state)])
>>> bool(np.isfinite(DEFAULT_MODEL.log_likelihoods(history, hands)[0]))
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from cardlogic import choices
from cardlogic.cards import Card, iter_cards
from cardlogic.choices import ChoiceModelError as ChoiceModelError  # the error its readers catch
from cardlogic.choices import WeightedChoices
from cardlogic.knektpass import kernels
from cardlogic.knektpass.events import Bid, Event, Play
from cardlogic.knektpass.rules import Deal
from cardlogic.knektpass.solver import TrickSolver
from cardlogic.knektpass.state import PublicState, State

PLAY_FEATURES = (
    "wins",
    "cheapest_win",
    "lowest",
    "highest",
    "trumps_in",
    "lead_top",
    "lead_trump",
    "lead_length",
    "lead_lowest",
)
"""The features of a card played, in the kernel's order (:func:`cardlogic.knektpass.kernels.play_features`)."""
BID_FEATURES = ("bid_bias", "bid_trumps", "bid_top")
"""The logistic's weights of playing rather than folding: a bias, per trump held, per jack or trump ace held."""
TOP_TRUMP_POWER = 32
"""The power of the trump ace (:func:`cardlogic.knektpass.rules.power`): it and the jacks are the top trumps."""


@dataclass(frozen=True)
class ChoiceModel(WeightedChoices):
    """The weights of the choice model (see the module docstring), its ``temperature`` and the rules' share
    ``mix`` of every choice.

    >>> ChoiceModel().mix, ChoiceModel().temperature
    (0.05, 1.0)
    """

    wins: float = 0.0
    cheapest_win: float = 0.0
    lowest: float = 0.0
    highest: float = 0.0
    trumps_in: float = 0.0
    lead_top: float = 0.0
    lead_trump: float = 0.0
    lead_length: float = 0.0
    lead_lowest: float = 0.0
    bid_bias: float = 0.0
    bid_trumps: float = 0.0
    bid_top: float = 0.0

    WEIGHTS = PLAY_FEATURES + BID_FEATURES

    def log_likelihoods(self, history: History, hands: np.ndarray, skip: int | None = None) -> np.ndarray:
        """log P(the history's choices | deal) for every row of ``hands`` (deals x players: each player's card
        mask after the exchanges, the cards played since included); ``skip`` is a player whose choices are left
        out (the observer, whose own hand the belief already knows)."""
        scale = 1.0 / self.temperature
        weights = self.weights() * scale
        out = np.zeros(len(hands))
        actors, cards, played, counts, leds, bests = history.columns()
        deck, lowness, suits, suit_masks, beaters, trumps, top_trumps, void_rule = history.tables()
        kernels.choice_log_likelihoods(
            np.ascontiguousarray(hands, np.int64),
            history.kinds(skip),
            actors,
            cards,
            played,
            counts,
            leds,
            bests,
            deck,
            lowness,
            suits,
            suit_masks,
            beaters,
            trumps,
            top_trumps,
            void_rule,
            weights[: len(PLAY_FEATURES)],
            weights[len(PLAY_FEATURES) :],
            self.mix,
            out,
        )
        return out


class History:
    """The arrays of one deal's public history that the choice model's kernel reads, extended event by event.

    Events are pushed as the observer saw them (their private parts are not read).
    """

    def __init__(self, deal: Deal, events: Sequence[Event] = ()) -> None:
        self.deal = deal
        self._state = PublicState(deal)
        self._rows: list[tuple[int, int, int, int, int, int, int]] = []
        solver = TrickSolver(deal)
        self._tables = (solver.suits, solver.suit_masks, solver.beaters, solver.trumps, solver.void_rule)
        trumps = solver.trumps
        self._top_trumps = sum(1 << c for c in iter_cards(trumps) if deal.power(c) >= TOP_TRUMP_POWER)
        self._lowness = np.zeros(52, np.int64)
        for card in deal.game.deck:
            self._lowness[card] = (deal.is_trump(card) * 64 + deal.power(card)) * 64 + 63 - card
        for event in events:
            self.push(event)

    @property
    def events(self) -> int:
        return len(self._rows)

    @property
    def recorded(self) -> tuple[Event, ...]:
        """The events pushed so far, as the public saw them."""
        return self._state.history

    def push(self, event: Event) -> None:
        """Add the next event of the deal (legal in the public position); an illegal one raises
        :class:`~cardlogic.knektpass.IllegalEventError` and leaves the history as it was."""
        state = self._state
        kind, card, count, led, best = kernels.KIND_SKIP, 0, 0, -1, -1
        if isinstance(event, Play):
            kind, card, count = kernels.KIND_PLAY, event.card, len(state.trick)
            winning = state.best()
            if winning is not None:
                led, best = self.deal.suit_of(state.trick[0][1]), winning[1]
        elif isinstance(event, Bid):
            kind, card = kernels.KIND_BID, int(event.plays)
        row = (kind, event.player, card, state.played, count, led, best)  # read off the position before the event
        state.push(event.seen_by(None))
        self._rows.append(row)

    def kinds(self, skip: int | None = None) -> np.ndarray:
        """Each event's kind for the kernel: the choices of ``skip``, and the bids of those who have exchanged
        cards (their hand at the bid is not the deal's), left out."""
        exchanged = self._state.exchanged
        return np.array(
            [
                kernels.KIND_SKIP if player == skip or (kind == kernels.KIND_BID and exchanged[player]) else kind
                for kind, player, *_ in self._rows
            ],
            np.int64,
        )

    def columns(self) -> list[np.ndarray]:
        """The kernel's per-event arrays after ``kinds``: the actor, the card (for a bid, 1 to play), the cards
        played before, the cards in the trick, the suit led and the card winning it (-1 on a lead)."""
        return [np.array([row[i] for row in self._rows], np.int64) for i in range(1, 7)]

    def tables(self) -> tuple[int, np.ndarray, np.ndarray, np.ndarray, np.ndarray, int, int, int]:
        """The deal's card tables for the kernel: the cards in play, each card's lowness, suit and beaters, the
        suits' masks, the trumps, the top trumps and the rule for a void player."""
        deal, state = self.deal, self._state
        deck = deal.game.deck_mask & ~(0 if state.took else deal.turned.mask)
        suits, suit_masks, beaters, trumps, void_rule = self._tables
        return deck, self._lowness, suits, suit_masks, beaters, trumps, self._top_trumps, void_rule


def hands_of(deals: np.ndarray, cards: Sequence[Card], players: int) -> np.ndarray:
    """Each holder's card mask in every row of ``deals`` (the holder of each of ``cards``), for the first
    ``players`` holders: deals x players."""
    bits = np.array([1 << c for c in cards], np.int64)
    return np.stack([((deals == p) * bits).sum(axis=1) for p in range(players)], axis=1)


def final_hands(state: State) -> list[int]:
    """Every player's hand after the exchanges, the cards they have played since included, from the referee."""
    hands = list(state.hands)
    for event in state.history:
        if isinstance(event, Play):
            hands[event.player] |= event.card.mask
    return hands


def fit(model: ChoiceModel, games: Sequence[tuple[History, np.ndarray]], fitted_on: str = "") -> ChoiceModel:
    """The weights of greatest likelihood of ``games`` (each a deal's history and its true hands, one row of
    :func:`final_hands`), from ``model``'s weights; its mix and temperature are kept (:func:`cardlogic.choices.fit`).

    Raises ValueError when ``games`` is empty.
    """
    return choices.fit(model, games, fitted_on, "no deal to fit on")


DEFAULT_MODEL = ChoiceModel(
    cheapest_win=-0.794503,
    lowest=3.381172,
    highest=-9.997923,
    lead_top=0.596751,
    lead_trump=-0.325329,
    lead_length=-1.075172,
    lead_lowest=1.263588,
    bid_bias=-0.041054,
    bid_trumps=2.528453,
    bid_top=9.901414,
    fitted_on="maximum likelihood on 160 deals (4,098 events)",
)
"""The model the players' prior weighs deals by unless told, fit by ``python benchmarks/knektpass_choices.py fit``:
maximum likelihood on the full records of 160 deals at 3, 4 and 5 players between the advisor, greedy and random
bots (seeds 1001-1005, never the held-out 2001-2003 nor a tournament's), from zero weights, with ``mix`` 0.05.
``wins`` and ``trumps_in`` stay 0: under ``must-trump=on`` every legal card wins the trick or none does, and a
player void in the suit led plays trumps if they hold one, so neither tells legal cards apart."""
