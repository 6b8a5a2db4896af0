"""Advice for one Literature player: how safe each claim is, what each question is worth, and what to do now.

Everything is computed from the player's :class:`~cardlogic.literature.belief.LiteratureBelief`: a
distribution over the deals consistent with what they have seen, weighted by how the players chose (the
default prior) or uniform (``prior="rules"``, exact):

* a claim of a set: P(the player's team holds all of it), the most likely
  complete assignment of its cards to teammates (the joint maximum, read off the
  exact joint distribution of the set's cards given that the team holds them)
  and P(that claim is correct), and the expected points of claiming now under
  the house rules;
* an ask: P(yes); the information it gains, ``H2(P(yes))`` bits (the belief is
  uniform over consistent deals, so its entropy is ``log2(count)`` and a yes/no
  answer removes exactly the answer's entropy; the asker's teammates learn the
  same answer); the information it leaks, ``-log2 P_public(the asker holds
  another card of the set and lacks the asked one)``, what a spectator learns
  about the asker's hand from the question; and a value from looking ahead over
  the asker's own turn;
* one recommendation: ask, claim, pass the turn, or wait, with a one-line reason.

>>> from cardlogic.literature import read_record
>>> record = read_record(open("examples/mini.txt").read())
>>> advise_record(record).recommendation.reason
'ask Dan for 4H: yes with probability 0.20'
>>> advise_record(record, prior="rules").recommendation.reason
'ask Dan for 2H: yes with probability 0.42'
"""

from __future__ import annotations

import dataclasses
import functools
import math
import os
from collections.abc import Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

from cardlogic import arguments
from cardlogic.arguments import ArgumentTypeError
from cardlogic.cards import CARDS, Card
from cardlogic.constraints import InconsistentError
from cardlogic.literature import Ask, Claim, Event, Game, Pass, PlayerState, Record
from cardlogic.literature.belief import UNCONFIRMED, LiteratureBelief
from cardlogic.literature.playouts import playout_scores

CERTAIN = 1.0 - 1e-12
"""Probabilities at least this large are treated as certainty (exact counts give exactly 1.0)."""

CLAIM_TRUST = 0.69
"""How far the players' prior is trusted on an uncertain claim: its chances (that the team holds the set, that the
claim is right) are stated as ``sigmoid(CLAIM_TRUST * logit(p))`` (:func:`trusted`), the log-odds scaled down.

A claim's chance is a joint over every card of its set, and the choice model's small over-readings of what a
player did not ask multiply up in it: the advisor's uncertain claims were over-confident. Measured on 2026-12-05
over 400 games at 6 players against ``counting`` (seeds 1208 and 1210) and ``strong`` (seeds 1209 and 1211): of the
166 uncertain claims the advisor made on its own turn, those the players' prior put at 0.80-0.90 came true 74.5% of
the time (47 claims), at 0.90-0.95 88.9% (36), at 0.95-0.99 87.8% (41), at 0.99 all 28. The one scale of greatest
likelihood on them is 0.69 (log-loss 70.5 to 66.1 over the 166; a free bias besides gained 0.03). See
docs/advice.md for its check on fresh seeds."""

STALEMATE_ASKS = 2
"""Asks of a player answered no since anything last moved (:meth:`~cardlogic.literature.PublicState.vain_asks`) after
which, with no ask able to succeed, a guessed claim is the only way on."""

LEAK_MAX_OPERATIONS = 1e7
"""The largest exact pass (about 0.1 s) for the spectator's belief behind the leak figures; beyond it, sampled deals."""
LEAK_SAMPLES = 5000
"""Deals sampled for the leak figures where the spectator's belief samples (q within about 0.014)."""


