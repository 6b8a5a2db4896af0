"""Short forms of Knektpass events, for typing at the table: ``ann 6s``, ``bob exchanges 2``, ``cat folds``.

A line names its player by any prefix no other name shares, or leaves the player out (then it is the player to
move). What follows says what they did:

* ``CARD``: plays the card (``ann 6s``, or ``6s`` for the player to move);
* ``plays`` / ``play`` / ``in``, ``folds`` / ``fold`` / ``out``: the bid;
* ``takes`` / ``take`` [``for``] [CARD], ``leaves`` / ``leave``: the dealer takes the turned card (putting CARD
  down) or leaves it;
* ``exchanges`` / ``ex`` N, or N alone: exchanges N cards; ``stands`` / ``stand`` (or 0): exchanges none;
* ``ex CARDS for CARDS`` (or CARDS ``for`` CARDS alone): the cards put down and drawn, by the player who saw them;
* ``deal TRUMP [CARDS]``: the next deal of the match, its turned card and my new hand.

Record notation (:func:`~cardlogic.knektpass.record.parse_event`) is read too.

>>> from cardlogic.knektpass.rules import Deal, Game
>>> notation = Notation(Game(("Ann", "Bob", "Cat")))
>>> notation.parse("an 6s", to_move=0)
Play(player=0, card=Card('6S'))
>>> notation.parse("fold", to_move=2), notation.parse("bob 2", to_move=1)
(Bid(player=2, plays=False), Exchange(player=1, count=2, discards=None, draws=None))
>>> notation.parse("deal 9s", to_move=None)
ShortDeal(turned=Card('9S'), hand=())
"""

from __future__ import annotations

from dataclasses import dataclass

from cardlogic.cards import Card, is_card
from cardlogic.knektpass.events import Bid, Event, Exchange, Play, TakeTrump
from cardlogic.knektpass.record import InvalidEventError, card_in_deck, parse_event
from cardlogic.knektpass.rules import Deal, Game
from cardlogic.notation import name_index

PLAY_WORDS = ("plays", "play", "in")
FOLD_WORDS = ("folds", "fold", "out")
TAKE_WORDS = ("takes", "take")
LEAVE_WORDS = ("leaves", "leave")
STAND_WORDS = ("stands", "stand")
EXCHANGE_WORDS = ("exchanges", "exchange", "ex")
VERBS = (*PLAY_WORDS, *FOLD_WORDS, *TAKE_WORDS, *LEAVE_WORDS, *STAND_WORDS, *EXCHANGE_WORDS)


@dataclass(frozen=True)
class ShortDeal:
    """``deal TRUMP [CARDS]``: the next deal's turned card and, if given, my new hand."""

    turned: Card
    hand: tuple[Card, ...] = ()


class Notation:
    """Reads short forms (see the module documentation) for the players of ``game``."""

    def __init__(self, game: Game) -> None:
        self.game = game

    def player(self, token: str) -> int:
        """The player ``token`` names in full or by a prefix no other name shares (any case)."""
        return name_index(token, self.game.players, "player", error=InvalidEventError)

    def card(self, token: str) -> Card:
        """The card ``token`` names, which must be in this game's deck."""
        return card_in_deck(token, self.game)

    def parse(self, text: str, to_move: int | None, deal: Deal | None = None) -> Event | ShortDeal:
        """The event (or next deal) ``text`` types, the player left out being ``to_move``.

        ``deal`` (any deal of the game) reads record notation too. Raises :class:`InvalidEventError`.
        """
        if deal is not None:
            try:
                return parse_event(text, deal)
            except InvalidEventError:
                pass
        tokens = text.lower().replace(":", " ").split()
        if not tokens:
            raise InvalidEventError("an empty line is no event")
        if tokens[0] == "deal":
            if len(tokens) < 2:
                raise InvalidEventError("deal needs the turned card: deal TRUMP [MY 5 CARDS]")
            return ShortDeal(self.card(tokens[1]), tuple(self.card(token) for token in tokens[2:]))
        player, rest = self._actor(tokens, to_move)
        return self._event(player, rest, text)

    def _actor(self, tokens: list[str], to_move: int | None) -> tuple[int, list[str]]:
        first = tokens[0]
        if len(tokens) > 1 and first not in VERBS and not first.isdecimal():
            try:
                return self.player(first), tokens[1:]
            except InvalidEventError:
                if not is_card(first):  # a card first is my own exchange: 7c 8c for 7d ad
                    raise
        if to_move is None:
            raise InvalidEventError("nobody is to move: name the player, or start the next deal (deal TRUMP)")
        return to_move, tokens

    def _event(self, player: int, rest: list[str], text: str) -> Event:
        verb, arguments = rest[0], rest[1:]
        if verb in PLAY_WORDS and not arguments:
            return Bid(player, True)
        if verb in FOLD_WORDS and not arguments:
            return Bid(player, False)
        if verb in LEAVE_WORDS and not arguments:
            return TakeTrump(player, False)
        if verb in TAKE_WORDS:
            cards = [token for token in arguments if token not in ("the", "trump", "for")]
            if len(cards) > 1:
                raise InvalidEventError("the dealer puts down one card for the turned one: take CARD")
            return TakeTrump(player, True, self.card(cards[0]) if cards else None)
        if (verb in STAND_WORDS and not arguments) or rest == ["0"]:
            return Exchange(player, 0)
        if verb in EXCHANGE_WORDS:
            rest = arguments
        if len(rest) == 1 and rest[0].isdecimal():
            return Exchange(player, int(rest[0]))
        if "for" in rest:
            return self.exchange(player, rest)
        if len(rest) == 1 and verb not in EXCHANGE_WORDS:
            return Play(player, self.card(rest[0]))
        raise InvalidEventError(
            f"not an event: {text!r} (e.g. 'ann 6s', 'bob exchanges 2', 'cat folds', 'dan takes', 'deal 9s'; see help)"
        )

    def exchange(self, player: int, rest: list[str]) -> Exchange:
        """The exchange ``[N] CARDS for CARDS`` (lower-case tokens) of ``player``, who saw its cards."""
        if "for" not in rest:
            raise InvalidEventError("name the cards put down, then 'for', then the cards drawn: 7c 8c for 7d ad")
        at = rest.index("for")
        discards, draws = rest[:at], rest[at + 1 :]
        if discards and discards[0].isdecimal():
            count, discards = int(discards[0]), discards[1:]
        else:
            count = len(discards)
        cards = [self.card(token) for token in discards], [self.card(token) for token in draws]
        for what, named in zip(("put down", "drawn"), cards, strict=True):
            if len(named) != count:
                raise InvalidEventError(f"an exchange of {count} shows {len(named)} cards {what}")
            if len(set(named)) != count:
                raise InvalidEventError(f"a card is {what} twice")
        return Exchange(player, count, tuple(cards[0]), tuple(cards[1]))


__all__ = ["VERBS", "Notation", "ShortDeal"]
