"""Advice for one Knektpass player: take the trump or not, play or fold, which cards to exchange, which card to play.

Every choice is valued over deals drawn from the player's
:class:`~cardlogic.knektpass.belief.KnektpassBelief` (under its prior: the uniform distribution
over the hidden deals consistent with what they have seen, or those deals weighed by the other players'
choices), each solved as a perfect-information game
of the remaining tricks by :class:`~cardlogic.knektpass.solver.TrickSolver`
(the player against everyone else). For each choice the advice gives the
expected change of the player's points (negative is good: the aim is 0), the
chance of meeting the trick minimum (the cards exchanged) and the expected
tricks.

What the solver cannot see is approximated, and said here:

* before the play, the hands are those after the player's own choice, with the
  other players' future exchanges left out (they keep their hands), and cards
  drawn are drawn at random from the stock of each sampled deal;
* a player bidding assumes that everyone still to bid plays (a lone player wins
  :attr:`~cardlogic.knektpass.Rules.lone` points when all others have folded);
* an exchange keeps the player's best cards: for each count ``k`` the ``k``
  weakest cards (plain cards before trumps, low before high) are discarded.

>>> import random
>>> from cardlogic.cards import Card
>>> from cardlogic.knektpass import Deal, Game, State
>>> from cardlogic.knektpass.belief import KnektpassBelief
>>> state = State.shuffled(Deal(Game(("Ann", "Bob", "Cat")), dealer=2, turned=Card.parse("9H")), random.Random(5))
>>> advice = advise(KnektpassBelief(state.deal, 2, state.hands[2]), samples=16)
>>> advice.phase, type(advice.best).__name__, len(advice.options)
('trump', 'TakeTrump', 6)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from cardlogic import arguments
from cardlogic.arguments import MAX_DRAWN_DEALS, ArgumentTypeError
from cardlogic.cards import Card, iter_cards
from cardlogic.knektpass.belief import KnektpassBelief
from cardlogic.knektpass.choices import hands_of
from cardlogic.knektpass.events import Bid, Event, Exchange, Play, TakeTrump
from cardlogic.knektpass.rules import HAND_SIZE, Deal
from cardlogic.knektpass.solver import TrickSolver
from cardlogic.knektpass.state import PlayerState

SAMPLES = 32
"""Deals drawn per decision by default."""


@dataclass(frozen=True)
class Option:
    """One choice and what it is worth: the expected change of points (lower is better), P(meeting the trick
    minimum) and the expected tricks taken in the deal."""

    event: Event
    points: float
    chance: float
    tricks: float


@dataclass(frozen=True)
class Advice:
    """The options of the player to move, best first, over ``samples`` deals drawn from their belief."""

    player: int
    phase: str
    options: tuple[Option, ...]
    samples: int

    @property
    def best(self) -> Event:
        return self.options[0].event


class AdviceError(ValueError):
    """Advice was asked for a player who is not to move, or for a spectator."""


def advise(belief: KnektpassBelief, samples: int = SAMPLES, seed: int = 0) -> Advice:
    """The advice for the belief's observer, who must be to move (:class:`AdviceError` otherwise), over
    ``samples`` deals drawn from the belief with ``seed`` (and the number of events so far)."""
    if not isinstance(belief, KnektpassBelief):
        raise ArgumentTypeError(f"belief must be a KnektpassBelief, not {belief!r}")
    arguments.integer("samples", samples, 1, MAX_DRAWN_DEALS)
    arguments.seed(seed)
    position = belief.view
    if not isinstance(position, PlayerState):
        raise AdviceError("a spectator has no choices to advise on")
    if position.to_move != position.player:
        raise AdviceError(f"it is not {position.deal.game.players[position.player]}'s turn")
    return _Adviser(belief, position, samples, seed).advise()


class _Adviser:
    def __init__(self, belief: KnektpassBelief, position: PlayerState, samples: int, seed: int) -> None:
        self.position = position
        self.deal: Deal = position.deal
        self.me = position.player
        self.solver = _solver(self.deal)
        self.rng = np.random.default_rng([seed, len(position.history)])
        cards, deals = belief.sample(samples, seed=int(self.rng.integers(2**31)))
        self.samples = len(deals)
        self.current = hands_of(deals, cards, len(belief.holders))  # [i, h]: the cards holder h holds now in deal i
        self.stock_column = belief.stock

    def advise(self) -> Advice:
        phase = self.position.phase
        if phase == "play":
            options = self._plays()
        elif phase == "exchange":
            options = self._exchanges(self.position.playing)
        elif phase == "bid":
            options = self._bids()
        else:
            options = self._takes()
        options.sort(key=lambda o: (o.points, -o.tricks, _weight(self.deal, o.event)))
        return Advice(self.me, phase, tuple(options), self.samples)

    # -- the play ----------------------------------------------------------------------------------------------------

    def _plays(self) -> list[Option]:
        position = self.position
        playing = position.playing
        rows = self.current[:, list(playing)]
        me = playing.index(self.me)
        trick = [(playing.index(p), card) for p, card in position.trick]
        values = self.solver.move_values(rows, me, trick)
        taken, minimum = position.tricks[self.me], position.exchanged[self.me]
        return [
            self._option(Play(self.me, card), taken + values[:, card], minimum)
            for card in iter_cards(position.playable(position.hand))
        ]

    # -- before the play ---------------------------------------------------------------------------------------------

    def _exchanges(self, playing: Sequence[int]) -> list[Option]:
        """Every exchange of the ``k`` weakest cards, valued with ``playing`` players in the deal."""
        position, deal = self.position, self.deal
        hand = position.hand
        weakest = list(reversed(deal.ranked(hand)))
        stock = self.current[:, self.stock_column]
        most = min(HAND_SIZE, position.stock_left)
        draws = self._draw_order(stock, most)
        leader = next(p for p in deal.order if p in playing)
        seats = list(playing)
        options = []
        for k in range(most + 1):
            discards = weakest[:k]
            kept = hand & ~sum(card.mask for card in discards)
            rows = self.current[:, seats].copy()
            rows[:, seats.index(self.me)] = kept | draws[k]
            values = self.solver.start_values(rows, seats.index(self.me), seats.index(leader))
            minimum = position.exchanged[self.me] + k
            options.append(self._option(Exchange(self.me, k, tuple(discards)), values, minimum))
        return options

    def _draw_order(self, stock: np.ndarray, most: int) -> list[np.ndarray]:
        """``draws[k][i]``: the mask of ``k`` cards drawn at random from the stock of deal ``i`` (nested in ``k``)."""
        draws = [np.zeros(len(stock), np.int64)]
        for _k in range(1, most + 1):
            nxt = draws[-1].copy()
            for i, mask in enumerate(stock):
                left = list(iter_cards(int(mask) & ~int(nxt[i])))
                if left:
                    nxt[i] |= 1 << left[int(self.rng.integers(len(left)))]
            draws.append(nxt)
        return draws

    def _bids(self) -> list[Option]:
        position, deal = self.position, self.deal
        later = deal.order[deal.order.index(self.me) + 1 :]
        playing = sorted(set(position.playing) | {self.me} | set(later))
        fold = Option(Bid(self.me, False), 0.0, 1.0, 0.0)
        if len(playing) == 1:
            lone = -float(deal.game.rules.lone)
            return [Option(Bid(self.me, True), lone, 1.0, 0.0), fold]
        best = min(self._exchanges(playing), key=lambda o: (o.points, -o.tricks))
        return [Option(Bid(self.me, True), best.points, best.chance, best.tricks), fold]

    def _takes(self) -> list[Option]:
        """Leave the turned card, or take it for each card; valued as standing with everyone playing."""
        deal, hand = self.deal, self.position.hand
        seats = list(range(len(deal.game.players)))
        choices: list[tuple[Event, int]] = [(TakeTrump(self.me, False), hand)]
        choices += [(TakeTrump(self.me, True, card), hand & ~card.mask | deal.turned.mask) for card in iter_cards(hand)]
        options = []
        for event, new_hand in choices:
            rows = self.current[:, seats].copy()
            rows[:, seats.index(self.me)] = new_hand
            values = self.solver.start_values(rows, seats.index(self.me), seats.index(deal.forehand))
            options.append(self._option(event, values, 0))
        return options

    def _option(self, event: Event, tricks: np.ndarray, minimum: int) -> Option:
        """``event`` valued by the tricks the player takes in the deal in each sampled deal."""
        penalty = self.deal.game.rules.penalty
        changes = np.where(tricks >= minimum, -tricks, penalty * (minimum - tricks))
        return Option(event, float(changes.mean()), float((tricks >= minimum).mean()), float(tricks.mean()))


def _weight(deal: Deal, event: Event) -> tuple[int, ...]:
    """A tie-break between equally valued options: keep the higher cards (play or put down the lower one)."""
    if isinstance(event, Play):
        return (deal.is_trump(event.card), deal.power(event.card))
    if isinstance(event, Exchange):
        return (event.count,)
    if isinstance(event, TakeTrump):
        return (not event.take,)
    return ()


_SOLVERS: dict[Deal, TrickSolver] = {}


def _solver(deal: Deal) -> TrickSolver:
    """The solver of ``deal``'s ranking, shared by the decisions of a deal."""
    key = Deal(deal.game, 0, Card(deal.trump_suit * 13 + 12))  # the ranking depends on the trump suit alone
    if key not in _SOLVERS:
        if len(_SOLVERS) > 64:
            _SOLVERS.clear()
        _SOLVERS[key] = TrickSolver(deal)
    return _SOLVERS[key]


__all__ = ["SAMPLES", "Advice", "AdviceError", "Option", "advise"]
