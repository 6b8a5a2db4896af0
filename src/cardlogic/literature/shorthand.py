"""What a person types at the table: events in record notation or the short form of an ask, names by prefix.

The short form of an ask is ``ASKER TARGET CARD ANSWER`` with ANSWER ``+`` (yes)
or ``-`` (no), e.g. ``bob ann 5s +``; the answer may be left out when the
observer knows it (they were asked). Everywhere, names and cards are
case-insensitive and a player may be named by any prefix that no other name
shares (``b`` for Bob when nobody else starts with b).
"""

from __future__ import annotations

import re

from cardlogic.cards import Card, CardError
from cardlogic.literature.events import Ask, Event
from cardlogic.literature.record import InvalidEventError, parse_event
from cardlogic.literature.rules import Game

ANSWERS = {"+": True, "-": False, "y": True, "n": False, "yes": True, "no": False}
"""Answers of the short form, lower case."""

KEYWORDS = ("asks", "for", "yes", "no", "claims", "passes", "to", "correct", "void", "opponents")
"""The words of the record notation, which are never taken for a player's name."""

_WORD = re.compile(r"[^\s:;()=>]+")
_EVENT_VERBS = ("asks", "claims", "passes")


class Notation:
    """Reads typed events of one ``game``."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self._set_names = {name.lower() for card_set in game.deck.sets for name in (card_set.name, card_set.short)}

    def player(self, token: str) -> int:
        """The player ``token`` names: their name or a prefix of no other name, any case."""
        key = token.lower()
        names = self.game.players
        exact = [i for i, name in enumerate(names) if name.lower() == key]
        if exact:
            return exact[0]
        matches = [i for i, name in enumerate(names) if name.lower().startswith(key)]
        if len(matches) == 1:
            return matches[0]
        if matches:
            raise InvalidEventError(f"{token!r} could be {' or '.join(names[i] for i in matches)}")
        raise InvalidEventError(f"unknown player {token!r} (players: {' '.join(names)})")

    def card(self, token: str) -> Card:
        """The card ``token`` names, which must be in this game's deck."""
        try:
            card = Card.parse(token)
        except CardError as error:
            raise InvalidEventError(str(error)) from None
        if card not in self.game.deck:
            raise InvalidEventError(f"{card} is not in play in this deck")
        return card

    def parse(self, text: str) -> Event:
        """The event ``text`` types: the short form of an ask, or record notation with names by prefix.

        Raises :class:`InvalidEventError` naming what is wrong.
        """
        tokens = text.split()
        if len(tokens) >= 2 and tokens[1].lower() in _EVENT_VERBS:
            return parse_event(_WORD.sub(lambda match: self._expand(match[0]), text), self.game)
        return self._short_ask(tokens, text)

    def _short_ask(self, tokens: list[str], text: str) -> Ask:
        if len(tokens) == 3 and tokens[2][-1:] in "+-" and len(tokens[2]) > 1:
            tokens = [*tokens[:2], tokens[2][:-1], tokens[2][-1]]  # "5s+": the answer stuck to the card
        if len(tokens) not in (3, 4):
            raise InvalidEventError(
                f"not an event: {text!r} (an ask is 'ASKER TARGET CARD +' for yes or '... -' "
                "for no; type 'help' for the record notation and the commands)"
            )
        answer = None
        if len(tokens) == 4:
            if tokens[3].lower() not in ANSWERS:
                raise InvalidEventError(f"the answer must be + (yes) or - (no), not {tokens[3]!r}")
            answer = ANSWERS[tokens[3].lower()]
        return Ask(self.player(tokens[0]), self.player(tokens[1]), self.card(tokens[2]), answer)

    def _expand(self, word: str) -> str:
        """``word`` with a unique name prefix written out in full; any other word as it is."""
        key = word.lower()
        if key in KEYWORDS or key in self._set_names or _is_card(word):
            return word
        try:
            return self.game.players[self.player(word)]
        except InvalidEventError:
            return word  # the record reader reports it, with the players' names


def _is_card(token: str) -> bool:
    try:
        Card.parse(token)
    except CardError:
        return False
    return True
