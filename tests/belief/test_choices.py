"""The players' choice model: no consistent deal is ruled out, the weighted posterior matches enumeration, fitting
recovers the weights that played, and the model file reads and refuses as it should."""

from __future__ import annotations

import math
import random
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardlogic.arguments import MAX_SEED, ArgumentError, ArgumentTypeError
from cardlogic.cards import Card, card_mask, iter_cards
from cardlogic.literature import Ask, Claim, Game, IllegalEventError, Pass, State, actor, play_random_game
from cardlogic.literature import belief as belief_module
from cardlogic.literature.belief import LiteratureBelief, effective_size, tempering_for
from cardlogic.literature.choices import (
    DEFAULT_STYLES,
    KEPT_KEYS,
    ChoiceModel,
    ChoiceModelError,
    History,
    PlayerStyles,
    deal_row,
    fit,
)
from cardlogic.literature.decks import Deck
from tests.inference.brute_force import consistent_rows

EXTREME = ChoiceModel(
    held=10,
    sure=10,
    dead=-10,
    target_set=10,
    slots=10,
    claim_bias=-10,
    claim_certain=10,
    pass_sure=10,
    estimate=10,
    inferred=10,
)
"""A model as sure of its players as the fit's bounds allow: whatever they do still has likelihood > 0."""


@pytest.fixture
def every_sample(monkeypatch) -> None:
    """A players' prior that draws all its ``samples``: the weighting checked to the precision they buy, not to
    the effective sample size at which a belief stops drawing."""
    monkeypatch.setattr(belief_module, "ENOUGH_EFFECTIVE", math.inf)
    monkeypatch.setattr(belief_module, "WEIGHING_BUDGET", 10**12)


def small_game(players: int, sets: list[str], dealer: int = 0) -> Game:
    return Game(tuple("ABCDEFGHIJKL"[:players]), deck=Deck.named("no-8s", sets=sets), dealer=dealer)


def private_estimate(state: State, ask: Ask, sharpened: bool = True) -> float:
    """The asker's own chance that the target holds the card, read from the referee's state as a counting player
    reads it: 1 or 0 where the card is publicly placed or the target publicly lacks it; else the target's unknown
    cards over those of everyone but the asker who may hold it, ``sharpened`` to owed / m where the target surely
    holds ``owed`` more hidden cards of the set than are placed and may hold ``m`` of those not in the asker's
    hand."""
    game, public = state.game, state.public
    hand, known = state.hands[ask.asker], public.known
    if ask.card in known:
        return float(known[ask.card] == ask.target)
    lacks: list[set[int]] = [set() for _ in game.players]
    least = [[0] * len(game.deck.sets) for _ in game.players]
    for event in public.history:
        if isinstance(event, Ask):
            index = game.deck.set_index_of(event.card)
            least[event.asker][index] = max(least[event.asker][index], 1)
            if event.yes:
                least[event.asker][index] += 1
                least[event.target][index] = max(0, least[event.target][index] - 1)
                lacks[event.asker].discard(event.card)
            else:
                lacks[event.target].add(event.card)
                lacks[event.asker].add(event.card)
        elif isinstance(event, Claim):
            for row in least:
                row[event.set_index] = 0
    if ask.card in lacks[ask.target]:
        return 0.0
    slots = [public.sizes[p] - sum(1 for h in known.values() if h == p) for p in range(len(game.players))]
    candidates = [p for p in range(len(game.players)) if p != ask.asker and ask.card not in lacks[p]]
    chance = slots[ask.target] / sum(slots[p] for p in candidates)
    index = game.deck.set_index_of(ask.card)
    cards = game.deck.sets[index].cards
    owed = least[ask.target][index] - sum(1 for c in cards if known.get(c) == ask.target)
    maybe = [c for c in cards if c not in known and c not in lacks[ask.target] and not hand >> c & 1]
    return max(chance, min(1.0, owed / len(maybe))) if owed > 0 and sharpened else chance


def model_chance(model: ChoiceModel, state: State, ask: Ask) -> float:
    """The model's weight of ``ask`` (exp of its score) from the referee's state, with its own reading of the
    features."""
    game, public = state.game, state.public
    hand = state.hands[ask.asker]
    card_set = game.deck.set_of(ask.card)
    held = sum(1 for c in card_set.cards if hand >> c & 1) / len(card_set.cards)
    sure = public.known.get(ask.card) == ask.target
    score = model.held * held + model.sure * sure
    if model.estimate or model.inferred or model.likeliest:
        estimate = private_estimate(state, ask)
        score += model.estimate * math.log(max(estimate, 0.05)) + model.inferred * (estimate >= 1)
    asks = [e for e in state.legal_events() if isinstance(e, Ask) and e.asker == ask.asker]
    if model.likeliest:
        score += model.likeliest * (estimate >= max(private_estimate(state, a) for a in asks) - 1e-9)
    if model.likeliest_plain:
        plain = private_estimate(state, ask, sharpened=False)
        most = max(private_estimate(state, a, sharpened=False) for a in asks)
        score += model.likeliest_plain * (plain >= most - 1e-9)
    return math.exp(score)


