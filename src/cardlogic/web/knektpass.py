"""Knektpass on the page of ``cardlogic serve``: its set-up, the trick on the table, the choices of whoever is to
move, each next deal of the match."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cardlogic.cards import Card, CardError
from cardlogic.cli.knektpass_advice import as_json
from cardlogic.inference import InferenceError
from cardlogic.knektpass import Deal, Exchange, Game, GameError, Record, Rules, parse_event
from cardlogic.knektpass.match import describe_outcome
from cardlogic.knektpass.match_record import MatchEvent, MatchRecord, check_hand, parse_next_deal
from cardlogic.knektpass.record import InvalidEventError, card_in_deck
from cardlogic.knektpass.rules import HAND_SIZE
from cardlogic.table.knektpass import LiveMatch
from cardlogic.web.page import BadRequestError, Page, heat, seat

SWITCHES = {"must-trump": ["on", "off"], "underruff": ["on", "off"], "deck": ["auto", "36", "52"]}
"""The house rules that are switches, each with its values (the default first); the rest are numbers."""


class KnektpassPage(Page[LiveMatch]):
    """A Knektpass match on the page: the seats with their points and tricks, the trick, my hand, the choices."""

    name = "knektpass"

    @staticmethod
    def setup_choices() -> dict[str, Any]:
        rules = Rules()
        numbers = {"points": rules.points, "lone": rules.lone, "penalty": rules.penalty, "rounds": rules.rounds}
        return {"rules": str(rules), "switches": SWITCHES, "numbers": numbers, "hand_size": HAND_SIZE}

    @staticmethod
    def check_setup(body: Mapping[str, Any]) -> dict[str, Any]:
        """Check a set-up as far as it goes (players and house rules, then dealer, the turned card, me, my hand)
        and tell what follows: the deck's cards and whether the set-up is complete."""
        game, dealer, deal, me, hand = _setup(body)
        names = game.players
        return {
            "players": list(names),
            "rules": str(game.rules),
            "deck": [str(card) for card in game.deck],
            "dealer": None if dealer is None else names[dealer],
            "trump": None if deal is None else str(deal.turned),
            "me": None if me is None else names[me],
            "hand_size": HAND_SIZE,
            "complete": hand is not None,
        }

    @staticmethod
    def setup_record(body: Mapping[str, Any]) -> MatchRecord:
        _, dealer, deal, me, hand = _setup(body)
        if deal is None or me is None or hand is None:
            missing = "dealer" if dealer is None else "trump" if deal is None else "me" if me is None else "hand"
            raise BadRequestError("the set-up needs the dealer, the turned card, who I am (me) and my hand", missing)
        return MatchRecord(Record(deal, me, {me: hand}))

    def parse(self, text: str) -> MatchEvent:
        match = self.game
        return parse_next_deal(text, match.first) or parse_event(text, match.deal)

    def card(self, token: object) -> Card:
        try:
            return card_in_deck(str(token), self.game.deal.game)
        except InvalidEventError as error:
            raise BadRequestError(str(error), "card") from None

    def state(self) -> dict[str, Any]:
        match = self.game
        deal, view, status = match.deal, match.view, match.status()
        names, me = deal.game.players, match.observer
        after, outcome = match.match_after(), match.outcome()
        return {
            "players": [
                {
                    "name": name,
                    "points": status.scores[p],
                    "cards": status.sizes[p],
                    "bid": view.bids[p],
                    "tricks": view.tricks[p],
                    "minimum": view.exchanged[p],
                    "dealer": p == deal.dealer,
                    "me": p == me,
                }
                for p, name in enumerate(names)
            ],
            "rules": str(deal.game.rules),
            "deal": match.number,
            "deal_phase": view.phase,
            "round": view.round,
            "turned": str(deal.turned),
            "trumps": "SHDC"[deal.trump_suit],
            "took": view.took,
            "trick": [{"player": names[p], "card": str(card)} for p, card in view.trick],
            "tricks_played": view.tricks_played,
            "stock": view.stock_left,
            "to_move": None if view.to_move is None else names[view.to_move],
            "me": None if me is None else names[me],
            "my_turn": match.observer_decides(),
            "hand": [str(card) for card in match.hand()],
            "heat": heat(match.belief.holders, match.chances),
            "choices": [{"event": match.describe(event)} for event in match.choices()],
            "exchange": self._exchange(),
            "outcome": None if outcome is None else describe_outcome(outcome, names),
            "next_deal": None if after is None or after.is_over else self._next_deal(after.dealer),
        }

    def advice(self) -> dict[str, Any]:
        advice = as_json(self.game.advice(), self.game.deal)  # worked out once per position by the game
        return advice | {"prior": self.game.belief.prior_answered}  # as `cardlogic knektpass advise --json` says

    def _exchange(self) -> dict[str, Any] | None:
        """My own exchange of cards, when it is my turn to exchange: how many at most, the cards I may draw, and
        the cards each exchange the advice weighs puts down (its events name only how many)."""
        match, view = self.game, self.game.view
        if view.phase != "exchange" or not match.observer_decides():
            return None
        try:
            options = match.advice().options
        except (ValueError, InferenceError):  # the advice says why it is missing; the exchange stands
            options = ()
        advised = {
            match.describe(o.event): [str(card) for card in o.event.discards or ()]
            for o in options
            if isinstance(o.event, Exchange) and o.event.count
        }
        most = min(HAND_SIZE, view.stock_left)
        return {"most": most, "draws": [str(card) for card in match.drawable()], "advised": advised}

    def _next_deal(self, dealer: int) -> dict[str, Any]:
        match = self.game
        game = match.deal.game
        deck = [str(card) for card in game.deck]
        return {"number": match.number + 1, "dealer": game.players[dealer], "deck": deck, "hand_size": HAND_SIZE}


def _setup(
    body: Mapping[str, Any],
) -> tuple[Game, int | None, Deal | None, int | None, tuple[Card, ...] | None]:
    """The game of a set-up body as far as it goes: its dealer, its deal once the turned card is given, then its
    observer and hand once given."""
    players = body.get("players")
    if not isinstance(players, list) or not all(isinstance(name, str) for name in players):
        raise BadRequestError("players must be a list of names in seat order", "players")
    rules = body.get("rules") or ""
    if not isinstance(rules, str):
        raise BadRequestError("rules must be house-rule words such as 'must-trump=off'", "rules")
    try:
        game = Game(tuple(players), Rules.parse(rules))
    except GameError as error:
        raise BadRequestError(str(error), error.field) from None
    dealer = None if body.get("dealer") is None else seat(body.get("dealer"), game.player_index, "dealer")
    turned = body.get("trump")
    if dealer is None or turned is None:
        return game, dealer, None, None, None
    try:
        deal = Deal(game, dealer, Card.parse(str(turned)))
    except (CardError, GameError) as error:
        raise BadRequestError(str(error), "trump") from None
    if body.get("me") is None:
        return game, dealer, deal, None, None
    me = seat(body.get("me"), game.player_index, "me")
    cards = body.get("hand")
    if cards is None:
        return game, dealer, deal, me, None
    if not isinstance(cards, list):
        raise BadRequestError("hand must be a list of cards", "hand")
    try:
        hand = tuple(Card.parse(str(token)) for token in cards)
        check_hand(deal, me, hand)
    except ValueError as error:
        raise BadRequestError(str(error), "hand") from None
    return game, dealer, deal, me, hand
