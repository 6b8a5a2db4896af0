"""Claim and ask numbers against the CSP oracle on small games, and certain claims against the true deal."""

from __future__ import annotations

import dataclasses
import math
import re
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rich.console import Console

from cardlogic.arguments import ArgumentError, ArgumentTypeError
from cardlogic.cards import iter_cards
from cardlogic.cli.advise import print_advice
from cardlogic.literature import Ask, Game, Rules, State, read_record
from cardlogic.literature.advice import (
    CERTAIN,
    CLAIM_TRUST,
    AdvisorWeights,
    Recommendation,
    advise,
    advise_record,
    ask_advice,
    claim_advice,
    entropy_bits,
    stated_chance,
    team_chances,
    trusted,
)
from cardlogic.literature.belief import UNCONFIRMED, LiteratureBelief
from cardlogic.literature.decks import Deck
from cardlogic.literature.selfplay import play_random_game

from ..csp_memo import memoized_csp
from .oracle import claim_truth, current_deals, public_ask_probabilities

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay")


def small_game(
    sets: tuple[str, ...] = ("LS", "HS"), players: int = 4, rules: Rules | None = None, dealer: int = 0
) -> Game:
    return Game(NAMES[:players], deck=Deck.named("no-8s", sets=list(sets)), rules=rules or Rules(), dealer=dealer)


def beliefs_after(
    game: Game, seed: int, events: int, observer: int
) -> tuple[LiteratureBelief, LiteratureBelief, State]:
    """The observer's and a spectator's belief, and the referee, after the first ``events`` events of a random game."""
    hands, history = play_random_game(game, seed)
    belief = LiteratureBelief(game, observer, iter_cards(hands[observer]), prior="rules")  # as the oracle counts
    public = LiteratureBelief(game, prior="rules")
    state = State(game, hands)
    for event in history[:events]:
        belief.push(event)
        public.push(event)
        state.push(event)
    return belief, public, state


@pytest.fixture(scope="module", autouse=True)
def csp_searches_each_model_once():
    """The oracle lists the deals of a position once, however many sets or asks are checked against them."""
    with memoized_csp() as stats:
        yield stats


CASES = [(seed, events, observer) for seed in (1, 2, 3) for events in (0, 4, 9) for observer in (0, 1)]


@pytest.mark.parametrize(("seed", "events", "observer"), CASES)
def test_claim_numbers_match_the_oracle(seed, events, observer):
    game = small_game()
    belief, _, _ = beliefs_after(game, seed, events, observer)
    for index in range(len(game.deck.sets)):
        if index in belief.public.claimed:
            continue
        advice = claim_advice(belief, index)
        p_team, best, joint = claim_truth(belief, index)
        assert advice.p_team_holds == pytest.approx(p_team, abs=1e-9)
        assert advice.p_correct == pytest.approx(best, abs=1e-9)
        if p_team > 0:  # the assignment is a joint maximum, not a collection of per-card maxima
            assert joint[tuple(advice.assignment)] == pytest.approx(best, abs=1e-9)
        assert advice.expected_points == pytest.approx(advice.p_correct - (1 - p_team), abs=1e-9)
        assert advice.certain == (best == pytest.approx(1.0))


def test_the_players_prior_is_trusted_less_on_uncertain_claims():
    """Under the players' prior an uncertain claim states its chances with the log-odds scaled by CLAIM_TRUST; a
    certain one, and every claim under the rules, states the belief's own."""
    record = read_record((EXAMPLES / "mini.txt").read_text(encoding="utf-8"))  # low-hearts: the team's, 0.34
    players = LiteratureBelief.from_record(record)
    assert players.weighting is not None  # the players' prior answers here
    uncertain = 0
    for index in players.public.unclaimed:
        advice = claim_advice(players, index)
        joint = players.joint(dict(advice.assignment))
        p_team = team_chances(players, [index])[0]
        if advice.certain or p_team == 0.0:
            assert (advice.p_correct, advice.p_team_holds) == pytest.approx((joint, p_team), abs=1e-12)
            continue
        uncertain += 1
        assert advice.p_correct == pytest.approx(min(trusted(joint), UNCONFIRMED), abs=1e-12)
        assert advice.p_team_holds == pytest.approx(trusted(p_team), abs=1e-12)
        assert (
            abs(math.log(advice.p_team_holds / (1 - advice.p_team_holds)))
            <= abs(math.log(p_team / (1 - p_team))) * CLAIM_TRUST + 1e-9
        )
    assert uncertain
    assert stated_chance(players, 0.9, certain=False) == trusted(0.9)
    assert stated_chance(players, 0.999, certain=False) == UNCONFIRMED  # trusted(0.999) is 0.991
    assert stated_chance(players, 1.0, certain=True) == 1.0
    rules = LiteratureBelief.from_record(record, prior="rules")
    assert stated_chance(rules, 0.9, certain=False) == 0.9
    for index in rules.public.unclaimed:
        advice = claim_advice(rules, index)
        assert advice.p_team_holds == pytest.approx(team_chances(rules, [index])[0], abs=1e-12)


