"""Belief about a deal of Knektpass: where every card still in play lies, and how likely each place is.

A :class:`KnektpassBelief` is the shared :class:`~cardlogic.belief.Belief` over a
:class:`~cardlogic.knektpass.tracking.KnektpassTracker`: one observer's (or a
spectator's) knowledge of a deal, answered by the inference backends. Its
holders are the players, then ``discards`` and ``stock``; cards played are out
of play.

>>> from cardlogic.knektpass.record import read_record
>>> text = '''Players: Ann Bob
... Dealer: Bob
... Trump: 9H
... Me: Ann
... Hand Ann: AS KS QS JS 6D
...
... Bob leaves the trump
... Ann plays
... Bob plays
... Ann stands
... Bob stands
... Ann plays 6D
... Bob plays 7S  # Bob shows he has no diamond, and no trump
... '''
>>> belief = KnektpassBelief.from_record(read_record(text))
>>> belief.probability("8D", "stock"), belief.probability("8D", "Bob"), belief.resolved_method
(1.0, 0.0, 'exact')

Under ``prior="rules"`` (the default) probabilities are over the uniform distribution of the deals consistent
with what the observer has seen. Under ``prior="players"`` each of those deals is weighted by the likelihood of
the other players' choices under a :class:`~cardlogic.knektpass.choices.ChoiceModel`: :data:`WEIGHED_DEALS` of
the rules' deals are drawn and weighed (importance sampling). Where the weights leave an effective sample size
under :data:`MIN_EFFECTIVE`, the rules alone answer; :attr:`KnektpassBelief.prior_answered` says which did.

>>> players = KnektpassBelief.from_record(read_record(text), prior="players")
>>> round(players.probability("8D", "stock"), 6), players.prior_answered.startswith("players")
(1.0, True)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from cardlogic.belief import PRIORS as PRIORS
from cardlogic.belief import WeightedBelief
from cardlogic.cards import Card, card_mask, iter_cards
from cardlogic.choices import effective_size, in_step
from cardlogic.constraints import InconsistentError
from cardlogic.inference.base import Posterior
from cardlogic.inference.sampler import frequencies
from cardlogic.knektpass.choices import DEFAULT_MODEL, ChoiceModel, History, hands_of
from cardlogic.knektpass.record import Record, RecordError, format_event
from cardlogic.knektpass.rules import Deal, GameError
from cardlogic.knektpass.state import IllegalEventError, PlayerState, PublicState
from cardlogic.knektpass.tracking import DISCARDS, STOCK, ImpossiblePlayError, KnektpassTracker, UnheldCardError

DEFAULT_PRIOR = "rules"
"""The prior a belief takes unless told (see docs/knektpass.md for how the two compare)."""
WEIGHED_DEALS = 4_000
"""The rules' deals the players' prior draws and weighs in a state (at most ``samples``)."""
MIN_EFFECTIVE = 50
"""The smallest effective sample size the players' prior answers with; below it the rules alone answer."""


@dataclass(frozen=True)
class Weighting:
    """The players' prior in one state: the rules' deals drawn (holders of the model's cards), their normalised
    weights, how they were drawn (``sample``, exactly uniform, or ``mcmc``) and the weights' effective sample size."""

    deals: np.ndarray
    weights: np.ndarray
    how: str
    effective: float

    @property
    def drawn(self) -> int:
        return len(self.deals)


