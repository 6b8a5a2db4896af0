"""The events that force a fact (``why CARD``): the fewest found from the constraint model, checked against a
brute deletion on random small games, where every check is an exact count."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from cardlogic import inference
from cardlogic.constraints import InconsistentError
from cardlogic.literature import Game
from cardlogic.literature.belief import LiteratureBelief

from .games import Truth, games, guess_rates, seeds

SETTINGS = {"deadline": None, "derandomize": True, "database": None}


def forces(belief: LiteratureBelief, indices: list[int], card: int, ruled_out: int) -> bool:
    """Whether the events at ``indices`` leave no deal with ``card`` dealt to a holder of ``ruled_out``."""
    try:
        model = belief.tracker.model_of(indices)
        model.restrict(card, ruled_out)
    except InconsistentError:
        return True
    return inference.count(model) == 0


def one_at_a_time(belief: LiteratureBelief, card: int, ruled_out: int) -> list[int]:
    """Deletion from the last event back, one event at a time."""
    kept = list(range(len(belief.public.history)))
    if not forces(belief, kept, card, ruled_out):
        return kept
    for index in reversed(range(len(kept))):
        trial = kept[:index] + kept[index + 1 :]
        if forces(belief, trial, card, ruled_out):
            kept = trial
    return kept


@settings(max_examples=40, **SETTINGS)
@given(games(max_players=6, max_sets=3), seeds, guess_rates, st.data())
def test_the_forcing_events_are_those_deletion_one_at_a_time_keeps(
    game: Game, seed: int, guess_rate: float, data: st.DataObject
) -> None:
    truth = Truth.simulate(game, seed, guess_rate)
    observer = data.draw(st.integers(0, len(game.players) - 1), label="observer")
    cut = data.draw(st.integers(0, len(truth.events)), label="cut")
    belief = LiteratureBelief(game, observer, truth.hand(observer))
    for event in truth.events[:cut]:
        belief.push(event)
    for card in belief.in_play():
        if card in belief.public.known:
            continue
        ruled_out = sum(1 << f.holder for f in belief.certain() if f.card == card and not f.has)
        ruled_out &= ~(1 << observer)
        if not ruled_out:
            continue
        chain = belief.forcing_events(card, ruled_out)
        assert chain == one_at_a_time(belief, card, ruled_out)
        assert forces(belief, chain, card, ruled_out)
        for left_out in chain:  # minimal: none can be spared
            assert not forces(belief, [i for i in chain if i != left_out], card, ruled_out)
