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
from cardlogic.literature import Ask, Event, Game, InvalidEventError, parse_event

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


HELP = """Type an event, or a command. Events:
  bob ann 5s +        Bob asks Ann for 5S: yes   (short form; - for no; the answer may be left out when I was asked)
  Bob asks Ann for 5S: no                        (record notation)
  Cat claims low-hearts: Cat 2H 3H; Eve 4H 5H 6H 7H => correct
  Cat passes to Eve
Names and cards in any case; a name by any prefix no other name shares (b for Bob).
Commands:
  advise       the advice now: who is to move, the recommendation, the best asks, the claims worth a thought
  undo [N]     take back the last event (or the last N)
  save FILE    write the game so far to FILE, a new file or this game's record (it is also autosaved after
               every change); save --force FILE replaces another file
  grid         P(player holds card) for every card in play (also: belief)
  why CARD     the events that placed or ruled out CARD at each player, by line of the autosave record
  hand         my hand now
  exposed      what the other players can infer about my hand
  help         this text
  quit         leave (also: exit, Ctrl-D); everything is already saved
On a terminal, Tab completes names, cards, sets and commands, and Up/Down recall earlier lines."""
