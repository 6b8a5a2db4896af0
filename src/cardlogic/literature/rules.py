"""The parameters of one game of Literature: house rules, seating, teams, deck and deal sizes.

:class:`Rules` and :class:`Game` are immutable and shared by every state of a game.

>>> game = Game(("Ann", "Bob", "Cat", "Dan", "Eve"), dealer=4)
>>> game.sizes  # 48 cards dealt one at a time starting with Ann, the player after the dealer
(10, 10, 10, 9, 9)
>>> game.teams, game.teammates(0), game.opponents(0)
((0, 1, 0, 1, 0), (2, 4), (1, 3))
>>> str(Rules.parse("bluff=on"))
'wrong-claim=split bluff=on must-declare=off high-double=off after-claim=continue claim-anytime=off'
"""

from __future__ import annotations

from dataclasses import dataclass, field

from cardlogic import arguments
from cardlogic.literature.decks import Deck
from cardlogic.notation import check_player_names, rule_words, seat_of

MIN_PLAYERS = 4
MAX_PLAYERS = 12
WRONG_CLAIM_RULES = ("split", "opponents")
AFTER_CLAIM_RULES = ("continue", "team-picks")


class GameError(ValueError):
    """A game set-up Literature does not allow, bad house rules, or an unknown player name.

    ``field`` names the :class:`Game` field at fault (``players``, ``teams``,
    ``deck``, ``dealer``, ``sizes`` or ``rules``) so readers can point at the
    right place.
    """

    def __init__(self, message: str, field: str = "players") -> None:
        super().__init__(message)
        self.field = field


@dataclass(frozen=True)
class Rules:
    """House rules.

    * ``wrong_claim``: who gets a wrongly claimed set. ``split``: nobody (the set is
      void) if the claiming team held all of it, else the opponents; ``opponents``:
      always the opponents.
    * ``bluff``: a player may ask for a card they hold (they must still hold another
      card of its set).
    * ``must_declare``: a player holding a whole unclaimed set may not ask until
      they have claimed it.
    * ``high_double``: high sets (:attr:`CardSet.high`) score 2 points instead of 1.
    * ``after_claim``: who moves after a claim. ``continue`` (the common rule): the
      claimer keeps the turn, and hands it to a teammate only when the claim left
      them without cards; ``team-picks`` (a house rule): the claimer may hand the
      turn to any teammate with cards, so a certain set held back can buy the turn
      for a teammate (a stalemate breaker).
    * ``claim_anytime``: a player with cards may claim on any player's turn, and
      then moves as after a claim on their own turn.

    Whatever the switches, once a team has no cards the player to move on the
    other team claims every remaining set alone, with or without cards of their
    own, and passes to nobody.
    """

    wrong_claim: str = "split"
    bluff: bool = False
    must_declare: bool = False
    high_double: bool = False
    after_claim: str = "continue"
    claim_anytime: bool = False

    def __post_init__(self) -> None:
        for switch in ("bluff", "must_declare", "high_double", "claim_anytime"):
            arguments.boolean(switch, getattr(self, switch))  # "off" would be a truthy on
        if self.wrong_claim not in WRONG_CLAIM_RULES:
            raise GameError(
                f"wrong-claim must be one of {', '.join(WRONG_CLAIM_RULES)}, not {self.wrong_claim!r}", "rules"
            )
        if self.after_claim not in AFTER_CLAIM_RULES:
            raise GameError(
                f"after-claim must be one of {', '.join(AFTER_CLAIM_RULES)}, not {self.after_claim!r}", "rules"
            )

    @property
    def team_picks(self) -> bool:
        """Whether a claimer may hand the turn to any teammate with cards (``after-claim=team-picks``)."""
        return self.after_claim == "team-picks"

    @classmethod
    def parse(cls, text: str) -> Rules:
        """Read ``key=value`` words such as ``wrong-claim=opponents bluff=on``.

        Keys are ``wrong-claim`` (``split``/``opponents``), ``after-claim``
        (``continue``/``team-picks``) and ``bluff``, ``must-declare``,
        ``high-double``, ``claim-anytime`` (``on``/``off``), case-insensitive, each
        at most once; missing keys keep their defaults. Raises :class:`GameError`.
        """
        values: dict[str, object] = {}
        for key, attribute, value in rule_words(text, _RULE_KEYS, _RULE_WORDS, lambda m: GameError(m, "rules")):
            if attribute in ("wrong_claim", "after_claim"):
                values[attribute] = value
            elif value in ("on", "off"):
                values[attribute] = value == "on"
            else:
                raise GameError(f"{key} must be on or off, not {value!r}", "rules")
        return cls(**values)  # type: ignore[arg-type]

    def __str__(self) -> str:
        def on_off(flag: bool) -> str:
            return "on" if flag else "off"

        return (
            f"wrong-claim={self.wrong_claim} bluff={on_off(self.bluff)} must-declare={on_off(self.must_declare)} "
            f"high-double={on_off(self.high_double)} after-claim={self.after_claim} "
            f"claim-anytime={on_off(self.claim_anytime)}"
        )