@dataclass(frozen=True)
class AdvisorWeights:
    """The advisor's hand-set weights and thresholds, in one place so that a variant is a parameter set.

    * ``completion``: weight of the chance to gather the asked card's whole set in an ask's value;
    * ``danger``: weight of the known cards a no hands the target the chance to ask back;
    * ``lookahead``: how many of the most promising asks get an exact second step (the belief after a yes);
    * ``risky_claim``: an uncertain claim is made when P(correct) reaches this and the opponents could still take
      its cards;
    * ``hold_ask``: a best ask at least this likely is taken before claiming (a certain set can wait);
    * ``prospect_samples``: deals sampled to estimate a teammate's best ask when deciding to pass the turn;
    * ``playout_candidates``: where a bot's best ask is a guess, how many of the best by value are compared by
      playouts (:mod:`cardlogic.literature.playouts`; 1 compares none);
    * ``playout_deals``: the deals each of them is played out on;
    * ``strongest_set``: where the best ask is a guess, guess in a set the asker holds the most cards of (among the
      sets with an ask that may succeed): a card won there is the likeliest to stay with the team.

    See :func:`ask_advice` for how the first three shape an ask's value.

    The defaults are the hand-set values of 2026-11-29. A screen on 2026-12-01 kept them: each variant below played
    100 games against ``counting`` at 6 players on seed 11 (deals paired with the defaults' games; seeds 1-4 were not
    used), and none scored better than the defaults' 0.815 (win 1, tie 1/2) by more than its noise (paired 95%
    intervals of +-0.05 to +-0.09): ``completion`` 3 (0.775) and 20 (0.820), ``danger`` 0 (0.815), 0.5 (0.790) and
    2.5 (0.710, worse), ``lookahead`` 10 (0.815), ``risky_claim`` 0.65 (0.815) and 0.9 (0.820). Four extra ask terms
    tried then (the target's chance to ask for the team's hidden cards, a fixed cost of losing the turn, a cost of
    making a card public in an unsecured set, a bonus for the answer's information) scored 0.755-0.840 and were
    dropped; the 0.840 (the information bonus at 0.5) scored 0.813 against the defaults' 0.837 on 150 games of seed 12.

    The playouts' 4 candidates over 128 deals are from 2026-12-01, 200 games against ``counting`` at 6 players on seed
    21 (deals paired; seeds 1-4 and 7 unused): without playouts 140 wins, 41 ties, 19 losses (70.0%); with them
    161-15-24 (80.5%), a score (win 1, tie 1/2) of +0.040 +- 0.066 (paired 95%), 1.58 s a game against 1.35 s.
    The paired noise of one comparison at 128 deals is about +-0.03-0.05 points, against differences of 0.1-0.4
    between candidates. Playouts that played to the end of the game were as noisy as the differences they compared
    (+-0.1-0.2 at 256 deals) and took 0.3 s a decision; playouts to the end of the turn whose guesses were uniformly
    random at every seat changed nothing (200 games: 143-40-17 against 140-41-19). Eight candidates instead of four
    scored -0.050 +- 0.111 against ``counting`` (6 players, seed 7101, 60 games) and -0.087 +- 0.156 against
    ``strong`` (6 players, seed 7103, 40 games) on 2026-12-02, paired with the defaults' games: four stay.
    Scoring each playout by the asker's team's chance of the game's outcome instead (a win 1, a tie 1/2, from the
    points so far, each set left taken independently with a chance growing with the team's share of its cards, plus
    0.01 of the point difference) scored -0.067 +- 0.084 against ``counting`` at 6 players (seed 7201, 60 games: 42
    wins against 48) and -0.100 +- 0.103 at 8 (seed 7202, 40 games: 31 against 34) on 2026-12-02, paired: the
    playouts keep the point difference (the chance flattens wherever the game is far from even, so noise picks).
    Forced claims (the opponents without cards) placed by the rules' exact belief instead of the players' prior were
    replayed on the advisor's 28 forced claims in 40 games against ``counting`` at 8 players (seed 7002): 22 right
    against 20 (4 right only by the rules, 2 only by the players' prior; most wrong ones were guesses at 0.1-0.5
    either way), too little to play games for. A ``danger`` that also counts, for every set where the target may hold
    a card, the set's value times ``completion`` times the chance that the opponents then hold all of it (the team's
    known cards of it are its only ones) changed 2-5 games of each run (seeds 7201-7204: ``counting`` at 6 and 8
    players, ``strong`` at 6 and 8; 60, 40, 60 and 40 games): 47, 33, 46 and 30 wins against 48, 34, 45 and 31,
    scores +0.017 +- 0.047, -0.037 +- 0.082, +0.000 +- 0.023 and +0.000 +- 0.036 (paired): the playouts among the
    four best asks already see the opponents' take-back, and ``danger`` stays as it was. An uncertain claim made
    while an ask can succeed (``risky_claim``) played out beside the ``playout_candidates`` best asks (the claim
    settled in each sampled deal, the claimer keeping the turn) and made only where it scored at least as well won
    164 games against 158 on those 200 (+0.015 +- 0.017), but on 120 more at 6 players (seeds 7205 against
    ``counting``, 7206 against ``strong``) 96 against 98: over all 320, 260 against 256, +0.008 +- 0.017, 10 games
    better and 6 worse. With ``risky_claim`` at 0.65 besides, and a claim when no ask can succeed played out against
    the least dangerous no, 162 of the 200 (+0.007 +- 0.024). Neither is kept: the claims stay as they were.
    Since 2026-12-05 ``risky_claim`` is compared with the claim's chance as stated, the players' prior
    :func:`trusted` less (:data:`CLAIM_TRUST`): a raw chance of 0.88 now reaches 0.8. On 200 paired games at 6 players
    (seed 1207, 100 against ``counting`` and 100 against ``strong``) that changed 2 and 8 games, scores +0.005 +-
    0.022 and +0.005 +- 0.047 (paired 95%): no loss, and the advisor's "at least 80% likely" is now measured so.
    Since 2026-12-05 the playouts run over 512 deals, not 128: against ``counting`` on 100 paired games each (the
    same deals and bot seeds both ways) it won 88 against 72 at 8 players on seed 1207, 79 against 76 on seed 3102,
    83 against 78 on seed 3103 and 86 against 77 at 6 players on seed 3104; over the 400 games a score of +0.064 +-
    0.044 (paired 95%), for about 10% more time a game. Six candidates over 256 deals scored +0.015 +- 0.102 on
    seed 1207. 1,024 deals instead of 512 (2026-12-05, 100 paired games each against ``counting``) won 81 against
    77 at 6 players on seed 3105 (+0.010 +- 0.078) and 76 against 90 at 8 players on seed 3106 (-0.095 +- 0.068):
    512 stay. Six candidates over 512 deals scored -0.010 +- 0.075 against ``counting`` at 6 players (seed 3108)
    and +0.030 +- 0.087 against ``strong`` at 8 (seed 3109): four stay. ``danger`` 1.5 and 0.6 scored -0.005 +-
    0.060 and +0.025 +- 0.066 against ``counting`` at 6 players (seed 3110): 1.0 stays. Two candidates instead of
    four scored +0.027 +- 0.042 over 300 paired games (seeds 4102, 4106 and 4103; docs/bots.md): four stay.
    ``strongest_set`` is from 2026-12-05: over 1,200 paired games on fresh seeds (``counting`` at 6 and 8 players,
    ``strong`` at 6 and 8; seeds 4301-4308, 4311 and 4312; docs/bots.md) the advisor won 985 against 895, a score
    of +0.067 +- 0.024 (paired 95%), gaining on every seed. It pays whether or not teammates read asks: with every
    advisor believing the rules' prior instead, +0.135 +- 0.064 on 200 of those games.
    """

    completion: float = 8.0
    danger: float = 1.0
    lookahead: int = 4
    risky_claim: float = 0.8
    hold_ask: float = 0.999
    prospect_samples: int = 64
    playout_candidates: int = 4
    playout_deals: int = 512
    strongest_set: bool = True

    def __post_init__(self) -> None:
        """Refuse a weight of the wrong type or out of range, naming it (an :class:`~cardlogic.arguments.ArgumentError`
        or :class:`~cardlogic.arguments.ArgumentTypeError`)."""
        arguments.number("completion", self.completion, 0)
        arguments.number("danger", self.danger, 0)
        arguments.integer("lookahead", self.lookahead, 0)
        arguments.number("risky_claim", self.risky_claim, 0, 1)
        arguments.number("hold_ask", self.hold_ask, 0, 1)
        arguments.integer("prospect_samples", self.prospect_samples, 1)
        arguments.integer("playout_candidates", self.playout_candidates, 1)
        arguments.samples(self.playout_deals, "playout_deals")
        arguments.boolean("strongest_set", self.strongest_set)


