"""The Knektpass match ``cardlogic knektpass live`` follows: deal after deal to 0 points, one player's belief of
each deal, saved after every change.

:class:`LiveMatch` has no input or output of its own beyond the autosave file (see
:class:`~cardlogic.table.core.TableGame`), so the benchmark suite times exactly what the command does.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from cardlogic.cards import Card, card_mask, format_cards
from cardlogic.constraints import InconsistentError
from cardlogic.knektpass import Bid, Deal, Exchange, Match, Outcome, Play, PublicState, TakeTrump
from cardlogic.knektpass.advice import SAMPLES, Advice, AdviceError, advise
from cardlogic.knektpass.belief import DEFAULT_PRIOR, KnektpassBelief
from cardlogic.knektpass.match_record import (
    MatchEvent,
    MatchRecord,
    NextDeal,
    following_deal,
    format_match_event,
    next_deal,
    parse_next_deal,
    read_match,
    write_match,
)
from cardlogic.knektpass.record import HEADERS, InvalidEventError, Record, RecordError
from cardlogic.knektpass.rules import HAND_SIZE
from cardlogic.knektpass.shorthand import Notation, ShortDeal
from cardlogic.knektpass.state import PlayerState
from cardlogic.knektpass.tracking import UnheldCardError
from cardlogic.notation import split_record
from cardlogic.table.core import DROPS, Incomplete, Status, TableGame

PHASE_WORDS = {"trump": "the trump", "bid": "the bids", "exchange": "the exchange", "play": "the play"}


@dataclass
class _DealInPlay:
    """One deal of the match: its set-up, the observer's belief of it, and the index of its first event in the
    match's (after its next-deal line)."""

    deal: Deal
    belief: KnektpassBelief
    first_event: int


