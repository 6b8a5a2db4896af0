"""Literature on the page of ``cardlogic serve``: its set-up, asks, claims and passes, the heat map and the claim
sheet."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cardlogic.cards import Card
from cardlogic.cli.advise import as_json
from cardlogic.literature import Event, Game, GameError, Record, Rules, parse_event
from cardlogic.literature.decks import DECK_NAMES, Deck
from cardlogic.literature.record import InvalidEventError, card_in_deck
from cardlogic.table.literature import LiveGame, check_hand
from cardlogic.web.page import BadRequestError, Page, heat, seat


class LiteraturePage(Page[LiveGame]):
    """A Literature game on the page: the seats by team, the asks, claims and passes that may be entered now."""

    name = "literature"

    @staticmethod
    def setup_choices() -> dict[str, Any]:
        return {"decks": list(DECK_NAMES), "rules": str(Rules()), "wrong_claim": ["split", "opponents"]}

    @staticmethod
    def check_setup(body: Mapping[str, Any]) -> dict[str, Any]:
        """Check a set-up as far as it goes (the deck and its sets, players and teams, then dealer, rules, me, hand)
        and tell what follows: the hand sizes (once the dealer is given), the deck's sets and how many cards my hand
        needs."""
        game, dealt, me, hand = _setup(body)
        names = game.players
        return {
            "players": list(names),
            "teams": list(game.teams),
            "sizes": dict(zip(names, game.sizes)) if dealt else None,
            "sets": _sets(game),
            "deck_sets": Deck.named(game.deck.name).set_names(),
            "rules": str(game.rules),
            "me": None if me is None else names[me],
            "hand_size": None if me is None else game.sizes[me],
            "complete": hand is not None,
        }

    @staticmethod
    def setup_record(body: Mapping[str, Any]) -> Record:
        game, dealt, me, hand = _setup(body)
        if not dealt or me is None or hand is None:
            missing = "dealer" if not dealt else "me" if me is None else "hand"
            raise BadRequestError("the set-up needs the dealer, who I am (me) and my hand", missing)
        return Record(game, me, {me: hand})

    def parse(self, text: str) -> Event:
        return parse_event(text, self.game.game)

    def card(self, token: object) -> Card:
        try:
            return card_in_deck(str(token), self.game.game)
        except InvalidEventError as error:
            raise BadRequestError(str(error), "card") from None

    def state(self) -> dict[str, Any]:
        live, game = self.game, self.game.game
        public, names = live.public, game.players
        me = live.belief.observer
        movers = [p for p in public.movers if public.sizes[p]] if not public.is_over else []
        return {
            "players": [
                {"name": name, "team": game.team_of(p), "cards": public.sizes[p], "me": p == me}
                for p, name in enumerate(names)
            ],
            "deck": game.deck.name,
            "rules": str(game.rules),
            "sets": _sets(game),
            "claimed": {game.deck.sets[i].name: team for i, team in public.claimed.items()},
            "scores": list(public.scores),
            "to_move": None if public.to_move is None else names[public.to_move],
            "movers": [names[p] for p in public.movers],
            "me": None if me is None else names[me],
            "my_team_to_move": live.observer_decides(),
            "hand": [str(card) for card in live.belief.hand],
            "asks": {
                names[p]: [
                    {
                        "target": names[c.ask.target],
                        "card": str(c.ask.card),
                        "answers": ["yes" if answer else "no" for answer in c.answers],
                    }
                    for c in live.ask_choices(p)
                ]
                for p in movers
            },
            "claimers": [names[p] for p in movers],
            "passes": [
                {"giver": names[p], "receiver": names[mate]}
                for p in public.movers
                if public.may_pass
                for mate in game.teammates(p)
                if public.sizes[mate]
            ],
            "heat": heat(names, live.chances),
        }

    def advice(self) -> dict[str, Any]:
        return as_json(self.game.full_advice(), self.game.game)  # worked out once per position by the game

    def claim_sheet(self, claimer: object, set_name: str) -> dict[str, Any]:
        live, game = self.game, self.game.game
        player = seat(claimer, game.player_index, "claimer")
        if player not in live.public.movers or not live.public.sizes[player]:
            raise BadRequestError(f"{game.players[player]} may not claim now", "claimer")
        try:
            set_index = game.deck.set_index(set_name)
            suggestion = live.claim_suggestion(player, set_index)
        except ValueError as error:
            raise BadRequestError(str(error), "set") from None
        names = game.players
        return {
            "claimer": names[player],
            "set": game.deck.sets[set_index].name,
            "assignment": {str(card): names[holder] for card, holder in suggestion.assignment},
            "p_correct": suggestion.p_correct,
            "team": [names[p] for p in game.members(game.team_of(player))],
            "likely_holders": {
                str(card): names[max(range(len(names)), key=live.chances()[card].__getitem__)]
                for card, _ in suggestion.assignment
            },
        }


def _sets(game: Game) -> list[dict[str, Any]]:
    return [
        {"name": s.name, "short": s.short, "cards": [str(card) for card in s.cards], "value": game.set_value(i)}
        for i, s in enumerate(game.deck.sets)
    ]


def _setup(body: Mapping[str, Any]) -> tuple[Game, bool, int | None, tuple[Card, ...] | None]:
    """The game of a set-up body as far as it goes: whether its dealer is given (before that, the game deals
    from the first seat), then its observer and hand once given."""
    players = body.get("players")
    if not isinstance(players, list) or not all(isinstance(name, str) for name in players):
        raise BadRequestError("players must be a list of names in seat order", "players")
    deck_name, sets = body.get("deck") or "no-8s", body.get("sets")
    if not isinstance(deck_name, str):
        raise BadRequestError("deck must be a deck's name", "deck")
    if sets is not None and not isinstance(sets, list):
        raise BadRequestError("sets must be a list of set names", "sets")
    if sets == []:
        raise BadRequestError("leave at least one set in play", "sets")
    teams = body.get("teams") or ()
    if not isinstance(teams, list | tuple) or not all(team in (0, 1) for team in teams):
        raise BadRequestError("teams must give team 0 or 1 for every player", "teams")
    rules = body.get("rules") or ""
    if not isinstance(rules, str):
        raise BadRequestError("rules must be house-rule words such as 'bluff=on'", "rules")
    deck = _deck(deck_name, sets)
    try:  # dealt from the first seat until the dealer is named: a deck needs no even split before that
        seats = Game(tuple(players), teams=tuple(teams), deck=deck, dealer=0)
    except GameError as error:
        raise BadRequestError(str(error), error.field) from None
    if body.get("dealer") is None:
        return seats, False, None, None
    dealer = seat(body.get("dealer"), seats.player_index, "dealer")
    try:
        game = Game(tuple(players), teams=tuple(teams), deck=deck, rules=Rules.parse(rules), dealer=dealer)
    except GameError as error:
        raise BadRequestError(str(error), error.field) from None
    if body.get("me") is None:
        return game, True, None, None
    me = seat(body.get("me"), game.player_index, "me")
    cards = body.get("hand")
    if cards is None:
        return game, True, me, None
    if not isinstance(cards, list):
        raise BadRequestError("hand must be a list of cards", "hand")
    try:
        hand = check_hand(game, me, [Card.parse(str(token)) for token in cards])
    except ValueError as error:
        raise BadRequestError(str(error), "hand") from None
    return game, True, me, hand


def _deck(name: str, sets: list[Any] | None) -> Deck:
    """The deck called ``name`` with only ``sets`` in play (every set when None); :class:`BadRequestError` naming
    ``deck`` or ``sets``, whichever is unknown."""
    try:
        deck = Deck.named(name)
    except ValueError as error:
        raise BadRequestError(str(error), "deck") from None
    try:
        return deck if sets is None else deck.restricted(str(set_name) for set_name in sets)
    except ValueError as error:
        raise BadRequestError(str(error), "sets") from None