DEFAULT_WEIGHTS = AdvisorWeights()
"""The weights :func:`advise` uses unless given others."""


def entropy_bits(p: float) -> float:
    """The entropy of a yes/no answer that is yes with probability ``p``, in bits.

    >>> entropy_bits(0.5), entropy_bits(1.0)
    (1.0, 0.0)
    """
    if p <= 0.0 or p >= 1.0:
        return 0.0
    return -(p * math.log2(p) + (1.0 - p) * math.log2(1.0 - p))


@dataclass(frozen=True)
class ClaimAdvice:
    """What claiming set ``set_index`` now is worth to the observer's team.

    ``assignment`` pairs every card of the set with a teammate: the most likely
    complete placement (the joint maximum). ``p_correct`` is P(that claim is
    correct), ``p_team_holds`` P(the team holds the whole set), and
    ``expected_points`` the expected change of the score difference (team minus
    opponents) from claiming now: ``value * (p_correct - P(the set goes to the
    opponents))``. ``certain``: the claim is correct in every consistent deal;
    ``forced``: the opponents have no cards, so the team must claim. Where the players' prior answers and the
    claim is not certain, both chances are :func:`trusted` (the prior alone is over-confident about claims).
    """

    set_index: int
    name: str
    assignment: tuple[tuple[Card, int], ...]
    p_correct: float
    p_team_holds: float
    expected_points: float
    certain: bool
    forced: bool

    def event(self, claimer: int) -> Claim:
        """The claim itself, made by ``claimer``."""
        return Claim(claimer, self.set_index, self.assignment)


@dataclass(frozen=True)
class AskAdvice:
    """One legal ask and what it is worth (see the module docstring for each number).

    ``value`` weighs what a yes brings (the card, counted only as far as its
    set is then secured, a bonus for gathering the whole set and the chance of
    the next yes) against the cards a no exposes (see :func:`ask_advice`);
    ``leak_bits`` is None when not computed.
    """

    target: int
    card: Card
    p_yes: float
    info_bits: float
    leak_bits: float | None
    value: float

    def event(self, asker: int) -> Ask:
        return Ask(asker, self.target, self.card)


@dataclass(frozen=True)
class Recommendation:
    """The advised event (None: it is someone else's turn) and why, in one line."""

    event: Event | None
    reason: str


