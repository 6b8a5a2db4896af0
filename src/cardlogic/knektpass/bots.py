"""Knektpass bots: each chooses the next event of its seat from that player's view alone.

* ``random``: a legal event chosen uniformly (every exchange, by its cards, equally likely);
* ``greedy``: takes the turned card for its weakest card; plays whenever it holds a trump (else folds);
  in the first round of exchange discards its non-trumps below a queen, then stands; plays the lowest card
  that wins the trick, else the lowest card (lowest: plain before trump, then by rank);
* ``advisor``: follows :func:`cardlogic.knektpass.advice.advise` over its own belief;
* ``advisor-players``: the same over a belief that weighs deals by the other players' choices
  (``prior="players"``, :mod:`cardlogic.knektpass.choices`).

A bot is made for one seat of one deal (:func:`make_bot`) and asked with
``choose(view)``, ``view`` being its player's :class:`PlayerState`, whenever that
player is to move.

>>> import random
>>> from cardlogic.cards import Card
>>> from cardlogic.knektpass import Deal, Game, State
>>> state = State.shuffled(Deal(Game(("Ann", "Bob", "Cat")), dealer=2, turned=Card.parse("9H")), random.Random(5))
>>> views = [PlayerState(state.deal, p, state.hands[p]) for p in range(3)]
>>> bots = [make_bot("greedy", state.deal, p, state.hands[p]) for p in range(3)]
>>> while not state.is_over:
...     event = state.push(bots[state.to_move].choose(views[state.to_move]))
...     for p, view in enumerate(views):
...         _ = view.push(event.seen_by(p))
>>> state.outcome().kind
'tricks'
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import partial
from typing import Protocol

from cardlogic.knektpass.advice import SAMPLES, advise
from cardlogic.knektpass.belief import DEFAULT_PRIOR, KnektpassBelief
from cardlogic.knektpass.events import Bid, Event, Exchange, Play, TakeTrump
from cardlogic.knektpass.rules import HAND_SIZE, Deal
from cardlogic.knektpass.state import PlayerState

QUEEN = 10
"""The rank index of a queen in :mod:`cardlogic.cards`."""


class Bot(Protocol):
    """Chooses the next event for its player, who is to move in ``view``."""

    def choose(self, view: PlayerState) -> Event: ...


class RandomBot:
    """A legal event chosen uniformly with its own generator."""

    def __init__(self, deal: Deal, player: int, hand: int, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: PlayerState) -> Event:
        return self.rng.choice(view.legal_events())


class GreedyBot:
    """The greedy rules of the module documentation."""

    def __init__(self, deal: Deal, player: int, hand: int, seed: int = 0) -> None:
        self.deal = deal
        self.player = player

    def choose(self, view: PlayerState) -> Event:
        deal, hand, me = self.deal, view.hand, self.player
        lowest = deal.ranked(hand)[::-1]
        if view.phase == "trump":
            return TakeTrump(me, True, lowest[0])
        if view.phase == "bid":
            return Bid(me, bool(hand & deal.suit_mask(deal.trump_suit)))
        if view.phase == "exchange":
            if view.exchanged[me] or view.round > 1:
                return Exchange(me, 0)
            low = [c for c in lowest if not deal.is_trump(c) and c % 13 < QUEEN]
            low = low[: min(HAND_SIZE, view.stock_left)]
            return Exchange(me, len(low), tuple(low))
        legal = deal.ranked(view.playable(hand))[::-1]
        best = view.best()
        if best is not None:
            winning = [c for c in legal if deal.beats(c, best[1])]
            if winning:
                return Play(me, winning[0])
        return Play(me, legal[0])


class AdvisorBot:
    """Follows the advice over its own belief, which it brings up to date from the view's history (unchecked:
    the events come from a referee, so some deal explains them)."""

    def __init__(
        self, deal: Deal, player: int, hand: int, seed: int = 0, samples: int = SAMPLES, prior: str = DEFAULT_PRIOR
    ) -> None:
        self.belief = KnektpassBelief(deal, player, hand, prior=prior)
        self.seed = seed
        self.samples = samples

    def choose(self, view: PlayerState) -> Event:
        for event in view.history[len(self.belief.view.history) :]:
            self.belief.push_unchecked(event)
        return advise(self.belief, self.samples, self.seed).best


BOTS: dict[str, Callable[[Deal, int, int, int], Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "advisor": AdvisorBot,
    "advisor-players": partial(AdvisorBot, prior="players"),
}


def make_bot(name: str, deal: Deal, player: int, hand: int, seed: int = 0) -> Bot:
    """The bot called ``name`` for ``player`` with ``hand`` (as dealt); ValueError for an unknown name."""
    if name not in BOTS:
        raise ValueError(f"unknown bot {name!r} (expected one of {', '.join(BOTS)})")
    return BOTS[name](deal, player, hand, seed)


__all__ = ["BOTS", "AdvisorBot", "Bot", "GreedyBot", "RandomBot", "make_bot"]
