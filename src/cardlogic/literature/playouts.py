"""Determinized playouts: what each of a few candidate asks is worth, played out over deals drawn from a belief.

Each sampled deal (the current holders of the cards in play, consistent with what the observer knows) answers every
candidate ask as that deal says, and play goes on until the turn has gone to the opponents and come back, by one
fast policy in every seat, the counting bot's habits on public knowledge:

* claim a set once the mover's hand and the cards publicly known at teammates make up all of it (then keep the
  turn with a known ask, or, under ``after-claim=team-picks``, pass it to a teammate who has one; a claimer left
  without cards passes to the teammate with the most);
* ask for a card publicly known to be at an opponent, in a set the mover holds a card of;
* else ask an opponent not known to lack it for a hidden card of such a set: the observer's team the likeliest
  by the observer's belief now, the opponents the likeliest by the counting bot's estimate (the target's unknown
  cards over those of everyone who may hold it);
* a team whose opponents have no cards takes every set left; one without cards gives them all away.

A playout's score is the asker's team's points minus the opponents' from the candidate on: the sets claimed, and for
every set left its value if one team holds all of it (the other cannot ask for its cards), else
:data:`~cardlogic.literature.kernels.HOLDING` times each team's share of its cards. Stopping when the turn comes
back keeps the noise small: played to the end of the game, playouts were as noisy as the differences between
candidates. Every candidate is played on the same deals with the same random numbers (common random numbers), so
the difference of two candidates is measured on paired playouts.

>>> from cardlogic.literature import read_record
>>> from cardlogic.literature.belief import LiteratureBelief
>>> from cardlogic.literature.advice import ask_advice
>>> belief = LiteratureBelief.from_record(read_record(open("examples/mini.txt").read()))
>>> asks = [a.event(belief.observer) for a in ask_advice(belief)[:3]]
>>> playout_scores(belief, asks, deals=32, seed=1).shape
(3, 32)
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from cardlogic.literature import Ask, kernels
from cardlogic.literature.belief import LiteratureBelief


def playout_scores(belief: LiteratureBelief, asks: Sequence[Ask], deals: int, seed: int) -> np.ndarray:
    """The score of each ask (rows) in each of ``deals`` sampled deals (columns), from the asker's team's side.

    The deals are drawn from ``belief`` with ``seed``; playout ``j`` of every ask uses deal ``j`` and the random
    numbers seeded by ``seed + j``, so the rows are paired.
    """
    game, public = belief.game, belief.public
    cards, drawn = belief.sample(deals, seed)
    bits = np.array([1 << card for card in cards], dtype=np.int64)
    players = len(game.players)
    hands = np.stack([((drawn == p) * bits).sum(axis=1) for p in range(players)], axis=1).astype(np.int64)
    exposed = np.zeros(players, dtype=np.int64)
    for card, holder in public.known.items():
        exposed[holder] |= 1 << card
    odds = np.zeros((64, players))
    table = belief.marginals()
    odds[list(table.cards)] = table.probabilities
    live = np.array(public.unclaimed, dtype=np.int64)
    return kernels.playouts(
        hands,
        exposed,
        odds,
        np.array(game.set_masks, dtype=np.int64)[live],
        np.array([game.set_value(index) for index in live], dtype=np.float64),
        np.array([game.team_of(p) for p in range(players)], dtype=np.int64),
        np.array([ask.asker for ask in asks], dtype=np.int64),
        np.array([ask.target for ask in asks], dtype=np.int64),
        np.array([ask.card for ask in asks], dtype=np.int64),
        game.rules.team_picks,
        seed,
    )
