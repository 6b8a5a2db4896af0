"""The Knektpass deal record: a plain-text notation for one deal, read and written like ``chess.pgn``.

A record is headers (``Key: value``) followed by one event a line. ``#``
starts a comment; blank lines are ignored::

    Players: Ann Bob Cat
    Dealer: Cat
    Trump: 9H
    Rules: must-trump=on points=12 lone=5 penalty=5 rounds=3 deck=auto
    Points: Ann=12 Bob=7 Cat=12
    Me: Ann
    Hand Ann: AS KS 7D 8C JD

    Cat takes the trump          # the dealer's discard is hidden from Ann
    Ann plays
    Bob plays
    Cat folds
    Ann exchanges 2: 7D 8C for QH 6S
    Bob exchanges 3
    Ann stands
    Bob stands
    Ann plays AS
    Bob plays 9S

Headers, each at most once and before the first event (keys case-insensitive):

* ``Players``: the names in seating order (required); the deal goes to the left.
* ``Dealer``: who dealt (required). ``Trump``: the turned card (required).
* ``Rules``: house rules, ``key=value`` words (see :meth:`Rules.parse`).
* ``Points``: everyone's points before the deal, ``Ann=12 Bob=7 ...`` (default
  :attr:`Rules.points` each).
* ``Me``: the observer, for a record of the deal as one player saw it.
* ``Hand NAME``: a hand as dealt. Every player's hand makes a full record, only
  the ``Me`` player's a view, none a spectator's record.
* ``Stock``: the stock as dealt, top first (a full record only; default: the
  other cards in card order).

Events (keywords case-insensitive, names case and accents aside, cards as in :mod:`cardlogic.cards`):

* ``D takes the trump`` (``for CARD``: the card put down, shown in a full record
  and in the dealer's own view) or ``D leaves the trump``;
* ``A plays`` or ``A folds``;
* ``A exchanges N`` (``: CARDS for CARDS``, the cards put down and drawn, shown in
  a full record and in A's own view; a full record may leave the draws to the
  stock's order), or ``A stands`` (exchanges none, and no more);
* ``A plays CARD``.

:func:`write_record` writes the canonical form (every header but ``Stock``
always, ``Stock`` when the record has one). ``read_record(write_record(r)) ==
r``; comments are not kept.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from cardlogic import arguments
from cardlogic.cards import Card, CardError, card_mask, format_cards
from cardlogic.knektpass.events import Bid, Event, Exchange, Play, TakeTrump
from cardlogic.knektpass.rules import HAND_SIZE, Deal, Game, GameError, Rules
from cardlogic.knektpass.state import IllegalEventError, PlayerState, PublicState, State
from cardlogic.notation import Problem, RecordError, other_game, replayed, seat_of, split_record

HEADERS = ("Players", "Dealer", "Trump", "Rules", "Points", "Me", "Stock")
LITERATURE_HEADERS = ("Deck", "Sets", "Teams", "Sizes")
"""Headers only a Literature record has: such a record is sent to the Literature commands."""


class InvalidEventError(ValueError):
    """Text that is not an event of this deal in record notation (unknown name or card, bad syntax)."""


_NAME = r"(?P<player>\S+)"
_TAKE = re.compile(_NAME + r"\s+takes\s+the\s+trump(?:\s+for\s+(?P<card>\S+))?", re.IGNORECASE)
_LEAVE = re.compile(_NAME + r"\s+leaves\s+the\s+trump", re.IGNORECASE)
_BID = re.compile(_NAME + r"\s+(?P<bid>plays|folds)", re.IGNORECASE)
_PLAY = re.compile(_NAME + r"\s+plays\s+(?P<card>\S+)", re.IGNORECASE)
_STAND = re.compile(_NAME + r"\s+stands", re.IGNORECASE)
_EXCHANGE = re.compile(
    _NAME + r"\s+exchanges\s+(?P<count>\d+)(?:\s*:(?P<discards>.*?)\bfor\b(?P<draws>.*))?", re.IGNORECASE
)


def parse_event(text: str, deal: Deal) -> Event:
    """Read one event line (without comment) of ``deal``; raise :class:`InvalidEventError`.

    >>> from cardlogic.knektpass.rules import Game
    >>> deal = Deal(Game(("Ann", "Bob", "Cat")), dealer=2, turned=Card.parse("9H"))
    >>> parse_event("ann exchanges 2: 7d 8c for qh 6s", deal)
    Exchange(player=0, count=2, discards=(Card('7D'), Card('8C')), draws=(Card('6S'), Card('QH')))
    >>> parse_event("Cat plays", deal), parse_event("Cat plays JC", deal)
    (Bid(player=2, plays=True), Play(player=2, card=Card('JC')))
    """
    text = " ".join(arguments.text("text", text).split())
    game = deal.game
    if match := _TAKE.fullmatch(text):
        card = match["card"]
        return TakeTrump(_player(match["player"], game), True, None if card is None else card_in_deck(card, game))
    if match := _LEAVE.fullmatch(text):
        return TakeTrump(_player(match["player"], game), False)
    if match := _BID.fullmatch(text):
        return Bid(_player(match["player"], game), match["bid"].lower() == "plays")
    if match := _PLAY.fullmatch(text):
        return Play(_player(match["player"], game), card_in_deck(match["card"], game))
    if match := _STAND.fullmatch(text):
        return Exchange(_player(match["player"], game), 0)
    if match := _EXCHANGE.fullmatch(text):
        player, count = _player(match["player"], game), int(match["count"])
        if match["discards"] is None:
            return Exchange(player, count)
        discards = [card_in_deck(token, game) for token in match["discards"].split()]
        draws = [card_in_deck(token, game) for token in match["draws"].split()]
        for what, cards in (("put down", discards), ("drawn", draws)):
            if len(cards) != count:
                raise InvalidEventError(f"an exchange of {count} shows {len(cards)} cards {what}")
            if len(set(cards)) != count:
                raise InvalidEventError(f"a card is {what} twice")
        return Exchange(player, count, tuple(discards), tuple(draws))
    raise InvalidEventError(
        f"not an event: {text!r} (expected 'D takes|leaves the trump', 'A plays|folds', "
        "'A exchanges N', 'A stands' or 'A plays CARD')"
    )


def format_event(event: Event, deal: Deal) -> str:
    """The canonical record line of ``event``."""
    name = deal.game.players[event.player]
    if isinstance(event, TakeTrump):
        if not event.take:
            return f"{name} leaves the trump"
        return f"{name} takes the trump" + ("" if event.discard is None else f" for {event.discard}")
    if isinstance(event, Bid):
        return f"{name} {'plays' if event.plays else 'folds'}"
    if isinstance(event, Play):
        return f"{name} plays {event.card}"
    if event.count == 0:
        return f"{name} stands"
    text = f"{name} exchanges {event.count}"
    if event.discards is not None and event.draws is not None:
        text += f": {format_cards(event.discards)} for {format_cards(event.draws)}"
    return text


def _player(name: str, game: Game) -> int:
    return seat_of(name, game.players, InvalidEventError)


def card_in_deck(token: str, game: Game) -> Card:
    """The card ``token`` names, which must be in ``game``'s deck; InvalidEventError otherwise."""
    try:
        card = Card.parse(token)
    except CardError as error:
        raise InvalidEventError(str(error)) from None
    if not game.deck_mask >> card & 1:
        raise InvalidEventError(f"{card} is not in the {len(game.deck)}-card deck")
    return card