def ask_chance(model: ChoiceModel, state: State, ask: Ask) -> float:
    """P(the asker chose ``ask``) under ``model`` from the referee's state, worked out apart from the kernel: not to
    claim (a logistic on whether the asker's hand and the cards publicly at teammates cover a set), then this ask
    among the legal ones, each mixed with the rules."""
    game = state.game
    team = game.team_of(ask.asker)
    covered = state.hands[ask.asker] | card_mask(c for c, h in state.public.known.items() if game.team_of(h) == team)
    certain = any(game.deck.sets[i].mask & ~covered == 0 for i in state.public.unclaimed)
    claim = (1 - model.mix) / (1 + math.exp(-(model.claim_bias + model.claim_certain * certain))) + model.mix / 2
    asks = [e for e in state.legal_events() if isinstance(e, Ask) and e.asker == ask.asker]
    weights = [model_chance(model, state, a) for a in asks]
    chosen = weights[[(a.card, a.target) for a in asks].index((ask.card, ask.target))]
    return (1 - claim) * ((1 - model.mix) * chosen / sum(weights) + model.mix / len(asks))


def anti_model_game(game: Game, seed: int) -> tuple[tuple[int, ...], list]:
    """A game whose players do what the model finds least likely: the ask it scores lowest, no sure ask, and
    claims only when no ask can be made (then a random guess)."""
    rng = random.Random(seed)
    state = State.shuffled(game, rng)
    hands = state.hands
    events = []
    while not state.is_over and len(events) < 300:
        mover = state.public.movers[0]
        legal = [e for e in state.legal_events() if actor(e) == mover]
        asks = [e for e in legal if isinstance(e, Ask)]
        passes = [e for e in legal if isinstance(e, Pass)]
        if not state.hands[mover] and passes:
            event = rng.choice(passes)
        elif asks:
            event = min(asks, key=lambda a: (model_chance(EXTREME, state, a), rng.random()))
        else:
            index = rng.choice(state.public.unclaimed)
            team = game.members(game.team_of(mover))
            event = Claim(mover, index, tuple((c, rng.choice(team)) for c in game.deck.sets[index].cards))
        events.append(state.push(event))
    return hands, events


def all_deals(belief: LiteratureBelief) -> np.ndarray:
    """Every deal consistent with ``belief``, as rows of holders of the deck's cards."""
    return consistent_rows(belief.model)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), players=st.sampled_from([4, 6]), adversarial=st.booleans())
def test_no_consistent_deal_gets_likelihood_zero(seed: int, players: int, adversarial: bool) -> None:
    game = small_game(players, ["LS", "HS", "LH"], dealer=seed % players)
    hands, events = anti_model_game(game, seed) if adversarial else play_random_game(game, seed)
    history = History(game, events)
    adverse = ChoiceModel(held=-10, sure=-10, dead=10, claim_bias=10, pass_sure=-10, estimate=-10, inferred=-10)
    for model in (DEFAULT_STYLES, EXTREME, adverse):
        truth = model.log_likelihoods(history, deal_row(history, hands))
        assert np.isfinite(truth).all() and truth[0] > -1e4
    # and every deal the spectator's rules allow, midway through the game
    middle = len(events) // 2
    belief = LiteratureBelief(game, method="sample", prior="rules", samples=500, seed=seed)
    for event in events[:middle]:
        belief.push_unchecked(event)
    deals, _ = belief._drawn()
    assert np.isfinite(EXTREME.log_likelihoods(History(game, events[:middle]), deals)).all()


@pytest.mark.parametrize("styles", [1, 2])
def test_the_weighted_posterior_matches_enumeration_with_the_same_likelihood(every_sample: None, styles: int) -> None:
    """One model, or two styles (each player's choices mixed over them and the rules)."""
    game = small_game(4, ["LS", "HS"], dealer=1)
    hands, events = play_random_game(game, 5)
    one = ChoiceModel(
        held=2.5, sure=2.0, dead=-1.5, target_set=1.0, claim_bias=-2.0, claim_certain=4.0, estimate=3.0, inferred=1.5
    )
    other = ChoiceModel(held=-2.0, sure=4.0, dead=1.0, estimate=-2.0, modelled=0.3)
    model = one if styles == 1 else PlayerStyles((replace(one, modelled=0.5), other), ("one", "other"))
    checked = 0
    for length in (2, 4, 6):
        record_events = events[:length]
        belief = LiteratureBelief(game, 0, iter_cards(hands[0]), prior="players", choices=model, samples=40_000)
        for event in record_events:
            belief.push_unchecked(event)
        deals = all_deals(belief)
        weights = np.exp(model.log_likelihoods(History(game, record_events), deals, skip=0))
        weights /= weights.sum()
        assert belief.weighting is not None, belief.prior_answered
        marginals = belief.marginals()
        columns = {card: j for j, card in enumerate(belief.model.cards)}
        for i, card in enumerate(marginals.cards):
            if card in belief.public.known:
                continue
            truth = np.bincount(deals[:, columns[card]], weights=weights, minlength=4)
            assert np.abs(marginals.probabilities[i] - truth).max() < 0.02, (length, card)
            checked += 1
    assert checked > 10


