"""Belief about a Literature game: where every card in play is, and how likely each place is.

A :class:`LiteratureBelief` is one observer's (or a spectator's) knowledge: the
public history plus the observer's own starting hand, turned into constraints by
a :class:`~cardlogic.literature.tracking.LiteratureTracker` and answered by the
shared :class:`~cardlogic.belief.Belief`. It is built from a record or event by
event with :meth:`~cardlogic.belief.Belief.push` (and undone with
:meth:`~cardlogic.belief.Belief.pop`):

>>> from cardlogic.literature import read_record
>>> belief = LiteratureBelief.from_record(read_record(open("examples/mini.txt").read()))
>>> belief.probability("3S", "Dan"), round(belief.probability("KS", "Bob"), 3), belief.resolved_method
(1.0, 0.488, 'exact')

Probabilities are over the uniform distribution of the deals consistent with
everything the observer has seen; a card that has moved is where it moved to.
"""

from __future__ import annotations

from collections.abc import Iterable

from cardlogic.belief import Belief, has_deal
from cardlogic.cards import Card, iter_cards
from cardlogic.constraints import InconsistentError
from cardlogic.literature import Game, PlayerState, PublicState, Record, RecordError, format_event
from cardlogic.literature.tracking import LiteratureTracker


class LiteratureBelief(Belief):
    """What one Literature player (or a spectator, ``observer=None``) knows about the hidden cards.

    The holders are the players. ``sure_asks_first`` assumes the other players take a sure ask before any guess
    (:class:`~cardlogic.literature.tracking.LiteratureTracker`). ``options`` are :class:`~cardlogic.belief.Belief`'s
    (``method``, ``samples``, ``seed``, ``max_operations``).
    """

    tracker: LiteratureTracker

    def __init__(
        self,
        game: Game,
        observer: int | None = None,
        hand: Iterable[int] = (),
        *,
        sure_asks_first: bool = False,
        **options,
    ) -> None:
        super().__init__(LiteratureTracker(game, observer, hand, sure_asks_first), **options)

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
                        raise RecordError(line, belief._why_impossible(record, pushed, error)) from None
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

    def forcing_events(self, card: int | str, ruled_out: int) -> list[int]:
        """A smallest set of events (indices in the history) that, with the observer's hand and the hand sizes,
        rule out every holder in bitmask ``ruled_out`` as ``card``'s dealt holder; [] when the hand alone does.

        Found by deletion: an event is left out while the others still force the fact, so no event of the answer
        can be spared (a minimal set; no smaller one is searched for). Whether a set of events forces the fact
        is asked of the exact backend where practical, else of the model's cheap checks and a search for a deal,
        counting a set as not forcing it when neither can tell.
        """
        card = self._card(card)
        kept = list(range(len(self.public.history)))
        if not self._forces(kept, card, ruled_out):
            return kept  # only the sure-asks assumption forces it: every event stays
        for index in reversed(range(len(kept))):
            trial = kept[:index] + kept[index + 1 :]
            if self._forces(trial, card, ruled_out):
                kept = trial
        return kept

    def _forces(self, indices: list[int], card: Card, ruled_out: int) -> bool:
        """Whether the events at ``indices`` leave no deal with ``card`` dealt to a holder in ``ruled_out``."""
        try:
            model = self.tracker.model_of(indices)
            model.restrict(card, ruled_out)
        except InconsistentError:
            return True
        return not has_deal(model, self.seed)

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

    def _why_impossible(self, record: Record, pushed: int, error: InconsistentError) -> str:
        """``error``'s message, naming the earlier lines of ``record`` that ``record.events[pushed]`` contradicts.

        The tracker holds the first ``pushed`` events. A card that can be nowhere is
        explained holder by holder (which line ruled each out); the line the event
        contradicts is named when the model's cheap checks can find it.
        """
        names = self.game.players
        reasons: list[str] = []
        lines = set()
        if error.card is not None:
            for index, ruled_out in self.tracker.explain(error.card):
                holders = [names[p] for p in range(len(names)) if ruled_out >> p & 1]
                verb = "" if reasons else " ruled out"
                reasons.append(f"{_and(holders)}{verb} by line {record.lines[index]}")
                lines.add(record.lines[index])
        blamed = self.tracker.contradicted(record.events[pushed])
        if blamed == -1 and self.observer is not None:
            reasons.append(f"it contradicts {names[self.observer]}'s hand")
        elif blamed is not None and blamed >= 0 and record.lines[blamed] not in lines:
            reasons.append(
                f"it contradicts line {record.lines[blamed]} ({format_event(record.events[blamed], self.game)})"
            )
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
