"""A deal of Knektpass as seen by one observer, as constraints on the hidden cards.

Cards move in private only before the first trick (the dealer's take of the
turned card and the exchanges), so the hidden variable is the deal as it stands
*after the exchanges*: a :class:`~cardlogic.constraints.DealModel` whose holders
are the players (five cards each; a folded player keeps their hand), the
``discards`` (their size is public) and the ``stock`` (what is left of it). Until
the exchanges end, the model is of the cards as they lie now, and each take or
exchange builds it again from what the observer has seen: their own hand and
discards are placed, the turned card taken by the dealer is with the dealer (or
in the discards, once the dealer has exchanged).

From the first trick on, every play narrows the model:

* the card was in the player's hand;
* not following suit: the player had no unplayed card of the suit led;
* following without beating the trick: no unplayed card of the suit led that beats it;
* void, without beating the trick with a trump (under ``must-trump=on``): no
  unplayed trump that beats it; and without playing a trump at all (under
  ``underruff=on`` too): no unplayed trump.

Played cards stay in the model (placed with whoever played them); :meth:`in_play`
lists the others. :class:`KnektpassTracker` follows the tracker protocol of
:class:`cardlogic.belief.Belief`: ``model``, ``push``, ``pop``, ``in_play``,
``moved`` and ``explain``.

>>> from cardlogic.cards import Card, card_mask, parse_cards
>>> from cardlogic.knektpass.rules import Deal, Game
>>> deal = Deal(Game(("Ann", "Bob", "Cat")), dealer=2, turned=Card.parse("9H"))
>>> tracker = KnektpassTracker(deal, 0, card_mask(parse_cards("AS KS 7D 8C JD")))
>>> tracker.model.holders, tracker.model.sizes
(('Ann', 'Bob', 'Cat', 'discards', 'stock'), (5, 5, 5, 0, 20))
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping

from cardlogic.cards import CARDS, Card
from cardlogic.constraints import DealModel, InconsistentError
from cardlogic.knektpass.events import Event, Exchange, Play, TakeTrump
from cardlogic.knektpass.rules import HAND_SIZE, Deal
from cardlogic.knektpass.state import PlayerState, PublicState

DISCARDS = "discards"
STOCK = "stock"


class UnheldCardError(InconsistentError):
    """A play of a card its player cannot hold by what came before.

    ``shown_by`` is the index in the history of the play that showed it, and ``reason`` what that play showed
    (``they showed no trumps``); None and ``""`` when the observer knew it before the first trick.
    """

    def __init__(self, player: str, card: Card, shown_by: int | None = None, reason: str = "") -> None:
        self.player, self.shown_by, self.reason = player, shown_by, reason
        super().__init__(f"{player} cannot hold {card}" + (f": {reason}" if reason else ""), card)

    def on_line(self, line: int) -> str:
        """The message, naming the play that showed it by ``line``, its line in the record."""
        return f"{self} on line {line}"


class ImpossiblePlayError(InconsistentError):
    """A play of a card its player may hold, which no deal explains with what came before: where the observer
    knows some of that player's cards, the message names them (``Dan cannot play 2H: they hold 9S``)."""