@dataclass(frozen=True)
class Advice:
    """Everything :func:`advise` works out for ``observer``.

    ``asks`` lists the observer's legal asks (empty unless the observer is to
    move), best value first; ``claims`` every unclaimed set (with ``thorough``
    off, only those worth considering), safest first; ``hold`` the certain sets
    worth holding back as stalemate breakers: under ``after-claim=team-picks`` a
    certain claim can be made at any later turn and lets the claimer hand the
    turn to a teammate, and the opponents cannot take its cards (they hold none
    of the set, so they cannot ask for them); under ``after-claim=continue`` the
    claimer keeps the turn, so holding buys nothing and ``hold`` is empty.
    ``method`` says how the observer's belief answered
    (``exact``, or ``sample``/``mcmc`` over ``samples`` deals where exact tables
    do not fit; ``csp`` when asked for); see :attr:`stderr`. ``prior`` says which
    prior answered (:attr:`~cardlogic.literature.belief.LiteratureBelief.prior_answered`).
    """

    observer: int
    to_move: int | None
    asks: tuple[AskAdvice, ...]
    claims: tuple[ClaimAdvice, ...]
    hold: tuple[int, ...]
    recommendation: Recommendation
    method: str = "exact"
    samples: int = 0
    prior: str = "rules"

    @property
    def stderr(self) -> float:
        """The largest standard error of a sampled probability, ``0.5 / sqrt(samples)`` (0 when exact).

        For the ``mcmc`` chain this assumes independent draws; its thinned draws
        measured within about 10% of that.
        """
        return 0.5 / math.sqrt(self.samples) if self.samples else 0.0

    def recommended(self, ask: AskAdvice) -> bool:
        """Whether ``ask`` is the recommended event."""
        event = self.recommendation.event
        return isinstance(event, Ask) and (event.target, event.card) == (ask.target, ask.card)

    def best_asks(self, count: int) -> tuple[AskAdvice, ...]:
        """The ``count`` best asks by value, the recommended ask always among them: where it ranks lower (a guess
        in the strongest set, or chosen by playouts) it takes the last place."""
        best = self.asks[:count]
        if count < 1 or any(self.recommended(a) for a in best):
            return best
        chosen = [a for a in self.asks if self.recommended(a)]
        return (*best[: count - 1], *chosen) if chosen else best


# -- claims ----------------------------------------------------------------------------------------------------------


def claim_advice(belief: LiteratureBelief, set_index: int, p_team: float | None = None) -> ClaimAdvice:
    """How safe claiming ``set_index`` is for the belief's observer.

    ``p_team``, P(the team holds the whole set), is worked out unless given
    (:func:`team_chances` gives it for many sets at once).
    """
    game = belief.game
    observer = _observer(belief)
    team_mask = _team_mask(belief)
    cards = game.deck.sets[set_index].cards
    value = game.set_value(set_index)
    forced = not belief.public.team_cards(1 - game.team_of(observer))
    if p_team is None:
        p_team = team_chances(belief, [set_index])[0]
    assignment: dict[Card, int] = {}
    p_correct = 0.0
    if p_team > 0.0:
        try:
            rows, probabilities = belief.assignments(cards, team_mask)
        except InconsistentError:  # a sampled estimate of a chance too small to show up in the samples
            p_team = 0.0
        else:
            best = int(np.argmax(probabilities))
            assignment = dict(zip(cards, rows[best].tolist()))
            p_correct = p_team * float(probabilities[best])
    if not assignment:
        known = belief.public.known
        assignment = {
            card: known[card] if card in known and team_mask >> known[card] & 1 else observer for card in cards
        }
    certain = p_correct >= CERTAIN and (belief.prior == "rules" or belief.certainly(assignment))
    if not certain and belief.weighting is not None:
        p_team = trusted(p_team)
    p_correct = stated_chance(belief, p_correct, certain)
    p_lost = 1.0 - p_team if game.rules.wrong_claim == "split" else 1.0 - p_correct
    return ClaimAdvice(
        set_index,
        game.deck.sets[set_index].name,
        tuple(sorted(assignment.items())),
        p_correct,
        p_team,
        value * (p_correct - p_lost),
        certain,
        forced,
    )


def stated_chance(belief: LiteratureBelief, p: float, certain: bool) -> float:
    """P(a claim is correct) ``p``, worked out by ``belief``, as the advice states it: where the claim is not
    ``certain`` (by the rules) and the players' prior answers, :func:`trusted` (the prior alone is over-confident
    about claims); under the players' prior never over :data:`~cardlogic.literature.belief.UNCONFIRMED` unless
    certain (its resampled deals may all agree where the rules do not)."""
    if certain or belief.prior == "rules":
        return p
    return min(trusted(p) if belief.weighting is not None else p, UNCONFIRMED)


def trusted(p: float) -> float:
    """``p`` with its log-odds scaled by :data:`CLAIM_TRUST` (0 and 1 stay as they are).

    >>> round(trusted(0.9), 3), trusted(0.5), trusted(1.0)
    (0.82, 0.5, 1.0)
    """
    if p <= 0.0 or p >= 1.0:
        return p
    return 1.0 / (1.0 + ((1.0 - p) / p) ** CLAIM_TRUST)


def team_chances(belief: LiteratureBelief, set_indices: Sequence[int]) -> list[float]:
    """P(the observer's team holds every card of each set), all at once.

    A set with a card that exact marginals put at the team in no deal has chance 0 without a count (no consistent
    deal, sampled or not, gives the team that card).
    """
    team_mask = _team_mask(belief)
    sets = belief.game.deck.sets
    marginals = belief.marginals()
    if marginals.count is not None:
        team = [p for p in range(len(belief.game.players)) if team_mask >> p & 1]
        rows = dict(zip(marginals.cards, marginals.probabilities[:, team].sum(axis=1)))
        open_sets = [index for index in set_indices if all(rows.get(card, 0.0) > 0.0 for card in sets[index].cards)]
    else:
        open_sets = list(set_indices)
    found = dict(zip(open_sets, belief.chances([dict.fromkeys(sets[index].cards, team_mask) for index in open_sets])))
    return [found.get(index, 0.0) for index in set_indices]


def _team_mask(belief: LiteratureBelief) -> int:
    game = belief.game
    return sum(1 << p for p in game.members(game.team_of(_observer(belief))))


# -- asks ------------------------------------------------------------------------------------------------------------