def test_a_belief_pushed_event_by_event_keeps_matching_enumeration(every_sample: None) -> None:
    """The players' prior keeps the deals the next state still allows and weighs them by the new events alone
    (topping them up when few are left): after every push, and after a pop, it answers as a fresh belief would."""
    game = small_game(4, ["LS", "HS"], dealer=1)
    hands, events = play_random_game(game, 5)
    model = ChoiceModel(held=2.5, dead=-1.5, target_set=1.0, claim_certain=4.0, estimate=3.0, inferred=1.5)
    belief = LiteratureBelief(game, 0, iter_cards(hands[0]), prior="players", choices=model, samples=20_000, seed=4)
    columns = {card: j for j, card in enumerate(belief.model.cards)}

    def assert_matches(length: int) -> None:
        deals = all_deals(belief)
        weights = np.exp(model.log_likelihoods(History(game, events[:length]), deals, skip=0))
        assert belief.weighting is not None, belief.prior_answered
        marginals = belief.marginals()
        for i, card in enumerate(marginals.cards):
            if card not in belief.public.known:
                truth = np.bincount(deals[:, columns[card]], weights=weights / weights.sum(), minlength=4)
                assert np.abs(marginals.probabilities[i] - truth).max() < 0.02, (length, card)

    for length, event in enumerate(events[:8], start=1):
        belief.push(event)
        assert_matches(length)
    belief.pop()
    assert_matches(7)
    # the largest seed: the fresh deals' seeds (the belief's, moved on by the events) fold back into 32 bits
    last = LiteratureBelief(game, 0, iter_cards(hands[0]), prior="players", samples=400, seed=MAX_SEED)
    for event in events:
        last.push(event)
        assert last.prior_answered.startswith(("players (", "rules (the players' prior collapsed"))


def synthetic_game(model: ChoiceModel, game: Game, rng: random.Random) -> tuple[tuple[int, ...], list]:
    """A game whose asks follow ``model``'s held and sure weights (mixed with the rules by ``model.mix``), whose
    teams claim a set as soon as they hold it, and whose guesses end a stalled game."""
    state = State.shuffled(game, rng)
    hands = state.hands
    events = []
    while not state.is_over and len(events) < 200:
        mover = state.public.movers[0]
        legal = [e for e in state.legal_events() if actor(e) == mover]
        claims = [e for e in legal if isinstance(e, Claim)]
        asks = [e for e in legal if isinstance(e, Ask)]
        passes = [e for e in legal if isinstance(e, Pass)]
        if not state.hands[mover]:
            event = rng.choice(passes)
        elif claims or not asks:
            index = claims[0].set_index if claims else state.public.unclaimed[0]
            team = game.members(game.team_of(mover))
            owner = {c: next((p for p in team if state.hands[p] >> c & 1), mover) for c in game.deck.sets[index].cards}
            event = Claim(mover, index, tuple(owner.items()))
        elif rng.random() < model.mix:
            event = rng.choice(asks)
        else:
            scores = [model_chance(model, state, a) for a in asks]
            event = rng.choices(asks, weights=scores)[0]
        events.append(state.push(event))
    return hands, events


def synthetic_games(truth: ChoiceModel, seed: int) -> list[tuple[History, np.ndarray]]:
    """Games of 4 players and 4 sets played by ``truth`` (:func:`synthetic_game`), as :func:`fit` reads them. At
    these tests' seeds 26 recover its weights within 0.25 (the tests allow 0.8); each game costs every step of the
    fit an evaluation of its likelihood, most of these tests' time."""
    rng = random.Random(seed)
    games = []
    for index in range(26):
        game = small_game(4, ["LS", "HS", "LH", "HH"], dealer=index % 4)
        hands, events = synthetic_game(truth, game, rng)
        history = History(game, events)
        games.append((history, deal_row(history, hands)))
    return games


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), players=st.sampled_from([4, 6]))
def test_the_kernel_gives_each_ask_the_chance_worked_out_from_the_referees_state(seed: int, players: int) -> None:
    """Every ask's likelihood under the true deal, from the kernel, is the chance the model gives it read from the
    referee's state apart from the kernel (:func:`ask_chance`)."""
    model = ChoiceModel(
        held=1.5,
        sure=-0.5,
        claim_bias=-3.0,
        claim_certain=6.0,
        estimate=2.0,
        inferred=1.0,
        likeliest=1.5,
        likeliest_plain=0.7,
    )
    game = small_game(players, ["LS", "HS", "LH", "HH"], dealer=seed % players)
    hands, events = synthetic_game(model, game, random.Random(seed))
    history = History(game, events)
    deal = deal_row(history, hands)
    styles = PlayerStyles.of(model)
    state = State(game, hands)
    checked = 0
    for k, event in enumerate(events):
        if isinstance(event, Ask) and state.public.team_cards(1 - game.team_of(event.asker)):
            here = styles.player_log_likelihoods(history, deal, first=k)[0, 0, event.asker]
            later = styles.player_log_likelihoods(history, deal, first=k + 1)[0, 0, event.asker]
            assert here - later == pytest.approx(math.log(ask_chance(model, state, event)), abs=1e-9), k
            checked += 1
        state.push(event)
    assert checked


