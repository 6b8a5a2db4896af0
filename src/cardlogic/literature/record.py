"""The Literature game record: a plain-text notation for a game, read and written like ``chess.pgn``.

A record is headers (``Key: value``) followed by one event a line. ``#``
starts a comment; blank lines are ignored::

    Players: Ann Bob Cat Dan Eve Fay
    Deck: no-8s
    Dealer: Fay
    Rules: wrong-claim=split bluff=off
    Me: Ann
    Hand Ann: 2S 3S 9H 10H QC KD AD 4C

    Fay asks Ann for 5S: no
    Ann asks Bob for JH: yes
    Cat claims low-hearts: Cat 2H 3H; Eve 4H 5H 6H 7H => correct
    Cat passes to Eve
    Eve claims HS: Eve 9S 10S JS; Cat QS KS AS => opponents (Eve 9S 10S; Cat QS KS; Dan AS; Bob JS)

Headers, each at most once and all before the first event (keys are
case-insensitive):

* ``Players``: the names in seating order (required).
* ``Deck``: the deck variant (default ``no-8s``); ``Sets``: keep only these sets
  (long or short names).
* ``Teams``: two groups of names separated by ``|``; the first group is team 0.
  Default: alternate seats, starting with team 0.
* ``Dealer``: who dealt (and asks first); hand sizes follow the dealing rule.
* ``Sizes``: starting hand sizes, ``Ann=8 Bob=8 ...`` or numbers in seat order,
  for a game without a dealer (then the first event's actor moves first); with a
  dealer they must agree with the deal. Without either, the deck must split evenly.
* ``Rules``: house rules, ``key=value`` words (see :meth:`Rules.parse`).
* ``Me``: the observer, for a record of the game as one player saw it.
* ``Hand NAME``: a starting hand. Every player's hand makes a full record, only
  the ``Me`` player's a view, none a spectator's record.

Events (keywords case-insensitive, names case and accents aside, cards as in
:mod:`cardlogic.cards`, sets by long or short name):

* ``A asks B for CARD: yes`` (or ``no``);
* ``A claims SET: HOLDER CARD...; HOLDER CARD... => OUTCOME (HOLDER CARD...; ...)``
  where OUTCOME is ``correct``, ``void`` or ``opponents`` and the parenthesised
  true holders at claim time are optional (a wrong claim needs them unless every
  card of the set is publicly known);
* ``A passes to B``.

:func:`write_record` writes the canonical form: every header it needs in the
order above (``Deck`` and ``Rules`` always, ``Sets`` and ``Teams`` only when not
the defaults, ``Sizes`` only without a dealer), canonical card, set and player
spellings, claim groups in the order of the set's cards and revealed holders
only when they are not simply the assignment. ``read_record(write_record(r)) ==
r``; comments are not kept.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from cardlogic import arguments
from cardlogic.cards import Card, CardError, card_mask, format_cards
from cardlogic.literature.decks import CardSet, Deck, DeckError
from cardlogic.literature.events import OUTCOMES, Ask, Claim, Event, Pass
from cardlogic.literature.rules import Game, GameError, Rules
from cardlogic.literature.state import IllegalEventError, PlayerState, PublicState, State
from cardlogic.notation import Problem, RecordError, other_game, replayed, seat_of, split_record

DEFAULT_DECK = "no-8s"
HEADERS = ("Players", "Deck", "Sets", "Teams", "Dealer", "Sizes", "Rules", "Me")
KNEKTPASS_HEADERS = ("Trump", "Points", "Stock")
"""Headers only a Knektpass record has: such a record is sent to ``cardlogic knektpass``."""


class InvalidEventError(ValueError):
    """Text that is not an event of this game in record notation (unknown name, card or set, bad syntax)."""


_ASK = re.compile(
    r"(?P<asker>\S+)\s+asks\s+(?P<target>\S+)\s+for\s+(?P<card>[^\s:]+)\s*(?::\s*(?P<answer>\S*))?", re.IGNORECASE
)
_PASS = re.compile(r"(?P<giver>\S+)\s+passes\s+to\s+(?P<receiver>\S+)", re.IGNORECASE)
_CLAIM = re.compile(
    r"(?P<claimer>\S+)\s+claims\s+(?P<set>[^\s:]+)\s*:(?P<assignment>[^=]*?)"
    r"(?:=>\s*(?P<outcome>[^\s(]*)\s*(?:\((?P<revealed>[^()]*)\))?)?",
    re.IGNORECASE,
)


def parse_event(text: str, game: Game) -> Event:
    """Read one event line (without comment) of ``game``; raise :class:`InvalidEventError`.

    The answer of an ask (``: yes``) and the outcome of a claim (``=> ...``) may
    be left out; the event then has None there.

    >>> game = Game(("Ann", "Bob", "Cat", "Dan"), dealer=3)
    >>> parse_event("dan asks ann for ts: yes", game)
    Ask(asker=3, target=0, card=Card('10S'), yes=True)
    """
    text = arguments.text("text", text).strip()
    if match := _ASK.fullmatch(text):
        answer = match["answer"]
        if answer is not None and answer.lower() not in ("yes", "no"):
            raise InvalidEventError(f"the answer must be yes or no, not {answer!r}")
        return Ask(
            _player(match["asker"], game),
            _player(match["target"], game),
            card_in_deck(match["card"], game),
            None if answer is None else answer.lower() == "yes",
        )
    if match := _PASS.fullmatch(text):
        return Pass(_player(match["giver"], game), _player(match["receiver"], game))
    if match := _CLAIM.fullmatch(text):
        try:
            set_index = game.deck.set_index(match["set"])
        except DeckError as error:
            raise InvalidEventError(str(error)) from None
        assignment = _groups(match["assignment"], game, "claim")
        outcome = match["outcome"]
        if outcome is not None and outcome.lower() not in OUTCOMES:
            raise InvalidEventError(f"the outcome must be one of {', '.join(OUTCOMES)}, not {outcome!r}")
        revealed = None if match["revealed"] is None else _groups(match["revealed"], game, "revealed holders")
        return Claim(
            _player(match["claimer"], game),
            set_index,
            assignment,
            None if outcome is None else outcome.lower(),
            revealed,
        )
    raise InvalidEventError(
        f"not an event: {text!r} (expected 'A asks B for CARD: yes|no', "
        "'A claims SET: A CARDS; B CARDS => correct|void|opponents' or 'A passes to B')"
    )


def format_event(event: Event, game: Game) -> str:
    """The canonical record line of ``event``.

    A claim's revealed holders are written only after an outcome, and only when
    they differ from the assignment.
    """
    names = game.players
    if isinstance(event, Ask):
        answer = "" if event.yes is None else ": yes" if event.yes else ": no"
        return f"{names[event.asker]} asks {names[event.target]} for {event.card}{answer}"
    if isinstance(event, Pass):
        return f"{names[event.giver]} passes to {names[event.receiver]}"
    card_set = game.deck.sets[event.set_index]
    text = f"{names[event.claimer]} claims {card_set.name}: {_format_groups(event.assignment, card_set, names)}"
    if event.outcome is not None:
        text += f" => {event.outcome}"
        if event.revealed is not None and event.revealed != event.assignment:
            text += f" ({_format_groups(event.revealed, card_set, names)})"
    return text


def _player(name: str, game: Game) -> int:
    return seat_of(name, game.players, InvalidEventError)


def card_in_deck(token: str, game: Game) -> Card:
    """The card ``token`` names, which must be in ``game``'s deck; InvalidEventError otherwise."""
    try:
        card = Card.parse(token)
    except CardError as error:
        raise InvalidEventError(str(error)) from None
    if card not in game.deck:
        raise InvalidEventError(f"{card} is not in play in this deck")
    return card


