"""The parameters of Knektpass: house rules, the players, the deck, the ranking of cards and one deal's set-up.

:class:`Rules`, :class:`Game` and :class:`Deal` are immutable and shared by every
state of a deal.

The four jacks are permanent top trumps, ``JC JS JH JD`` in that order, and
belong to the trump suit whatever their printed suit; then come the trump suit's
``A K Q 10 9 ...`` and below them, in their own suits, the plain cards:

>>> deal = Deal(Game(("Ann", "Bob", "Cat")), dealer=2, turned=Card.parse("9H"))
>>> [str(card) for card in deal.ranked(deal.game.deck_mask & deal.suit_mask(deal.trump_suit))][:6]
['JC', 'JS', 'JH', 'JD', 'AH', 'KH']
>>> deal.suit_of(Card.parse("JS")) == deal.trump_suit, deal.beats(Card.parse("6H"), Card.parse("AS"))
(True, True)
>>> len(deal.game.deck), deal.stock_size, deal.forehand
(36, 20, 0)
>>> str(Rules.parse("must-trump=off points=10"))
'must-trump=off underruff=on points=10 lone=5 penalty=5 rounds=3 deck=auto'
"""

from __future__ import annotations

from dataclasses import dataclass, field

from cardlogic.arguments import ArgumentError, boolean, integer
from cardlogic.cards import CARDS, SUIT_NAMES, Card, card_mask, iter_cards
from cardlogic.notation import check_player_names, rule_words, seat_of

HAND_SIZE = 5
"""Cards dealt to each player, and tricks in a deal."""
MIN_PLAYERS = 2
JACK = 9
"""The rank index of a jack in :mod:`cardlogic.cards` (2 is 0, ace is 12)."""
JACK_ORDER = (3, 0, 1, 2)
"""The suits of the permanent top trumps, highest first: clubs, spades, hearts, diamonds."""
DECK_SIZES = (36, 52)

_HOLDER_NAMES = ("discards", "stock")


class GameError(ValueError):
    """A set-up Knektpass does not allow, bad house rules, or an unknown player name.

    ``field`` names what is at fault (``players``, ``rules``, ``dealer``,
    ``turned`` or ``points``) so readers can point at the right place.
    """

    def __init__(self, message: str, field: str = "players") -> None:
        super().__init__(message)
        self.field = field


MAX_POINTS = 999
"""The most points a rule (``points``, ``lone``, ``penalty``) takes: a game of more would not end at a table."""
MAX_ROUNDS = 10
"""The most rounds of exchange: more than a deal's stock could ever feed."""


def _rule(name: str, value: object, low: int, high: int) -> None:
    """Refuse a rule value that is not an integer from ``low`` to ``high`` (a GameError, or a TypeError)."""
    try:
        integer(name, value, low, high)
    except ArgumentError as error:
        raise GameError(str(error), "rules") from None