def test_fitting_recovers_the_weights_that_played() -> None:
    truth = ChoiceModel(held=3.0, sure=2.5)
    fitted = fit(ChoiceModel(), synthetic_games(truth, 11))
    assert abs(fitted.held - truth.held) < 0.8, fitted
    assert abs(fitted.sure - truth.sure) < 0.8, fitted
    assert abs(fitted.dead) < 1.0 and abs(fitted.target_set) < 1.0, fitted


def test_fitting_recovers_the_weights_of_the_askers_private_estimate() -> None:
    """Players who ask by their own counting (the estimate their hand gives them, and certain asks first) are
    recognised as such: the fit finds the weights that played, and no weight for the public features."""
    truth = ChoiceModel(held=1.5, estimate=3.0, inferred=2.0)
    fitted = fit(ChoiceModel(), synthetic_games(truth, 7))
    for name in ("held", "estimate", "inferred"):
        assert abs(getattr(fitted, name) - getattr(truth, name)) < 0.8, (name, fitted)
    assert abs(fitted.sure) < 1.0 and abs(fitted.target_set) < 1.0 and abs(fitted.slots) < 1.0, fitted


def played_by(players: dict[int, ChoiceModel | None], seed: int) -> tuple[Game, History, np.ndarray]:
    """A game of 4 players and 6 sets whose asks follow each player's model (None: at random), up to 60 events,
    as its history and its deal."""
    game = small_game(4, ["LS", "HS", "LH", "HH", "LD", "HD"])
    rng = random.Random(seed)
    state = State.shuffled(game, rng)
    while not state.is_over and len(state.history) < 60:
        mover = state.public.movers[0]
        legal = [e for e in state.legal_events() if actor(e) == mover]
        asks = [e for e in legal if isinstance(e, Ask)]
        if not asks or not state.hands[mover]:
            break
        model = players[mover]
        weights = None if model is None else [model_chance(model, state, a) for a in asks]
        state.push(rng.choices(asks, weights=weights)[0])
    for p in range(4):
        assert sum(isinstance(e, Ask) and e.asker == p for e in state.history) >= 4, p
    history = History(game, state.history)
    return game, history, deal_row(history, state.hands)


def test_fitting_recovers_the_weight_of_asking_the_likeliest_card() -> None:
    """Players who ask the card their own counting makes likeliest far more often than its chance alone says are
    recognised as such (``likeliest``, read here from the referee's state, apart from the kernel)."""
    truth = ChoiceModel(held=1.0, estimate=1.5, likeliest=2.5)
    fitted = fit(ChoiceModel(), synthetic_games(truth, 5))
    for name in ("estimate", "likeliest"):
        assert abs(getattr(fitted, name) - getattr(truth, name)) < 0.8, (name, fitted)


def test_fitting_recovers_the_weight_of_asking_the_likeliest_card_by_plain_counting() -> None:
    """Players who ask the card the plain counting estimate makes likeliest (as the ``counting`` bot does, not
    sharpened by the set counts) are recognised as such: ``likeliest_plain``, not ``likeliest``."""
    truth = ChoiceModel(held=1.0, estimate=1.5, likeliest_plain=2.5)
    fitted = fit(ChoiceModel(), synthetic_games(truth, 5))
    for name in ("estimate", "likeliest_plain"):
        assert abs(getattr(fitted, name) - getattr(truth, name)) < 0.8, (name, fitted)
    assert abs(fitted.likeliest) < 0.8, fitted


def test_a_random_asker_drifts_to_the_rules_alone() -> None:
    """Bob asks at random, the others as the model says: the posterior that Bob plays by the model falls."""
    truth = ChoiceModel(held=3.0, sure=2.5, modelled=0.5)
    _, history, deals = played_by({0: truth, 1: None, 2: truth, 3: truth}, 3)
    styles = PlayerStyles.of(truth)
    modelled = styles.posterior(styles.player_log_likelihoods(history, deals), np.ones(1))[0]
    assert modelled[1] < min(modelled[p] for p in (0, 2, 3)), modelled


def test_each_player_drifts_to_the_style_they_play_by() -> None:
    """Ann and Cat ask as one style says, Bob and Dan as another: each player's own style is likelier than the
    other (the contrary style is near the rules', which may explain a player as well)."""
    careful, contrary = ChoiceModel(held=3.0, sure=2.5, modelled=0.3), ChoiceModel(held=-3.0, sure=-2.5, modelled=0.3)
    _, history, deals = played_by({0: careful, 1: contrary, 2: careful, 3: contrary}, 3)
    styles = PlayerStyles((careful, contrary), ("careful", "contrary"))
    posterior = styles.posterior(styles.player_log_likelihoods(history, deals), np.ones(1))
    assert np.allclose(posterior.sum(axis=0), 1.0)
    assert (posterior[0, [0, 2]] > posterior[1, [0, 2]]).all() and (posterior[1, [1, 3]] > posterior[0, [1, 3]]).all()