def test_trust_keeps_certainty_and_order():
    chances = [0.0, 0.01, 0.3, 0.5, 0.8, 0.95, 0.999, 1.0]
    stated = [trusted(p) for p in chances]
    assert stated[0] == 0.0 and stated[3] == 0.5 and stated[-1] == 1.0
    assert stated == sorted(stated) and len(set(stated)) == len(stated)
    assert all(abs(t - 0.5) <= abs(p - 0.5) for p, t in zip(chances, stated))


@pytest.mark.parametrize(("seed", "events", "observer"), CASES)
def test_team_chances_of_every_set_at_once_match_the_oracle(seed, events, observer):
    game = small_game()
    belief, _, _ = beliefs_after(game, seed, events, observer)
    chances = team_chances(belief, range(len(game.deck.sets)))  # claimed sets too: the team holds none of them
    for index, chance in enumerate(chances):
        expected = 0.0 if index in belief.public.claimed else claim_truth(belief, index)[0]
        assert chance == pytest.approx(expected, abs=1e-9)


def test_expected_points_follow_the_house_rules():
    rules = Rules("opponents", high_double=True)
    game = small_game(rules=rules)
    belief, _, _ = beliefs_after(game, 2, 4, 0)
    for index in range(2):
        advice = claim_advice(belief, index)
        value = 2 if game.deck.sets[index].high else 1
        assert advice.expected_points == pytest.approx(value * (2 * advice.p_correct - 1), abs=1e-9)


def test_the_joint_maximum_can_differ_from_per_card_maxima():
    """Three-set game where the oracle's assignments are compared exhaustively, whatever the search order."""
    game = small_game(("LS", "HS", "LH"))
    belief, _, _ = beliefs_after(game, 5, 6, 0)
    for index in range(3):
        if index in belief.public.claimed:
            continue
        advice = claim_advice(belief, index)
        _, best, joint = claim_truth(belief, index)
        assert advice.p_correct == pytest.approx(best, abs=1e-9)
        if best > 0:
            assert joint[tuple(advice.assignment)] == pytest.approx(best, abs=1e-9)


PUBLIC_DEALS = 40_000
"""Spectator positions with more consistent deals than this are left to the exact backend's own tests."""


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_ask_numbers_match_the_oracle(seed):
    game = small_game()
    hands, history = play_random_game(game, seed)
    state = State(game, hands)
    checked = leaks = 0
    for count, event in enumerate(history[:12]):
        mover = state.to_move
        belief, public, _ = beliefs_after(game, seed, count, mover)
        asks = ask_advice(belief, public)
        view = belief.view
        assert {(a.target, a.card) for a in asks} == {(a.target, a.card) for a in view.legal_asks(view.player)}
        deals = current_deals(belief)
        for advice in asks:
            p = sum(deal[advice.card] == advice.target for deal in deals) / len(deals)
            assert advice.p_yes == pytest.approx(p, abs=1e-9)
            assert advice.info_bits == pytest.approx(entropy_bits(p), abs=1e-9)
            checked += 1
        if asks and public.count() <= PUBLIC_DEALS:
            q = public_ask_probabilities(public, mover, sorted({a.card for a in asks}))
            for advice in asks:
                assert advice.leak_bits == pytest.approx(-math.log2(q[advice.card]), abs=1e-9)
                leaks += 1
        assert [a.value for a in asks] == sorted((a.value for a in asks), reverse=True)
        state.push(event)
    assert checked and leaks