_RULE_KEYS = ("wrong_claim", "bluff", "must_declare", "high_double", "after_claim", "claim_anytime")
_RULE_WORDS = (
    "wrong-claim=split|opponents",
    "bluff=on|off",
    "must-declare=on|off",
    "high-double=on|off",
    "after-claim=continue|team-picks",
    "claim-anytime=on|off",
)


def dealt_sizes(cards: int, players: int, dealer: int) -> tuple[int, ...]:
    """Hand sizes when ``cards`` are dealt one at a time starting with the player after ``dealer``.

    With an uneven split the players right after the dealer get one card more:

    >>> dealt_sizes(48, 5, 1)
    (9, 9, 10, 10, 10)
    """
    base, extra = divmod(cards, players)
    return tuple(base + (1 if (seat - dealer - 1) % players < extra else 0) for seat in range(players))


@dataclass(frozen=True)
class Game:
    """Who plays, in which seats and teams, with which deck, house rules and deal.

    ``players`` are the names in seating order (the turn order of dealing); every
    other part of cardlogic refers to a player by its index here. ``teams`` gives
    each player's team, 0 or 1 (default: alternate seats, ``0, 1, 0, 1, ...``).
    ``sizes`` are the starting hand sizes: by default derived from ``dealer`` with
    :func:`dealt_sizes`, or an even split when there is no dealer and the deck
    divides evenly; when both are given they must agree. The dealer asks first;
    without a dealer :attr:`first_to_move` is None and whoever acts first moves
    first.

    ``set_masks`` (derived) holds the card mask of every set of the deck.

    Raises :class:`GameError` unless there are 4 to 12 players with distinct names
    (compared as typed, case and accents aside; no whitespace or any of ``:;=|()#,``), two
    non-empty teams, and sizes of at least one card each summing to the deck size.
    """

    players: tuple[str, ...]
    teams: tuple[int, ...] = ()
    deck: Deck = field(default_factory=lambda: Deck.named("no-8s"))
    rules: Rules = field(default_factory=Rules)
    dealer: int | None = None
    sizes: tuple[int, ...] = ()
    set_masks: tuple[int, ...] = field(init=False, repr=False, compare=False)
    _members: tuple[tuple[int, ...], tuple[int, ...]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        players = tuple(self.players)
        object.__setattr__(self, "players", players)
        n = len(players)
        if not MIN_PLAYERS <= n <= MAX_PLAYERS:
            raise GameError(f"Literature needs {MIN_PLAYERS} to {MAX_PLAYERS} players, not {n}")
        check_player_names(players, GameError)
        teams = tuple(self.teams) or tuple(seat % 2 for seat in range(n))
        object.__setattr__(self, "teams", teams)
        if len(teams) != n or any(team not in (0, 1) for team in teams):
            raise GameError("teams must give team 0 or 1 for every player", "teams")
        if 0 not in teams or 1 not in teams:
            raise GameError("both teams need at least one player", "teams")
        if self.dealer is not None and not 0 <= arguments.integer("dealer", self.dealer) < n:
            raise GameError(f"no player has index {self.dealer}", "dealer")
        cards = len(self.deck.cards)
        if cards < n:
            raise GameError(f"the deck has {cards} cards, fewer than the {n} players", "deck")
        sizes = tuple(self.sizes)
        if self.dealer is not None:
            dealt = dealt_sizes(cards, n, self.dealer)
            if sizes and sizes != dealt:
                raise GameError(f"dealing from {players[self.dealer]} gives sizes {dealt}, not {sizes}", "sizes")
            sizes = dealt
        elif not sizes:
            if cards % n:
                raise GameError(
                    f"{cards} cards do not split evenly among {n} players: name a dealer or give sizes", "sizes"
                )
            sizes = (cards // n,) * n
        object.__setattr__(self, "sizes", sizes)
        if len(sizes) != n or any(size < 1 for size in sizes):
            raise GameError("sizes must give at least one card for every player", "sizes")
        if sum(sizes) != cards:
            raise GameError(f"sizes add up to {sum(sizes)}, but the deck has {cards} cards", "sizes")
        object.__setattr__(self, "set_masks", tuple(card_set.mask for card_set in self.deck.sets))
        object.__setattr__(self, "_members", tuple(tuple(p for p in range(n) if teams[p] == t) for t in (0, 1)))

    def player_index(self, name: str) -> int:
        """The seat of the player called ``name`` (case and accents aside); :class:`GameError` if none is."""
        return seat_of(name, self.players, GameError)

    def team_of(self, player: int) -> int:
        return self.teams[player]

    def members(self, team: int) -> tuple[int, ...]:
        """The players of ``team`` in seating order."""
        return self._members[team]

    def teammates(self, player: int) -> tuple[int, ...]:
        """The other players of ``player``'s team, in seating order (``player`` excluded)."""
        return tuple(p for p in self.members(self.teams[player]) if p != player)

    def opponents(self, player: int) -> tuple[int, ...]:
        """The players of the other team, in seating order."""
        return self.members(1 - self.teams[player])

    @property
    def first_to_move(self) -> int | None:
        """The dealer, who asks first; None without a dealer (then whoever acts first moves first)."""
        return self.dealer

    def set_value(self, set_index: int) -> int:
        """Points for winning set ``set_index``: 2 for a high set under ``high-double=on``, else 1."""
        return 2 if self.rules.high_double and self.deck.sets[set_index].high else 1