def test_the_model_file_round_trips_and_refuses_bad_input() -> None:
    model = ChoiceModel(held=1.5, fitted_on="test")
    assert ChoiceModel.from_json(model.to_json()) == model
    with pytest.raises(ChoiceModelError, match=r"m\.json:1: not JSON"):
        ChoiceModel.from_json("{", "m.json")
    with pytest.raises(ChoiceModelError, match="unknown fields colour"):
        ChoiceModel.from_json('{"colour": 1}', "m.json")
    with pytest.raises(ChoiceModelError, match="mix"):
        ChoiceModel.from_json('{"mix": 0}', "m.json")
    with pytest.raises(ChoiceModelError, match=r"m\.json:1: held must be a finite number, not 'x'"):
        ChoiceModel.from_json('{"held": "x"}', "m.json")
    assert all(model.fitted_on for model in DEFAULT_STYLES.models)


@pytest.mark.parametrize("kind", [ChoiceModel, PlayerStyles])
def test_a_model_file_is_read_as_utf_8_and_one_that_is_not_is_refused_naming_it(tmp_path, kind) -> None:
    path = tmp_path / "m.json"
    path.write_text('{"held": 1.5, "fitted_on": "Zoë\'s games"}', encoding="utf-8")
    model = ChoiceModel(held=1.5, fitted_on="Zoë's games")
    assert kind.read(path) == (PlayerStyles.of(model) if kind is PlayerStyles else model)
    path.write_bytes('{"held": 1.5, "fitted_on": "Zoë\'s games"}'.encode("latin-1"))
    with pytest.raises(ChoiceModelError, match=r"m\.json: not UTF-8 text \(byte 0xeb\)"):
        kind.read(path)


def test_a_styles_file_round_trips_reads_a_single_model_and_refuses_bad_input() -> None:
    styles = PlayerStyles((ChoiceModel(held=1.0, modelled=0.4), ChoiceModel(sure=2.0, modelled=0.5)), ("a", "b"))
    assert PlayerStyles.from_json(styles.to_json()) == styles
    assert PlayerStyles.from_json(ChoiceModel(held=1.5).to_json()) == PlayerStyles.of(ChoiceModel(held=1.5))
    with pytest.raises(ChoiceModelError, match=r"s\.json:1: the styles' modelled shares must add up to less than 1"):
        PlayerStyles.from_json('{"a": {}, "b": {}}', "s.json")  # 0.9 each
    with pytest.raises(ChoiceModelError, match=r"s\.json \(style b\):1: unknown fields colour"):
        PlayerStyles.from_json('{"a": {}, "b": {"colour": 1}}', "s.json")
    with pytest.raises(ChoiceModelError, match="share a name"):
        PlayerStyles((ChoiceModel(modelled=0.1), ChoiceModel(modelled=0.1)), ("a", "a"))
    assert DEFAULT_STYLES.names == ("careful", "loose", "counter")


def test_tempering_keeps_the_effective_sample_size_it_is_asked_for() -> None:
    log_weights = np.random.default_rng(4).normal(0, 8, 1000)
    power = tempering_for(log_weights, 100)
    assert 0 < power < 1
    assert effective_size(np.exp(power * (log_weights - log_weights.max()))) >= 100
    assert effective_size(np.exp((power + 0.01) * (log_weights - log_weights.max()))) < 100  # the largest power
    assert tempering_for(np.zeros(1000), 100) == 1.0
    assert tempering_for(log_weights[:50], 100) == 0.0


def test_a_tempered_posterior_matches_enumeration_with_the_tempered_likelihood(monkeypatch, every_sample: None) -> None:
    """Where the weights would leave too few deals, the belief answers with the likelihood raised to the power it
    reports, exactly as enumeration with that power does."""
    monkeypatch.setattr(belief_module, "MIN_EFFECTIVE", 20_000)
    monkeypatch.setattr(LiteratureBelief, "_every_deal", lambda self, distinct, drawn: False)  # weighed by draws
    game = small_game(4, ["LS", "HS"], dealer=1)
    hands, events = play_random_game(game, 5)
    model = ChoiceModel(held=6, sure=5, dead=-6, target_set=3, claim_bias=-4, claim_certain=6, estimate=6, inferred=4)
    belief = LiteratureBelief(game, 0, iter_cards(hands[0]), prior="players", choices=model, samples=40_000)
    for event in events[:6]:
        belief.push_unchecked(event)
    weighting = belief.weighting
    assert weighting is not None and weighting.tempering < 1, belief.prior_answered
    assert belief.prior_answered.startswith(f"players (likelihood tempered to the power {weighting.tempering:.2f}")
    deals = all_deals(belief)
    weights = np.exp(weighting.tempering * model.log_likelihoods(History(game, events[:6]), deals, skip=0))
    marginals = belief.marginals()
    columns = {card: j for j, card in enumerate(belief.model.cards)}
    hidden = [(i, card) for i, card in enumerate(marginals.cards) if card not in belief.public.known]
    assert len(hidden) > 5
    for i, card in hidden:  # a card that moved is where it moved to, not where it was dealt
        truth = np.bincount(deals[:, columns[card]], weights=weights / weights.sum(), minlength=4)
        assert np.abs(marginals.probabilities[i] - truth).max() < 0.03, card


