"""Belief about a Literature game: where every card in play is, and how likely each place is.

A :class:`LiteratureBelief` is one observer's (or a spectator's) knowledge: the
public history plus the observer's own starting hand, turned into constraints by
a :class:`~cardlogic.literature.tracking.LiteratureTracker` and answered by the
shared :class:`~cardlogic.belief.Belief`. It is built from a record or event by
event with :meth:`~cardlogic.belief.Belief.push` (and undone with
:meth:`~cardlogic.belief.Belief.pop`):

>>> from cardlogic.literature import read_record
>>> record = read_record(open("examples/mini.txt").read())
>>> rules = LiteratureBelief.from_record(record, prior="rules")
>>> rules.probability("3S", "Dan"), round(rules.probability("KS", "Bob"), 3), rules.resolved_method
(1.0, 0.488, 'exact')

Under ``prior="rules"`` probabilities are over the uniform distribution of the deals
consistent with everything the observer has seen (exact where practical); a card
that has moved is where it moved to. Under ``prior="players"``, the default
(:data:`DEFAULT_PRIOR`), each of those deals
is weighted by the likelihood of the players' choices under their styles
(:class:`~cardlogic.literature.choices.PlayerStyles`): the rules' deals are drawn by
the sampler and resampled by their weights (importance resampling). Where the
weights would leave an effective sample size under :data:`MIN_EFFECTIVE`, the
likelihood is tempered (raised to the largest power that keeps that many, as
adaptive tempering does); when that power falls under :data:`MIN_TEMPERING` the
belief answers by the rules alone. :attr:`LiteratureBelief.prior_answered` says
which of these answered. The draws follow from ``seed`` (default 0), so the same
record gives the same answer every time.

>>> players = LiteratureBelief.from_record(record)
>>> players.prior_answered, round(players.probability("KS", "Bob"), 3)
('players (effective sample size 597 of 11,857 deals)', 0.961)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from cardlogic import arguments, inference
from cardlogic.arguments import MAX_SEED
from cardlogic.belief import PRIORS as PRIORS
from cardlogic.belief import WeightedBelief
from cardlogic.cards import Card, iter_cards
from cardlogic.choices import effective_size, in_step
from cardlogic.constraints import InconsistentError
from cardlogic.inference.base import Posterior
from cardlogic.inference.sampler import posterior_of
from cardlogic.literature import (
    Ask,
    Event,
    Game,
    IllegalEventError,
    PlayerState,
    PublicState,
    Record,
    RecordError,
    format_event,
)
from cardlogic.literature.choices import DEFAULT_STYLES, ChoiceModel, History, PlayerStyles
from cardlogic.literature.tracking import LiteratureTracker

DEFAULT_PRIOR = "players"
"""The prior a belief takes unless told: the better calibrated on held-out games (see docs/beliefs.md); the
rules' exact answer is ``prior="rules"``."""
MIN_EFFECTIVE = 100
"""The smallest effective sample size the players' prior answers with: where the choices' weights leave fewer, they
are tempered (raised to the largest power that keeps this many), and below :data:`MIN_TEMPERING` the rules answer."""
MIN_TEMPERING = 0.05
"""The smallest power of the choices' likelihood the players' prior answers with; below it the rules alone answer."""
FIRST_DEALS = 1_000
"""The rules' deals the players' prior draws first in a state (at most ``samples``), unless told ``deals``: the
calibration of docs/beliefs.md was measured with as many. More are drawn only while their weights leave an
effective sample size under :data:`ENOUGH_EFFECTIVE`."""
FOLLOWED_DEALS = 10_000
"""The ``deals`` of a belief followed event by event at a table (``cardlogic live`` and ``serve``): after an event
it weighs its kept deals by that event alone and draws only those the event ruled out, so it affords ten times
the first draw of a belief read from a record at once, and states sharper chances (docs/beliefs.md)."""
ENOUGH_EFFECTIVE = 500
"""The effective sample size at which the players' prior stops drawing more deals, for :data:`FIRST_DEALS` deals
(in proportion for other ``deals``)."""
WEIGHING_BUDGET = 120_000
"""The most likelihood terms (distinct deals times the events each is weighed over: every style in one pass, an
eighth of a microsecond apiece for the shipped two) the players' prior works out in one state beyond its first draw,
for :data:`FIRST_DEALS` deals (in proportion for other ``deals``): the bound that keeps ``advise`` and ``live``
within their latency whatever the table's size and the game's length."""
DRAW_MAX_OPERATIONS = 1e7
"""The largest exact sampling tables (about 0.1 s to build) the players' prior draws its deals from; beyond them the
rules' MCMC chain draws them: a state may need a draw after every event, where the exact marginals need none."""
MIN_DRAW = 2 * MIN_EFFECTIVE
"""The fewest deals one draw of the players' prior takes, however long the history."""
UNCONFIRMED = 0.99
"""The largest chance the players' prior states for a placement the rules do not make certain: its resampled
deals may all agree on what a deal they weigh little contradicts, so "1.00" and "certain" are the rules' word."""