@pytest.mark.parametrize(
    ("weight", "value", "error", "message"),
    [
        ("completion", -1.0, ArgumentError, "completion must be 0 or more, not -1.0"),
        ("danger", math.nan, ArgumentTypeError, "danger must be a finite number, not nan"),
        ("lookahead", 1.5, ArgumentTypeError, "lookahead must be an integer, not 1.5"),
        ("risky_claim", 1.2, ArgumentError, "risky_claim must be from 0 to 1, not 1.2"),
        ("hold_ask", "high", ArgumentTypeError, "hold_ask must be a finite number, not 'high'"),
        ("prospect_samples", 0, ArgumentError, "prospect_samples must be 1 or more, not 0"),
        ("playout_candidates", True, ArgumentTypeError, "playout_candidates must be an integer, not True"),
        ("playout_deals", 0, ArgumentError, "playout_deals must be from 1 to"),
        ("strongest_set", 1, ArgumentTypeError, "strongest_set must be True or False, not 1"),
    ],
)
def test_advisor_weights_refuse_a_bad_value_by_name(weight, value, error, message):
    with pytest.raises(error, match=re.escape(message)):
        AdvisorWeights(**{weight: value})


@pytest.mark.parametrize(("seed", "completion", "danger"), [(1, 8.0, 1.0), (2, 3.0, 0.5), (3, 8.0, 1.0)])
def test_ask_values_follow_the_documented_formula(seed, completion, danger):
    """With no exact second step, value = p (secured + completion w gather + p) - (1 - p) danger weight * danger,
    each from oracle marginals (the default weights are 8 and 1)."""
    weights = AdvisorWeights(completion=completion, danger=danger, lookahead=0)
    game = small_game()
    hands, history = play_random_game(game, seed)
    state = State(game, hands)
    checked = 0
    for count, event in enumerate(history[:12]):
        mover = state.to_move
        belief, _, _ = beliefs_after(game, seed, count, mover)
        state.push(event)
        asks = ask_advice(belief, weights=weights)
        if not asks:
            continue
        deals = current_deals(belief)
        placed = Counter((card, holder) for deal in deals for card, holder in deal.items())
        at = {(card, holder): placed[card, holder] / len(deals) for card in deals[0] for holder in range(4)}
        team = game.members(game.team_of(mover))
        known = belief.public.known
        for advice in asks:
            p = advice.p_yes
            others = [c for c in game.deck.set_of(advice.card).cards if c != advice.card]
            secured = math.prod(sum(at[c, h] for h in team) for c in others)
            gather = math.prod(
                min(1.0, sum(at[c, h] for h in team) + max(at[c, o] for o in game.opponents(mover))) for c in others
            )
            askable = sum(
                1 - math.prod(1 - at[o, advice.target] for o in game.deck.set_of(card).cards if o != card)
                for card, holder in known.items()
                if holder in team
            )
            worth = game.set_value(game.deck.set_index_of(advice.card))
            expected = p * (secured + completion * worth * gather + p) - (1 - p) * danger * askable
            assert advice.value == pytest.approx(expected, abs=1e-9)
            checked += 1
    assert checked


def test_entropy_gained_is_the_expected_drop_of_log2_count():
    game = small_game()
    belief, _, _ = beliefs_after(game, 3, 0, 0)
    before = math.log2(belief.count())
    for advice in ask_advice(belief)[:5]:
        after = 0.0
        for yes, p in ((True, advice.p_yes), (False, 1 - advice.p_yes)):
            if p > 0:
                belief.push(advice.event(0).__class__(0, advice.target, advice.card, yes))
                after += p * math.log2(belief.count())
                belief.pop()
        assert before - after == pytest.approx(advice.info_bits, abs=1e-9)


@st.composite
def positions(draw):
    players = draw(st.integers(4, 6))
    names = draw(st.permutations(["LS", "HS", "LH", "HH"]))[: draw(st.integers(2, 4))]
    rules = Rules(
        draw(st.sampled_from(["split", "opponents"])), bluff=draw(st.booleans()), high_double=draw(st.booleans())
    )
    game = small_game(tuple(sorted(names)), players, rules, dealer=draw(st.integers(0, players - 1)))
    seed = draw(st.integers(0, 10_000))
    hands, history = play_random_game(game, seed)
    return game, hands, history, draw(st.integers(0, len(history))), draw(st.integers(0, players - 1))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions())