def test_a_collapsed_prior_falls_back_to_the_rules_and_says_so() -> None:
    game = small_game(4, ["LS", "HS"], dealer=1)
    hands, events = play_random_game(game, 5)
    belief = LiteratureBelief(game, 0, iter_cards(hands[0]), prior="players", choices=EXTREME, samples=50)
    rules = LiteratureBelief(game, 0, iter_cards(hands[0]), prior="rules")
    for event in events[:8]:
        belief.push_unchecked(event)
        rules.push_unchecked(event)
    assert belief.weighting is None
    assert belief.prior_answered.startswith("rules (the players' prior collapsed")
    assert np.array_equal(belief.marginals().probabilities, rules.marginals().probabilities)


def test_a_small_state_is_weighed_over_every_consistent_deal_exactly() -> None:
    """Where the rules leave few deals, the players' prior weighs each of them once and answers exactly (up to
    the resampling of its deals to ``samples`` rows), and says so."""
    game = small_game(4, ["LS", "HS"], dealer=1)
    hands, events = play_random_game(game, 5)
    model = ChoiceModel(held=2.5, dead=-1.5, target_set=1.0, claim_certain=4.0, estimate=3.0, inferred=1.5)
    belief = LiteratureBelief(game, 0, iter_cards(hands[0]), prior="players", choices=model, samples=20_000)
    for event in events[:6]:
        belief.push_unchecked(event)
    deals = all_deals(belief)
    weighting = belief.weighting
    assert weighting is not None and weighting.complete and weighting.drawn == len(deals)
    assert belief.prior_answered == f"players (exact: every one of the {len(deals):,} consistent deals weighed)"
    weights = np.exp(model.log_likelihoods(History(game, events[:6]), deals, skip=0))
    columns = {card: j for j, card in enumerate(belief.model.cards)}
    marginals = belief.marginals()
    for i, card in enumerate(marginals.cards):
        if card not in belief.public.known:
            truth = np.bincount(deals[:, columns[card]], weights=weights / weights.sum(), minlength=4)
            assert np.abs(marginals.probabilities[i] - truth).max() < 1e-3, card


@pytest.mark.parametrize("deals", [belief_module.FIRST_DEALS, 2 * belief_module.FIRST_DEALS])
def test_the_players_prior_draws_more_deals_only_while_their_weights_are_too_few(monkeypatch, deals: int) -> None:
    """Weights that leave enough effective deals stop at the first draw of ``deals``; sharper ones draw more, up to
    the likelihood terms a belief of that many deals may work out in a state (a term weighs every style at once)."""
    game = Game(tuple("ABCDEF"))
    hands, events = play_random_game(game, 3)

    def drawn(enough: float, choices: ChoiceModel | PlayerStyles = EXTREME) -> int:
        monkeypatch.setattr(belief_module, "ENOUGH_EFFECTIVE", enough)
        belief = LiteratureBelief(
            game, 0, iter_cards(hands[0]), prior="players", choices=choices, samples=20_000, deals=deals
        )
        for event in events[:20]:
            belief.push_unchecked(event)
        assert belief.prior_answered.startswith("players") and belief._weighting is not None
        return belief._weighting.drawn

    assert drawn(0) == deals
    more = drawn(math.inf)
    assert more > deals
    budget = belief_module.WEIGHING_BUDGET * deals // belief_module.FIRST_DEALS
    assert (more - deals - belief_module.MIN_DRAW) * 20 <= budget
    two = PlayerStyles((replace(EXTREME, modelled=0.45), replace(EXTREME, held=-10, modelled=0.45)), ("a", "b"))
    assert drawn(math.inf, two) == more


def test_the_deals_a_players_prior_weighs_are_checked() -> None:
    game = Game(tuple("ABCD"))
    for deals in (0, -5):
        with pytest.raises(ArgumentError, match="deals must be from 1"):
            LiteratureBelief(game, deals=deals)
    for deals in (1.5, "many", True):
        with pytest.raises(ArgumentTypeError, match="deals must be an integer"):
            LiteratureBelief(game, deals=deals)


def test_under_the_players_prior_only_the_rules_make_a_fact_certain() -> None:
    """Deals the players' prior weighs little may be missing from its resampled ones: what is certain is asked
    of the rules' exact model, so both priors state the same facts."""
    game = small_game(4, ["LS", "HS"], dealer=1)
    hands, events = play_random_game(game, 5)
    players = LiteratureBelief(game, 0, iter_cards(hands[0]), prior="players", choices=EXTREME, samples=200)
    rules = LiteratureBelief(game, 0, iter_cards(hands[0]), prior="rules")
    for event in events[:8]:
        players.push_unchecked(event)
        rules.push_unchecked(event)
        assert players.certain() == rules.certain()
        assert players.prior_answered.startswith("players")  # the players' answers are still there


