"""Soundness: whatever the belief concludes from a simulated game is true of that game.

Random games (every deck, 4-12 players, random teams, sizes, house rules and
guess rates) are played by random bots and followed from the spectator's and
players' views: after every event the true deal must satisfy the tracker's
model and every card in play must be allowed where it really is. At two cut
points per game (one in its last quarter) the belief must accept the true
event, the exact marginals (where exact inference is practical) must give the
true holder of every card a positive probability, and every certain fact must
be true.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from cardlogic import inference
from cardlogic.inference.frontier import TOLERANCE
from cardlogic.literature import Game
from cardlogic.literature.belief import LiteratureBelief

from .games import Truth, games, guess_rates, seeds

SETTINGS = {"deadline": None, "derandomize": True, "database": None}


def assert_allowed(belief: LiteratureBelief, truth: Truth, k: int) -> None:
    """The cheap checks after ``k`` events: the true deal fits the model, each card is allowed where it is."""
    tracker = belief.tracker
    assert tracker.model.is_consistent(truth.deal), f"the true deal breaks the model after {k} events"
    now = truth.now[k]
    assert sorted(tracker.in_play()) == sorted(now)
    for card, holder in now.items():
        known = tracker.public.known.get(card)
        if known is not None:
            assert known == holder
        else:  # a card whose place is not public has not moved since the deal
            assert truth.deal[card] == holder
            assert tracker.model.allowed[card] >> holder & 1


def assert_exact_sound(belief: LiteratureBelief, truth: Truth, k: int) -> None:
    """Exact marginals never rule out the truth, and every certain fact is true."""
    now = truth.now[k]
    marginals = belief.marginals()
    assert marginals.method == "exact" and marginals.count > 0
    assert list(marginals.cards) == belief.in_play()
    # the frontier's signed terms cancel in floating point: rows sum to one within its stated tolerance
    assert np.allclose(marginals.probabilities.sum(axis=1), 1.0, rtol=0, atol=TOLERANCE)
    for card, row in zip(marginals.cards, marginals.probabilities):
        assert row[now[card]] > 0, f"{card} is with {truth.game.players[now[card]]} but has probability 0"
    for fact in belief.certain():
        assert (now[fact.card] == fact.holder) == fact.has, f"false certain fact {fact}"


def follow(truth: Truth, observer: int | None, checkpoints: set[int], method: str = "auto") -> int:
    """Replay ``truth`` as ``observer`` sees it with the cheap checks after every event and the exact ones at
    ``checkpoints`` (where exact inference is practical); return how many exact checks ran."""
    belief = LiteratureBelief(truth.game, observer, truth.hand(observer), method=method, samples=500, prior="rules")
    exact_checks = 0
    for k in range(max(checkpoints) + 1):
        if k:
            event = truth.events[k - 1]
            if k in checkpoints:
                belief.push(event)  # a true event is never rejected, and the cached answers are dropped
            else:
                belief.push_unchecked(event)
        assert_allowed(belief, truth, k)
        if k not in checkpoints:
            continue
        if inference.exact_is_practical(belief.model):
            assert_exact_sound(belief, truth, k)
            exact_checks += 1
        else:  # the facts of the allowed sets
            for fact in belief.certain():
                assert (truth.now[k][fact.card] == fact.holder) == fact.has, f"false certain fact {fact}"
    return exact_checks


def checkpoints(data: st.DataObject, length: int) -> set[int]:
    """One cut point anywhere in the game and one in its last quarter."""
    anywhere = data.draw(st.integers(0, length), label="cut")
    late = data.draw(st.integers(length - length // 4, length), label="late cut")
    return {anywhere, late}


@settings(max_examples=400, **SETTINGS)
@given(games(), seeds, guess_rates, st.data())
def test_any_game_from_any_view(game: Game, seed: int, guess_rate: float, data: st.DataObject) -> None:
    truth = Truth.simulate(game, seed, guess_rate)
    observer = data.draw(st.one_of(st.none(), st.integers(0, len(game.players) - 1)), label="observer")
    follow(truth, observer, checkpoints(data, len(truth.events)))


@settings(max_examples=60, **SETTINGS)  # every view of each; 4-player games are checked exactly in test_exact.py
@given(games(max_players=6, max_sets=4), seeds, guess_rates, st.data())
def test_small_games_from_every_view(game: Game, seed: int, guess_rate: float, data: st.DataObject) -> None:
    truth = Truth.simulate(game, seed, guess_rate)
    for observer in (None, *range(len(game.players))):
        cuts = checkpoints(data, len(truth.events))
        assert follow(truth, observer, cuts) == len(cuts)  # small enough for exact inference everywhere
