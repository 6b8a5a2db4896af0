"""The one game a ``cardlogic serve`` page follows: its set-up, its :class:`LiveGame`, a lock and a version.

Every answer is a plain dict ready for JSON (the API of docs/serve.md). Changes are serialised by one lock;
each carries the version the page last saw, so a stale tab's event is refused instead of applied on top of
a state its player never saw. The version is the server's run (random, so a restarted server refuses what a
page saw before it) and the number of changes in that run.
"""

from __future__ import annotations

import secrets
import threading
from collections.abc import Callable, Mapping
from typing import Any

from cardlogic.cards import Card, CardError
from cardlogic.cli.advise import as_json
from cardlogic.inference import InferenceError
from cardlogic.literature import Game, GameError, Record, Rules, format_event, parse_event
from cardlogic.literature.decks import DECK_NAMES, Deck
from cardlogic.table.literature import LiveGame, check_hand


class BadRequestError(ValueError):
    """A request the game refuses: ``field`` names the part of the body at fault (or is empty)."""

    def __init__(self, message: str, field: str = "") -> None:
        super().__init__(message)
        self.field = field


class StaleVersionError(ValueError):
    """A change sent against a version of the game that is no longer the current one."""


STALE = (
    "the game changed since this page last looked (another tab, or a server restart): "
    "the page now shows the current game; enter the event again if it still applies"
)


