"""Positions of one deal of Knektpass: the public one, one player's view, and the full-information referee.

* :class:`PublicState` is what everyone at the table knows: the phase, whose turn
  it is, who plays, how many cards each exchanged, the tricks so far.
* :class:`PlayerState` adds one player's own cards: their hand now and the cards
  they put face down. Its :meth:`~PlayerState.legal_events` are the player's
  choices when it is their turn.
* :class:`State` knows every hand and the order of the stock: it is the referee,
  and fills in the cards a player draws.

All three change only through ``push(event)`` and ``pop()``. ``push`` raises
:class:`IllegalEventError` for an event the rules forbid or that contradicts what
the state knows, and then leaves the state exactly as it was. It returns the
event as the state records it: a :class:`PublicState` keeps only the public part
of an exchange (its count), a :class:`PlayerState` the cards of its own player's.

The course of a deal, with the details the rule book leaves open:

1. ``trump``: the dealer takes the turned card for a card of their hand (face
   down, to the discards), or leaves it; a turned card left is out of play.
2. ``bid``: from forehand round to the dealer, each player plays or folds. If
   nobody plays the deal is void and dealt again; if one plays, that player wins
   :attr:`Rules.lone` points at once.
3. ``exchange``: in rounds (at most :attr:`Rules.rounds`), each player who plays
   and has not yet stood, in order from forehand, discards any number of cards
   face down and draws as many from the stock (at most what the stock holds).
   Exchanging none is standing: that player exchanges no more. The phase ends
   after the last round, when everyone has stood or when the stock is empty.
4. ``play``: the first player who plays, from forehand, leads; five tricks. A
   player must follow the suit led (jacks are trumps) and beat the trick with it
   if they can; void in the suit led, under ``must-trump=on`` they must beat the
   trick with a trump if they can, and trump anyway if they cannot beat it
   (``underruff=on``; under ``underruff=off`` a trick already trumped higher than
   all their trumps leaves them free). The trick's taker leads the next.
5. ``over``: see :meth:`PublicState.outcome`.

>>> from cardlogic.knektpass.rules import Deal, Game
>>> deal = Deal(Game(("Ann", "Bob", "Cat")), dealer=2, turned=Card.parse("9H"))
>>> state = State.shuffled(deal, random.Random(3))
>>> state.phase, state.to_move
('trump', 2)
>>> while not state.is_over:
...     _ = state.push(state.legal_events()[-1])
>>> state.outcome().kind in ("redeal", "lone", "tricks")
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import combinations
from typing import NamedTuple

from cardlogic.arguments import ArgumentTypeError, integer
from cardlogic.cards import CARD_COUNT, CARDS, Card, card_mask, format_cards, iter_cards
from cardlogic.knektpass.events import Bid, Event, Exchange, Play, TakeTrump
from cardlogic.knektpass.rules import HAND_SIZE, Deal, GameError

PHASES = ("trump", "bid", "exchange", "play", "over")


class IllegalEventError(ValueError):
    """An event the rules forbid in the current position, or one contradicting what the state knows."""


class Outcome(NamedTuple):
    """How a deal ended.

    ``kind`` is ``redeal`` (everyone folded: nothing changes, the same dealer
    deals again), ``lone`` (one player played and takes :attr:`Rules.lone` points
    off) or ``tricks`` (the tricks were played). ``minimums`` is each player's
    trick minimum, the cards they exchanged; ``changes`` is each player's change
    of points (a taker of ``t`` tricks at or above the minimum loses ``t``; below
    it, gains :attr:`Rules.penalty` per trick short); ``points`` the points after.
    """

    kind: str
    playing: tuple[int, ...]
    tricks: tuple[int, ...]
    minimums: tuple[int, ...]
    changes: tuple[int, ...]
    points: tuple[int, ...]


def points_change(tricks: int, minimum: int, penalty: int) -> int:
    """The change of points of a player who took ``tricks`` with trick minimum ``minimum``.

    >>> points_change(3, 2, 5), points_change(1, 2, 5), points_change(0, 2, 5)
    (-3, 5, 10)
    """
    return -tricks if tricks >= minimum else penalty * (minimum - tricks)


@dataclass(frozen=True)
class _Position:
    phase: str
    to_move: int | None
    took: bool | None
    bids: tuple[bool | None, ...]
    exchanged: tuple[int, ...]
    stood: tuple[bool, ...]
    round: int
    stock: int
    discards: int
    trick: tuple[tuple[int, Card], ...]
    tricks: tuple[int, ...]
    played: int
    hands: tuple[int | None, ...]
    discarded: tuple[int | None, ...]
    stock_cards: tuple[Card, ...] | None


class PublicState:
    """The public position of a deal: everything every player and spectator knows.

    Read-only attributes (they change only through :meth:`push` and :meth:`pop`):
    ``deal``; ``phase`` (one of :data:`PHASES`); ``to_move`` (None once over);
    ``took`` (whether the dealer took the turned card; None before they decide);
    ``bids`` (per player: True plays, False folds, None not yet); ``playing``
    (who plays, in seat order); ``exchanged`` (cards each exchanged so far, their
    trick minimum); ``round`` (of exchange, from 1); ``stock_left``;
    ``discard_count`` (cards face down in the discards); ``trick`` (the current
    trick's ``(player, card)`` pairs in the order played); ``tricks`` (tricks
    taken per player); ``played`` (the mask of every card played); ``history``.

    ``push`` checks everything public information makes certain: the phase and
    the turn, exchange counts (a stock cannot give more than it holds), that a
    card played is in the deck and not played before, and that nobody but the
    dealer holds a turned card the dealer took (and nobody holds one left). That
    a player follows suit is for those who see the hand (:class:`PlayerState`,
    :class:`State`) and for the tracker (:mod:`cardlogic.knektpass.tracking`).

    >>> from cardlogic.knektpass.rules import Game
    >>> deal = Deal(Game(("Ann", "Bob", "Cat")), dealer=2, turned=Card.parse("9H"))
    >>> state = PublicState(deal)
    >>> for event in (TakeTrump(2, True), Bid(0, True), Bid(1, False), Bid(2, True), Exchange(0, 2)):
    ...     _ = state.push(event)
    >>> state.phase, state.to_move, state.exchanged, state.stock_left, state.discard_count
    ('exchange', 2, (2, 0, 0), 18, 3)
    """

    _seers: frozenset[int] = frozenset()

    def __init__(self, deal: Deal) -> None:
        self.deal = deal
        n = len(deal.game.players)
        self._pos = _Position(
            "trump",
            deal.dealer,
            None,
            (None,) * n,
            (0,) * n,
            (False,) * n,
            1,
            deal.stock_size,
            0,
            (),
            (0,) * n,
            0,
            (None,) * n,
            (None,) * n,
            None,
        )
        self._history: list[Event] = []
        self._undo: list[_Position] = []

    # -- the position ------------------------------------------------------------------------------------------------

    @property
    def phase(self) -> str:
        return self._pos.phase

    @property
    def to_move(self) -> int | None:
        return self._pos.to_move

    @property
    def is_over(self) -> bool:
        return self._pos.phase == "over"

    @property
    def took(self) -> bool | None:
        return self._pos.took

    @property
    def bids(self) -> tuple[bool | None, ...]:
        return self._pos.bids

    @property
    def playing(self) -> tuple[int, ...]:
        """The players who play (so far, during the bidding), in seat order."""
        return tuple(p for p, bid in enumerate(self._pos.bids) if bid)

    @property
    def exchanged(self) -> tuple[int, ...]:
        return self._pos.exchanged

    @property
    def round(self) -> int:
        return self._pos.round

    @property
    def stock_left(self) -> int:
        return self._pos.stock

    @property
    def discard_count(self) -> int:
        return self._pos.discards

    @property
    def trick(self) -> tuple[tuple[int, Card], ...]:
        return self._pos.trick

    @property
    def tricks(self) -> tuple[int, ...]:
        return self._pos.tricks

    @property
    def played(self) -> int:
        return self._pos.played

    @property
    def history(self) -> tuple[Event, ...]:
        return tuple(self._history)

    @property
    def tricks_played(self) -> int:
        return sum(self._pos.tricks)

    def best(self) -> tuple[int, Card] | None:
        """The ``(player, card)`` winning the current trick so far, None before its lead."""
        trick = self._pos.trick
        if not trick:
            return None
        return trick[self.deal.winner([card for _, card in trick])]

    def playable(self, hand: int) -> int:
        """The cards of ``hand`` (a mask) that the rules let its holder play to the current trick now."""
        trick = self._pos.trick
        if not trick:
            return hand
        deal = self.deal
        best = self.best()[1]  # type: ignore[index]
        follow = hand & deal.suit_mask(deal.suit_of(trick[0][1]))
        if follow:
            beat = card_mask(c for c in iter_cards(follow) if deal.beats(c, best))
            return beat or follow
        rules = deal.game.rules
        if rules.must_trump:
            trumps = hand & deal.suit_mask(deal.trump_suit)
            beat = card_mask(c for c in iter_cards(trumps) if deal.beats(c, best))
            return beat or (rules.underruff and trumps) or hand
        return hand

    def outcome(self) -> Outcome:
        """How the deal ended; ``ValueError`` while it runs."""
        if not self.is_over:
            raise ValueError("the deal is not over")
        deal, pos = self.deal, self._pos
        n = len(deal.game.players)
        playing = self.playing
        changes = [0] * n
        if not playing:
            kind = "redeal"
        elif len(playing) == 1:
            kind = "lone"
            changes[playing[0]] = -deal.game.rules.lone
        else:
            kind = "tricks"
            for p in playing:
                changes[p] = points_change(pos.tricks[p], pos.exchanged[p], deal.game.rules.penalty)
        points = tuple(before + change for before, change in zip(deal.points, changes))
        return Outcome(kind, playing, pos.tricks, pos.exchanged, tuple(changes), points)

    # -- push and pop ------------------------------------------------------------------------------------------------

    def push(self, event: Event) -> Event:
        """Check and apply ``event``; return it as recorded in :attr:`history`."""
        event, pos = self._next(event)
        self._undo.append(self._pos)
        self._pos = pos
        self._history.append(event)
        return event

    def pop(self) -> Event:
        """Undo the last event and return it; ``IndexError`` when there is none."""
        event = self._history.pop()
        self._pos = self._undo.pop()
        return event

    def _next(self, event: Event) -> tuple[Event, _Position]:
        """The event as recorded and the position after it, or :class:`IllegalEventError`."""
        if isinstance(event, str):
            raise IllegalEventError(
                f"not an event but text: {event!r}; read it first with cardlogic.knektpass.parse_event(text, deal)"
            )
        if not isinstance(event, (TakeTrump, Bid, Exchange, Play)):
            raise IllegalEventError(f"not an event: {event!r}")
        pos = self._pos
        who = event.player
        if not 0 <= who < len(self.deal.game.players):
            raise IllegalEventError(f"no player has index {who}")
        if pos.phase == "over":
            raise IllegalEventError("the deal is over")
        wanted = {"trump": TakeTrump, "bid": Bid, "exchange": Exchange, "play": Play}[pos.phase]
        if not isinstance(event, wanted):
            raise IllegalEventError(f"{self._expected()}, not {_what(event)}")
        if who != pos.to_move:
            raise IllegalEventError(f"it is {self._name(pos.to_move)}'s turn, not {self._name(who)}'s")
        if isinstance(event, TakeTrump):
            return self._take(event)
        if isinstance(event, Bid):
            return self._bid(event)
        if isinstance(event, Exchange):
            return self._exchange(event)
        return self._play(event)

    def _expected(self) -> str:
        return {
            "trump": "the dealer takes or leaves the turned card",
            "bid": "the players play or fold",
            "exchange": "the players exchange",
            "play": "the players play cards",
        }[self._pos.phase]

    def _take(self, event: TakeTrump) -> tuple[Event, _Position]:
        pos, who, turned = self._pos, event.player, self.deal.turned
        hands, discarded = list(pos.hands), list(pos.discarded)
        if event.take and event.discard is not None:
            if event.discard == turned:
                raise IllegalEventError(f"{turned} is the turned card: the dealer discards one of their own cards")
            self._check_deck(event.discard)
        if event.take and self._sees(who):
            if event.discard is None:
                raise IllegalEventError(f"{self._name(who)} takes the turned card: name the card they put down")
            hand = hands[who]
            assert hand is not None
            if not hand >> event.discard & 1:
                raise IllegalEventError(f"{self._name(who)} does not hold {event.discard}")
            hands[who] = hand & ~event.discard.mask | turned.mask
            discarded[who] = (discarded[who] or 0) | event.discard.mask
        recorded = event if self._sees(who) else event.seen_by(None)
        return recorded, replace(
            pos,
            phase="bid",
            to_move=self.deal.forehand,
            took=event.take,
            discards=pos.discards + event.take,
            hands=tuple(hands),
            discarded=tuple(discarded),
        )

    def _bid(self, event: Bid) -> tuple[Event, _Position]:
        pos, deal = self._pos, self.deal
        bids = list(pos.bids)
        bids[event.player] = event.plays
        pos = replace(pos, bids=tuple(bids))
        if event.player != deal.dealer:
            return event, replace(pos, to_move=deal.order[deal.order.index(event.player) + 1])
        playing = [p for p in deal.order if bids[p]]
        if len(playing) < 2:
            return event, replace(pos, phase="over", to_move=None)
        return event, self._after_exchanges(replace(pos, phase="exchange", to_move=None, round=1), None)

    def _after_exchanges(self, pos: _Position, last: int | None) -> _Position:
        """The position once ``last`` exchanged (None: at the start of the exchange): who exchanges next, or play."""
        deal = self.deal
        order = [p for p in deal.order if pos.bids[p]]
        if pos.stock and pos.round <= deal.game.rules.rounds:
            start = 0 if last is None else order.index(last) + 1
            for p in order[start:]:
                if not pos.stood[p]:
                    return replace(pos, to_move=p)
            if pos.round < deal.game.rules.rounds:
                for p in order:
                    if not pos.stood[p]:
                        return replace(pos, to_move=p, round=pos.round + 1)
        return replace(pos, phase="play", to_move=order[0])

    def _exchange(self, event: Exchange) -> tuple[Event, _Position]:
        pos, who, deal = self._pos, event.player, self.deal
        most = min(HAND_SIZE, pos.stock)
        if event.count > most:
            raise IllegalEventError(f"{self._name(who)} may exchange at most {most} cards, not {event.count}")
        hands, discarded = list(pos.hands), list(pos.discarded)
        stock_cards = pos.stock_cards
        for cards in (event.discards, event.draws):
            for card in cards or ():
                self._check_deck(card)
        if event.draws is not None:
            if deal.turned in event.draws:
                raise IllegalEventError(f"{deal.turned} is the turned card, not in the stock")
            if event.discards is not None and set(event.discards) & set(event.draws):
                raise IllegalEventError("a card cannot be both discarded and drawn")
        if event.discards is not None and deal.turned in event.discards and not (who == deal.dealer and pos.took):
            raise IllegalEventError(f"only the dealer, who took it, can hold {deal.turned}")
        if self._sees(who):
            if event.discards is None:
                raise IllegalEventError(f"name the {event.count} cards {self._name(who)} discards")
            hand = hands[who]
            assert hand is not None
            discards = card_mask(event.discards)
            if discards & ~hand:
                raise IllegalEventError(f"{self._name(who)} does not hold {format_cards(iter_cards(discards & ~hand))}")
            if stock_cards is not None:  # the referee deals the draws off the stock
                if event.draws is None:
                    event = replace(event, draws=stock_cards[: event.count])
                missing = [c for c in event.draws if c not in stock_cards]  # type: ignore[union-attr]
                if missing:
                    raise IllegalEventError(f"{format_cards(missing)} not in the stock")
                stock_cards = tuple(c for c in stock_cards if c not in event.draws)  # type: ignore[operator]
            elif event.draws is None:
                raise IllegalEventError(f"name the {event.count} cards {self._name(who)} draws")
            draws = card_mask(event.draws)  # type: ignore[arg-type]
            seen = self._seen_by(who)
            if draws & seen:
                raise IllegalEventError(
                    f"{self._name(who)} cannot draw {format_cards(iter_cards(draws & seen))}: "
                    "they have seen it elsewhere"
                )
            hands[who] = hand & ~discards | draws
            discarded[who] = (discarded[who] or 0) | discards
        else:
            event = event.seen_by(None)
        stood = list(pos.stood)
        if event.count == 0:
            stood[who] = True
        exchanged = list(pos.exchanged)
        exchanged[who] += event.count
        pos = replace(
            pos,
            exchanged=tuple(exchanged),
            stood=tuple(stood),
            stock=pos.stock - event.count,
            discards=pos.discards + event.count,
            hands=tuple(hands),
            discarded=tuple(discarded),
            stock_cards=stock_cards,
        )
        return event, self._after_exchanges(pos, who)

    def _play(self, event: Play) -> tuple[Event, _Position]:
        pos, who, card, deal = self._pos, event.player, event.card, self.deal
        self._check_deck(card)
        if pos.played >> card & 1:
            raise IllegalEventError(f"{card} has been played already")
        if card == deal.turned and not (pos.took and who == deal.dealer):
            raise IllegalEventError(
                f"{card} is the turned card: " + ("the dealer took it" if pos.took else "it is out of play")
            )
        hands = list(pos.hands)
        hand = hands[who]
        if hand is not None:
            if not hand >> card & 1:
                raise IllegalEventError(f"{self._name(who)} does not hold {card}")
            allowed = self.playable(hand)
            if not allowed >> card & 1:
                raise IllegalEventError(f"{self._name(who)} cannot play {card}: {self._obligation(hand)}")
            hands[who] = hand & ~card.mask
        else:
            holder = self._holder_of(card)
            if holder is not None and holder != who:
                raise IllegalEventError(f"{card} is not {self._name(who)}'s to play")
        trick = pos.trick + ((who, card),)
        tricks = pos.tricks
        playing = [p for p in range(len(deal.game.players)) if pos.bids[p]]
        if len(trick) == len(playing):
            taker = trick[deal.winner([c for _, c in trick])][0]
            tricks = tuple(t + (p == taker) for p, t in enumerate(tricks))
            done = sum(tricks) == HAND_SIZE
            pos = replace(
                pos, trick=(), tricks=tricks, phase="over" if done else "play", to_move=None if done else taker
            )
        else:
            following = playing[(playing.index(who) + 1) % len(playing)]
            pos = replace(pos, trick=trick, to_move=following)
        return event, replace(pos, played=pos.played | card.mask, hands=tuple(hands))

    def _obligation(self, hand: int) -> str:
        deal, trick = self.deal, self._pos.trick
        led = deal.suit_of(trick[0][1])
        best = self.best()[1]  # type: ignore[index]
        suit = deal.suit_name(led)
        if hand & deal.suit_mask(led):
            if any(deal.beats(c, best) for c in iter_cards(hand & deal.suit_mask(led))):
                return f"they must follow {suit} and beat {best}"
            return f"they must follow {suit}"
        trumps = hand & deal.suit_mask(deal.trump_suit)
        if any(deal.beats(c, best) for c in iter_cards(trumps)):
            return f"void in {suit}, they must beat {best} with a trump (must-trump=on)"
        return f"void in {suit}, they must play a trump, though none beats {best} (underruff=on)"

    # -- what this state knows about hidden cards ---------------------------------------------------------------------

    def _sees(self, player: int) -> bool:
        return player in self._seers

    def _seen_by(self, player: int) -> int:
        """Every card ``player`` knows is not in the stock: their hand, their discards and the turned card."""
        pos = self._pos
        return (pos.hands[player] or 0) | (pos.discarded[player] or 0) | self.deal.turned.mask | pos.played

    def _holder_of(self, card: Card) -> int | None:
        """The player known to hold ``card`` unplayed, or -1 when known to be with none of them; else None."""
        pos = self._pos
        for player, hand in enumerate(pos.hands):
            if hand is not None and hand >> card & 1:
                return player
        for player, hand in enumerate(pos.hands):
            if hand is not None and (pos.discarded[player] or 0) >> card & 1:
                return -1
        return None

    def _check_deck(self, card: Card) -> None:
        if not self.deal.game.deck_mask >> card & 1:
            raise IllegalEventError(f"{card} is not in this deck")

    def _name(self, player: int | None) -> str:
        return "nobody" if player is None else self.deal.game.players[player]

    # -- choices ---------------------------------------------------------------------------------------------------

    def _legal_for(self, player: int) -> list[Event]:
        pos = self._pos
        if pos.to_move != player or pos.phase == "over":
            return []
        hand = pos.hands[player]
        assert hand is not None
        if pos.phase == "trump":
            return [TakeTrump(player, False), *(TakeTrump(player, True, card) for card in iter_cards(hand))]
        if pos.phase == "bid":
            return [Bid(player, False), Bid(player, True)]
        if pos.phase == "exchange":
            cards = list(iter_cards(hand))
            return [
                Exchange(player, k, discards)
                for k in range(min(HAND_SIZE, pos.stock) + 1)
                for discards in combinations(cards, k)
            ]
        return [Play(player, card) for card in iter_cards(self.playable(hand))]


def _what(event: Event) -> str:
    return {TakeTrump: "a take of the trump", Bid: "a bid", Exchange: "an exchange", Play: "a card"}[type(event)]


class PlayerState(PublicState):
    """What ``player`` knows: the public state plus their own hand (a card mask, as dealt) and discards.

    ``push`` checks, beyond the public checks, what the hand makes certain: the
    player's own events (they hold what they discard or play, follow the rules
    of play, and name the cards they put down and draw), and that others play no
    card the player holds or has put down. Other players' hidden cards are left
    out of what it records.
    """

    def __init__(self, deal: Deal, player: int, hand: int) -> None:
        super().__init__(deal)
        player = integer("player", player)
        if not 0 <= player < len(deal.game.players):
            raise GameError(f"no player has index {player}")
        hand = _check_hand(deal, player, hand)
        self.player = player
        self._seers = frozenset((player,))
        hands: list[int | None] = [None] * len(deal.game.players)
        hands[player] = hand
        discarded: list[int | None] = [None] * len(deal.game.players)
        discarded[player] = 0
        self._pos = replace(self._pos, hands=tuple(hands), discarded=tuple(discarded))

    @property
    def hand(self) -> int:
        """The player's hand now, as a card mask."""
        return self._pos.hands[self.player]  # type: ignore[return-value]

    @property
    def discarded(self) -> int:
        """The cards the player has put face down, as a card mask."""
        return self._pos.discarded[self.player]  # type: ignore[return-value]

    def legal_events(self) -> list[Event]:
        """The player's choices when it is their turn (else none): taking the turned card (for each card to put
        down) or leaving it; playing or folding; every exchange (which cards to discard, draws left to the
        referee); every card they may play."""
        return self._legal_for(self.player)