def test_certain_claims_are_always_correct(position):
    game, hands, history, events, observer = position
    belief = LiteratureBelief(game, observer, iter_cards(hands[observer]))
    state = State(game, hands)
    for event in history[:events]:
        belief.push(event)
        state.push(event)
    advice = advise(belief, thorough=True) if state.to_move == observer else None
    claims = (
        advice.claims
        if advice
        else [claim_advice(belief, i) for i in range(len(game.deck.sets)) if i not in state.public.claimed]
    )
    for claim in claims:
        if claim.certain:
            assert all(state.holder_of(card) == holder for card, holder in claim.assignment)
            assert claim.p_team_holds == 1.0


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(), st.booleans())
def test_a_guess_is_made_in_a_set_the_asker_holds_the_most_of(position, thorough):
    """Where the recommendation is a guess, its set is one the asker holds the most cards of among the sets with an
    ask that may succeed; with ``strongest_set`` off the thorough recommendation is the best guess by value. Where
    no ask may succeed, an ask recommended says so."""
    game, hands, history, events, _ = position
    state = State(game, hands)
    for event in history[:events]:
        state.push(event)
    mover = state.to_move
    if mover is None or not state.hands[mover]:
        return
    belief = LiteratureBelief(game, mover, iter_cards(hands[mover]))
    for event in history[:events]:
        belief.push(event)
    advice = advise(belief, thorough=thorough, seed=events)
    event = advice.recommendation.event
    hopeful = [a for a in advice.asks if a.p_yes > 0]
    if isinstance(event, Ask) and not hopeful:  # not a guess: an ask to pass the turn on
        assert "no ask can succeed" in advice.recommendation.reason
    if not isinstance(event, Ask) or not hopeful or any(a.p_yes >= CERTAIN for a in hopeful):
        return
    hand = state.hands[mover]

    def held(card: int) -> int:
        return (hand & game.set_masks[game.deck.set_index_of(card)]).bit_count()

    most = max(held(a.card) for a in hopeful)
    assert held(event.card) == most
    assert ("; my strongest set" in advice.recommendation.reason) == any(held(a.card) < most for a in hopeful)
    if thorough:
        plain = advise(belief, seed=events, weights=AdvisorWeights(strongest_set=False)).recommendation
        assert plain.event == hopeful[0].event(mover)


def test_a_look_ahead_adds_the_best_next_chance_after_a_yes():
    """An ask looked ahead adds p * (the best P(yes) of the asker's next ask after a yes - p) to its value without
    the second step, that best chance from the oracle's deals with the card at the target (1 when a card in public
    at an opponent is left to ask for, where no exact pass is made)."""
    game = small_game()
    looked = sure_next = 0
    for seed in (1, 2, 3):
        hands, history = play_random_game(game, seed)
        state = State(game, hands)
        for count, event in enumerate(history[:16]):
            mover = state.to_move
            belief, _, _ = beliefs_after(game, seed, count, mover)
            state.push(event)
            plain = {(a.target, a.card): a.value for a in ask_advice(belief, weights=AdvisorWeights(lookahead=0))}
            deals = current_deals(belief)
            view = belief.view
            for advice in ask_advice(belief):
                if advice.p_yes == 0:
                    continue
                view.push(Ask(mover, advice.target, advice.card, True))
                following = view.legal_asks(mover)
                view.pop()
                after = [deal for deal in deals if deal[advice.card] == advice.target]
                best = max((sum(d[a.card] == a.target for d in after) / len(after) for a in following), default=1.0)
                without = plain[advice.target, advice.card]
                with_step = without + advice.p_yes * (best - advice.p_yes)
                assert advice.value in (pytest.approx(without, abs=1e-9), pytest.approx(with_step, abs=1e-9))
                stepped = advice.value != pytest.approx(without, abs=1e-12)
                looked += stepped
                sure_next += stepped and any(belief.public.known.get(a.card) == a.target for a in following)
    assert looked and sure_next


def test_the_recommended_ask_is_listed_and_marked_where_its_value_ranks_it_low():
    """A guess chosen by its set or by playouts may rank below the best asks by value: the lists ``advise`` and
    ``live`` print keep it (in the last place) and mark it."""
    record = read_record((EXAMPLES / "ann-view.txt").read_text())
    advice = advise_record(record, prior="rules")
    assert advice.best_asks(10) == advice.asks[:10]  # the recommended ask is among the best already
    low = advice.asks[-1]
    guess = dataclasses.replace(
        advice, recommendation=Recommendation(Ask(advice.observer, low.target, low.card), "a guess")
    )
    best = guess.best_asks(10)
    assert best[:9] == advice.asks[:9] and best[9] == low and len(best) == 10
    console = Console(record=True, width=80)
    print_advice(guess, record.game, console)
    marked = [line for line in console.export_text().splitlines() if line.startswith("│ > ")]
    assert marked == [line for line in marked if f"{record.game.players[low.target]} for {low.card}" in line]
    assert len(marked) == 1