@dataclass(frozen=True)
class Weighting:
    """The players' prior in one state: the resampled deals, how the rules' deals were drawn and how many, the
    effective sample size of their weights, P(each player plays by each style: styles by players, the rules'
    last), the power the likelihood was
    tempered to (1: not tempered), and whether every consistent deal was weighed (``complete``: the weighted
    posterior is exact, up to the resampling, and ``drawn`` is the number of consistent deals)."""

    deals: np.ndarray
    how: str
    drawn: int
    effective: float
    styles: np.ndarray
    tempering: float = 1.0
    complete: bool = False

    @property
    def weights(self) -> None:
        """None: the resampled deals are equally likely."""
        return None


@dataclass(frozen=True)
class _Pool:
    """The distinct rules' deals a players' prior drew (``drawn`` draws, each deal ``counts`` times), with each
    one's log-likelihoods per style (the rules' last) and player of the first ``events`` events of
    ``history``; ``complete``: they are every consistent deal.

    Pushing an event only narrows the rules' deals: the pooled deals the new state still allows are uniform over
    its deals as they were over the old, so the next state keeps them and weighs each by the new events alone,
    drawing more while their effective sample size is low (see :data:`WEIGHING_BUDGET`).
    """

    history: History
    events: int
    deals: np.ndarray
    counts: np.ndarray
    how: str
    styles: np.ndarray
    complete: bool = False

    @property
    def drawn(self) -> int:
        return int(self.counts.sum())

    def log_weights(self, choices: PlayerStyles) -> np.ndarray:
        """Per deal, the log-likelihood of the history, each player's choices mixed over the styles."""
        return choices.mixed(self.styles)


def tempering_for(log_weights: np.ndarray, effective: float, counts: np.ndarray | None = None) -> float:
    """The largest power ``b`` in [0, 1] whose weights exp(b * log_weights) (of deals drawn ``counts`` times each)
    keep an effective sample size of at least ``effective`` (1 when the weights themselves do; 0 when even equal
    weights fall short), found by bisection: the likelihood flattened just enough for the drawn deals to carry it,
    as adaptive tempering does."""
    shifted = log_weights - log_weights.max()
    if effective_size(np.exp(shifted), counts) >= effective:
        return 1.0
    if effective_size(np.ones_like(shifted), counts) < effective:
        return 0.0
    low, high = 0.0, 1.0
    for _ in range(30):
        middle = (low + high) / 2
        enough = effective_size(np.exp(middle * shifted), counts) >= effective
        low, high = (middle, high) if enough else (low, middle)
    return low