def ask_advice(
    belief: LiteratureBelief, public: LiteratureBelief | None = None, weights: AdvisorWeights = DEFAULT_WEIGHTS
) -> list[AskAdvice]:
    """Every legal ask of the observer with its numbers, best value first.

    ``public`` is a spectator's belief over the same history (for ``leak_bits``;
    None leaves them out). ``weights.lookahead`` is how many of the most
    promising asks get an exact second step (the belief after a yes); the
    others assume the next ask is as likely as this one.

    The value of asking ``target`` for ``card`` with P(yes) = p is

        p * (secured + completion * value(set) * gather + next) - (1 - p) * danger weight * danger(target)

    where ``secured`` is the chance that after a yes every other card of the set
    is with the team (a card is only kept for good once the opponents hold none
    of its set: until then any of them holding one can ask it back), ``gather``
    the chance that the team can then gather the rest of the set (each other
    card is with the team or at its likeliest opponent), ``next``
    the best P(yes) of the following ask after a yes, and ``danger`` the number
    of the team's publicly known cards the target could ask back on the turn a
    no hands them.
    """
    view = belief.view
    assert isinstance(view, PlayerState)
    asks = view.legal_asks(view.player)
    if not asks:
        return []
    game = belief.game
    table = _current_table(belief)
    first = [(float(table[ask.card][ask.target]), ask) for ask in asks]
    chances = {ask.card: _set_chances(belief, table, ask.card) for ask in asks}
    danger = {target: _danger(belief, table, target) for target in {ask.target for ask in asks}}

    def value(p: float, ask: Ask, following: float) -> float:
        worth = game.set_value(game.deck.set_index_of(ask.card))
        secured, gather = chances[ask.card]
        return (
            p * (secured + weights.completion * worth * gather + following)
            - (1.0 - p) * weights.danger * danger[ask.target]
        )

    ranked = sorted(first, key=lambda item: -value(item[0], item[1], item[0]))
    hopeful = [ask for p, ask in ranked[: weights.lookahead] if p > 0.0]
    following = {ask: _asks_after_yes(belief, ask) for ask in hopeful}
    known = belief.public.known
    # A card in public at an opponent stays there whatever a yes teaches: asked for next, it is a sure yes, the
    # best there is, and no exact pass is needed to know it (where exact, a yes with a chance can happen; sampled
    # deals may show none, which the pass would find).
    exact = belief.resolved_method == "exact"
    sure_next = {ask for ask in hopeful if exact and any(known.get(a.card) == a.target for a in following[ask])}
    unsure = [ask for ask in hopeful if ask not in sure_next]
    with ThreadPoolExecutor(max_workers=max(1, min(len(unsure), os.cpu_count() or 1))) as pool:
        after_yes = list(pool.map(lambda ask: _table_after_yes(belief, ask, table), unsure))  # kernels release the GIL
    second = {ask: _best_next(following[ask], after) for ask, after in zip(unsure, after_yes)}
    second.update(dict.fromkeys(sure_next, 1.0))
    leaks = leak_table(public, view.player, {ask.card for ask in asks}) if public is not None else {}
    advice = [
        AskAdvice(ask.target, ask.card, p, entropy_bits(p), leaks.get(ask.card), value(p, ask, second.get(ask, p)))
        for p, ask in first
    ]
    advice.sort(key=lambda a: (-a.value, -a.p_yes, a.card, a.target))
    return advice


def with_leaks(advice: Advice, public: LiteratureBelief) -> Advice:
    """``advice`` worked out without a spectator's belief, with the leak figures of its asks from ``public``, a
    spectator's belief over the same history: what :func:`advise` gives with ``public`` (nothing else depends on
    them), for a caller that shows them only on demand."""
    leaks = leak_table(public, advice.observer, {ask.card for ask in advice.asks})
    asks = tuple(dataclasses.replace(ask, leak_bits=leaks[ask.card]) for ask in advice.asks)
    return dataclasses.replace(advice, asks=asks)


def leak_bits(public: LiteratureBelief, ask: Ask) -> float:
    """What a spectator learns about the asker's hand from ``ask`` being asked, in bits (see :func:`leak_table`)."""
    return leak_table(public, ask.asker, [ask.card])[ask.card]


def leak_table(public: LiteratureBelief, asker: int, cards: Iterable[int]) -> dict[Card, float]:
    """What a spectator learns about ``asker``'s hand from an ask for each of ``cards``, in bits.

    ``-log2 q`` with q the spectator's P(the asker may ask for the card: holds
    another card of its set, and lacks the card unless ``bluff=on``). Without
    bluffs, q = P(lacks the card) - P(lacks every card of the set), so one
    chance per set and one per card answer every ask (:meth:`LiteratureBelief.chances`).
    """
    game = public.game
    nowhere = ~(1 << asker)
    asked = [CARDS[card] for card in cards]
    sets = sorted({game.deck.set_index_of(card) for card in asked})
    restrictions: list[Mapping[int | str, int]]
    if game.rules.bluff:  # q = P(holds another card of the set)
        restrictions = [{c: nowhere for c in game.deck.set_of(card).cards if c != card} for card in asked]
        qs = [1.0 - chance for chance in public.chances(restrictions)]
    else:
        restrictions = [{card: nowhere} for card in asked]
        restrictions += [dict.fromkeys(game.deck.sets[index].cards, nowhere) for index in sets]
        chances = public.chances(restrictions)
        lacks_set = dict(zip(sets, chances[len(asked) :]))
        qs = [lacks - lacks_set[game.deck.set_index_of(card)] for card, lacks in zip(asked, chances)]
    return {card: max(0.0, -math.log2(q)) if q > 1e-15 else math.inf for card, q in zip(asked, qs)}