@dataclass(frozen=True)
class Rules:
    """House rules, each a switch where the sources differ.

    * ``must_trump``: a player void in the suit led must trump (and beat the
      trick with a trump if they can). The 1847 rule book is silent; the Rams
      family says yes, so on by default.
    * ``underruff``: under ``must_trump``, a void player whose trumps are all
      lower than a trump already winning the trick must still play one of them
      (on, the literal reading of "must trump if able, and beat a trump already
      played if able"); off, such a player may play any card.
    * ``points``: every player's points at the start of a game (12).
    * ``lone``: points a lone player (the only one to play) takes off (5).
    * ``penalty``: points added per trick short of the trick minimum (5).
    * ``rounds``: rounds of exchange at most (3).
    * ``deck``: 36 (6 to A) or 52 cards; None (``deck=auto``) for 36 with 2 or 3
      players and 52 with more.
    """

    must_trump: bool = True
    underruff: bool = True
    points: int = 12
    lone: int = 5
    penalty: int = 5
    rounds: int = 3
    deck: int | None = None

    def __post_init__(self) -> None:
        if self.deck is not None and self.deck not in DECK_SIZES:
            raise GameError(f"deck must be auto, 36 or 52, not {self.deck}", "rules")
        boolean("must_trump", self.must_trump)
        boolean("underruff", self.underruff)
        for name, low, high in (("points", 1, MAX_POINTS), ("lone", 0, MAX_POINTS), ("penalty", 0, MAX_POINTS)):
            _rule(name, getattr(self, name), low, high)
        _rule("rounds", self.rounds, 0, MAX_ROUNDS)

    @classmethod
    def parse(cls, text: str) -> Rules:
        """Read ``key=value`` words such as ``must-trump=off points=10 deck=52``.

        Keys: ``must-trump`` and ``underruff`` (``on``/``off``), ``points``, ``lone``, ``penalty``,
        ``rounds`` (numbers) and ``deck`` (``auto``, ``36`` or ``52``),
        case-insensitive, each at most once; missing keys keep their defaults.
        Raises :class:`GameError`.
        """
        values: dict[str, object] = {}
        for key, attribute, value in rule_words(text, _RULE_KEYS, _RULE_WORDS, lambda m: GameError(m, "rules")):
            if attribute in ("must_trump", "underruff"):
                if value not in ("on", "off"):
                    raise GameError(f"{key} must be on or off, not {value!r}", "rules")
                values[attribute] = value == "on"
            elif attribute == "deck" and value == "auto":
                values[attribute] = None
            elif value.isdecimal():
                values[attribute] = int(value)
            else:
                raise GameError(f"{key} must be a whole number, not {value!r}", "rules")
        return cls(**values)  # type: ignore[arg-type]

    def __str__(self) -> str:
        return (
            f"must-trump={_switch(self.must_trump)} underruff={_switch(self.underruff)} points={self.points} "
            f"lone={self.lone} penalty={self.penalty} rounds={self.rounds} deck={self.deck or 'auto'}"
        )

    def deck_size(self, players: int) -> int:
        """The number of cards played with ``players`` players."""
        return self.deck or (36 if players <= 3 else 52)

    @property
    def void_rule(self) -> int:
        """What a player void in the suit led must play, as the kernels take it: :data:`VOID_FREE` (any card),
        :data:`VOID_BEAT` (a trump that beats the trick if they hold one, else any card) or :data:`VOID_TRUMP` (such
        a trump, else any trump, else any card)."""
        if not self.must_trump:
            return VOID_FREE
        return VOID_TRUMP if self.underruff else VOID_BEAT


VOID_FREE, VOID_BEAT, VOID_TRUMP = 0, 1, 2
"""The values of :attr:`Rules.void_rule`."""
_RULE_KEYS = ("must_trump", "underruff", "points", "lone", "penalty", "rounds", "deck")
_RULE_WORDS = (
    "must-trump=on|off",
    "underruff=on|off",
    "points=N",
    "lone=N",
    "penalty=N",
    "rounds=N",
    "deck=auto|36|52",
)


def _switch(on: bool) -> str:
    return "on" if on else "off"


@dataclass(frozen=True)
class Game:
    """Who plays (names in seating order; the deal passes to the left, to the next seat) and the house rules.

    ``deck`` (derived) is the cards in play, in card order, and ``deck_mask`` their
    mask. Raises :class:`GameError` unless the names are distinct (compared
    as typed, case and accents aside; no whitespace or any of ``:;=|()#,``, and neither
    ``discards`` nor ``stock``) and the deck holds five cards for everyone and the
    turned trump card.
    """

    players: tuple[str, ...]
    rules: Rules = field(default_factory=Rules)
    deck: tuple[Card, ...] = field(init=False, repr=False, compare=False)
    deck_mask: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        players = tuple(self.players)
        object.__setattr__(self, "players", players)
        check_player_names(players, GameError, _HOLDER_NAMES)
        size = self.rules.deck_size(len(players))
        most = (size - 1) // HAND_SIZE
        if not MIN_PLAYERS <= len(players) <= most:
            raise GameError(f"Knektpass with {size} cards needs {MIN_PLAYERS} to {most} players, not {len(players)}")
        lowest = 13 - size // 4
        deck = tuple(CARDS[suit * 13 + rank] for suit in range(4) for rank in range(lowest, 13))
        object.__setattr__(self, "deck", deck)
        object.__setattr__(self, "deck_mask", card_mask(deck))

    def player_index(self, name: str) -> int:
        """The seat of the player called ``name`` (case and accents aside); :class:`GameError` if none is."""
        return seat_of(name, self.players, GameError)