def _groups(text: str, game: Game, what: str) -> tuple[tuple[Card, int], ...]:
    pairs: list[tuple[Card, int]] = []
    for group in text.split(";"):
        tokens = group.split()
        if len(tokens) < 2:
            raise InvalidEventError(f"each group of the {what} must be a name and its cards, not {group.strip()!r}")
        holder = _player(tokens[0], game)
        pairs.extend((card_in_deck(token, game), holder) for token in tokens[1:])
    return tuple(pairs)


def _format_groups(pairs: Iterable[tuple[Card, int]], card_set: CardSet, names: Sequence[str]) -> str:
    order = {card: i for i, card in enumerate(card_set.cards)}
    groups: dict[int, list[Card]] = {}
    for card, holder in sorted(pairs, key=lambda pair: (order.get(pair[0], len(order)), pair[0])):
        groups.setdefault(holder, []).append(card)
    return "; ".join(f"{names[holder]} {format_cards(cards)}" for holder, cards in groups.items())


@dataclass
class Record:
    """A game of Literature as written down: set-up, starting hands and events.

    ``observer`` is the ``Me`` player or None; ``hands`` maps players to their
    starting hands (every player: a full record; only the observer: a view; none:
    a spectator's record). ``lines`` gives each event's source line; for a record
    built in code it defaults to the lines :func:`write_record` puts them on. It
    is provenance, not content: records compare equal regardless of it.
    """

    game: Game
    observer: int | None = None
    hands: dict[int, tuple[Card, ...]] = field(default_factory=dict)
    events: list[Event] = field(default_factory=list)
    lines: list[int] = field(default_factory=list, compare=False)

    def __post_init__(self) -> None:
        if not self.lines and self.events:
            first = len(_header_lines(self)) + 2
            self.lines = list(range(first, first + len(self.events)))

    @property
    def is_full(self) -> bool:
        """Whether every starting hand is given."""
        return len(self.hands) == len(self.game.players)

    def view_as(self, player: int | str) -> Record:
        """The record as ``player`` (index or name) saw it: ``Me`` set, every other hand removed.

        Raises :class:`RecordError` when the record does not show that player's hand.
        """
        index = player if isinstance(player, int) else _record_player(self.game, player)
        if not 0 <= index < len(self.game.players):
            raise RecordError(0, f"no player has index {index}")
        if index not in self.hands:
            raise RecordError(0, f"the record does not show {self.game.players[index]}'s hand")
        return Record(self.game, index, {index: self.hands[index]}, list(self.events), list(self.lines))

    def start(self) -> State | PlayerState | PublicState:
        """The position before the first event: a :class:`State` for a full record, a
        :class:`PlayerState` for a view, a :class:`PublicState` for a spectator's record."""
        masks = {player: card_mask(cards) for player, cards in self.hands.items()}
        if self.is_full:
            return State(self.game, [masks[p] for p in range(len(self.game.players))])
        if self.observer is not None and self.observer in masks:
            return PlayerState(self.game, self.observer, masks[self.observer])
        return PublicState(self.game)

    def replay(self) -> State | PlayerState | PublicState:
        """Push every event onto :meth:`start`; raise :class:`RecordError` at the first illegal one."""
        return replayed(self.start(), self.events, self.lines, IllegalEventError)

    def check(self) -> list[Problem]:
        """Every illegal event, as :meth:`replay` sees it, skipping each to check the rest."""
        state = self.start()
        problems = []
        for event, line in zip(self.events, self.lines, strict=True):
            try:
                state.push(event)
            except IllegalEventError as error:
                problems.append(Problem(line, str(error)))
        return problems