def test_the_players_prior_states_1_only_where_the_rules_are_certain() -> None:
    game = small_game(4, ["LS", "HS"], dealer=1)
    checked = 0
    for seed in range(6):
        hands, events = play_random_game(game, seed)
        players = LiteratureBelief(game, 0, iter_cards(hands[0]), prior="players", choices=EXTREME, samples=300)
        rules = LiteratureBelief(game, 0, iter_cards(hands[0]), prior="rules")
        for event in events[:10]:
            players.push_unchecked(event)
            rules.push_unchecked(event)
            if players.weighting is None:
                continue
            stated, exact = players.marginals().probabilities, rules.marginals().probabilities
            assert not ((stated > belief_module.UNCONFIRMED) & (exact < 1.0)).any()
            checked += int(((stated == belief_module.UNCONFIRMED) & (exact < 1.0)).sum())
    assert checked  # some resampled deals all agreed where the rules did not


def enumerated_chance_of_yes(belief: LiteratureBelief, ask: Ask, model: ChoiceModel | None) -> float:
    """P(yes) of ``ask`` given that it was asked, by enumeration: every consistent deal, weighted by the likelihood
    of the history and the ask (1 under the rules), among those where the asker holds a card of the set and not
    the card."""
    deals = all_deals(belief)
    events = [*belief.public.history, ask]
    skip = belief.observer
    weights = (
        np.ones(len(deals))
        if model is None
        else np.exp(model.log_likelihoods(History(belief.game, events), deals, skip))
    )
    columns = {card: j for j, card in enumerate(belief.model.cards)}

    def now(card: int) -> np.ndarray:
        known = belief.public.known.get(card)
        return deals[:, columns[card]] if known is None else np.full(len(deals), known)

    legal = np.any([now(c) == ask.asker for c in belief.game.deck.set_of(ask.card).cards], axis=0)
    legal &= now(ask.card) != ask.asker
    return float(weights[legal & (now(ask.card) == ask.target)].sum() / weights[legal].sum())


@pytest.mark.parametrize("prior", ["rules", "players"])
def test_the_chance_of_yes_given_the_ask_matches_enumeration(prior: str, every_sample: None) -> None:
    game = small_game(4, ["LS", "HS"], dealer=1)
    hands, events = play_random_game(game, 11)
    model = ChoiceModel(held=2.5, dead=-1.5, target_set=1.0, claim_certain=4.0, estimate=3.0, inferred=1.5)
    checked = 0
    for length, event in enumerate(events[:10]):
        if not isinstance(event, Ask):
            continue
        for observer in (None, 0):
            hand = iter_cards(hands[observer]) if observer is not None else ()
            belief = LiteratureBelief(game, observer, hand, prior=prior, choices=model, samples=40_000)
            for earlier in events[:length]:
                belief.push_unchecked(earlier)
            truth = enumerated_chance_of_yes(belief, event, model if prior == "players" else None)
            assert abs(belief.chance_of_yes(event) - truth) < 0.02, (event, observer)
            if observer == event.asker:
                assert belief.chance_of_yes(event) == pytest.approx(
                    belief.probability(event.card, event.target), abs=0.01
                )
            checked += 1
    assert checked >= 8


@pytest.mark.parametrize("prior", ["rules", "players"])
def test_the_chance_of_yes_of_an_ask_not_yet_answered_is_that_of_the_ask_answered_either_way(prior: str) -> None:
    game = small_game(4, ["LS", "HS"], dealer=1)
    _, events = play_random_game(game, 11)
    belief = LiteratureBelief(game, prior=prior, samples=2_000)
    for event in events[:3]:
        belief.push(event)
    ask = next(event for event in events[3:] if isinstance(event, Ask) and belief.public.holder_of(event.card) is None)
    heard = [belief.chance_of_yes(replace(ask, yes=answer)) for answer in (True, False)]
    assert belief.chance_of_yes(replace(ask, yes=None)) == heard[0] == heard[1]
    assert belief.public.history == tuple(events[:3])


def test_the_chance_of_yes_of_what_is_not_a_legal_ask_is_an_illegal_event_and_changes_nothing() -> None:
    """An ask of a teammate, a player out of range, text, a pass: refused, and the belief as it was."""
    game = small_game(4, ["LS", "HS"], dealer=1)
    _, events = play_random_game(game, 11)
    belief = LiteratureBelief(game, prior="players", samples=2_000)
    for event in events[:3]:
        belief.push(event)
    before = belief.marginals().probabilities
    mover = belief.public.movers[0]
    teammate = next(p for p in game.teammates(mover) if p != mover)
    for wrong, message in [
        (Ask(mover, teammate, Card.parse("2S"), yes=False), "cannot ask their teammate"),
        (Ask(9, 1, Card.parse("2S")), "no player has index 9"),
        ("Ann asks Bob for 2S", "not an ask"),
        (Pass(mover, mover), "not an ask"),
    ]:
        with pytest.raises(IllegalEventError, match=message):
            belief.chance_of_yes(wrong)  # type: ignore[arg-type]
    assert belief.public.history == tuple(events[:3])
    assert np.array_equal(belief.marginals().probabilities, before)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), players=st.sampled_from([4, 6]))