class State(PublicState):
    """The full-information referee: every hand as dealt and the stock in order, top first.

    Together with the turned card the hands and the stock must be the deck, five
    cards a hand (:class:`GameError` otherwise). :meth:`push` applies every rule
    and deals a player's draws off the top of the stock when the exchange does not
    name them (if it does, they must be in the stock); a take of the trump and an
    exchange must name the cards put down.

    >>> from cardlogic.knektpass.rules import Game
    >>> deal = Deal(Game(("Ann", "Bob")), dealer=1, turned=Card.parse("AS"))
    >>> state = State.shuffled(deal, random.Random(1))
    >>> [str(e) for e in state.legal_events()][:1]
    ['TakeTrump(player=1, take=False, discard=None)']
    """

    def __init__(self, deal: Deal, hands: Sequence[int], stock: Sequence[int]) -> None:
        super().__init__(deal)
        n = len(deal.game.players)
        if len(hands) != n:
            raise GameError(f"{len(hands)} hands for {n} players")
        seen = deal.turned.mask
        hands = [_check_hand(deal, player, hand) for player, hand in enumerate(hands)]
        for hand in hands:
            if hand & seen:
                raise GameError(f"{format_cards(iter_cards(hand & seen))} dealt twice")
            seen |= hand
        stock_cards = tuple(CARDS[c] for c in stock)
        stock_mask = card_mask(stock_cards)
        if len(stock_cards) != deal.stock_size or stock_mask & seen or stock_mask | seen != deal.game.deck_mask:
            raise GameError("the hands, the turned card and the stock are not the deck")
        self._seers = frozenset(range(n))
        self._pos = replace(self._pos, hands=tuple(hands), discarded=(0,) * n, stock_cards=stock_cards)

    @classmethod
    def shuffled(cls, deal: Deal, rng: random.Random) -> State:
        """The state of ``deal`` dealt from the deck shuffled with ``rng``: five cards each (two, then three, from
        forehand round; the packets do not change which cards a player gets from a shuffled deck), the turned card
        set aside."""
        if not isinstance(rng, random.Random):
            raise ArgumentTypeError(f"rng must be a random.Random, not {rng!r}")
        cards = [c for c in deal.game.deck if c != deal.turned]
        rng.shuffle(cards)
        n = len(deal.game.players)
        hands = [card_mask(cards[HAND_SIZE * ((seat - deal.forehand) % n) :][:HAND_SIZE]) for seat in range(n)]
        return cls(deal, hands, cards[HAND_SIZE * n :])

    @property
    def hands(self) -> tuple[int, ...]:
        """Every player's hand now, as card masks."""
        return self._pos.hands  # type: ignore[return-value]

    @property
    def discarded(self) -> tuple[int, ...]:
        """The cards each player has put face down, as card masks."""
        return self._pos.discarded  # type: ignore[return-value]

    @property
    def stock(self) -> tuple[Card, ...]:
        """The stock now, top first."""
        return self._pos.stock_cards  # type: ignore[return-value]

    def legal_events(self) -> list[Event]:
        """The choices of the player to move (see :meth:`PlayerState.legal_events`); none once over."""
        return [] if self.to_move is None else self._legal_for(self.to_move)


def _check_hand(deal: Deal, player: int, hand: int) -> int:
    """``hand`` as an ``int``, if it is five cards of the deck other than the turned card; else a typed error."""
    hand = integer("hand", hand, 0, (1 << CARD_COUNT) - 1)  # a mask of the 54 cards
    if hand & ~deal.game.deck_mask:
        raise GameError(f"{format_cards(iter_cards(hand & ~deal.game.deck_mask))} not in this deck")
    if hand >> deal.turned & 1:
        raise GameError(f"{deal.turned} is the turned card, not in a hand")
    if hand.bit_count() != HAND_SIZE:
        raise GameError(f"{deal.game.players[player]} was dealt {HAND_SIZE} cards, not {hand.bit_count()}")
    return hand