def _record_player(game: Game, name: str) -> int:
    try:
        return game.player_index(name)
    except GameError as error:
        raise RecordError(0, str(error)) from None


def write_record(record: Record) -> str:
    """The canonical text of ``record`` (see the module documentation)."""
    header = _header_lines(record)
    events = [format_event(event, record.game) for event in record.events]
    return "\n".join(header + ([""] + events if events else [])) + "\n"


def _header_lines(record: Record) -> list[str]:
    game = record.game
    names = game.players
    lines = [f"Players: {' '.join(names)}", f"Deck: {game.deck.name}"]
    if game.deck.sets != Deck.named(game.deck.name).sets:
        lines.append(f"Sets: {' '.join(s.short for s in game.deck.sets)}")
    if game.teams != tuple(seat % 2 for seat in range(len(names))):
        lines.append("Teams: " + " | ".join(" ".join(names[p] for p in game.members(team)) for team in (0, 1)))
    if game.dealer is not None:
        lines.append(f"Dealer: {names[game.dealer]}")
    else:
        lines.append("Sizes: " + " ".join(f"{name}={size}" for name, size in zip(names, game.sizes)))
    lines.append(f"Rules: {game.rules}")
    if record.observer is not None:
        lines.append(f"Me: {names[record.observer]}")
    lines.extend(f"Hand {names[p]}: {format_cards(record.hands[p])}" for p in sorted(record.hands))
    return lines


