"""Positions of a Literature game: the public one, one player's view, and the full-information referee.

* :class:`PublicState` is what everyone at the table knows: whose turn it is,
  hand sizes, claimed sets and scores, and where every card that has moved is.
* :class:`PlayerState` adds one player's own hand (what that player knows).
* :class:`State` knows every hand: it is the referee, and fills in answers and
  claim outcomes.

All three change only through ``push(event)`` and ``pop()``. ``push`` raises
:class:`IllegalEventError` for an event the rules forbid or that contradicts what
the state knows, and then leaves the state exactly as it was.

Turn rules, including the details the usual rules leave open:

* The dealer moves first. Without a dealer, whoever makes the first event does.
* After an ask answered *yes* the asker asks again; after *no* the target moves.
* After a claim, correct or not, the claimer stays to move. Under
  ``after-claim=continue`` (the default) a claimer left without cards hands the
  turn to a teammate who has cards (a :class:`Pass`), and one with cards may not
  pass; under ``after-claim=team-picks`` the claimer may hand the turn to any
  teammate with cards, once, before doing anything else (and must when left
  without cards). If the claiming team has no cards left at all, the turn goes
  to the first opponent after the claimer in seating order who has cards.
* A player with cards may claim on their turn, and under ``claim-anytime=on``
  on anyone's turn (the claimer then moves, as after a claim on their own turn).
* When one team has no cards, asks are impossible (no opponent has cards): the
  player to move claims every remaining set alone, teammates' cards included,
  even once their own hand is empty, and passes to nobody.
* The game is over when every set is claimed; then nobody is to move.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from types import MappingProxyType
from typing import NamedTuple, Protocol

from cardlogic import arguments
from cardlogic.arguments import ArgumentTypeError
from cardlogic.cards import CARD_COUNT, CARDS, Card, format_cards, iter_cards
from cardlogic.literature.decks import CardSet
from cardlogic.literature.events import Ask, Claim, Event, Pass, actor
from cardlogic.literature.rules import Game, GameError


class IllegalEventError(ValueError):
    """An event the rules forbid in the current position, or one contradicting what the state knows."""


class Result(NamedTuple):
    """Final scores of teams 0 and 1 and the winning team (None for a tie)."""

    scores: tuple[int, int]
    winner: int | None


def claim_outcome(game: Game, claimer: int, assignment: Mapping[Card, int], holders: Mapping[Card, int]) -> str:
    """The outcome of a claim placing cards as ``assignment`` when they were at ``holders``.

    ``correct`` when every card is where it was claimed; otherwise, under
    ``wrong-claim=split``, ``void`` when the claiming team held the whole set and
    ``opponents`` when an opponent held a card; under ``wrong-claim=opponents``
    always ``opponents``.
    """
    if all(holders[card] == holder for card, holder in assignment.items()):
        return "correct"
    team = game.team_of(claimer)
    if game.rules.wrong_claim == "split" and all(game.team_of(h) == team for h in holders.values()):
        return "void"
    return "opponents"


def _complete(event: Event) -> Event:
    """``event`` unless an answer, outcome or revealed holder is still missing after checking."""
    if isinstance(event, Ask) and event.yes is None:
        raise IllegalEventError("the ask needs its answer, yes or no")
    if isinstance(event, Claim) and event.outcome is None:
        raise IllegalEventError("the claim needs its outcome: correct, void or opponents")
    if isinstance(event, Claim) and event.revealed is None:
        raise IllegalEventError("the wrong claim needs its revealed holders: who held each card")
    return event


class _Knowledge(Protocol):
    """Where cards certainly are, as far as some observer knows."""

    def holder_of(self, card: Card) -> int | None: ...

    def may_hold(self, player: int, card: Card) -> bool: ...


class PublicState:
    """The public position: everything every player and spectator knows.

    Attributes (read-only; they change only through :meth:`push` and :meth:`pop`):

    * ``game``: the :class:`Game`.
    * ``to_move``: the player whose turn it is; None before the first event of a
      game without a dealer, and once the game is over.
    * ``sizes``: current hand sizes. An ask answered *yes* moves one card from
      target to asker; a claim takes every card of its set out of whoever held it.
    * ``claimed``: set index -> winning team (0 or 1), or None for a void set.
    * ``scores``: points of teams 0 and 1 (see :meth:`Game.set_value`).
    * ``known``: card -> current holder for every card in play whose place is
      public: a card enters when an ask for it is answered *yes* (it is now the
      asker's), and every card of a set leaves when the set is claimed.
    * ``history``: the events pushed, as recorded: a claim always carries its
      revealed holders.

    ``push`` checks everything that public information makes certain: the turn;
    that the asker has cards, may hold another card of the set (not all of them
    are known elsewhere, and the asker's hand is not all known cards), is not
    known to hold the asked card (unless ``bluff=on``) and is not known to hold a
    whole set (under ``must-declare=on``); that the target is an opponent with
    cards and the set is unclaimed; that the answer agrees with known holders;
    that a claim names every card of the set once, with the claimer's team, and
    that its outcome agrees with its revealed holders and the known ones; that a
    pass goes to a teammate with cards right after the giver's claim, as
    ``after-claim`` allows (see :attr:`may_pass`). Whether
    some deal explains the whole history is left to :mod:`cardlogic.literature.belief`.
    An ask must carry its answer and a claim its outcome and revealed holders,
    unless public information determines them (a correct claim reveals its
    assignment; a wrong one must list who held each card unless all are known).

    >>> from cardlogic.cards import Card
    >>> state = PublicState(Game(("Ann", "Bob", "Cat", "Dan"), dealer=3))
    >>> state.push(Ask(3, 0, Card.parse("5S"), yes=True))
    Ask(asker=3, target=0, card=Card('5S'), yes=True)
    >>> state.sizes, dict(state.known), state.to_move
    ((11, 12, 12, 13), {Card('5S'): 3}, 3)
    """

    def __init__(self, game: Game) -> None:
        self.game = game
        self._to_move = game.first_to_move
        self._sizes = game.sizes
        self._claimed: dict[int, int | None] = {}
        self._known: dict[Card, int] = {}
        self._known_counts = (0,) * len(game.players)
        self._history: list[Event] = []
        self._undo: list[tuple] = []

    # -- the position ------------------------------------------------------------------------------------------------

    @property
    def to_move(self) -> int | None:
        return self._to_move

    @property
    def movers(self) -> tuple[int, ...]:
        """The players who may act now: the player to move; before the first event of a game without a
        dealer, every player with cards (whoever acts first moves first); nobody once the game is over."""
        if self.is_over:
            return ()
        if self._to_move is None:
            return tuple(p for p, size in enumerate(self._sizes) if size)
        return (self._to_move,)

    @property
    def sizes(self) -> tuple[int, ...]:
        return self._sizes

    @property
    def claimed(self) -> Mapping[int, int | None]:
        return MappingProxyType(self._claimed)

    @property
    def unclaimed(self) -> list[int]:
        """The indices of the sets not yet claimed, in deck order."""
        return [index for index in range(len(self.game.deck.sets)) if index not in self._claimed]

    @property
    def known(self) -> Mapping[Card, int]:
        return MappingProxyType(self._known)

    @property
    def history(self) -> tuple[Event, ...]:
        return tuple(self._history)

    @property
    def scores(self) -> tuple[int, int]:
        points = [0, 0]
        for index, team in self._claimed.items():
            if team is not None:
                points[team] += self.game.set_value(index)
        return points[0], points[1]

    @property
    def is_over(self) -> bool:
        return len(self._claimed) == len(self.game.deck.sets)

    @property
    def may_pass(self) -> bool:
        """Whether the player to move may pass the turn: only right after their own claim, under
        ``after-claim=team-picks`` or when the claim left them without cards, and while the opponents have cards."""
        return self._pass_refusal() is None

    def _pass_refusal(self) -> str | None:
        """Why the player to move may not pass now, or None when they may."""
        mover = self._to_move
        last = self._history[-1] if self._history else None
        if mover is None or not isinstance(last, Claim) or last.claimer != mover:
            return "may pass the turn only right after their own claim"
        if self.endgame:
            return f"cannot pass: the opponents have no cards, so {self._name(mover)} claims every set left alone"
        if self._sizes[mover] and not self.game.rules.team_picks:
            return (
                "keeps the turn after their claim while they have cards (after-claim=continue; "
                "Rules: after-claim=team-picks lets the team pick who asks next)"
            )
        return None

    @property
    def endgame(self) -> bool:
        """Whether the opponents of the player to move have no cards: only claims are left, all of them theirs."""
        mover = self._to_move
        return mover is not None and not self.is_over and not self.team_cards(1 - self.game.team_of(mover))

    def vain_asks(self, player: int) -> int:
        """How many times ``player`` has asked since a card last changed hands or a set was claimed, every ask
        answered no. Two or more while no ask can succeed is a stalemate: only a guessed claim ends it."""
        count = 0
        for event in reversed(self._history):
            if isinstance(event, Claim) or (isinstance(event, Ask) and event.yes):
                break
            if isinstance(event, Ask) and event.asker == player:
                count += 1
        return count

    def team_cards(self, team: int) -> int:
        """How many cards the players of ``team`` hold together."""
        return sum(self._sizes[p] for p in self.game.members(team))

    def result(self) -> Result:
        """The final scores and winner; ``ValueError`` while the game is still running."""
        if not self.is_over:
            raise ValueError("the game is not over")
        scores = self.scores
        winner = None if scores[0] == scores[1] else int(scores[1] > scores[0])
        return Result(scores, winner)

    # -- what is certain publicly (the _Knowledge protocol) ----------------------------------------------------------

    def holder_of(self, card: Card) -> int | None:
        """The player known to hold ``card`` now, or None."""
        return self._known.get(card)

    def may_hold(self, player: int, card: Card) -> bool:
        """False when ``player`` surely lacks ``card``: it is known elsewhere, or all their cards are known."""
        holder = self._known.get(card)
        if holder is not None:
            return holder == player
        return self._known_counts[player] < self._sizes[player]

    # -- push and pop ------------------------------------------------------------------------------------------------

    def push(self, event: Event) -> Event:
        """Check and apply ``event``; return it as recorded in :attr:`history`."""
        event = self.check(event)
        self._apply(event)
        return event

    def check(self, event: Event) -> Event:
        """``event`` as :meth:`push` would record it, changing nothing; :class:`IllegalEventError` where
        :meth:`push` would refuse it."""
        return _complete(self._check(event, self))

    def pop(self) -> Event:
        """Undo the last event and return it; ``IndexError`` when there is none."""
        event = self._history.pop()
        self._to_move, self._sizes, self._claimed, self._known, self._known_counts = self._undo.pop()
        return event

    def _apply(self, event: Event) -> None:
        self._undo.append((self._to_move, self._sizes, self._claimed, self._known, self._known_counts))
        sizes = list(self._sizes)
        if isinstance(event, Ask):
            if event.yes:
                sizes[event.asker] += 1
                sizes[event.target] -= 1
                self._known = {**self._known, event.card: event.asker}
                self._to_move = event.asker
            else:
                self._to_move = event.target
        elif isinstance(event, Claim):
            assert event.revealed is not None and event.outcome is not None
            for _, holder in event.revealed:
                sizes[holder] -= 1
            cards = self.game.set_masks[event.set_index]
            self._known = {card: holder for card, holder in self._known.items() if not cards >> card & 1}
            team = self.game.team_of(event.claimer)
            winner = {"correct": team, "void": None, "opponents": 1 - team}[event.outcome]
            self._claimed = {**self._claimed, event.set_index: winner}
        else:
            self._to_move = event.receiver
        self._sizes = tuple(sizes)
        counts = [0] * len(sizes)
        for holder in self._known.values():
            counts[holder] += 1
        self._known_counts = tuple(counts)
        if isinstance(event, Claim):
            self._to_move = self._mover_after_claim(event.claimer)
        self._history.append(event)

    def _mover_after_claim(self, claimer: int) -> int | None:
        if self.is_over:
            return None
        team = self.game.team_of(claimer)
        if self.team_cards(team):
            return claimer
        n = len(self.game.players)
        return next(
            p for p in ((claimer + k) % n for k in range(1, n)) if self.game.team_of(p) != team and self._sizes[p]
        )

    # -- checking ----------------------------------------------------------------------------------------------------

    def _check(self, event: Event, knowledge: _Knowledge) -> Event:
        """Raise :class:`IllegalEventError` unless ``event`` may happen now, as far as ``knowledge`` tells.

        Returns the event with whatever ``knowledge`` determines filled in: the
        answer of an ask, the outcome and revealed holders of a claim.
        """
        if isinstance(event, str):
            raise IllegalEventError(
                f"not an event but text: {event!r}; read it first with cardlogic.literature.parse_event(text, game)"
            )
        if not isinstance(event, (Ask, Claim, Pass)):
            raise IllegalEventError(f"not an event: {event!r}")
        who = actor(event)
        self._check_turn(who, claim=isinstance(event, Claim))
        if isinstance(event, Pass):
            self._check_pass(event)
            return event
        if not self._sizes[who] and not (isinstance(event, Claim) and who == self._to_move and self.endgame):
            raise IllegalEventError(f"{self._name(who)} has no cards and must pass the turn to a teammate")
        if isinstance(event, Ask):
            return self._check_ask(event, knowledge)
        return self._check_claim(event, knowledge)

    def check_claimer(self, claimer: int) -> None:
        """Raise :class:`IllegalEventError` unless ``claimer`` may claim now, whatever the set and assignment: the
        game goes on and it is their turn (or ``claim-anytime=on`` allows it). :meth:`push` checks this first."""
        self._check_turn(claimer, claim=True)

    def _check_turn(self, who: int, *, claim: bool) -> None:
        self._check_player(who)
        if self.is_over:
            raise IllegalEventError("the game is over: every set is claimed")
        if self._to_move is not None and who != self._to_move and not (claim and self._may_claim_out_of_turn(who)):
            raise IllegalEventError(f"it is {self._name(self._to_move)}'s turn, not {self._name(who)}'s")

    def _may_claim_out_of_turn(self, claimer: int) -> bool:
        """Whether ``claim-anytime=on`` allows ``claimer`` a claim off their turn: any player with cards may claim
        while both teams have cards (once one has none, the player to move claims alone)."""
        if not self.game.rules.claim_anytime:
            return False
        team = self.game.team_of(claimer)
        return bool(self._sizes[claimer] and self.team_cards(1 - team))

    def _check_pass(self, event: Pass) -> None:
        giver, receiver = event.giver, event.receiver
        self._check_player(receiver)
        refusal = self._pass_refusal()
        if refusal is not None:
            raise IllegalEventError(f"{self._name(giver)} {refusal}")
        if receiver == giver or self.game.team_of(receiver) != self.game.team_of(giver):
            raise IllegalEventError(f"{self._name(giver)} cannot pass to {self._name(receiver)}: not a teammate")
        if not self._sizes[receiver]:
            raise IllegalEventError(f"{self._name(giver)} cannot pass to {self._name(receiver)}: they have no cards")

    def _check_ask(self, event: Ask, knowledge: _Knowledge) -> Ask:
        game, asker, target, card = self.game, event.asker, event.target, event.card
        self._check_player(target)
        card_set = self._set_of(card)
        if self.game.deck.set_index_of(card) in self._claimed:
            raise IllegalEventError(f"{card_set.name} is already claimed")
        if game.team_of(target) == game.team_of(asker):
            whom = "themself" if target == asker else f"their teammate {self._name(target)}"
            raise IllegalEventError(f"{self._name(asker)} cannot ask {whom}")
        if not self.team_cards(game.team_of(target)):
            raise IllegalEventError(f"only claims are possible: {self._name(asker)}'s opponents have no cards")
        if not self._sizes[target]:
            raise IllegalEventError(f"{self._name(asker)} cannot ask {self._name(target)}: they have no cards")
        holder = knowledge.holder_of(card)
        if holder == asker and not game.rules.bluff:
            raise IllegalEventError(f"{self._name(asker)} holds {card} and cannot ask for it (bluff=off)")
        if not any(knowledge.may_hold(asker, other) for other in card_set.cards if other != card):
            raise IllegalEventError(f"{self._name(asker)} holds no other card of {card_set.name}")
        if game.rules.must_declare:
            for index, whole in enumerate(game.deck.sets):
                if index not in self._claimed and all(knowledge.holder_of(c) == asker for c in whole.cards):
                    raise IllegalEventError(
                        f"{self._name(asker)} holds all of {whole.name} and must claim it "
                        "before asking (must-declare=on)"
                    )
        if holder is not None:
            truth: bool | None = holder == target
        elif not knowledge.may_hold(target, card):
            truth = False
        else:
            truth = None
        if truth is None:
            return event
        if event.yes is None:
            return replace(event, yes=truth)
        if event.yes != truth:
            where = (
                f"{card} is with {self._name(holder)}"
                if holder is not None
                else f"{self._name(target)} does not hold {card}"
            )
            raise IllegalEventError(f"the answer {'yes' if event.yes else 'no'} is impossible: {where}")
        return event

    def _check_claim(self, event: Claim, knowledge: _Knowledge) -> Claim:
        game, claimer = self.game, event.claimer
        if not 0 <= event.set_index < len(game.deck.sets):
            raise IllegalEventError(f"no set has index {event.set_index}")
        card_set = game.deck.sets[event.set_index]
        if event.set_index in self._claimed:
            raise IllegalEventError(f"{card_set.name} is already claimed")
        assignment = self._placements(event.assignment, card_set, "claim")
        team = game.team_of(claimer)
        for holder in sorted(set(assignment.values())):
            if game.team_of(holder) != team:
                raise IllegalEventError(
                    f"{self._name(claimer)} cannot place cards with {self._name(holder)}: not on their team"
                )
        if event.outcome == "void" and game.rules.wrong_claim == "opponents":
            raise IllegalEventError("no claim is void under wrong-claim=opponents: a wrong claim goes to the opponents")
        if event.revealed is not None:
            holders = self._placements(event.revealed, card_set, "revealed list")
            self._check_revealed(holders, knowledge)
        elif all(knowledge.holder_of(card) is not None for card in card_set.cards):
            holders = {card: knowledge.holder_of(card) for card in card_set.cards}  # type: ignore[misc]
        else:
            if event.outcome == "void":
                for card in card_set.cards:
                    at = knowledge.holder_of(card)
                    if at is not None and game.team_of(at) != team:
                        raise IllegalEventError(f"the claim cannot be void: {card} is with {self._name(at)}")
            return event
        outcome = claim_outcome(game, claimer, assignment, holders)
        if event.outcome is not None and event.outcome != outcome:
            raise IllegalEventError(
                f"the outcome {event.outcome} contradicts the holders: the claim is {outcome} "
                f"({self._format_placements(holders, card_set)})"
            )
        return replace(event, outcome=outcome, revealed=tuple(holders.items()))

    def _check_revealed(self, holders: dict[Card, int], knowledge: _Knowledge) -> None:
        for card, holder in holders.items():
            certain = knowledge.holder_of(card)
            if certain is not None and certain != holder:
                raise IllegalEventError(f"{card} is with {self._name(certain)}, not {self._name(holder)}")
            if not knowledge.may_hold(holder, card):
                raise IllegalEventError(f"{self._name(holder)} cannot hold {card}")
        for player in sorted(set(holders.values())):
            fresh = sum(1 for card, holder in holders.items() if holder == player and self._known.get(card) != player)
            free = self._sizes[player] - self._known_counts[player]
            if fresh > free:
                raise IllegalEventError(
                    f"{self._name(player)} cannot hold {fresh} more cards of the set: "
                    f"only {free} of their cards are unaccounted for"
                )

    def _placements(self, pairs: Sequence[tuple[Card, int]], card_set: CardSet, what: str) -> dict[Card, int]:
        """``pairs`` as a dict, checking that they place every card of ``card_set`` once with a player."""
        placed: dict[Card, int] = {}
        for card, holder in pairs:
            self._check_player(holder)
            if card not in card_set.cards:
                raise IllegalEventError(f"{card} is not in {card_set.name}")
            if card in placed:
                raise IllegalEventError(f"the {what} names {card} twice")
            placed[card] = holder
        missing = [card for card in card_set.cards if card not in placed]
        if missing:
            raise IllegalEventError(f"the {what} leaves out {format_cards(missing)} of {card_set.name}")
        return placed

    def _format_placements(self, holders: Mapping[Card, int], card_set: CardSet) -> str:
        return ", ".join(f"{card} {self._name(holders[card])}" for card in card_set.cards)

    def _set_of(self, card: int) -> CardSet:
        if card not in self.game.deck:
            raise IllegalEventError(f"{CARDS[card]} is not in play in this deck")
        return self.game.deck.set_of(card)

    def _check_player(self, player: int) -> None:
        if not 0 <= player < len(self.game.players):
            raise IllegalEventError(f"no player has index {player}")

    def _name(self, player: int) -> str:
        return self.game.players[player]


class _HandsState:
    """A public state plus the current hands of some players, with push/pop over both."""

    def __init__(self, game: Game, hands: Mapping[int, int]) -> None:
        self.public = PublicState(game)
        self._hands = dict(hands)
        self._undo: list[dict[int, int]] = []

    @property
    def game(self) -> Game:
        return self.public.game

    @property
    def to_move(self) -> int | None:
        return self.public.to_move

    @property
    def is_over(self) -> bool:
        return self.public.is_over

    @property
    def history(self) -> tuple[Event, ...]:
        return self.public.history

    def result(self) -> Result:
        return self.public.result()

    def holder_of(self, card: Card) -> int | None:
        for player, hand in self._hands.items():
            if hand >> card & 1:
                return player
        return self.public.holder_of(card)

    def may_hold(self, player: int, card: Card) -> bool:
        if player in self._hands:
            return bool(self._hands[player] >> card & 1)
        holder = self.holder_of(card)
        return holder == player if holder is not None else self.public.may_hold(player, card)

    def pop(self) -> Event:
        """Undo the last event and return it; ``IndexError`` when there is none."""
        event = self.public.pop()
        self._hands = self._undo.pop()
        return event

    def legal_events(self) -> list[Event]:
        """The legal events of every player whose hand this state knows and who may act now
        (:attr:`PublicState.movers`); empty once the game is over.

        Lists every legal :class:`Pass`, every legal :class:`Ask` (with ``yes``
        left open) and, as claims, the claim (``outcome`` left open) of every
        unclaimed set whose every card this state knows to be with the mover's
        team, each card at its holder: a claim sure to be correct. Other claims
        are legal too (any claim of an unclaimed set by the player to move, with
        cards or once the opponents have none; under ``claim-anytime=on`` by any
        player with cards) but too many to list.
        """
        return [event for mover in self.public.movers if mover in self._hands for event in self._legal_for(mover)]

    def legal_asks(self, player: int, bluffs: bool = False) -> list[Ask]:
        """The legal asks of ``player`` now (``yes`` left open), set by set in card order, each to every opponent
        with cards in seat order; empty unless their hand is known and they may act.

        Asks for a card the asker holds (legal under ``bluff=on``, always answered
        no) are listed only when ``bluffs`` is set.
        """
        if player not in self._hands or player not in self.public.movers:
            return []
        hand, set_of = self._hands[player], self.game.deck.set_index_of
        asks = [
            event
            for event in self._legal_for(player)
            if isinstance(event, Ask) and (bluffs or not hand >> event.card & 1)
        ]
        return sorted(asks, key=lambda ask: (set_of(ask.card), ask.card))  # card order within a set, then seats

    def _legal_for(self, mover: int) -> Iterable[Event]:
        game, public = self.game, self.public
        if public.may_pass:
            yield from (Pass(mover, mate) for mate in game.teammates(mover) if public.sizes[mate])
        hand = self._hands[mover]
        if not hand and not public.endgame:
            return
        team = game.team_of(mover)
        unclaimed = public.unclaimed
        for index in unclaimed:
            holders = tuple((card, self.holder_of(card)) for card in game.deck.sets[index].cards)
            if all(holder is not None and game.team_of(holder) == team for _, holder in holders):
                yield Claim(mover, index, holders)  # type: ignore[arg-type]
        if not hand:
            return
        targets = [p for p in game.opponents(mover) if public.sizes[p]]
        if game.rules.must_declare and any(game.set_masks[index] & ~hand == 0 for index in unclaimed):
            return
        for index in unclaimed:
            held = hand & game.set_masks[index]
            if not held:
                continue
            for card in game.deck.sets[index].cards:
                if (held >> card & 1 and not game.rules.bluff) or not held & ~(1 << card):
                    continue
                yield from (Ask(mover, target, card) for target in targets)

    def _push(self, event: Event) -> Event:
        event = _complete(self.public._check(event, self))
        self.public._apply(event)
        self._undo.append(self._hands)
        hands = dict(self._hands)
        if isinstance(event, Ask) and event.yes:
            if event.target in hands:
                hands[event.target] &= ~event.card.mask
            if event.asker in hands:
                hands[event.asker] |= event.card.mask
        elif isinstance(event, Claim):
            out = ~self.game.set_masks[event.set_index]
            hands = {player: hand & out for player, hand in hands.items()}
        self._hands = hands
        return event


class PlayerState(_HandsState):
    """What ``player`` knows: the public state plus their own hand (a card mask, as dealt).

    ``push`` checks, beyond the public checks, everything the hand makes certain:
    the player's own asks follow the hidden rules (another card of the set, not
    the asked card unless ``bluff=on``, no whole set under ``must-declare=on``),
    answers about cards in or out of the hand are right, and revealed holders
    agree with the hand. Like :class:`PublicState` it wants complete events,
    except for what the player's knowledge determines.
    """

    def __init__(self, game: Game, player: int, hand: int) -> None:
        player = arguments.integer("player", player)
        if not 0 <= player < len(game.players):
            raise GameError(f"no player has index {player}")
        hand = arguments.integer("hand", hand, 0, (1 << CARD_COUNT) - 1)  # a mask of the 54 cards
        if hand & ~game.deck.mask:
            raise GameError(f"{format_cards(iter_cards(hand & ~game.deck.mask))} not in play in this deck")
        if hand.bit_count() != game.sizes[player]:
            raise GameError(
                f"{game.players[player]} was dealt {game.sizes[player]} cards, not {hand.bit_count()}", "sizes"
            )
        super().__init__(game, {player: hand})
        self.player = player

    @property
    def hand(self) -> int:
        """The player's current hand as a card mask."""
        return self._hands[self.player]

    def push(self, event: Event) -> Event:
        """Check and apply ``event``; return it as recorded."""
        return self._push(event)


class State(_HandsState):
    """The full-information referee: the public state plus every player's hand.

    ``hands`` gives one card mask per player; together they must be the deck,
    each of its dealt size (:class:`GameError` otherwise). :meth:`push` applies
    every rule, fills in an ask's answer and a claim's outcome and revealed
    holders when they are None, and raises :class:`IllegalEventError` when a
    given answer, outcome or revealed holder contradicts the hands. It returns
    the completed event.

    >>> game = Game(("Ann", "Bob", "Cat", "Dan"), dealer=3)
    >>> state = State.shuffled(game, random.Random(1))
    >>> event = state.legal_events()[0]
    >>> state.push(event).yes in (True, False)
    True
    """

    def __init__(self, game: Game, hands: Sequence[int]) -> None:
        if len(hands) != len(game.players):
            raise GameError(f"{len(hands)} hands for {len(game.players)} players")
        seen = 0
        for player, hand in enumerate(hands):
            if hand & seen:
                raise GameError(f"{format_cards(iter_cards(hand & seen))} dealt twice")
            if hand.bit_count() != game.sizes[player]:
                raise GameError(
                    f"{game.players[player]} was dealt {game.sizes[player]} cards, not {hand.bit_count()}", "sizes"
                )
            seen |= hand
        if seen != game.deck.mask:
            raise GameError("the hands are not the deck")
        super().__init__(game, dict(enumerate(hands)))

    @classmethod
    def shuffled(cls, game: Game, rng: random.Random) -> State:
        """The start of ``game`` dealt from the deck shuffled with ``rng``, one card at a time from the player after
        the dealer.

        Without a dealer, consecutive cards of the shuffled deck fill each hand
        to its size in seat order.
        """
        if not isinstance(rng, random.Random):
            raise ArgumentTypeError(f"rng must be a random.Random, not {rng!r}")
        cards = list(game.deck.cards)
        rng.shuffle(cards)
        n = len(game.players)
        hands = [0] * n
        if game.dealer is not None:
            for i, card in enumerate(cards):
                hands[(game.dealer + 1 + i) % n] |= card.mask
        else:
            start = 0
            for player, size in enumerate(game.sizes):
                hands[player] = sum(card.mask for card in cards[start : start + size])
                start += size
        return cls(game, hands)

    @property
    def hands(self) -> tuple[int, ...]:
        """Every player's current hand as a card mask."""
        return tuple(self._hands[p] for p in range(len(self.game.players)))

    def push(self, event: Event) -> Event:
        """Check, complete and apply ``event``; return the completed event."""
        return self._push(event)