class KnektpassBelief(WeightedBelief[Weighting, ChoiceModel]):
    """What one Knektpass player (or a spectator, ``observer=None``) knows about the hidden cards of a deal.

    ``hand`` is the observer's hand as dealt (a card mask). ``prior`` is one of :data:`PRIORS` (see the module
    docstring), ``choices`` the players' model (default: the one shipped in the package). ``options`` are
    :class:`~cardlogic.belief.Belief`'s (``method``, ``samples``, ``seed``, ``max_operations``).
    """

    tracker: KnektpassTracker

    def __init__(
        self,
        deal: Deal,
        observer: int | None = None,
        hand: int = 0,
        *,
        prior: str = DEFAULT_PRIOR,
        choices: ChoiceModel = DEFAULT_MODEL,
        **options,
    ) -> None:
        self._history = History(deal)
        super().__init__(KnektpassTracker(deal, observer, hand), prior=prior, choices=choices, **options)

    # -- the players' prior ------------------------------------------------------------------------------------------

    def _answers(self, weighting: Weighting) -> bool:
        return weighting.effective >= MIN_EFFECTIVE

    def _weigh(self) -> Weighting:
        """Draw the rules' deals of this state and weigh each by the likelihood of the other players' choices."""
        deals, how = self._sampler().draw(self.model, min(self.samples, WEIGHED_DEALS), self.seed)
        hands = hands_of(deals, self.model.cards, len(self.deal.game.players))
        log_weights = self.choices.log_likelihoods(self._choices_history(), hands, skip=self.observer)
        weights = np.exp(log_weights - log_weights.max())
        weights /= weights.sum()
        return Weighting(deals, weights, how, effective_size(weights))

    def _choices_history(self) -> History:
        """The choice model's arrays of the public history, extended event by event (built again after a pop)."""
        public = [event.seen_by(None) for event in self.view.history]
        self._history = in_step(self._history, public, lambda: History(self.deal))
        return self._history

    def _weighted_posterior(self, weighting: Weighting) -> Posterior:
        model = self.model
        marginals = frequencies(weighting.deals, len(model.holders), weighting.weights)
        stderr = np.sqrt(np.clip(marginals * (1 - marginals), 0, None) / weighting.effective)
        samples = len(weighting.deals)
        return Posterior(weighting.how, model.holders, model.cards, marginals, None, samples, stderr)

    @classmethod
    def from_record(cls, record: Record, **options) -> KnektpassBelief:
        """The belief of the record's observer (``Me:``), or a spectator's when it names none (a full record
        with a ``Me`` is read as that player's view).

        Raises :class:`RecordError` naming the line of the first event that is
        illegal or that leaves no deal consistent with what came before; a play of a card its player cannot hold
        names the line of the play that showed it (``Cat cannot hold 7S: they showed no spades on line 21``). A
        full record is first replayed with every hand (:func:`check_record`), so no belief is had from a record that
        contradicts its own hands.
        """
        if record.is_full:
            _replay(record)
        if record.observer is not None and record.is_full:
            record = record.view_as(record.observer)
        observer = record.observer
        hand = card_mask(record.hands[observer]) if observer is not None else 0
        belief = cls(record.deal, observer, hand, **options)
        for event, line in zip(record.events, record.lines, strict=True):
            try:
                belief.push(event.seen_by(observer))
            except IllegalEventError as error:
                raise RecordError(line, str(error)) from None
            except UnheldCardError as error:
                shown_by = error.shown_by
                raise RecordError(
                    line, str(error) if shown_by is None else error.on_line(record.lines[shown_by])
                ) from None
            except ImpossiblePlayError as error:  # it names the play
                raise RecordError(line, str(error)) from None
            except InconsistentError as error:
                raise RecordError(
                    line, f"no deal explains {format_event(event, record.deal)!r} and the events before it: {error}"
                ) from None
        return belief

    @property
    def deal(self) -> Deal:
        return self.tracker.deal

    @property
    def observer(self) -> int | None:
        return self.tracker.observer

    @property
    def view(self) -> PlayerState | PublicState:
        """The observer's position (their cards and the public position), or the public one for a spectator."""
        return self.tracker.position

    @property
    def hand(self) -> tuple[Card, ...]:
        """The observer's cards now, in card order (none for a spectator)."""
        view = self.tracker.position
        return tuple(iter_cards(view.hand)) if isinstance(view, PlayerState) else ()

    @property
    def discards(self) -> int:
        """The holder index of the discards (after the players)."""
        return self.tracker.discards

    @property
    def stock(self) -> int:
        """The holder index of the stock (after the discards)."""
        return self.tracker.stock

    def explain(self, card: int | str) -> list[tuple[int, int]]:
        """The plays that narrowed where ``card`` lies: ``(index in the history, holders ruled out)``.

        See :meth:`KnektpassTracker.explain`; the holders are a bitmask over the belief's holders.
        """
        return self.tracker.explain(self._card(card))

    def _holder(self, holder: int | str) -> int:
        """A holder by index or by name, case-insensitively: a player's, ``discards`` or ``stock``."""
        if not isinstance(holder, str):
            return super()._holder(holder)
        if holder.lower() in (DISCARDS, STOCK):
            return self.tracker.discards if holder.lower() == DISCARDS else self.tracker.stock
        return self.deal.game.player_index(holder)


def check_record(record: Record) -> None:
    """Raise :class:`RecordError` at the first line of ``record`` that is impossible, as ``cardlogic knektpass
    check`` does.

    A full record is replayed with every hand and the stock under all the rules; a view, a spectator's
    record or a full record with a ``Me`` must also be explained by some deal of what its observer saw
    (:meth:`KnektpassBelief.from_record`). Every command that reads a record goes through here, so they
    agree on which records are possible. May raise :class:`~cardlogic.inference.InferenceError` when no
    backend can tell whether some deal explains the record.
    """
    if record.is_full and record.observer is None:
        _replay(record)
    else:
        KnektpassBelief.from_record(record)


def _replay(record: Record) -> None:
    """Replay ``record`` (see :meth:`Record.replay`), a deal that is not the deck (line 0) being a RecordError."""
    try:
        record.replay()
    except GameError as error:
        raise RecordError(0, str(error)) from None