def test_a_history_extended_and_taken_back_gives_the_likelihoods_of_one_built_at_once(seed: int, players: int) -> None:
    game = small_game(players, ["LS", "HS", "LH"], dealer=seed % players)
    hands, events = play_random_game(game, seed)
    history = History(game)
    deal = deal_row(history, hands)
    middle = len(events) // 2
    for event in events[:middle]:
        history.push(event)
    DEFAULT_STYLES.player_log_likelihoods(history, deal)  # what depends on the history alone is kept from here
    for event in events[middle:]:
        history.push(event)
    for _ in range(len(events) - middle - 1):
        history.pop()  # all but one event of the second half taken back
    history.push(events[middle + 1])
    for first in (0, middle, middle + 1):
        built = DEFAULT_STYLES.player_log_likelihoods(History(game, events[: middle + 2]), deal, first=first)
        kept = DEFAULT_STYLES.player_log_likelihoods(history, deal, first=first)
        assert np.array_equal(built, kept)


def test_what_a_history_keeps_is_dropped_with_its_events_and_a_question_is_not_kept() -> None:
    game = small_game(4, ["LS", "HS"], dealer=1)
    _, events = play_random_game(game, 11)
    history = History(game, events[:4])
    builds: list[int] = []

    def build(h: History, first: int) -> tuple[np.ndarray, ...]:
        builds.append(first)
        return (np.arange(first, h.events),)

    assert history.derived("k", build)[0].tolist() == [0, 1, 2, 3] and builds == [0]
    history.push(events[4])
    assert history.derived("k", build, first=4)[0].tolist() == [4] and builds == [0, 4]  # a question: worked out ...
    history.pop()
    assert history.derived("k", build, first=2)[0].tolist() == [2, 3] and builds == [0, 4]  # ... and not kept
    history.pop()
    history.push(events[3])
    assert history.derived("k", build)[0].tolist() == [0, 1, 2, 3] and builds == [0, 4, 3]  # the popped one dropped


def test_a_history_keeps_the_arrays_of_the_models_used_last_only() -> None:
    """A fit asks for a new model's arrays at every step: the history keeps those of the last few, not all."""
    game = small_game(4, ["LS", "HS"], dealer=1)
    hands, events = play_random_game(game, 11)
    history = History(game, events[:6])
    deal = deal_row(history, hands)
    first = PlayerStyles.of(ChoiceModel(held=0.5))
    expected = first.player_log_likelihoods(history, deal)
    for step in range(3 * KEPT_KEYS):
        PlayerStyles.of(ChoiceModel(held=1.0 + step)).player_log_likelihoods(history, deal)
        assert len(history._derived) <= KEPT_KEYS
    assert np.array_equal(expected, first.player_log_likelihoods(history, deal))


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), players=st.sampled_from([4, 6, 12]))
def test_the_styles_weighed_in_one_pass_give_each_style_what_it_gives_alone(seed: int, players: int) -> None:
    """The kernel shares the hands, the estimates and the likeliest asks among the styles: each style's
    log-likelihoods, and the rules', are those of the style weighed alone, to the last bit."""
    game = small_game(players, ["LS", "HS", "LH", "HH"], dealer=seed % players)
    hands, events = play_random_game(game, seed)
    history = History(game, events)
    rng = np.random.default_rng(seed)
    truth = deal_row(history, hands)[0]
    deals = np.array([truth] + [rng.permutation(truth) for _ in range(30)], np.int8)
    sharp = replace(EXTREME, modelled=0.05)
    styles = PlayerStyles((*DEFAULT_STYLES.models, sharp), (*DEFAULT_STYLES.names, "sharp"))
    together = styles.player_log_likelihoods(history, deals, skip=seed % players)
    for index, model in enumerate(styles.models):
        alone = PlayerStyles.of(model).player_log_likelihoods(history, deals, skip=seed % players)
        assert np.array_equal(together[index], alone[0]) and np.array_equal(together[-1], alone[1])


def test_a_history_refuses_an_illegal_event_and_stays_as_it_was() -> None:
    game = small_game(4, ["LS", "HS"], dealer=1)
    hands, events = play_random_game(game, 11)
    history = History(game, events[:3])
    deal = deal_row(history, hands)
    before = DEFAULT_STYLES.player_log_likelihoods(history, deal)
    asker = actor(events[3])
    teammate = next(p for p in game.teammates(asker) if p != asker)
    with pytest.raises(IllegalEventError):
        history.push(Ask(asker, teammate, Card.parse("2S"), yes=False))  # one never asks a teammate
    assert history.events == 3 and history.recorded == tuple(events[:3])
    assert all(np.array_equal(b, a) for b, a in zip(before, DEFAULT_STYLES.player_log_likelihoods(history, deal)))
    history.push(events[3])
    assert np.array_equal(
        DEFAULT_STYLES.player_log_likelihoods(history, deal)[0],
        DEFAULT_STYLES.player_log_likelihoods(History(game, events[:4]), deal)[0],
    )