@dataclass
class Record:
    """A deal of Knektpass as written down: set-up, hands as dealt, the stock and the events.

    ``observer`` is the ``Me`` player or None; ``hands`` maps players to their
    hands as dealt (every player: a full record; only the observer: a view; none:
    a spectator's record); ``stock`` is the stock top first, or None. ``lines``
    gives each event's source line (by default where :func:`write_record` puts
    them); it is provenance, not content: records compare equal regardless of it.
    """

    deal: Deal
    observer: int | None = None
    hands: dict[int, tuple[Card, ...]] = field(default_factory=dict)
    events: list[Event] = field(default_factory=list)
    stock: tuple[Card, ...] | None = None
    lines: list[int] = field(default_factory=list, compare=False)

    def __post_init__(self) -> None:
        if not self.lines and self.events:
            first = len(_header_lines(self)) + 2
            self.lines = list(range(first, first + len(self.events)))

    @property
    def is_full(self) -> bool:
        """Whether every hand is given."""
        return len(self.hands) == len(self.deal.game.players)

    def view_as(self, player: int | str) -> Record:
        """The record as ``player`` (index or name) saw it: ``Me`` set, other hands, the stock and other players'
        hidden cards removed. Raises :class:`RecordError` when the record does not show that player's hand."""
        if isinstance(player, str):
            try:
                player = self.deal.game.player_index(player)
            except GameError as error:
                raise RecordError(0, str(error)) from None
        if player not in self.hands:
            raise RecordError(0, f"the record does not show {self.deal.game.players[player]}'s hand")
        return Record(
            self.deal,
            player,
            {player: self.hands[player]},
            [e.seen_by(player) for e in self.events],
            None,
            list(self.lines),
        )

    def start(self) -> State | PlayerState | PublicState:
        """The position before the first event: a :class:`State` for a full record, a :class:`PlayerState` for a
        view, a :class:`PublicState` for a spectator's record."""
        masks = {player: card_mask(cards) for player, cards in self.hands.items()}
        deal = self.deal
        if self.is_full:
            dealt = 0
            for mask in masks.values():
                dealt |= mask
            rest = deal.game.deck_mask & ~dealt & ~deal.turned.mask
            stock = self.stock if self.stock is not None else [c for c in deal.game.deck if rest >> c & 1]
            return State(deal, [masks[p] for p in range(len(deal.game.players))], stock)
        if self.observer is not None:
            return PlayerState(deal, self.observer, masks[self.observer])
        return PublicState(deal)

    def replay(self) -> State | PlayerState | PublicState:
        """Push every event onto :meth:`start`; raise :class:`RecordError` at the first illegal one."""
        return replayed(self.start(), self.events, self.lines, IllegalEventError)