class LiteratureBelief(WeightedBelief[Weighting, PlayerStyles]):
    """What one Literature player (or a spectator, ``observer=None``) knows about the hidden cards.

    The holders are the players. ``sure_asks_first`` assumes the other players take a sure ask before any guess
    (:class:`~cardlogic.literature.tracking.LiteratureTracker`). ``options`` are :class:`~cardlogic.belief.Belief`'s
    (``method``, ``samples``, ``seed``, ``max_operations``). ``prior`` is one of :data:`PRIORS` (see the
    module docstring), ``choices`` the players' styles or a single model (default: the styles shipped in the
    package), ``deals`` the rules' deals the players' prior weighs in a state (:data:`FIRST_DEALS`;
    :data:`FOLLOWED_DEALS` for a belief followed event by event at a table).
    """

    tracker: LiteratureTracker

    def __init__(
        self,
        game: Game,
        observer: int | None = None,
        hand: Iterable[int] = (),
        *,
        sure_asks_first: bool = False,
        prior: str = DEFAULT_PRIOR,
        choices: ChoiceModel | PlayerStyles = DEFAULT_STYLES,
        deals: int = FIRST_DEALS,
        **options,
    ) -> None:
        self.deals = arguments.samples(deals, "deals")
        self._history = History(game)
        self._pool: _Pool | None = None
        tracker = LiteratureTracker(game, observer, hand, sure_asks_first)
        super().__init__(tracker, prior=prior, choices=PlayerStyles.of(choices), **options)

    # -- the players' prior ------------------------------------------------------------------------------------------

    def _answers(self, weighting: Weighting) -> bool:
        """Every consistent deal weighed answers; else enough effective deals, the likelihood tempered no further
        than :data:`MIN_TEMPERING`."""
        return weighting.complete or (weighting.effective >= MIN_EFFECTIVE and weighting.tempering >= MIN_TEMPERING)

    def _weighed_in_words(self, weighting: Weighting, size: str) -> str:
        """``size``, or ``exact: every one of the 126 consistent deals weighed``, or ``likelihood tempered to the
        power 0.42: `` and ``size``."""
        if weighting.complete:
            deals = weighting.drawn
            count = "the only consistent deal" if deals == 1 else f"every one of the {deals:,} consistent deals"
            return f"exact: {count} weighed"
        if weighting.tempering < 1:
            return f"likelihood tempered to the power {weighting.tempering:.2f}: {size}"
        return size

    def _weigh(self) -> Weighting:
        """Weight the rules' deals by the players' choices, and resample ``samples`` deals by those weights."""
        pool = self._pooled()
        log_weights = pool.log_weights(self.choices)
        # every consistent deal weighed: the weights are exact, and no sample size needs the likelihood tempered
        counts = np.ones(len(pool.deals)) if pool.complete else pool.counts
        tempering = 1.0 if pool.complete else tempering_for(log_weights, MIN_EFFECTIVE, counts)
        weights = counts * np.exp(tempering * (log_weights - log_weights.max()))
        effective = effective_size(weights / counts, counts)
        rng = np.random.default_rng(self.seed)
        positions = (rng.random() + np.arange(self.samples)) / self.samples  # systematic resampling
        picked = np.minimum(np.searchsorted(np.cumsum(weights) / weights.sum(), positions), len(weights) - 1)
        styles = self.choices.posterior(pool.styles, weights)
        drawn = len(pool.deals) if pool.complete else pool.drawn
        return Weighting(pool.deals[picked], pool.how, drawn, effective, styles, tempering, pool.complete)

    def _pooled(self) -> _Pool:
        """The rules' deals of this state with their likelihoods: those of the last state's pool this state still
        allows, weighed by the events since, or none; then more drawn while their effective sample size is under
        :data:`ENOUGH_EFFECTIVE`, within :data:`WEIGHING_BUDGET` (both in proportion to ``deals``)."""
        history, pool = self._choices_history(), self._pool
        if pool is not None and pool.history is history and pool.events == history.events:
            return pool  # asked again in its state (an event was refused): the same deals, the same answers
        budget = int(self._in_proportion(WEIGHING_BUDGET))
        if pool is not None and pool.history is history and pool.events < history.events:
            kept = self.model.consistent_rows(pool.deals)
            deals = pool.deals[kept]
            styles = self._log_likelihoods(history, deals, pool.events)
            # this runs after every event of a game followed live: a quarter of the budget, to refill the pool
            budget = budget // 4 - len(deals) * (history.events - pool.events)
            pool = _Pool(
                history,
                history.events,
                deals,
                pool.counts[kept],
                pool.how,
                pool.styles[:, kept] + styles,
                pool.complete,
            )
        elif pool is None or pool.history is not history:
            pool = None
        self._pool = pool = self._grown(history, pool, budget, refill=pool is not None)
        return pool

    def _grown(self, history: History, pool: _Pool | None, budget: int, refill: bool = False) -> _Pool:
        """``pool`` (None: empty) with more of the rules' deals drawn and weighed while it has fewer than
        ``deals`` draws, or an effective sample size under :data:`ENOUGH_EFFECTIVE` (in proportion to ``deals``),
        and while its ``samples`` and the likelihood terms left of ``budget`` allow another draw; one draw at least
        when empty. A ``refill`` is one draw at most, only to make up ``deals`` draws, of at least :data:`MIN_DRAW`
        deals whatever the budget."""
        drawn_rounds, draw, events = 0, None, max(history.events, 1)
        enough = self._in_proportion(ENOUGH_EFFECTIVE)
        while pool is None or (
            not (refill and drawn_rounds)
            and not pool.complete
            and pool.drawn < self.samples
            and (refill or budget >= MIN_DRAW * events)
            and (pool.drawn < self.deals or (not refill and self._pool_effective(pool) < enough))
        ):
            drawn = 0 if pool is None else pool.drawn
            wanted = self.deals - drawn if refill else max(drawn, self.deals)
            size = min(self.samples - drawn, max(MIN_DRAW, min(wanted, budget // events)))
            if draw is None:
                sampler = self._sampler()
                sampler.max_operations = min(sampler.max_operations, DRAW_MAX_OPERATIONS)
                # a refill draws once; a growing pool at most what the budget lets it weigh
                most = size if refill else min(self.samples - drawn, max(size, budget // events))
                draw, how = sampler.drawer(self.model, most)
            seed = (self.seed + history.events + 7919 * drawn_rounds) % (MAX_SEED + 1)  # new deals each draw
            fresh = draw(size, seed)
            drawn_rounds += 1
            pool, weighed = self._merged(history, pool, fresh, how)
            budget -= weighed * events
        return pool

    def _in_proportion(self, amount: float) -> float:
        """``amount`` (set for :data:`FIRST_DEALS` deals) for this belief's ``deals``."""
        return amount * (self.deals / FIRST_DEALS)

    def _pool_effective(self, pool: _Pool) -> float:
        log_weights = pool.log_weights(self.choices)
        return effective_size(np.exp(log_weights - log_weights.max()), pool.counts)

    def _merged(self, history: History, pool: _Pool | None, fresh: np.ndarray, how: str) -> tuple[_Pool, int]:
        """``pool`` with the deals ``fresh`` (drawn by ``how``): those it holds already counted again, the others
        weighed over the whole history; and how many were weighed. The pool is complete once its distinct deals
        are as many as the exact count of the consistent deals (asked where many draws repeat a deal)."""
        fresh, counts = _distinct(fresh)
        if pool is not None:
            known = _row_keys(pool.deals)
            merged = np.concatenate([known, _row_keys(fresh)])
            _, first, inverse = np.unique(merged, return_index=True, return_inverse=True)
            inverse = inverse.ravel()
            old = inverse[len(known) :]
            repeated = first[old] < len(known)  # a fresh deal the pool holds already
            pool_counts = pool.counts + np.bincount(first[old[repeated]], counts[repeated], len(known))
            fresh, counts = fresh[~repeated], counts[~repeated]
        styles = self._log_likelihoods(history, fresh)
        if pool is not None:
            fresh = np.concatenate([pool.deals, fresh])
            counts = np.concatenate([pool_counts, counts])
            styles = np.concatenate([pool.styles, styles], axis=1)
            how = pool.how if pool.how == how else "mcmc"
        complete = self._every_deal(len(fresh), counts.sum())
        return _Pool(history, history.events, fresh, counts, how, styles, complete), styles.shape[1]

    def _every_deal(self, distinct: int, drawn: float) -> bool:
        """Whether ``distinct`` deals are every consistent deal: asked of the exact count where it is practical and
        ``drawn`` draws repeated deals often enough to suggest so."""
        return 2 * distinct <= drawn and self._exact_fits() and inference.count(self.model) == distinct

    def _log_likelihoods(self, history: History, deals: np.ndarray, first: int = 0) -> np.ndarray:
        """Per style (the rules' last), deal and player, the log-likelihoods of the choices of the events from
        ``first`` on, the observer's own choices left out."""
        return self.choices.player_log_likelihoods(history, deals, skip=self.observer, first=first)

    def _choices_history(self) -> History:
        """The choice model's arrays of the public history, extended event by event (rebuilt after a pop)."""
        self._history = in_step(self._history, self.public.history, lambda: History(self.game))
        return self._history

    def _weighted_posterior(self, weighting: Weighting) -> Posterior:
        """The resampled deals' distribution, stating no chance the rules do not make certain over
        :data:`UNCONFIRMED`."""
        posterior = posterior_of(self.model, weighting.deals, weighting.how)
        return dataclasses.replace(posterior, marginals=self._confirmed(posterior.marginals))

    def _confirmed(self, marginals: np.ndarray) -> np.ndarray:
        """Weighted ``marginals`` (dealt holders) with every chance over :data:`UNCONFIRMED` that the rules do not
        make certain stated as that, the rest of its row shared evenly among the other holders the rules allow."""
        sure = marginals > UNCONFIRMED
        if not sure.any():
            return marginals
        with self._by_the_rules():
            rules = super().posterior().marginals if self._exact_fits() else self._allowed_table()
        others = (rules > 0) & ~sure
        doubted = sure.any(axis=1) & others.any(axis=1)
        confirmed = marginals.copy()
        confirmed[doubted] = others[doubted] * (1.0 - UNCONFIRMED) / others[doubted].sum(axis=1, keepdims=True)
        confirmed[doubted] += sure[doubted] * UNCONFIRMED
        return confirmed

    def certainly(self, placements: Mapping[Card, int]) -> bool:
        """Whether every card of ``placements`` is held now by its holder in every consistent deal (the rules'
        word under either prior, see :meth:`certain`)."""
        facts = {(fact.card, fact.holder) for fact in self.certain() if fact.has}
        return all((card, holder) in facts for card, holder in placements.items())

    def chance_of_yes(self, ask: Ask) -> float:
        """P(the target of ``ask`` holds its card now), given that the asker chose to ask for it (its answer unheard):
        at the table the ask is seen before the answer, and it is evidence. Under either prior the asker holds a card
        of the set (and, unless bluffing is allowed, not the card); under the players' prior each deal is weighted,
        besides, by the chance that the asker chose this ask. For the asker's own belief this is
        :meth:`probability`. The ask may come with its answer or without (``yes`` None). Raises
        :class:`~cardlogic.literature.IllegalEventError` where it is not an ask legal in the public position."""
        if not isinstance(ask, Ask):
            raise IllegalEventError(f"not an ask: {ask!r}")
        if ask.yes is None:  # the answer weighs no deal: one the public position allows stands in for it
            ask = dataclasses.replace(ask, yes=self.public.holder_of(ask.card) == ask.target)
        weighting = self.weighting
        history = self._choices_history()
        history.push(ask)  # raises where the ask is illegal
        try:
            chance = None if weighting is None else self._weighted_chance_of_yes(ask, weighting.tempering)
        finally:
            history.pop()
        if chance is None:
            return self._rules_chance_of_yes(ask)
        if 1 - UNCONFIRMED <= chance <= UNCONFIRMED:
            return chance
        with self._by_the_rules():  # certain only where the rules are
            rules = self.probability(ask.card, ask.target)
        return rules if rules in (0.0, 1.0) else min(max(chance, 1 - UNCONFIRMED), UNCONFIRMED)

    def _rules_chance_of_yes(self, ask: Ask) -> float:
        """:meth:`chance_of_yes` under the rules: P(target holds the card | the asker holds a card of its set)."""
        others = [c for c in self.game.deck.set_of(ask.card).cards if c != ask.card]
        not_asker = ((1 << len(self.holders)) - 1) & ~(1 << ask.asker)
        none_of_the_set: dict[int | str, int] = dict.fromkeys(others, not_asker)
        yes, yes_but_none, not_held, none = self.chances(
            [
                {ask.card: 1 << ask.target},
                {ask.card: 1 << ask.target, **none_of_the_set},
                {ask.card: not_asker},
                {ask.card: not_asker, **none_of_the_set},
            ]
        )
        legal = (1.0 if self.game.rules.bluff else not_held) - none
        return (yes - yes_but_none) / legal if legal > 0 else 0.0

    def _weighted_chance_of_yes(self, ask: Ask, tempering: float) -> float | None:
        """:meth:`chance_of_yes` over the players' prior's pooled deals, each weighed by the ask's likelihood too
        (``tempering`` as the history's; the ask is pushed on the pool's history); None where no pooled deal makes
        the ask legal."""
        pool = self._pool
        assert pool is not None and pool.events == pool.history.events - 1  # this state's weighting drew it
        log_weights = self.choices.mixed(pool.styles + self._log_likelihoods(pool.history, pool.deals, pool.events))
        counts = np.ones(len(pool.deals)) if pool.complete else pool.counts
        weights = counts * np.exp(tempering * (log_weights - log_weights.max()))
        holders = self._current_deals(pool.deals)
        columns = {card: j for j, card in enumerate(self.in_play())}
        asked = holders[:, columns[ask.card]]
        in_set = [columns[c] for c in self.game.deck.set_of(ask.card).cards]
        legal = (holders[:, in_set] == ask.asker).any(axis=1)
        if not self.game.rules.bluff:
            legal &= asked != ask.asker
        total = weights[legal].sum()
        return float(weights[legal & (asked == ask.target)].sum() / total) if total > 0 else None

    @classmethod
    def from_record(cls, record: Record, **options) -> LiteratureBelief:
        """The belief of the record's observer (``Me:``), or a spectator's when it names none.

        Raises :class:`RecordError` naming the line of the first event that is illegal
        or that leaves no consistent deal; for the latter the message names, where the
        model can tell, the earlier lines it contradicts (``AS can be nowhere: it
        contradicts line 11 (Dan asks Cat for 9S: no)``) or the hand it leaves unfillable. A full record is
        first replayed with every hand (:func:`check_record`), so no belief is had from a record that
        contradicts its own hands.
        """
        if record.is_full:
            check_record(record)
        observer = record.observer
        hand = record.hands.get(observer, ()) if observer is not None else ()
        belief = cls(record.game, observer, hand, **options)
        pushed = 0
        for event, line in zip(record.events, record.lines):
            try:
                belief.tracker.push(event)
            except (InconsistentError, ValueError) as error:
                if belief.is_consistent():
                    if isinstance(error, InconsistentError):
                        raise RecordError(line, belief.why_impossible(event, error, record.lines)) from None
                    raise RecordError(line, str(error)) from None
                break  # an earlier event already left no deal: that one is to blame
            pushed += 1
        belief._forget()
        if pushed == len(record.events) and belief.is_consistent():
            return belief
        impossible = belief._first_impossible_prefix(record, pushed)
        raise RecordError(record.lines[impossible - 1], belief._why_no_deal(record))

    @property
    def game(self) -> Game:
        return self.tracker.game

    @property
    def observer(self) -> int | None:
        return self.tracker.observer

    @property
    def public(self) -> PublicState:
        """The public position: turn, hand sizes, cards known, sets claimed, history."""
        return self.tracker.public

    @property
    def view(self) -> PlayerState | PublicState:
        """The observer's position (own hand and the public one), or the public one for a spectator."""
        return self.tracker.position

    @property
    def hand(self) -> tuple[Card, ...]:
        """The observer's cards now, in card order (none for a spectator)."""
        position = self.tracker.position
        return tuple(iter_cards(position.hand)) if isinstance(position, PlayerState) else ()

    def explain(self, card: int | str) -> list[tuple[int, int]]:
        """The events that narrowed where ``card`` was dealt: ``(index in the history, holders ruled out)``.

        See :meth:`LiteratureTracker.explain`; the holders are a bitmask over player indices.
        """
        return self.tracker.explain(self._card(card))

    def _holder(self, holder: int | str) -> int:
        return self.game.player_index(holder) if isinstance(holder, str) else super()._holder(holder)

    def _first_impossible_prefix(self, record: Record, pushed: int) -> int:
        """Bisect the first ``pushed`` events of ``record`` (pushed, with no consistent deal) for the shortest
        prefix with none, and leave the tracker holding that prefix."""
        low, high = 0, pushed  # prefix of length low is consistent, of length high is not
        while high - low > 1:
            middle = (low + high) // 2
            pushed = self._hold(record, pushed, middle)
            if self.is_consistent():
                low = middle
            else:
                high = middle
        self._hold(record, pushed, high)
        return high

    def _hold(self, record: Record, pushed: int, wanted: int) -> int:
        """Pop or push ``record``'s events until the tracker, holding the first ``pushed``, holds the first
        ``wanted``; return ``wanted``."""
        while pushed > wanted:
            self.tracker.pop()
            pushed -= 1
        while pushed < wanted:
            self.tracker.push(record.events[pushed])
            pushed += 1
        self._forget()
        return wanted

    def _why_no_deal(self, record: Record) -> str:
        """Why the tracker's model of ``record``'s events so far has no deal, where a hand size shows it.

        The shown case: a player was dealt more cards than the model still allows them,
        named with the lines that ruled them out of the rest.
        """
        model, names = self.tracker.model, self.game.players
        for holder, size in enumerate(model.sizes):
            room = sum(1 for mask in model.allowed.values() if mask >> holder & 1)
            if room >= size:
                continue
            lines = sorted(
                {
                    record.lines[index]
                    for card in model.cards
                    for index, ruled_out in self.tracker.explain(card)
                    if ruled_out >> holder & 1
                }
            )
            sources = [_runs(lines)] if lines else []
            if self.observer is not None and self.observer != holder:
                sources.append(f"{names[self.observer]}'s hand")
            because = f"{' and '.join(sources)} leave only" if sources else "only"
            return (
                f"no deal is consistent with this event: {names[holder]} was dealt {size} cards, but {because} "
                f"{room} that can have been {names[holder]}'s"
            )
        return "no deal is consistent with this event"

    def why_impossible(self, event: Event, error: InconsistentError, lines: Sequence[int]) -> str:
        """``error``'s message, naming the earlier lines that ``event``, refused with it, contradicts.

        ``lines[i]`` is the line of the belief's ``i``-th event (in a record or an autosave). A card that can be
        nowhere is explained holder by holder (which line ruled each out); the line the event contradicts is
        named when the model's cheap checks can find it.
        """
        names = self.game.players
        history = self.tracker.public.history
        reasons: list[str] = []
        named = set()
        if error.card is not None:
            for index, ruled_out in self.tracker.explain(error.card):
                holders = [names[p] for p in range(len(names)) if ruled_out >> p & 1]
                verb = "" if reasons else " ruled out"
                reasons.append(f"{_and(holders)}{verb} by line {lines[index]}")
                named.add(lines[index])
        blamed = self.tracker.contradicted(event)
        if blamed == -1 and self.observer is not None:
            reasons.append(f"it contradicts {names[self.observer]}'s hand")
        elif blamed is not None and blamed >= 0 and lines[blamed] not in named:
            reasons.append(f"it contradicts line {lines[blamed]} ({format_event(history[blamed], self.game)})")
        return f"{error}: {'; '.join(reasons)}" if reasons else str(error)


def check_record(record: Record) -> None:
    """Raise :class:`RecordError` at the first line of ``record`` that is impossible, as ``cardlogic check`` does.

    A full record is replayed with every hand under all the rules (its hands are a deal that explains it);
    a view or a spectator's record must also be explained by some deal
    (:meth:`LiteratureBelief.from_record`). Every command that reads a record goes through here, so they
    agree on which records are possible. May raise :class:`~cardlogic.inference.InferenceError` when no
    backend can tell whether some deal explains a view.
    """
    if record.is_full:
        record.replay()
    else:
        LiteratureBelief.from_record(record)


def _row_keys(deals: np.ndarray) -> np.ndarray:
    """Each row of ``deals`` as one comparable value (its bytes)."""
    deals = np.ascontiguousarray(deals)
    return deals.view(np.dtype((np.void, deals.shape[1] * deals.itemsize))).ravel()


def _distinct(deals: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct rows of ``deals``, and how many times each occurs."""
    _, first, counts = np.unique(_row_keys(deals), return_index=True, return_counts=True)
    return deals[first], counts.astype(np.float64)


def _runs(lines: list[int]) -> str:
    """Sorted line numbers in words, runs joined: ``line 7``, ``lines 7-9 and 12``."""
    runs: list[list[int]] = []
    for line in lines:
        if runs and line == runs[-1][-1] + 1:
            runs[-1].append(line)
        else:
            runs.append([line])
    words = [str(run[0]) if len(run) == 1 else f"{run[0]}-{run[-1]}" for run in runs]
    return f"{'line' if len(lines) == 1 else 'lines'} {_and(words)}"


def _and(words: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return " and ".join(words) if len(words) < 3 else f"{', '.join(words[:-1])} and {words[-1]}"