def _current_table(belief: LiteratureBelief) -> dict[Card, np.ndarray]:
    marginals = belief.marginals()
    return dict(zip(marginals.cards, marginals.probabilities))


def _set_chances(belief: LiteratureBelief, table: dict[Card, np.ndarray], card: Card) -> tuple[float, float]:
    """After a yes for ``card``: P(its set is secured) and P(the team can gather the rest of it), by marginals.

    Secured: every other card of the set is with the team already, so the
    opponents hold none of it and cannot ask the card back. Gathered: every
    other card is with the team or at its likeliest opponent (the products over
    the other cards of P(at the team), and of that plus the largest P(at one
    opponent)).
    """
    game, observer = belief.game, _observer(belief)
    team = list(game.members(game.team_of(observer)))
    opponents = list(game.opponents(observer))
    secured = gather = 1.0
    for other in game.deck.set_of(card).cards:
        if other != card:
            row = table[other]
            at_team = float(row[team].sum())
            secured *= min(1.0, at_team)
            gather *= min(1.0, at_team + float(row[opponents].max()))
    return secured, gather


def _danger(belief: LiteratureBelief, table: dict[Card, np.ndarray], target: int) -> float:
    """How many of the team's publicly known cards ``target`` could ask for (holds another card of the set)."""
    game, public = belief.game, belief.public
    team = game.team_of(_observer(belief))
    total = 0.0
    for card, holder in public.known.items():
        if game.team_of(holder) != team:
            continue
        lacks_all = 1.0
        for other in game.deck.set_of(card).cards:
            if other != card:
                lacks_all *= 1.0 - float(table[other][target])
        total += 1.0 - lacks_all
    return total


def _table_after_yes(
    belief: LiteratureBelief, ask: Ask, table: dict[Card, np.ndarray]
) -> dict[Card, np.ndarray] | None:
    """P(card is held by player now) after ``ask`` is answered yes (the card then with the asker), from ``table``,
    the chances now; None if it cannot be.

    A sure yes (the card certainly with the target, a card that moved there in public too) tells nothing new:
    only the card moves, and no exact pass is made."""
    if table[ask.card][ask.target] >= 1.0:
        after = dict(table)
    else:
        try:
            after = belief.given({ask.card: ask.target})
        except InconsistentError:
            return None
    after[ask.card] = np.eye(len(belief.game.players))[ask.asker]
    return after


def _asks_after_yes(belief: LiteratureBelief, ask: Ask) -> list[Ask]:
    """The asker's legal asks once ``ask`` is answered yes."""
    view = belief.view
    assert isinstance(view, PlayerState)
    view.push(Ask(ask.asker, ask.target, ask.card, True))
    try:
        return view.legal_asks(view.player)
    finally:
        view.pop()


def _best_next(asks: Sequence[Ask], table: dict[Card, np.ndarray] | None) -> float:
    """The best P(yes) of the asks ``asks`` open to the asker after a yes, from ``table`` (see
    :func:`_table_after_yes`)."""
    if table is None:
        return 0.0
    if not asks:
        return 1.0  # nothing left to ask: the team may claim or pass
    return max(float(table[a.card][a.target]) for a in asks)


# -- passing the turn ------------------------------------------------------------------------------------------------


def prospects(belief: LiteratureBelief, player: int, samples: int = 64, seed: int = 0) -> float:
    """The observer's estimate of the best P(yes) ``player`` (a teammate) could ask for on their turn.

    Averages, over deals drawn from the belief, the best of the observer's
    P(target holds card) over the asks ``player`` could make in that deal.
    """
    game, public = belief.game, belief.public
    table = _current_table(belief)
    cards, deals = belief.sample(samples, seed)
    column = {card: j for j, card in enumerate(cards)}
    targets = [p for p in game.opponents(player) if public.sizes[p]]
    if not targets or not public.sizes[player]:
        return 0.0
    live = public.unclaimed
    best_total = 0.0
    for deal in deals:
        best = 0.0
        for index in live:
            set_cards = game.deck.sets[index].cards
            mine = [c for c in set_cards if deal[column[c]] == player]
            if not mine:
                continue
            for card in set_cards:
                if deal[column[card]] != player:
                    best = max(best, max(float(table[card][t]) for t in targets))
        best_total += best
    return best_total / len(deals)


# -- the recommendation ----------------------------------------------------------------------------------------------