@dataclass(frozen=True)
class Deal:
    """One deal: the game, who dealt, the turned trump card and everyone's points before the deal.

    ``points`` defaults to :attr:`Rules.points` for everyone. The dealer deals
    five cards each starting to the left (:attr:`forehand`, who bids first and
    leads the first trick if playing); the next card, ``turned``, is turned for
    trumps, and the rest is the stock. Raises :class:`GameError` for a dealer
    out of range, a turned card not in the deck or points for the wrong number
    of players.
    """

    game: Game
    dealer: int
    turned: Card
    points: tuple[int, ...] = ()
    trump_suit: int = field(init=False, repr=False, compare=False)
    _power: tuple[int, ...] = field(init=False, repr=False, compare=False)
    _suits: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        n = len(self.game.players)
        if not 0 <= integer("dealer", self.dealer) < n:
            raise GameError(f"no player has index {self.dealer}", "dealer")
        turned = Card(self.turned)
        if not self.game.deck_mask >> turned & 1:
            raise GameError(f"{turned} is not in the deck", "turned")
        object.__setattr__(self, "turned", turned)
        points = tuple(integer("points", player_points) for player_points in self.points)
        points = points or (self.game.rules.points,) * n
        if len(points) != n:
            raise GameError(f"{len(points)} points for {n} players", "points")
        object.__setattr__(self, "points", points)
        trump = self.turned.suit
        object.__setattr__(self, "trump_suit", trump)
        object.__setattr__(self, "_power", tuple(power(card, trump) for card in CARDS[:52]))
        object.__setattr__(self, "_suits", tuple(trump if card % 13 == JACK else card // 13 for card in CARDS[:52]))

    # -- seats -------------------------------------------------------------------------------------------------------

    @property
    def forehand(self) -> int:
        """The player left of the dealer."""
        return (self.dealer + 1) % len(self.game.players)

    @property
    def order(self) -> tuple[int, ...]:
        """Every seat from forehand round to the dealer: the order of bids and exchanges."""
        n = len(self.game.players)
        return tuple((self.dealer + 1 + k) % n for k in range(n))

    @property
    def stock_size(self) -> int:
        """Cards left in the stock after the deal and the turned card."""
        return len(self.game.deck) - HAND_SIZE * len(self.game.players) - 1

    # -- ranking -----------------------------------------------------------------------------------------------------

    def suit_of(self, card: int) -> int:
        """The suit ``card`` follows: the trump suit for a jack, else its printed suit."""
        return self._suits[card]

    def is_trump(self, card: int) -> bool:
        return self._suits[card] == self.trump_suit

    def suit_name(self, suit: int) -> str:
        """``suit`` as players name it in this deal: ``trumps`` for the trump suit, else ``spades`` and so on."""
        return "trumps" if suit == self.trump_suit else SUIT_NAMES[suit]

    def power(self, card: int) -> int:
        """The card's rank within its suit (:meth:`suit_of`): higher beats lower. See :func:`power`."""
        return self._power[card]

    def suit_mask(self, suit: int) -> int:
        """The cards of the deck following ``suit`` (the trump suit includes the four jacks)."""
        return card_mask(c for c in self.game.deck if self._suits[c] == suit)

    def beats(self, card: int, best: int) -> bool:
        """Whether ``card`` takes the trick from ``best``, the card winning it so far.

        A trump beats any plain card and a lower trump; a plain card beats only a
        lower card of its own suit.
        """
        if self._suits[card] == self._suits[best]:
            return self._power[card] > self._power[best]
        return self._suits[card] == self.trump_suit

    def winner(self, cards: tuple[int, ...] | list[int]) -> int:
        """The index into ``cards`` (a trick, in the order played) of the card that takes it."""
        best = 0
        for index in range(1, len(cards)):
            if self.beats(cards[index], cards[best]):
                best = index
        return best

    def ranked(self, mask: int) -> list[Card]:
        """The cards of ``mask``, trumps first, then by power, highest first (ties: card order)."""
        return sorted(iter_cards(mask), key=lambda c: (not self.is_trump(c), -self._power[c], c))

    def sorted_hand(self, mask: int) -> list[Card]:
        """The cards of ``mask`` as a player sorts their hand: the trumps highest first, then each plain suit
        (spades, hearts, diamonds, clubs) highest first.

        >>> from cardlogic.cards import format_cards, parse_cards
        >>> deal = Deal(Game(("Ann", "Bob", "Cat")), dealer=2, turned=Card.parse("KH"))
        >>> format_cards(deal.sorted_hand(card_mask(parse_cards("7H 6H AD AC 7D JS"))))
        'JS 7H 6H AD 7D AC'
        """
        return sorted(iter_cards(mask), key=lambda c: (not self.is_trump(c), self._suits[c], -self._power[c]))


def power(card: int, trump_suit: int) -> int:
    """``card``'s rank within the suit it follows under ``trump_suit``: a plain card its rank index (2 is 0,
    ace 12), a trump 20 more, the jacks 40 and up (``JD`` 40 .. ``JC`` 43).

    >>> power(Card.parse("JC"), 1), power(Card.parse("AH"), 1), power(Card.parse("AS"), 1)
    (43, 32, 12)
    """
    rank, suit = card % 13, card // 13
    if rank == JACK:
        return 43 - JACK_ORDER.index(suit)
    return rank + (20 if suit == trump_suit else 0)