class KnektpassTracker:
    """The constraints one observer (``observer`` with ``hand``, a card mask as dealt) or a spectator
    (``observer=None``) can derive about the hidden cards of a deal.

    ``position`` is the observer's :class:`PlayerState` (a spectator's
    :class:`PublicState`), which checks the rules; ``model`` constrains the
    hidden deal. Holder ``i`` of the model is player ``i``; then come
    :attr:`discards` and :attr:`stock`.
    """

    def __init__(self, deal: Deal, observer: int | None = None, hand: int = 0) -> None:
        self.deal = deal
        self.observer = observer
        if observer is None:
            if hand:
                raise ValueError("a spectator has no hand")
            self.position: PublicState = PublicState(deal)
        else:
            self.position = PlayerState(deal, observer, hand)
        self.discards = len(deal.game.players)
        self.stock = self.discards + 1
        self.model = self._build()
        self._undo: list[DealModel] = []
        self._facts: list[tuple[int, int | None, int] | None] = []  # per event: a play's trick before it

    # -- the tracker protocol ----------------------------------------------------------------------------------------

    def push(self, event: Event) -> Event:
        """Apply ``event`` and return it as recorded; on :class:`~cardlogic.knektpass.IllegalEventError` or
        :class:`InconsistentError` nothing changes."""
        before = self._play_facts(event) if isinstance(event, Play) else None
        recorded = self.position.push(event)
        try:
            if isinstance(recorded, (TakeTrump, Exchange)):
                model = self._build()
            elif isinstance(recorded, Play) and before is not None:  # a play's trick was read before it was pushed
                model = self._model_after(recorded, before)
            else:
                model = self.model
        except InconsistentError:
            self.position.pop()
            raise
        self._undo.append(self.model)
        self._facts.append(before)
        self.model = model
        return recorded

    def explains(self, play: Play) -> bool:
        """Whether the constraints leave room for ``play`` of the player to move next: a card they may hold, and
        one the rules let them play with the cards they surely hold (a play the whole deal's count rules out is
        still refused when pushed)."""
        try:
            self._model_after(play, self._play_facts(play))
        except InconsistentError:
            return False
        return True

    def _model_after(self, play: Play, before: tuple[int, int | None, int]) -> DealModel:
        """The model with ``play`` made on the trick ``before`` it (:meth:`_play_facts`); raises
        :class:`UnheldCardError` or :class:`ImpossiblePlayError` where the play leaves no deal."""
        if not self.model.allowed[play.card] >> play.player & 1:
            raise self._unheld(play)
        model = self.model.copy()
        try:
            self._constrain_play(model, play, *before)
        except InconsistentError as error:
            raise self._impossible(play, error) from None
        return model

    def pop(self) -> Event:
        """Undo the last event and return it."""
        event = self.position.pop()
        self.model = self._undo.pop()
        self._facts.pop()
        return event

    def event_count(self) -> int:
        """The number of events pushed."""
        return len(self._undo)

    def model_of(self, indices: Iterable[int]) -> DealModel:
        """The constraints of the plays at ``indices`` only (each read with the trick as it stood before it), over
        the model as the last take or exchange built it (what the observer knew before the tricks).

        Raises :class:`InconsistentError` when they already fail the model's cheap checks.
        """
        history = self.position.history
        built = max((i + 1 for i, event in enumerate(history) if isinstance(event, (TakeTrump, Exchange))), default=0)
        model = [*self._undo, self.model][built].copy()
        for index in sorted(indices):
            facts = self._facts[index]
            if index >= built and facts is not None:
                play = history[index]
                assert isinstance(play, Play)  # only plays keep the trick before them
                self._constrain_play(model, play, *facts)
        return model

    def in_play(self) -> list[Card]:
        """The cards of the model not yet played, in card order: where they are still matters."""
        played = self.position.played
        return [card for card in self.model.cards if not played >> card & 1]

    def moved(self) -> Mapping[Card, int]:
        """Cards whose current holder became public after the hidden deal: none (played cards leave play)."""
        return {}

    def explain(self, card: int) -> list[tuple[int, int]]:
        """The events that narrowed where ``card`` lies: ``(event index, holders ruled out)`` in order.

        Holders are a bitmask over the model's holders. A take or an exchange
        builds the model again, so only plays (and what the model's simplification
        draws from them) narrow it; a card played rules out every holder but its
        player.
        """
        card = CARDS[card]
        models = [*self._undo, self.model]
        narrowed = []
        for index, (before, after) in enumerate(itertools.pairwise(models)):
            if card in before.allowed and card in after.allowed and before.holders == after.holders:
                ruled_out = before.allowed[card] & ~after.allowed[card]
                if ruled_out and before.sizes == after.sizes:
                    narrowed.append((index, ruled_out))
        return narrowed

    # -- the model ---------------------------------------------------------------------------------------------------

    @property
    def holders(self) -> tuple[str, ...]:
        return self.model.holders

    def _build(self) -> DealModel:
        """The model of the cards as they lie now, from what the observer has seen (before any trick)."""
        deal, position = self.deal, self.position
        n = len(deal.game.players)
        cards = [c for c in deal.game.deck if c != deal.turned or position.took]
        model = DealModel(
            (*deal.game.players, DISCARDS, STOCK),
            (HAND_SIZE,) * n + (position.discard_count, position.stock_left),
            cards,
        )
        restrictions: dict[int, int] = {}
        if isinstance(position, PlayerState):
            me, hand, discarded = position.player, position.hand, position.discarded
            for card in cards:
                if hand >> card & 1:
                    restrictions[card] = 1 << me
                elif discarded >> card & 1:
                    restrictions[card] = 1 << self.discards
                else:
                    restrictions[card] = ~(1 << me)
        if position.took:
            where = 1 << deal.dealer | (1 << self.discards if position.exchanged[deal.dealer] else 0)
            restrictions[deal.turned] = restrictions.get(deal.turned, -1) & where
        model.restrict_all(restrictions)
        return model

    def _play_facts(self, play: Play) -> tuple[int, int | None, int]:
        """What the trick says before ``play``: the suit led (-1 on a lead), the card winning it, the cards played."""
        position = self.position
        best = position.best()
        if best is None:
            return -1, None, position.played
        return self.deal.suit_of(position.trick[0][1]), best[1], position.played

    def _unheld(self, play: Play) -> UnheldCardError:
        """The error of ``play``, of a card its player is ruled out of holding: the first play of theirs that
        ruled it out, and what it showed."""
        player, card, deal = play.player, play.card, self.deal
        name = deal.game.players[player]
        history = self.position.history
        for index, ruled_out in self.explain(card):
            shown, facts = history[index], self._facts[index]
            if ruled_out >> player & 1 and isinstance(shown, Play) and facts is not None and facts[1] is not None:
                led, best = facts[0], facts[1]
                if deal.suit_of(card) == led:
                    followed = deal.suit_of(shown.card) == led
                    reason = f"did not beat {best}" if followed else f"showed no {deal.suit_name(led)}"
                elif deal.game.rules.underruff and not deal.is_trump(shown.card):
                    reason = "showed no trumps"
                else:
                    reason = f"did not beat {best} with a trump"
                return UnheldCardError(name, card, index, f"they {reason}")
        return UnheldCardError(name, card)

    def _impossible(self, play: Play, error: InconsistentError) -> ImpossiblePlayError:
        """The error of ``play`` where it leaves no deal: the card its player surely holds that the play says
        they cannot (the turned card the dealer took, on a trick of its suit), or the cards they surely hold that
        leave no room for it, else what the constraints found."""
        deal, player, card = self.deal, play.player, play.card
        name = deal.game.players[player]
        model, played = self.model, self.position.played
        fixed = sum(1 << c for c in model.cards if model.allowed[c] == 1 << player)  # played ones included
        held = fixed & ~played & ~(1 << card)
        if error.card is not None and held >> error.card & 1:
            return ImpossiblePlayError(f"{name} cannot play {card}: they hold {error.card}", error.card)
        if held and (fixed | 1 << card).bit_count() > model.sizes[player]:
            cards = " ".join(map(str, deal.sorted_hand(held)))
            return ImpossiblePlayError(f"{name} cannot play {card}: they hold only {cards}", error.card)
        return ImpossiblePlayError(f"{name} cannot play {card}: {error}", error.card)

    def _constrain_play(self, model: DealModel, play: Play, led: int, best: int | None, played: int) -> None:
        deal, player, card = self.deal, play.player, play.card
        ruled_out: list[Card] = []
        if best is not None:
            unplayed = [c for c in model.cards if not played >> c & 1 and c != card]
            if deal.suit_of(card) != led:
                ruled_out += [c for c in unplayed if deal.suit_of(c) == led]
                rules = deal.game.rules
                if rules.must_trump and not (deal.is_trump(card) and deal.beats(card, best)):
                    held_no_trump = rules.underruff and not deal.is_trump(card)
                    ruled_out += [c for c in unplayed if deal.is_trump(c) and (held_no_trump or deal.beats(c, best))]
            elif not deal.beats(card, best):
                ruled_out += [c for c in unplayed if deal.suit_of(c) == led and deal.beats(c, best)]
        restrictions: dict[int, int] = dict.fromkeys(ruled_out, ~(1 << player))
        restrictions[card] = 1 << player
        model.restrict_all(restrictions)