def advise(
    belief: LiteratureBelief,
    public: LiteratureBelief | None = None,
    *,
    thorough: bool = True,
    seed: int = 0,
    weights: AdvisorWeights = DEFAULT_WEIGHTS,
) -> Advice:
    """Claims, asks and one recommended event for the belief's observer.

    ``public``: a spectator's belief over the same history, for leak figures.
    With ``thorough`` off (for bots), claims are worked out exactly only for sets
    whose marginals allow P(team holds all) of at least ``weights.risky_claim``
    (every set when no ask can succeed), asks get no leak figures, and where the
    best ask is a guess the ``weights.playout_candidates`` best by value are
    played out over ``weights.playout_deals`` deals drawn with ``seed``
    (:mod:`cardlogic.literature.playouts`) and the best on average is recommended;
    with it on, the recommendation is the best by value, which the tables show.
    Either way a guess is made in a set the observer holds the most cards of
    (``weights.strongest_set``).
    ``weights``: the advisor's weights and thresholds (:class:`AdvisorWeights`).
    """
    for name, value in (("belief", belief), ("public", public)):
        if not isinstance(value, LiteratureBelief) and (name == "belief" or value is not None):
            raise ArgumentTypeError(f"{name} must be a LiteratureBelief, not {value!r}")
    arguments.boolean("thorough", thorough)
    arguments.seed(seed)
    game, public_state = belief.game, belief.public
    observer = _observer(belief)
    to_move = public_state.to_move
    claims = _claims(belief, thorough, weights)
    hold = tuple(c.set_index for c in claims if c.certain and not c.forced) if game.rules.team_picks else ()
    moving = observer in public_state.movers
    asks = tuple(ask_advice(belief, public if thorough else None, weights)) if moving else ()
    if not moving:
        who = "nobody: the game is over" if to_move is None else f"{game.players[to_move]} is to move"
        return Advice(observer, to_move, asks, claims, hold, Recommendation(None, f"wait: {who}"), *_how(belief))
    if not thorough and max((a.p_yes for a in asks), default=0.0) == 0.0:  # a claim may be needed: weigh every set
        claims = _claims(belief, True, weights)
    recommendation = _recommend(belief, claims, asks, seed, weights, playouts=not thorough)
    if isinstance(recommendation.event, Claim):
        hold = tuple(index for index in hold if index != recommendation.event.set_index)
    return Advice(observer, to_move, asks, claims, hold, recommendation, *_how(belief))


def _how(belief: LiteratureBelief) -> tuple[str, int, str]:
    """How the belief answers, at worst: claims and leaks come from its chances, which may be sampled where its
    marginals are exact (:meth:`~cardlogic.belief.Belief.posterior`); and which prior answered."""
    return (*belief.chance_method, belief.prior_answered)


def _claims(belief: LiteratureBelief, thorough: bool, weights: AdvisorWeights) -> tuple[ClaimAdvice, ...]:
    game, public = belief.game, belief.public
    observer = _observer(belief)
    live = public.unclaimed
    if not live:
        return ()
    if not thorough:
        table = _current_table(belief)
        team = list(game.members(game.team_of(observer)))
        live = [
            index
            for index in live
            if min(float(table[c][team].sum()) for c in game.deck.sets[index].cards) >= weights.risky_claim
        ]
    claims = [claim_advice(belief, index, p) for index, p in zip(live, team_chances(belief, live))]
    claims.sort(key=lambda c: (-c.p_correct, -c.expected_points, c.set_index))
    return tuple(claims)