def write_record(record: Record) -> str:
    """The canonical text of ``record`` (see the module documentation)."""
    events = [format_event(event, record.deal) for event in record.events]
    return "\n".join(_header_lines(record) + ([""] + events if events else [])) + "\n"


def _header_lines(record: Record) -> list[str]:
    deal = record.deal
    names = deal.game.players
    lines = [
        f"Players: {' '.join(names)}",
        f"Dealer: {names[deal.dealer]}",
        f"Trump: {deal.turned}",
        f"Rules: {deal.game.rules}",
        "Points: " + " ".join(f"{n}={p}" for n, p in zip(names, deal.points)),
    ]
    if record.observer is not None:
        lines.append(f"Me: {names[record.observer]}")
    lines.extend(f"Hand {names[p]}: {format_cards(record.hands[p])}" for p in sorted(record.hands))
    if record.stock is not None:
        lines.append(f"Stock: {format_cards(record.stock)}")
    return lines


def read_record(text: str, source: str = "<record>") -> Record:
    """Read a record; raise :class:`RecordError` at its first malformed line (``problems`` lists them all).

    Only the notation and the set-up are checked here; whether the events are
    legal is for :meth:`Record.replay`.
    """
    record, problems = scan_record(text)
    if problems:
        raise RecordError(problems[0].line, problems[0].message, source, problems)
    assert record is not None
    return record


def scan_record(text: str) -> tuple[Record | None, list[Problem]]:
    """Read what can be read: the record of the well-formed lines and the problems of the others.

    The record is None when the headers do not make a deal. Malformed event lines
    are left out of the record (and of its ``lines``).
    """
    foreign = other_game(text, LITERATURE_HEADERS, "Literature", "cardlogic check|belief|advise|live")
    if foreign is not None:
        return None, [foreign]
    problems: list[Problem] = []
    lines = split_record(text, HEADERS, problems)
    record = _setup(lines.headers, lines.hands, problems)
    if record is not None:
        for line, content in lines.events:
            try:
                record.events.append(parse_event(content, record.deal))
                record.lines.append(line)
            except InvalidEventError as error:
                problems.append(Problem(line, str(error)))
    problems.sort(key=lambda problem: problem.line)
    return record, problems


