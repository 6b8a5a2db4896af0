"""What a person types at the table: events in record notation or in short forms, names by prefix.

Short forms:

* an ask, ``ASKER TARGET CARD ANSWER`` with ANSWER ``+`` (yes) or ``-`` (no),
  e.g. ``bob ann 5s +``; the answer may be left out when the observer knows it
  (they were asked);
* ``+`` or ``-`` alone: I made the ask advised to me, and that was the answer
  (:class:`Answer`);
* a pass, ``GIVER RECEIVER`` (``cat eve``) or ``cat passes eve``;
* a claim, ``CLAIMER claims SET [OUTCOME [REVEALS]]`` (``cat claims lh``,
  ``dan claims hs void bob 9s``), SET by its name, short name or a prefix, OUTCOME
  ``ok``, ``void`` or ``opp``, REVEALS who held cards (``bob 9s 10s cat js``):
  a :class:`ShortClaim`, which the game at the table completes from what the
  observer knows.

Everywhere, names and cards are case-insensitive (names accents aside too: ``zoe`` for Zoë) and a player may be
named by any prefix that no other name shares (``b`` for Bob when nobody else starts with b).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from cardlogic.cards import Card, is_card
from cardlogic.literature.events import Ask, Event, Pass
from cardlogic.literature.record import InvalidEventError, card_in_deck, parse_event
from cardlogic.literature.rules import Game
from cardlogic.notation import name_index

ANSWERS = {"+": True, "-": False, "y": True, "n": False, "yes": True, "no": False}
"""Answers of the short form, lower case."""
OUTCOME_WORDS = {"ok": "correct", "correct": "correct", "void": "void", "opp": "opponents", "opponents": "opponents"}
"""The outcomes of a short claim, lower case."""

KEYWORDS = ("asks", "for", "yes", "no", "claims", "passes", "to", "correct", "void", "opponents")
"""The words of the record notation, which are never taken for a player's name."""

_WORD = re.compile(r"[^\s:;()=>]+")
_EVENT_VERBS = ("asks", "claims", "passes")


@dataclass(frozen=True)
class ShortClaim:
    """``CLAIMER claims SET [OUTCOME [REVEALS]]``: a claim whose assignment is filled in from what the observer knows.

    ``outcome`` is None when not typed; ``revealed`` pairs each card typed after
    the outcome with who held it.
    """

    claimer: int
    set_index: int
    outcome: str | None = None
    revealed: tuple[tuple[Card, int], ...] = ()


@dataclass(frozen=True)
class Answer:
    """``+`` or ``-`` alone: the observer made the ask advised to them, and ``yes`` was the answer."""

    yes: bool


class Notation:
    """Reads typed events of one ``game``."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self._set_names = {name.lower() for card_set in game.deck.sets for name in (card_set.name, card_set.short)}

    def player(self, token: str) -> int:
        """The player ``token`` names: their name or a prefix of no other name, any case."""
        return name_index(token, self.game.players, "player", error=InvalidEventError)

    def card(self, token: str) -> Card:
        """The card ``token`` names, which must be in this game's deck."""
        return card_in_deck(token, self.game)

    def answer(self, token: str) -> bool:
        """The answer to an ask ``token`` types: ``+``, ``y`` or ``yes`` for yes, ``-``, ``n`` or ``no`` for no."""
        try:
            return ANSWERS[token.lower()]
        except KeyError:
            raise InvalidEventError(f"the answer must be + (yes) or - (no), not {token!r}") from None

    def set_index(self, token: str) -> int:
        """The set ``token`` names: its name or short name, or a prefix of one name only, any case."""
        sets = self.game.deck.sets
        return name_index(token, [s.name for s in sets], "set", [s.short for s in sets], InvalidEventError)

    def parse(self, text: str) -> Event | ShortClaim | Answer:
        """What ``text`` types: a short form, or record notation with names by prefix.

        Raises :class:`InvalidEventError` naming what is wrong.
        """
        tokens = text.split()
        verb = tokens[1].lower() if len(tokens) >= 2 else ""
        if len(tokens) == 1 and tokens[0] in ("+", "-"):
            return Answer(tokens[0] == "+")
        if verb == "claims" and ":" not in text:
            return self._short_claim(tokens)
        if verb == "passes" and len(tokens) == 3:
            return Pass(self.player(tokens[0]), self.player(tokens[2]))
        if verb in _EVENT_VERBS:
            return parse_event(_WORD.sub(lambda match: self._expand(match[0]), text), self.game)
        if len(tokens) == 2:
            return Pass(self.player(tokens[0]), self.player(tokens[1]))
        return self._short_ask(tokens, text)

    def outcome(self, tokens: list[str]) -> tuple[str, tuple[tuple[Card, int], ...]]:
        """A claim's outcome and reveals, ``ok``/``void``/``opp`` then ``NAME CARD ...`` (``void bob 5h 6h cat 7h``)."""
        if not tokens:
            raise InvalidEventError("the outcome is missing: ok, void or opp")
        outcome = OUTCOME_WORDS.get(tokens[0].lower())
        if outcome is None:
            raise InvalidEventError(f"the outcome must be ok, void or opp, not {tokens[0]!r}")
        revealed: dict[Card, int] = {}
        holder = None
        for token in tokens[1:]:
            if is_card(token):
                if holder is None:
                    raise InvalidEventError(f"who held {token.upper()}? name the player before the cards")
                revealed[self.card(token)] = holder
            else:
                holder = self.player(token)
        if tokens[1:] and holder is not None and not revealed:
            raise InvalidEventError(f"which cards did {self.game.players[holder]} hold? name them after the player")
        return outcome, tuple(revealed.items())

    def _short_claim(self, tokens: list[str]) -> ShortClaim:
        if len(tokens) < 3:
            raise InvalidEventError("a claim names its set: CLAIMER claims SET, e.g. 'cat claims lh'")
        claimer, set_index = self.player(tokens[0]), self.set_index(tokens[2])
        if len(tokens) == 3:
            return ShortClaim(claimer, set_index)
        outcome, revealed = self.outcome(tokens[3:])
        card_set = self.game.deck.sets[set_index]
        strays = [str(card) for card, _ in revealed if card not in card_set.cards]
        if strays:
            raise InvalidEventError(f"{' '.join(strays)} not in {card_set.name}")
        return ShortClaim(claimer, set_index, outcome, revealed)

    def _short_ask(self, tokens: list[str], text: str) -> Ask:
        if len(tokens) == 3 and tokens[2][-1:] in "+-" and len(tokens[2]) > 1:
            tokens = [*tokens[:2], tokens[2][:-1], tokens[2][-1]]  # "5s+": the answer stuck to the card
        if len(tokens) not in (3, 4):
            raise InvalidEventError(
                f"not an event: {text!r} (an ask is 'ASKER TARGET CARD +' for yes or '... -' "
                "for no; type 'help' for the record notation and the commands)"
            )
        answer = self.answer(tokens[3]) if len(tokens) == 4 else None
        return Ask(self.player(tokens[0]), self.player(tokens[1]), self.card(tokens[2]), answer)

    def _expand(self, word: str) -> str:
        """``word`` with a unique name prefix written out in full; any other word as it is."""
        key = word.lower()
        if key in KEYWORDS or key in self._set_names or is_card(word):
            return word
        try:
            return self.game.players[self.player(word)]
        except InvalidEventError:
            return word  # the record reader reports it, with the players' names