def _recommend(
    belief: LiteratureBelief,
    claims: Sequence[ClaimAdvice],
    asks: Sequence[AskAdvice],
    seed: int,
    weights: AdvisorWeights,
    playouts: bool,
) -> Recommendation:
    game, public = belief.game, belief.public
    observer = _observer(belief)
    view = belief.view
    assert isinstance(view, PlayerState)
    names = game.players
    mates = [p for p in game.teammates(observer) if public.sizes[p]]
    forced = bool(claims) and claims[0].forced

    @functools.cache
    def best_mate() -> tuple[float, int]:
        """The teammate (with cards) most likely to ask well on their turn, and that chance; sampled once."""
        return max((prospects(belief, mate, weights.prospect_samples, seed), mate) for mate in mates)

    if public.may_pass and mates:
        own = max((a.p_yes for a in asks), default=0.0) if view.hand else -1.0
        chance, mate = best_mate()
        if chance > own:
            return Recommendation(
                Pass(observer, mate),
                f"pass to {names[mate]}: best ask about {chance:.2f} likely against {max(own, 0.0):.2f} for me",
            )
    if public.may_pass and mates and not view.hand:
        mate = max(mates, key=lambda p: (public.sizes[p], -p))
        return Recommendation(Pass(observer, mate), f"pass to {names[mate]}: I have no cards")
    certain = [c for c in claims if c.certain]
    if forced:
        claim = claims[0]
        return Recommendation(
            claim.event(observer),
            f"claim {claim.name}: the opponents have no cards (correct with probability {claim.p_correct:.2f})",
        )
    if certain and not game.rules.team_picks:
        return Recommendation(
            certain[0].event(observer),
            f"claim {certain[0].name}: certain, and holding it back buys nothing (after-claim=continue)",
        )
    if not asks:
        if certain:
            return Recommendation(certain[0].event(observer), f"claim {certain[0].name}: certain, and no ask is left")
        claim = (
            max(claims, key=lambda c: (c.expected_points, c.p_correct))
            if claims
            else claim_advice(belief, public.unclaimed[0])
        )
        return Recommendation(
            claim.event(observer),
            f"claim {claim.name}: no ask is possible (correct with probability {claim.p_correct:.2f})",
        )
    hopeful = [a for a in asks if a.p_yes > 0.0]  # a sure no hands the turn over and teaches nothing
    if not hopeful and certain:  # the claim lets the team pick who asks next (after-claim=team-picks)
        return Recommendation(certain[0].event(observer), f"claim {certain[0].name}: certain, and no ask can succeed")
    gamble = max(claims, key=lambda c: (c.expected_points, c.p_correct)) if claims else None
    stalemate = public.vain_asks(observer) >= STALEMATE_ASKS
    if not hopeful and gamble is not None and (gamble.p_correct >= weights.risky_claim or stalemate):
        why = "the table is stuck" if stalemate else "no ask can succeed"
        return Recommendation(
            gamble.event(observer), f"claim {gamble.name}: {why} (correct with probability {gamble.p_correct:.2f})"
        )
    if not hopeful:  # a guessed claim loses more than the turn: hand the turn to the least dangerous opponent
        return Recommendation(
            asks[0].event(observer),
            f"ask {names[asks[0].target]} for {asks[0].card}: no ask can succeed, and no claim is safe enough",
        )
    sure = [a for a in hopeful if a.p_yes >= CERTAIN]  # a sure yes keeps the turn: take it before any gamble
    best = sure[0] if sure else hopeful[0] if hopeful else asks[0]
    risky = [c for c in claims if not c.certain and c.p_team_holds < CERTAIN and c.p_correct >= weights.risky_claim]
    if risky and best.p_yes < weights.hold_ask:
        claim = risky[0]
        return Recommendation(
            claim.event(observer),
            f"claim {claim.name} before the opponents break it: correct "
            f"with probability {claim.p_correct:.2f}, {claim.expected_points:+.2f} points expected",
        )
    if certain and best.p_yes < weights.hold_ask and mates:
        chance, mate = best_mate()
        if chance > best.p_yes:
            claim = certain[0]
            return Recommendation(
                claim.event(observer),
                f"claim {claim.name} (certain) to hand the turn to {names[mate]}: stalemate breaker",
            )
    which_set = ""
    if not sure and weights.strongest_set:
        strongest = _in_strongest_sets(hopeful, view.hand, game)
        if len(strongest) < len(hopeful):
            hopeful, best, which_set = strongest, strongest[0], "; my strongest set"
    if playouts and not sure and len(hopeful) > 1 and weights.playout_candidates > 1:
        best = _played_out(belief, hopeful[: weights.playout_candidates], seed, weights)
    reason = f"ask {names[best.target]} for {best.card}: yes with probability {best.p_yes:.2f}{which_set}"
    if certain:
        reason += f"; hold {', '.join(c.name for c in certain)} back (certain)"
    return Recommendation(best.event(observer), reason)


def _in_strongest_sets(asks: Sequence[AskAdvice], hand: int, game: Game) -> list[AskAdvice]:
    """The asks of ``asks`` (in their order) in the sets of which ``hand`` holds the most cards."""

    def held(ask: AskAdvice) -> int:
        return (hand & game.set_masks[game.deck.set_index_of(ask.card)]).bit_count()

    most = max(map(held, asks))
    return [ask for ask in asks if held(ask) == most]


def _played_out(belief: LiteratureBelief, asks: Sequence[AskAdvice], seed: int, weights: AdvisorWeights) -> AskAdvice:
    """The ask whose playouts (:mod:`cardlogic.literature.playouts`) score best on average; the first on a tie."""
    observer = _observer(belief)
    scores = playout_scores(belief, [a.event(observer) for a in asks], weights.playout_deals, seed)
    return asks[int(np.argmax(scores.mean(axis=1)))]


# -- records ---------------------------------------------------------------------------------------------------------


def advise_record(record: Record, **options) -> Advice:
    """The advice for a record's observer (``Me:``) after its last event; ValueError for a spectator's record.

    ``options`` go to :class:`LiteratureBelief` (``method`` and so on). Raises
    :class:`~cardlogic.literature.RecordError` like :meth:`LiteratureBelief.from_record`.
    """
    if record.observer is None:
        raise ValueError("advice needs a player's view: the record names no Me player")
    belief = LiteratureBelief.from_record(record, **options)
    return advise(belief, spectator(belief))


def spectator(belief: LiteratureBelief) -> LiteratureBelief:
    """A spectator's belief over ``belief``'s history, for the leak figures of :func:`advise`.

    Exact while one pass takes at most :data:`LEAK_MAX_OPERATIONS` transitions, else :data:`LEAK_SAMPLES` sampled
    deals, under the rules' prior: the leak figures are a side note, not worth a second of exact work (or the
    weighing of the players' choices) for a spectator early in an 8-player game.
    """
    public = LiteratureBelief(
        belief.game, max_operations=LEAK_MAX_OPERATIONS, samples=LEAK_SAMPLES, seed=belief.seed, prior="rules"
    )
    for event in belief.public.history:
        public.push_unchecked(event)
    return public


def _observer(belief: LiteratureBelief) -> int:
    if belief.observer is None:
        raise ValueError("advice needs a player's belief, not a spectator's")
    return belief.observer


__all__ = [
    "DEFAULT_WEIGHTS",
    "Advice",
    "AdvisorWeights",
    "AskAdvice",
    "ClaimAdvice",
    "Recommendation",
    "advise",
    "advise_record",
    "ask_advice",
    "claim_advice",
    "entropy_bits",
    "leak_bits",
    "leak_table",
    "prospects",
    "spectator",
    "team_chances",
    "with_leaks",
]