def _setup(
    headers: dict[str, tuple[int, str]], hand_lines: list[tuple[int, str, str]], problems: list[Problem]
) -> Record | None:
    for key in ("Players", "Dealer", "Trump"):
        if key not in headers:
            problems.append(
                Problem(headers.get("Players", (1,))[0] if key != "Players" else 1, f"the record needs a {key} header")
            )
            return None
    try:
        rules = Rules.parse(headers.get("Rules", (0, ""))[1])
    except GameError as error:
        problems.append(Problem(headers["Rules"][0], str(error)))
        return None
    try:
        game = Game(tuple(headers["Players"][1].split()), rules)
    except GameError as error:
        problems.append(Problem(headers["Players"][0], str(error)))
        return None

    def player(key: str) -> int | None:
        line, text = headers[key]
        try:
            return game.player_index(text)
        except GameError as error:
            problems.append(Problem(line, str(error)))
            return None

    def cards(line: int, text: str) -> list[Card] | None:
        try:
            return [card_in_deck(token, game) for token in text.split()]
        except InvalidEventError as error:
            problems.append(Problem(line, str(error)))
            return None

    dealer = player("Dealer")
    observer = player("Me") if "Me" in headers else None
    turned = cards(*headers["Trump"])
    if dealer is None or turned is None or ("Me" in headers and observer is None):
        return None
    if len(turned) != 1:
        problems.append(Problem(headers["Trump"][0], "Trump must name one card, the turned card"))
        return None
    points: list[int] = []
    if "Points" in headers:
        line, text = headers["Points"]
        given: dict[int, int] = {}
        for token in text.split():
            name, _, number = token.partition("=")
            try:
                given[game.player_index(name)] = int(number)
            except (GameError, ValueError):
                problems.append(Problem(line, f"bad points {token!r} (expected NAME=N for every player)"))
                return None
        if len(given) != len(game.players):
            problems.append(Problem(line, "Points must give NAME=N for every player"))
            return None
        points = [given[p] for p in range(len(game.players))]
    try:
        deal = Deal(game, dealer, turned[0], tuple(points))
    except GameError as error:
        problems.append(Problem(headers["Trump"][0], str(error)))
        return None
    hands: dict[int, tuple[Card, ...]] = {}
    seen: dict[Card, str] = {deal.turned: "the turned card"}
    for line, name, text in hand_lines:
        try:
            owner = game.player_index(name)
        except GameError as error:
            problems.append(Problem(line, str(error)))
            return None
        hand = cards(line, text)
        if hand is None:
            return None
        if owner in hands:
            problems.append(Problem(line, f"{game.players[owner]}'s hand is given twice"))
            return None
        if len(hand) != HAND_SIZE:
            problems.append(Problem(line, f"{game.players[owner]} was dealt {HAND_SIZE} cards, not {len(hand)}"))
            return None
        for card in hand:
            if card in seen:
                problems.append(Problem(line, f"{card} is also {seen[card]}"))
                return None
            seen[card] = f"in {game.players[owner]}'s hand"
        hands[owner] = tuple(hand)
    if hands and len(hands) != len(game.players) and set(hands) != {observer}:
        problems.append(
            Problem(
                hand_lines[0][0],
                "give every player's hand (a full record), only the Me player's "
                "(a view) or none (a spectator's record)",
            )
        )
        return None
    if observer is not None and observer not in hands:
        problems.append(Problem(headers["Me"][0], f"Me needs a 'Hand {game.players[observer]}:' line"))
        return None
    stock = None
    if "Stock" in headers:
        line, text = headers["Stock"]
        stock_cards = cards(line, text)
        if stock_cards is None:
            return None
        rest = [c for c in game.deck if c not in seen]
        if len(hands) != len(game.players):
            problems.append(Problem(line, "only a full record (every hand) has a Stock"))
            return None
        if sorted(stock_cards) != rest:
            problems.append(Problem(line, "the Stock must be every card not dealt or turned, once"))
            return None
        stock = tuple(stock_cards)
    return Record(deal, observer, hands, [], stock, [])