class LiveMatch(TableGame[MatchEvent]):
    """A Knektpass match at the table (see :class:`~cardlogic.table.core.TableGame`), as its observer (or a
    spectator) follows it: the events of the deal in play, and each next deal once a deal is over.

    ``prior`` is the prior of each deal's belief (``rules`` or ``players``, see
    :class:`~cardlogic.knektpass.belief.KnektpassBelief`). ``text`` is the record as its user wrote it (default:
    :func:`write_match`); its lines stay in what :meth:`text` writes. Raises
    :class:`~cardlogic.knektpass.RecordError` when the record is a full one (every hand: the table follows one
    player's view or a spectator's) or its events are illegal or leave no consistent deal.
    """

    def __init__(
        self,
        record: MatchRecord,
        *,
        method: str = "auto",
        samples: int = SAMPLES,
        seed: int = 0,
        prior: str = DEFAULT_PRIOR,
        autosave: str | None = None,
        text: str | None = None,
    ) -> None:
        super().__init__(autosave)
        if text is None:
            text = write_match(record)
            record = read_match(text)
        first = record.first
        if first.is_full:
            raise RecordError(
                _hand_of_another(text, first),
                "a full record (every hand): live follows one player's view, e.g. of "
                "`cardlogic knektpass view RECORD --as NAME`, or a spectator's",
            )
        self.first = first
        self.observer = first.observer
        self.notation = Notation(first.deal.game)
        self._method = method
        self._samples = samples
        self._seed = seed
        self._prior = prior
        self._events: list[MatchEvent] = []
        hand = () if self.observer is None else first.hands[self.observer]
        self._deals = [self._start(first.deal, card_mask(hand), 0)]
        self._advice: Advice | None = None
        self._chances: dict[Card, tuple[float, ...]] | None = None
        self._keep_written(text, record.events, record.lines)  # first: a refusal below names the record's lines
        for event, line in zip(record.events, record.lines, strict=True):
            try:
                self._apply(event)
            except ValueError as error:
                raise RecordError(line, str(error)) from None

    # -- the position ----------------------------------------------------------------------------------------------

    @property
    def events(self) -> Sequence[MatchEvent]:
        return self._events

    @property
    def deal(self) -> Deal:
        """The deal in play (or the last one, once the match is over)."""
        return self._deals[-1].deal

    @property
    def belief(self) -> KnektpassBelief:
        """The observer's belief of the deal in play."""
        return self._deals[-1].belief

    @property
    def view(self) -> PlayerState | PublicState:
        return self.belief.view

    @property
    def number(self) -> int:
        """Which deal of the match is in play, from 1."""
        return len(self._deals)

    def match_after(self) -> Match | None:
        """The match scored with the deal in play once it is over (its points, who deals next); None before."""
        view = self.view
        if not view.is_over:
            return None
        match = Match(self.deal.game, self.deal.dealer, self.deal.points)
        match.finish(view.outcome())
        return match

    def outcome(self) -> Outcome | None:
        """How the deal in play ended, None while it runs."""
        return self.view.outcome() if self.view.is_over else None

    def record(self) -> MatchRecord:
        """The set-up and every event so far."""
        return read_match(write_match(MatchRecord(self.first, list(self._events))))

    def hand(self) -> list[Card]:
        """The observer's cards now, sorted as a player holds them (trumps highest first); none for a spectator."""
        view = self.view
        return self.deal.sorted_hand(view.hand) if isinstance(view, PlayerState) else []

    # -- the table game --------------------------------------------------------------------------------------------

    def parse(self, text: str) -> MatchEvent:
        """The event ``text`` types: record notation, a ``Deal N:`` line, or a short form
        (:mod:`cardlogic.knektpass.shorthand`), the player left out being the one to move.

        My own exchange without its cards, my take of the trump without the card put down, and a next deal
        without my hand raise :class:`Incomplete` asking for them.
        """
        try:
            started = parse_next_deal(text, self.first)
        except InvalidEventError:
            started = None
        if started is not None:
            return started
        typed = self.notation.parse(text, self.view.to_move, self.deal)
        if isinstance(typed, ShortDeal):
            return self._next_deal(typed)
        me = self.observer
        if isinstance(typed, TakeTrump) and typed.take and typed.player == me and typed.discard is None:
            turned = self.deal.turned

            def put_down(answer: str) -> TakeTrump:
                return TakeTrump(typed.player, True, self.notation.card(answer.strip()))

            raise Incomplete(
                f"which card did I put down for the turned {turned}? (e.g. {self.hand()[-1]}); {DROPS}", put_down
            )
        if isinstance(typed, Exchange) and typed.player == me and typed.count and typed.discards is None:
            count = typed.count

            def exchanged(answer: str) -> Exchange:
                return self.notation.exchange(typed.player, [str(count), *answer.lower().split()])

            which = "which card" if count == 1 else f"which {count} cards"
            raise Incomplete(f"{which} did I put down, and which did I draw? (CARDS for CARDS); {DROPS}", exchanged)
        return typed

    def describe(self, event: MatchEvent) -> str:
        return format_match_event(event, self.first.deal, self.observer)

    def is_own(self, text: str) -> bool:
        """Whether ``text`` is this match's record: the same first set-up, its events a prefix of the history."""
        try:
            other = read_match(text)
        except RecordError:
            return False
        return other.first == self.first and other.events == self._events[: len(other.events)]

    def status(self) -> Status:
        deal, view = self.deal, self.view
        n = len(deal.game.players)
        played = [0] * n
        for event in view.history:
            if isinstance(event, Play):
                played[event.player] += 1
        match = self.match_after()
        points = deal.points if match is None else match.points
        return Status(
            players=deal.game.players,
            teams=tuple((p,) for p in range(n)),
            scores=points,
            sizes=tuple(0 if view.bids[p] is False else HAND_SIZE - played[p] for p in range(n)),
            movers=() if view.to_move is None else (view.to_move,),
            observer=self.observer,
            over=match is not None and match.is_over,
            stage=self._stage(match),
            winner=None if match is None else match.winner,  # a side is one player
        )

    def observer_decides(self) -> bool:
        return self.observer is not None and self.view.to_move == self.observer

    def advice(self) -> Advice:
        """The options of the observer, who is to move, best first, as ``cardlogic knektpass advise`` gives them on
        the deal's record (worked out once per position); ValueError when it is not their turn."""
        if self.observer is None:
            raise AdviceError("advice needs a player's view: the record names no Me player")
        if self._advice is None:
            self._advice = advise(self.belief, self._samples, self._seed)
        return self._advice

    def chances(self) -> dict[Card, tuple[float, ...]]:
        """P(each of the belief's holders has the card now), by holder index (the players, the discards, the
        stock), for every card still in play and not in my hand, in card order: the heat map.

        The belief's marginals, as ``cardlogic knektpass belief`` gives them on the autosave (worked out once
        per position).
        """
        if self._chances is None:
            marginals = self.belief.marginals()
            view = self.view
            mine = view.hand if isinstance(view, PlayerState) else 0
            self._chances = {
                card: tuple(float(p) for p in row)
                for card, row in zip(marginals.cards, marginals.probabilities)
                if not mine >> card & 1
            }
        return self._chances

    def choices(self) -> list[MatchEvent]:
        """The events the player to move may make now, as far as the observer can tell (none once the deal is
        over: the next deal is the table's to give).

        My own are my legal events, but of an exchange only standing: one of cards needs the cards drawn too
        (:meth:`drawable`). Another player's are each verb of the phase, every count an exchange may have, and
        every card still in play that nothing I know places elsewhere and that they may play with the cards they
        surely hold (:meth:`~cardlogic.knektpass.tracking.KnektpassTracker.explains`).
        """
        view, me = self.view, self.observer
        player = view.to_move
        if player is None:
            return []
        deal = self.deal
        if player == me and isinstance(view, PlayerState):
            if view.phase == "exchange":
                return [Exchange(player, 0)]
            if view.phase == "play":
                return [Play(player, card) for card in deal.sorted_hand(view.playable(view.hand))]
            # in the order another player's come (take, then leave; play, then fold), so a tap lands where it did
            return sorted(view.legal_events(), key=lambda e: not (isinstance(e, TakeTrump | Bid) and _yes(e)))
        if view.phase == "trump":
            return [TakeTrump(player, True), TakeTrump(player, False)]
        if view.phase == "bid":
            return [Bid(player, True), Bid(player, False)]
        if view.phase == "exchange":
            return [Exchange(player, count) for count in range(min(HAND_SIZE, view.stock_left) + 1)]
        tracker = self.belief.tracker
        cards = deal.sorted_hand(card_mask(self._possible_cards(player)))
        return [play for play in (Play(player, card) for card in cards) if tracker.explains(play)]

    def drawable(self) -> list[Card]:
        """The cards I may draw in an exchange now: every card that may be in the stock, in card order."""
        return self._possible_cards(self.belief.stock)

    def _possible_cards(self, holder: int) -> list[Card]:
        """The cards still in play that ``holder`` (of the belief's holders) may hold, by what the deal's
        constraints allow (a play that no whole deal explains is still refused when pushed)."""
        allowed = self.belief.model.allowed
        return [card for card in self.belief.in_play() if allowed[card] >> holder & 1]

    def why(self, card: Card) -> list[str]:
        """Where ``card`` is now, and the fewest plays of this deal that together force where it cannot be (found
        from the constraint model, as Literature's ``why``), by autosave line."""
        deal, view, names = self.deal, self.view, self.deal.game.players
        if not deal.game.deck_mask >> card & 1:
            raise ValueError(f"{card} is not in the {len(deal.game.deck)}-card deck")
        lines, first = self.event_lines(), self._deals[-1].first_event
        history = view.history
        for index, event in enumerate(history):
            if isinstance(event, Play) and event.card == card:
                return [f"{card}: played by {names[event.player]}, line {lines[first + index]}"]
        if card == deal.turned and not view.took:
            return [f"{card}: the turned card, " + ("left: out of play" if view.took is False else "face up")]
        if isinstance(view, PlayerState) and view.hand >> card & 1:
            return [f"{card}: in my hand"]
        if isinstance(view, PlayerState) and view.discarded >> card & 1:
            return [f"{card}: put down by me"]
        belief = self.belief
        holders = belief.holders
        chances = sorted(
            ((belief.probability(card, h), h) for h in range(len(holders)) if h != self.observer), reverse=True
        )
        places = [(holders[h], p) for p, h in chances if p > 0]
        if len(places) == 1:
            out = [f"{card}: with {places[0][0]} for sure"]
        else:
            out = [f"{card}: now " + ", ".join(f"{holder} {p:.2f}" for holder, p in places)]
        if not belief.explain(card):
            out.append("  no play has said anything about it yet")
            return out
        ruled_out = sum(1 << f.holder for f in belief.certain() if f.card == card and not f.has)
        ruled_out &= ~(0 if self.observer is None else 1 << self.observer)
        gone = ", ".join(holders[h] for h in range(len(holders)) if ruled_out >> h & 1)
        chain = belief.forcing_events(card, ruled_out)
        if not chain:
            out.append(f"  not with {gone}: known before the first trick")
            return out
        events = "1 play" if len(chain) == 1 else f"{len(chain)} plays"
        out.append(f"  not with {gone}: forced by {events}, with what I saw before the first trick:")
        out += [f"  line {lines[first + index]}: {self.describe(history[index])}" for index in chain]
        return out

    # -- changes ---------------------------------------------------------------------------------------------------

    def _read_written(self, text: str) -> tuple[list[MatchEvent], list[int]]:
        written = read_match(text)
        return written.events, written.lines

    def _apply(self, event: MatchEvent) -> tuple[MatchEvent, tuple[str, ...]]:
        if isinstance(event, NextDeal):
            deal = next_deal(self.deal, self.view, event, self.observer)
            self._deals.append(self._start(deal, card_mask(event.hand), len(self._events) + 1))  # after this line
            recorded: MatchEvent = event
        else:
            try:
                recorded = self.belief.push(event)
            except UnheldCardError as error:
                if error.shown_by is None:
                    raise
                line = self.line_of(self._deals[-1].first_event + error.shown_by)
                raise InconsistentError(error.on_line(line), error.card) from None
        self._advice = self._chances = None
        self._events.append(recorded)
        return recorded, ()

    def _retract(self) -> MatchEvent:
        self._advice = self._chances = None
        event = self._events.pop()
        if isinstance(event, NextDeal):
            self._deals.pop()
        else:
            self.belief.pop()
        return event

    def _reapply(self, event: MatchEvent) -> None:
        self._apply(event)

    def _start(self, deal: Deal, hand: int, first_event: int) -> _DealInPlay:
        belief = KnektpassBelief(deal, self.observer, hand, method=self._method, seed=self._seed, prior=self._prior)
        return _DealInPlay(deal, belief, first_event)

    def _next_deal(self, short: ShortDeal) -> NextDeal:
        number = self.number + 1
        if short.hand or self.observer is None:
            return NextDeal(number, short.turned, short.hand)
        # refused before my cards are asked for, as the one-line form is when pushed
        dealer = self.deal.game.players[following_deal(self.deal, self.view, number, short.turned).dealer]

        def with_hand(answer: str) -> NextDeal:
            return NextDeal(number, short.turned, tuple(self.notation.card(token) for token in answer.split()))

        raise Incomplete(
            f"deal {number}: {dealer} deals, trump {short.turned}; my {HAND_SIZE} cards? (CARDS); {DROPS}", with_hand
        )

    def _stage(self, match: Match | None) -> str:
        view, number = self.view, self.number
        if match is None:
            phase = PHASE_WORDS[view.phase]
            if view.phase == "exchange":
                phase += f", round {view.round}"
            elif view.phase == "play":
                phase += f", trick {view.tricks_played + 1}"
            return f"deal {number}, {phase}, trumps {'SHDC'[self.deal.trump_suit]}"
        if match.is_over:
            return f"deal {number} is over"
        dealer = self.deal.game.players[match.dealer]
        return f"deal {number} is over: {dealer} deals next (type: deal TRUMP, then my cards)"


def _hand_of_another(text: str, record: Record) -> int:
    """The line of ``text`` with the first hand that is not the observer's: what makes ``record`` a full one."""
    hands = split_record(text, HEADERS, []).hands
    game = record.deal.game
    return next(line for line, name, _ in hands if game.player_index(name) != record.observer)


def describe_option(event: object, players: Sequence[str]) -> str:
    """A choice as the advice names it: ``play AS``, ``exchange 2: 7C 8C``, ``take the trump for 6H``, ``fold``."""
    if isinstance(event, Play):
        return f"play {event.card}"
    if isinstance(event, Bid):
        return "play this deal" if event.plays else "fold"
    if isinstance(event, TakeTrump):
        return "leave the trump" if not event.take else f"take the trump for {event.discard}"
    if isinstance(event, Exchange):
        return "stand" if not event.count else f"exchange {event.count}: {format_cards(event.discards or ())}"
    raise TypeError(f"not a choice: {event!r}")


def _yes(event: TakeTrump | Bid) -> bool:
    """Whether ``event`` takes the turned card or plays the deal (the first of its two choices)."""
    return event.take if isinstance(event, TakeTrump) else event.plays
