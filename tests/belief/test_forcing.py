"""The events that force a fact (``why CARD``): the fewest found from the constraint model, checked against a
brute deletion on random small games, where every check is an exact count."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from cardlogic import inference
from cardlogic.cards import card_mask
from cardlogic.constraints import InconsistentError
from cardlogic.knektpass import Play
from cardlogic.knektpass.belief import KnektpassBelief
from cardlogic.knektpass.match_record import read_match, write_match
from cardlogic.literature import Game
from cardlogic.literature.belief import LiteratureBelief

from .games import Truth, games, guess_rates, seeds

SETTINGS = {"deadline": None, "derandomize": True, "database": None}


def forces(belief: LiteratureBelief | KnektpassBelief, indices: list[int], card: int, ruled_out: int) -> bool:
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


def test_knektpass_forcing_plays_are_few_and_force_the_fact() -> None:
    """Knektpass's ``why`` on the same core: at every play of a bots' deal, each card's ruled-out places are forced
    by the plays found (with what the observer saw before the first trick), and none of them can be spared."""
    from tests.cli.knektpass_scripted import bobs_match

    deal = read_match(write_match(bobs_match(deals=1))).deals()[0]
    belief = KnektpassBelief(deal.deal, deal.observer, card_mask(deal.hands[deal.observer]), method="exact")
    tracker = belief.tracker
    chains = 0
    for event in deal.events:
        belief.push(event)
        me = 1 << tracker.observer
        for fact in belief.certain():
            if fact.has or me >> fact.holder & 1 or not belief.explain(fact.card):
                continue
            ruled_out = 1 << fact.holder
            chain = belief.forcing_events(fact.card, ruled_out)
            assert forces(belief, chain, fact.card, ruled_out)
            for left_out in chain:
                assert not forces(belief, [i for i in chain if i != left_out], fact.card, ruled_out)
            assert all(isinstance(tracker.position.history[i], Play) for i in chain)
            chains += bool(chain)
    assert chains
