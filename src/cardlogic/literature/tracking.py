"""Literature's public history as constraints on the initial deal.

Every card that moves in Literature moves in public, so a card whose place is
unknown has never moved since the deal. :class:`LiteratureTracker` therefore
keeps one :class:`~cardlogic.constraints.DealModel` over the *initial* deal and
a map of the cards that have moved (with their current holders); each event
narrows the model:

* an ask says the asker held another card of the set at that moment: if no card
  of the set has publicly reached the asker, one of the set's unmoved cards was
  dealt to the asker (a clause); it says the asker lacked the asked card (not
  under ``bluff=on``);
* "no" says the target lacked the card; "yes" says where it was, and it moves;
* under ``must-declare=on`` an asker held no whole set;
* a claim reveals who held each card of its set (the record states it, or the
  claim was correct, or every card's place was known): those cards are fixed.
  (Claimed cards are shown and hand sizes are public, so a record of a wrong
  claim names who held each card; see :class:`~cardlogic.literature.PublicState`.)

With ``sure_asks_first`` the tracker also assumes that every other player asks for
a card publicly known to be at an opponent before guessing, as the counting bot and
the advisor do: a question answered "no" then says its asker held no card of any set
with a card publicly known at one of the asker's opponents. That is a model of the
players, not a rule; where it would leave no deal by the model's cheap checks it is
not applied.

The tracker checks only what the model can see cheaply; whether any deal is
still consistent is for an inference backend (see :mod:`cardlogic.literature.belief`).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping

from cardlogic.arguments import ArgumentTypeError
from cardlogic.cards import CARDS, Card, card_mask
from cardlogic.constraints import DealModel, InconsistentError
from cardlogic.literature import Ask, Claim, Event, Game, PlayerState, PublicState


class LiteratureTracker:
    """The constraints one observer (or a spectator, ``observer=None``) can derive.

    ``position`` is the observer's :class:`PlayerState` (a spectator's
    :class:`PublicState`), which checks the rules; ``model`` constrains the deal.
    ``sure_asks_first``: assume the other players take a sure ask before any guess
    (see the module docstring).

    >>> from cardlogic.literature import Game
    >>> from cardlogic.literature.decks import Deck
    >>> game = Game(("A", "B", "C", "D"), deck=Deck.named("no-8s", sets=["LS", "HS"]), dealer=3)
    >>> tracker = LiteratureTracker(game)
    >>> tracker.push(Ask(3, 0, Card.parse("2S"), yes=False))
    Ask(asker=3, target=0, card=Card('2S'), yes=False)
    >>> tracker.model.allowed[Card.parse("2S")] & 0b1001
    0
    """

    def __init__(
        self, game: Game, observer: int | None = None, hand: Iterable[int] = (), sure_asks_first: bool = False
    ) -> None:
        self.game = game
        self.observer = observer
        self.sure_asks_first = sure_asks_first
        self.model = DealModel(game.players, game.sizes, game.deck.cards)
        self._undo: list[DealModel] = []
        self._before: list[tuple[dict[Card, int], set[int]]] = []  # per event: the cards known, sets claimed before it
        mask = _hand_mask(hand)
        if observer is None:
            if mask:
                raise ValueError("a spectator has no hand")
            self.position: PublicState | PlayerState = PublicState(game)
            self.public = self.position
            return
        self.position = PlayerState(game, observer, mask)
        self.public = self.position.public
        for card in self.model.cards:
            if mask >> card & 1:
                self.model.place(card, observer)
            else:
                self.model.forbid(card, observer)

    def push(self, event: Event) -> Event:
        """Apply ``event`` and return it as recorded (a claim with its revealed holders).

        On :class:`IllegalEventError` or :class:`InconsistentError` nothing changes.
        """
        known = dict(self.public.known)
        claimed = set(self.public.claimed)
        event = self.position.push(event)
        model = self.model.copy()
        try:
            self._constrain(model, known, claimed, event)
        except InconsistentError:
            self.position.pop()
            raise
        if self.sure_asks_first and isinstance(event, Ask):
            model = self._assume_sure_asks_first(model, known, event)
        self._undo.append(self.model)
        self._before.append((known, claimed))
        self.model = model
        return event

    def pop(self) -> Event:
        """Undo the last event and return it."""
        event = self.position.pop()
        self.model = self._undo.pop()
        self._before.pop()
        return event

    def event_count(self) -> int:
        """The number of events pushed."""
        return len(self._undo)

    def model_of(self, indices: Iterable[int]) -> DealModel:
        """The constraints of the observer's hand and of the history's events at ``indices`` only (each read
        with the cards known and the sets claimed before it), without ``sure_asks_first``'s assumption.

        Raises :class:`InconsistentError` when they already fail the model's cheap checks.
        """
        chosen = sorted(indices)
        # Without the assumption, the model kept after the first k events is theirs alone: start from the longest.
        prefix = 0
        if not self.sure_asks_first:
            while prefix < len(chosen) and chosen[prefix] == prefix:
                prefix += 1
        model = [*self._undo, self.model][prefix].copy()
        history = self.public.history
        for index in chosen[prefix:]:
            known, claimed = self._before[index]
            self._constrain(model, known, claimed, history[index])
        return model

    def explain(self, card: int) -> list[tuple[int, int]]:
        """The events that narrowed where ``card`` was dealt, in order: ``(event index, holders ruled out)``.

        The holders are a bitmask over player indices: the ones that event (with
        what came before it) ruled out as the card's dealt holder, directly (an ask
        for the card, a claim revealing it) or through the model's simplification
        (a clause whose other cards were all ruled out). An event that placed the
        card rules out every other holder. The observer's own hand, known before
        any event, is not listed.
        """
        card = CARDS[card]
        models = [*self._undo, self.model]
        narrowed = []
        for index, (before, after) in enumerate(itertools.pairwise(models)):
            ruled_out = before.allowed[card] & ~after.allowed[card]
            if ruled_out:
                narrowed.append((index, ruled_out))
        return narrowed

    def contradicted(self, event: Event) -> int | None:
        """The index of the earliest event after which the model's cheap checks rule out ``event``.

        ``event`` must be legal now. Its constraints are tried on the model as it stood
        after each earlier event; the first event with which they fail is the one it
        contradicts (together with those before it). -1 means they fail before any event
        (against the observer's hand, or the deal itself); None, that they do not fail:
        pushing ``event`` now raises no :class:`InconsistentError`.
        """
        known = dict(self.public.known)
        claimed = set(self.public.claimed)
        recorded = self.position.push(event)
        self.position.pop()
        for index, model in enumerate([*self._undo, self.model], start=-1):
            try:
                self._constrain(model.copy(), known, claimed, recorded)
            except InconsistentError:
                return index
        return None

    def in_play(self) -> list[Card]:
        """Cards of sets not yet claimed, in deck order."""
        return [card for i in self.public.unclaimed for card in self.game.deck.sets[i].cards]

    def moved(self) -> Mapping[Card, int]:
        """The cards that changed hands in public (answered "yes"), with their holders now."""
        return self.public.known

    # -- translation -------------------------------------------------------------------------------------------------

    def _constrain(self, model: DealModel, known: dict[Card, int], claimed: set[int], event: Event) -> None:
        """Narrow ``model`` by ``event``, given the cards ``known`` and sets ``claimed`` before it."""
        if isinstance(event, Ask):
            self._constrain_ask(model, known, claimed, event)
        elif isinstance(event, Claim):
            for card, holder in event.revealed or ():
                _require_at(model, known, card, 1 << holder)

    def _constrain_ask(self, model: DealModel, known: dict[Card, int], claimed: set[int], ask: Ask) -> None:
        rules, deck = self.game.rules, self.game.deck
        others = [c for c in deck.set_of(ask.card).cards if c != ask.card]
        if not any(known.get(c) == ask.asker for c in others):
            _require_somewhere(model, known, others, 1 << ask.asker)
        if rules.must_declare:
            for index, card_set in enumerate(deck.sets):
                if index not in claimed:
                    _require_somewhere(model, known, card_set.cards, ~(1 << ask.asker))
        if not rules.bluff:
            _require_at(model, known, ask.card, ~(1 << ask.asker))
        _require_at(model, known, ask.card, (1 << ask.target) if ask.yes else ~(1 << ask.target))

    def _assume_sure_asks_first(self, model: DealModel, known: dict[Card, int], ask: Ask) -> DealModel:
        """``model`` narrowed by what a guess answered "no" says under ``sure_asks_first``: the asker held no card of
        a set with a card publicly known (in ``known``, before the ask) at an opponent; ``model`` itself where that
        leaves no deal by the cheap checks (the asker does not play so)."""
        game = self.game
        if ask.yes or ask.asker == self.observer:
            return model
        team, asked = game.team_of(ask.asker), game.deck.set_index_of(ask.card)
        exposed = {game.deck.set_index_of(card) for card, holder in known.items() if game.team_of(holder) != team}
        if asked in exposed:  # the asker held a card of that set, so passed over a sure ask: not this model's player
            return model
        restrictions: dict[int, int] = {
            card: ~(1 << ask.asker) for index in exposed for card in game.deck.sets[index].cards if card not in known
        }
        if not restrictions:
            return model
        narrowed = model.copy()
        try:
            narrowed.restrict_all(restrictions)
        except InconsistentError:
            return model
        return narrowed


def _require_at(model: DealModel, known: dict[Card, int], card: Card, holders: int) -> None:
    """``card`` is now at a holder in ``holders``: a card that never moved was dealt there."""
    if card not in known:
        model.restrict(card, holders)
    elif not holders >> known[card] & 1:
        raise InconsistentError(f"{card} is known to be with {model.holders[known[card]]}")


def _require_somewhere(model: DealModel, known: dict[Card, int], cards: Iterable[Card], holders: int) -> None:
    """At least one of ``cards`` is now at a holder in ``holders``."""
    if not any(c in known and holders >> known[c] & 1 for c in cards):
        model.require((c, holders) for c in cards if c not in known)


def _hand_mask(hand: Iterable[int]) -> int:
    """The mask of ``hand``, the observer's cards; a typed error for anything else, a mask included (the hand a
    :class:`PlayerState` and a Knektpass belief take)."""
    if isinstance(hand, int) or not isinstance(hand, Iterable):
        raise ArgumentTypeError(
            f"hand must be the observer's cards (Card values), not {hand!r}: iter_cards(mask) lists a mask's cards"
        )
    return card_mask(Card(card) for card in hand)
