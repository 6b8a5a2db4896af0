"""Exact answers at the deal for every table size, and advice that falls back to sampling where exact tables do not
fit.

The deal: nothing has been learned, so every holder is like every other and the exact backend counts them as one
(see :func:`cardlogic.inference.packed.pack`); the counts have closed forms. Early in 10- and 12-player games the
frontier program answers exactly. A model whose clauses link many cards into one block fits no exact program; and
38 events into a 12-player game of the jokers deck the player's exact tables need 18.7 million transitions, beyond
``auto``'s budget: advice, the advisor bot and ``cardlogic advise`` answer from sampled deals there and say so, with
their standard error.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from cardlogic import inference
from cardlogic.cli import main
from cardlogic.constraints import DealModel
from cardlogic.inference import AUTO_MAX_OPERATIONS, ExactBackend, InferenceError, exact_is_practical, infer
from cardlogic.literature import Ask, read_record
from cardlogic.literature.advice import advise, advise_record, spectator
from cardlogic.literature.belief import LiteratureBelief
from cardlogic.literature.bots import AdvisorBot

NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kim", "Lou")
SCENARIOS = Path(__file__).resolve().parents[2] / "benchmarks" / "scenarios"
BEYOND_AUTO = Path(__file__).resolve().parent / "12p-beyond-auto.txt"
CHANCES_BEYOND_AUTO = Path(__file__).resolve().parent / "10p-chances-beyond-auto.txt"


def belief_json(tmp_path, capsys, text: str) -> dict:
    path = tmp_path / "deal.txt"
    path.write_text(text)
    assert main(["belief", "--method", "exact", "--prior", "rules", "--json", str(path)]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("players", [4, 6, 8, 12])  # the table sizes where 48 cards split evenly
def test_the_deal_in_closed_form_for_a_spectator_and_a_player(tmp_path, capsys, players):
    size = 48 // players
    setup = f"Players: {' '.join(NAMES[:players])}\nDeck: no-8s\nDealer: {NAMES[players - 1]}\n"
    spectator = belief_json(tmp_path, capsys, setup)
    assert spectator["method"] == "exact"
    assert int(spectator["deals"]) == math.factorial(48) // math.factorial(size) ** players
    assert all(p == pytest.approx(1 / players, rel=1e-12) for row in spectator["cards"].values() for p in row.values())
    hand = " ".join(list(spectator["cards"])[:size])  # any hand of the right size
    player = belief_json(tmp_path, capsys, setup + f"Me: Ann\nHand Ann: {hand}\n")
    assert int(player["deals"]) == math.factorial(48 - size) // math.factorial(size) ** (players - 1)
    for card, row in player["cards"].items():
        if card in hand.split():
            assert row["Ann"] == 1.0
        else:
            assert row["Ann"] == 0.0
            assert all(row[name] == pytest.approx(1 / (players - 1), rel=1e-12) for name in NAMES[1:players])


@pytest.fixture(scope="module")
def twelve() -> tuple[LiteratureBelief, LiteratureBelief]:
    """The player to move 38 events into a 12-player game (jokers deck), and a spectator of the same history."""
    record = read_record(BEYOND_AUTO.read_text())
    belief = LiteratureBelief.from_record(record, prior="rules")
    return belief, spectator(belief)


def test_a_model_no_exact_program_fits_is_sampled():
    """Clauses over pairs of cards chain 26 of the 48 cards of twelve hands into one block: the box's states carry
    25 clause bits (2**25 times 5**12), the frontier program's local walk of that block passes its limit; ``auto``
    samples."""
    model = DealModel([f"P{h}" for h in range(12)], [4] * 12, range(48))
    for card in range(25):
        model.require_one_of(card % 12, [card, card + 1])
    with pytest.raises(InferenceError):
        ExactBackend().posterior(model)
    assert not exact_is_practical(model, marginals=True)
    posterior = infer(model, samples=2_000)
    assert posterior.method == "mcmc" and posterior.samples == 2_000


def test_exact_tables_do_not_fit_autos_budget_38_events_into_a_twelve_player_game(twelve):
    belief, public = twelve
    assert not exact_is_practical(belief.model, marginals=True) and not exact_is_practical(public.model)
    assert belief.resolved_method == "sample"


def test_advice_falls_back_to_sampling_and_states_its_error(twelve):
    belief, public = twelve
    advice = advise(belief, public)
    assert advice.method == "mcmc" and advice.samples == belief.samples
    assert advice.stderr == pytest.approx(0.5 / math.sqrt(belief.samples))
    assert advice.to_move == belief.observer and advice.asks and isinstance(advice.recommendation.event, Ask)
    assert all(0.0 <= a.p_yes <= 1.0 and a.leak_bits is not None for a in advice.asks)
    # The sampled P(yes) of each ask is the belief's sampled marginal: the share of deals with the card there.
    table = dict(zip(belief.marginals().cards, belief.marginals().probabilities))
    assert all(a.p_yes == pytest.approx(table[a.card][a.target]) for a in advice.asks)


def test_cardlogic_advise_says_it_sampled(capsys):
    assert main(["advise", str(BEYOND_AUTO), "--prior", "rules"]) == 0
    out = capsys.readouterr().out
    assert "sampled from 20,000 deals by an MCMC chain" in out and "Recommendation:" in out
    assert main(["advise", "--json", str(BEYOND_AUTO), "--prior", "rules"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["method"] == "mcmc" and data["samples"] == 20_000 and 0 < data["stderr"] < 0.01
    expected = advise_record(read_record(BEYOND_AUTO.read_text()), prior="rules").recommendation
    assert data["recommendation"]["reason"] == expected.reason  # sampled from a fixed seed: reproducible


def test_the_advisor_bot_plays_a_legal_ask_from_sampled_deals():
    record = read_record(BEYOND_AUTO.read_text())
    observer = record.observer
    view = LiteratureBelief.from_record(record).view
    bot = AdvisorBot(record.game, observer, sum(1 << card for card in record.hands[observer]), seed=3)
    event = bot.choose(view)
    assert bot.belief.resolved_method == "sample" and bot.belief.chance_method == ("mcmc", AdvisorBot.SAMPLES)
    assert isinstance(event, Ask)
    assert (event.asker, event.target, event.card) in {
        (a.asker, a.target, a.card) for a in view.legal_asks(view.player)
    }


def test_chances_beyond_autos_budget_are_sampled_and_said_so(monkeypatch):
    """44 events into a 10-player game the player's marginals are exact; where its claims' chances (an exact count
    under each restriction, the teams kept apart) pass the budget auto holds them to (here a tenth of it), they
    are sampled, and the advice says so."""
    belief = LiteratureBelief.from_record(read_record(CHANCES_BEYOND_AUTO.read_text()), prior="rules")
    assert belief.resolved_method == "exact" and belief.chance_method == ("exact", 0)
    budgeted = inference.budgeted
    monkeypatch.setattr(inference, "budgeted", lambda max_operations=None: budgeted(0.1 * AUTO_MAX_OPERATIONS))
    advice = advise(belief, spectator(belief))
    assert belief.chance_method == ("mcmc", belief.samples)
    assert (advice.method, advice.samples) == belief.chance_method
    assert belief.posterior().method == "exact"
    assert advice.claims and all(0.0 <= c.p_team_holds <= 1.0 for c in advice.claims)