class Companion:
    """The game behind the page: None until set up, then a :class:`LiveGame` with its autosave.

    ``open_game`` builds the :class:`LiveGame` of a record set up on the page, its autosave claimed and written
    (``cardlogic serve`` passes its method, samples and seed, and the file rules of :mod:`cardlogic.table.autosave`);
    ``game`` starts the companion on a game already open (from a RECORD or an autosave).
    """

    def __init__(self, open_game: Callable[[Record], LiveGame], game: LiveGame | None = None) -> None:
        self.open_game = open_game
        self.game = game
        self.lock = threading.Lock()
        self.run = secrets.token_hex(4)
        self.changes = 0

    @property
    def version(self) -> str:
        return f"{self.run}.{self.changes}"

    # -- reading -----------------------------------------------------------------------------------------------------

    def state(self) -> dict[str, Any]:
        """Everything the page shows: the set-up choices before a game, else the table, my hand, the legal
        choices of whoever may move, the advice when my team is to move, the heat map and the log."""
        with self.lock:
            return self._state()

    def why(self, token: str) -> dict[str, Any]:
        """Where the card ``token`` can be, and every event that said so (:meth:`LiveGame.why`)."""
        with self.lock:
            game = self._playing()
            return {"card": str(self._card(token, game.game)), "lines": game.why(self._card(token, game.game))}

    def claim_sheet(self, claimer: str, set_name: str) -> dict[str, Any]:
        """The claim sheet of ``claimer`` for the set ``set_name``: the best assignment and its P(correct)."""
        with self.lock:
            game = self._playing()
            player = self._player(claimer, game.game, "claimer")
            if player not in game.public.movers or not game.public.sizes[player]:
                raise BadRequestError(f"{game.game.players[player]} may not claim now", "claimer")
            try:
                set_index = game.game.deck.set_index(set_name)
                suggestion = game.claim_suggestion(player, set_index)
            except ValueError as error:
                raise BadRequestError(str(error), "set") from None
            names = game.game.players
            return {
                "claimer": names[player],
                "set": game.game.deck.sets[set_index].name,
                "assignment": {str(card): names[holder] for card, holder in suggestion.assignment},
                "p_correct": suggestion.p_correct,
                "team": [names[p] for p in game.game.members(game.game.team_of(player))],
                "likely_holders": {
                    str(card): names[max(range(len(names)), key=game.chances()[card].__getitem__)]
                    for card, _ in suggestion.assignment
                },
            }

    # -- changing ----------------------------------------------------------------------------------------------------

    def check_setup(self, body: Mapping[str, Any]) -> dict[str, Any]:
        """Check a set-up as far as it goes (players, teams, deck, then dealer, rules, me, hand) and tell what
        follows: the hand sizes (once the dealer is given), the deck's sets and how many cards my hand needs. Raises :class:`BadRequestError`."""
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

    def start(self, body: Mapping[str, Any]) -> dict[str, Any]:
        """Start the game the set-up ``body`` describes, saved to the autosave file before this returns."""
        game, dealt, me, hand = _setup(body)
        if not dealt or me is None or hand is None:
            missing = "dealer" if not dealt else "me" if me is None else "hand"
            raise BadRequestError("the set-up needs the dealer, who I am (me) and my hand", missing)
        with self.lock:
            if self.game is not None:
                raise BadRequestError("a game is already being played: this page follows one game")
            self._check_version(body)
            try:
                self.game = self.open_game(Record(game, me, {me: hand}))
            except (ValueError, InferenceError) as error:  # e.g. the autosave name is another session's
                raise BadRequestError(str(error)) from None
            return self._changed()

    def push(self, body: Mapping[str, Any]) -> dict[str, Any]:
        """Apply the event ``body["event"]`` (record notation), saved before this returns."""
        text = body.get("event")
        if not isinstance(text, str) or not text.strip():
            raise BadRequestError("the body needs the event as a line of record notation", "event")
        with self.lock:
            game = self._playing()
            self._check_version(body)
            try:
                game.push(parse_event(text, game.game))
            except (ValueError, InferenceError) as error:
                raise BadRequestError(str(error), "event") from None
            return self._changed()

    def undo(self, body: Mapping[str, Any]) -> dict[str, Any]:
        """Take back the last event, saved before this returns."""
        with self.lock:
            game = self._playing()
            self._check_version(body)
            try:
                game.undo()
            except IndexError as error:
                raise BadRequestError(str(error)) from None
            return self._changed()

    # -- inside the lock ---------------------------------------------------------------------------------------------

    def _changed(self) -> dict[str, Any]:
        self.changes += 1
        return self._state()

    def _check_version(self, body: Mapping[str, Any]) -> None:
        if body.get("version") != self.version:
            raise StaleVersionError(STALE)

    def _playing(self) -> LiveGame:
        if self.game is None:
            raise BadRequestError("no game yet: set one up first")
        return self.game

    def _state(self) -> dict[str, Any]:
        if self.game is None:
            return {
                "version": self.version,
                "phase": "setup",
                "decks": list(DECK_NAMES),
                "rules": str(Rules()),
                "wrong_claim": ["split", "opponents"],
            }
        live, game = self.game, self.game.game
        public, names = live.public, game.players
        me = live.belief.observer
        movers = [p for p in public.movers if public.sizes[p]] if not public.is_over else []
        return {
            "version": self.version,
            "phase": "over" if public.is_over else "play",
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
            "log": [
                {"line": line, "text": format_event(event, game)}
                for line, event in zip(live.event_lines(), public.history)
            ],
            "heat": self._heat(live),
            "advice": self._advice_now(live),
            "autosave": live.autosave,
        }

    @staticmethod
    def _advice_now(live: LiveGame) -> dict[str, Any] | None:
        if not live.observer_decides():
            return None
        try:
            return as_json(live.full_advice(), live.game)  # worked out once per position by the game
        except InferenceError as error:  # the game stands; only the advice is out of reach
            return {"error": str(error)}

    @staticmethod
    def _heat(live: LiveGame) -> dict[str, Any]:
        """P(player holds card now) for every card of an unclaimed set, rows in deck order."""
        return {"cards": [{"card": str(card), "p": [round(p, 4) for p in row]} for card, row in live.chances().items()]}

    @staticmethod
    def _player(name: Any, game: Game, field: str) -> int:
        if not isinstance(name, str):
            raise BadRequestError(f"{field} must be a player's name", field)
        try:
            return game.player_index(name)
        except GameError as error:
            raise BadRequestError(str(error), field) from None

    @staticmethod
    def _card(token: Any, game: Game) -> Card:
        try:
            card = Card.parse(str(token))
        except CardError as error:
            raise BadRequestError(str(error), "card") from None
        if card not in game.deck:
            raise BadRequestError(f"{card} is not in play in this deck", "card")
        return card


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
    if not isinstance(deck_name, str) or (sets is not None and not isinstance(sets, list)):
        raise BadRequestError("deck must be a deck's name and sets a list of set names", "deck")
    teams = body.get("teams") or ()
    if not isinstance(teams, list | tuple) or not all(team in (0, 1) for team in teams):
        raise BadRequestError("teams must give team 0 or 1 for every player", "teams")
    rules = body.get("rules") or ""
    if not isinstance(rules, str):
        raise BadRequestError("rules must be house-rule words such as 'bluff=on'", "rules")
    try:
        Game(tuple(players), teams=tuple(teams))
        deck = Deck.named(deck_name, [str(name) for name in sets] if sets else None)
        seats = Game(tuple(players), teams=tuple(teams), deck=deck, dealer=0)
    except GameError as error:
        raise BadRequestError(str(error), error.field) from None
    except ValueError as error:
        raise BadRequestError(str(error), "deck") from None
    if body.get("dealer") is None:
        return seats, False, None, None
    dealer = Companion._player(body.get("dealer"), seats, "dealer")
    try:
        game = Game(tuple(players), teams=tuple(teams), deck=deck, rules=Rules.parse(rules), dealer=dealer)
    except GameError as error:
        raise BadRequestError(str(error), error.field) from None
    if body.get("me") is None:
        return game, True, None, None
    me = Companion._player(body.get("me"), game, "me")
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