def read_record(text: str, source: str = "<record>") -> Record:
    """Read a record; raise :class:`RecordError` at its first malformed line (``problems`` lists them all).

    Only the notation and the set-up are checked here; whether the events are
    legal is for :meth:`Record.replay` and :meth:`Record.check`.
    """
    record, problems = scan_record(text)
    if problems:
        first = problems[0]
        raise RecordError(first.line, first.message, source, problems)
    assert record is not None
    return record


def scan_record(text: str) -> tuple[Record | None, list[Problem]]:
    """Read what can be read: the record of the well-formed lines and the problems of the others.

    The record is None when the headers do not make a game. Malformed event lines
    are left out of the record (and of its ``lines``).
    """
    foreign = other_game(text, KNEKTPASS_HEADERS, "Knektpass", "cardlogic knektpass")
    if foreign is not None:
        return None, [foreign]
    return _Reader(text).read()


class _Reader:
    def __init__(self, text: str) -> None:
        self.problems: list[Problem] = []
        self.headers, self.hand_lines, self.event_lines = split_record(text, HEADERS, self.problems)

    def problem(self, line: int, message: str) -> None:
        self.problems.append(Problem(line, message))

    def read(self) -> tuple[Record | None, list[Problem]]:
        record = self.setup()
        if record is not None:
            for line, text in self.event_lines:
                event = self.event(line, text, record.game)
                if event is not None:
                    record.events.append(event)
                    record.lines.append(line)
        self.problems.sort(key=lambda problem: problem.line)
        return record, self.problems

    def setup(self) -> Record | None:
        if "Players" not in self.headers:
            self.problem(1, "the record needs a Players header")
            return None
        _players_line, players = self.headers["Players"]
        names = players.split()
        deck = self.deck()
        rules = self.rules()
        if deck is None or rules is None:
            return None
        try:
            lookup = Game(tuple(names), deck=deck, dealer=0)
        except GameError as error:
            self.problem(self.header_line(error.field), str(error))
            return None
        known_problems = len(self.problems)
        teams = self.teams(lookup)
        dealer = self.one_player("Dealer", lookup)
        sizes = self.sizes(lookup)
        observer = self.one_player("Me", lookup)
        if len(self.problems) > known_problems:
            return None
        try:
            game = Game(lookup.players, teams or (), deck, rules, dealer, sizes or ())
        except GameError as error:
            self.problem(self.header_line(error.field), str(error))
            return None
        hands = self.hands(game, observer)
        if hands is None:
            return None
        return Record(game, observer, hands, [], [])

    def header_line(self, field: str) -> int:
        key = {
            "players": "Players",
            "teams": "Teams",
            "deck": "Sets" if "Sets" in self.headers else "Deck",
            "dealer": "Dealer",
            "sizes": "Sizes" if "Sizes" in self.headers else "Dealer",
            "rules": "Rules",
        }.get(field, "Players")
        return self.headers.get(key, self.headers["Players"])[0]

    def deck(self) -> Deck | None:
        line, name = self.headers.get("Deck", (0, DEFAULT_DECK))
        try:
            deck = Deck.named(name)
        except DeckError as error:
            self.problem(line, str(error))
            return None
        if "Sets" in self.headers:
            line, names = self.headers["Sets"]
            try:
                deck = deck.restricted(names.split())
            except DeckError as error:
                self.problem(line, str(error))
                return None
        return deck

    def rules(self) -> Rules | None:
        line, text = self.headers.get("Rules", (0, ""))
        try:
            return Rules.parse(text)
        except GameError as error:
            self.problem(line, str(error))
            return None

    def teams(self, game: Game) -> tuple[int, ...] | None:
        if "Teams" not in self.headers:
            return ()
        line, text = self.headers["Teams"]
        groups = text.split("|")
        if len(groups) != 2:
            self.problem(line, "Teams must be two groups of names separated by '|'")
            return None
        teams: dict[int, int] = {}
        for team, group in enumerate(groups):
            for name in group.split():
                player = self.player(line, name, game)
                if player is None:
                    return None
                if player in teams:
                    self.problem(line, f"{game.players[player]} is listed twice")
                    return None
                teams[player] = team
        missing = [name for p, name in enumerate(game.players) if p not in teams]
        if missing:
            self.problem(line, f"Teams leaves out {' '.join(missing)}")
            return None
        return tuple(teams[p] for p in range(len(game.players)))

    def one_player(self, key: str, game: Game) -> int | None:
        """The player named by header ``key``; None if it is absent or after a problem."""
        if key not in self.headers:
            return None
        line, text = self.headers[key]
        if len(text.split()) != 1:
            self.problem(line, f"{key} must name one player")
            return None
        return self.player(line, text, game)

    def sizes(self, game: Game) -> tuple[int, ...] | None:
        if "Sizes" not in self.headers:
            return ()
        line, text = self.headers["Sizes"]
        tokens = text.split()
        if tokens and all("=" in token for token in tokens):
            sizes: dict[int, int] = {}
            for token in tokens:
                name, _, number = token.partition("=")
                player = self.player(line, name, game)
                if player is None:
                    return None
                if player in sizes or not number.isdecimal():
                    self.problem(line, f"bad size {token!r}" if player not in sizes else f"{name} is listed twice")
                    return None
                sizes[player] = int(number)
            if len(sizes) != len(game.players):
                missing = [name for p, name in enumerate(game.players) if p not in sizes]
                self.problem(line, f"Sizes leaves out {' '.join(missing)}")
                return None
            return tuple(sizes[p] for p in range(len(game.players)))
        if tokens and all(token.isdecimal() for token in tokens) and len(tokens) == len(game.players):
            return tuple(int(token) for token in tokens)
        self.problem(line, "Sizes must be NAME=N for every player or one number per player in seat order")
        return None

    def hands(self, game: Game, observer: int | None) -> dict[int, tuple[Card, ...]] | None:
        hands: dict[int, tuple[Card, ...]] = {}
        owner: dict[Card, str] = {}
        ok = True
        for line, name, text in self.hand_lines:
            player = self.player(line, name, game)
            if player is None:
                ok = False
                continue
            if player in hands:
                self.problem(line, f"{game.players[player]}'s hand is given twice")
                ok = False
                continue
            try:
                cards = [card_in_deck(token, game) for token in text.split()]
            except InvalidEventError as error:
                self.problem(line, str(error))
                ok = False
                continue
            for card in cards:
                if card in owner:
                    self.problem(line, f"{card} is also in {owner[card]}'s hand")
                    ok = False
                owner[card] = game.players[player]
            if len(cards) != game.sizes[player]:
                self.problem(line, f"{game.players[player]} was dealt {game.sizes[player]} cards, not {len(cards)}")
                ok = False
            hands[player] = tuple(cards)
        if not ok:
            return None
        if hands and len(hands) != len(game.players) and set(hands) != {observer}:
            self.problem(
                self.hand_lines[0][0],
                "give every player's hand (a full record), only the Me player's "
                "(a view) or none (a spectator's record)",
            )
            return None
        if observer is not None and not hands:
            self.problem(self.headers["Me"][0], f"Me needs a 'Hand {game.players[observer]}:' line")
            return None
        return hands

    def player(self, line: int, name: str, game: Game) -> int | None:
        try:
            return game.player_index(name)
        except GameError as error:
            self.problem(line, str(error))
            return None

    def event(self, line: int, text: str, game: Game) -> Event | None:
        try:
            event = parse_event(text, game)
        except InvalidEventError as error:
            self.problem(line, str(error))
            return None
        if isinstance(event, Ask) and event.yes is None:
            self.problem(line, "the ask needs its answer: ': yes' or ': no'")
            return None
        if isinstance(event, Claim) and event.outcome is None:
            self.problem(line, "the claim needs its outcome: '=> correct', '=> void' or '=> opponents'")
            return None
        return event
