"""The set-up of a new game (Literature or Knektpass), asked one question at a time, each answer checked as it is
given."""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from typing import TypeVar

from cardlogic.cards import Card
from cardlogic.cli.console import echo
from cardlogic.cli.live.console import LEAVING, TypedLines
from cardlogic.knektpass import Deal
from cardlogic.knektpass import Game as KnektpassGame
from cardlogic.knektpass import Record as KnektpassRecord
from cardlogic.knektpass import Rules as KnektpassRules
from cardlogic.knektpass.match_record import MatchRecord
from cardlogic.knektpass.match_record import check_hand as check_knektpass_hand
from cardlogic.knektpass.rules import HAND_SIZE
from cardlogic.knektpass.shorthand import Notation as KnektpassNotation
from cardlogic.literature import Game, Record, Rules
from cardlogic.literature.decks import DECK_NAMES, Deck
from cardlogic.literature.shorthand import Notation
from cardlogic.notation import uncommented
from cardlogic.table.literature import check_hand

T = TypeVar("T")


class _InputEnded(Exception):
    """The input ended before the set-up had its answers."""


class SetupLeft(Exception):
    """``quit`` (or ``exit``) was typed for an answer: the set-up is left, nothing saved."""


def _none_if_input_ends(ask: Callable[[TypedLines], T]) -> Callable[[TypedLines], T | None]:
    """``ask``, or None where the input ends before its last question is answered."""

    @functools.wraps(ask)
    def asking(lines: TypedLines) -> T | None:
        try:
            return ask(lines)
        except _InputEnded:
            return None

    return asking


@_none_if_input_ends
def ask_setup(lines: TypedLines) -> Record:
    """Players in seat order, deck, dealer, house rules, who I am and my hand; None if the input ends first.

    A refused answer is reported as ``<input>:N: message`` and its question asked again; ``quit`` or ``exit``
    leaves (:class:`SetupLeft`).
    """
    players = _ask(lines, "Players in seat order (e.g. Ann Bob Cat Dan Eve Fay): ", _players)
    deck = _ask(
        lines,
        f"Deck [no-8s] ({', '.join(DECK_NAMES)}; sets to keep may follow, e.g. no-8s LS HS LH): ",
        lambda text: _deck(text, players),
    )
    lookup = Notation(Game(players, deck=deck, dealer=0))
    dealer = _ask(lines, "Dealer (asks first): ", lookup.player)
    game = _ask(
        lines,
        f"House rules [{Rules()}]: ",
        lambda text: Game(players, deck=deck, rules=Rules.parse(text), dealer=dealer),
    )
    notation = Notation(game)
    me = _ask(lines, "Who are you? ", notation.player)
    hand = _ask(lines, f"Your hand ({game.sizes[me]} cards): ", lambda text: _hand(text, notation, game, me))
    return Record(game, me, {me: hand})


def _ask(lines: TypedLines, question: str, answer: Callable[[str], T]) -> T:
    """``answer`` of the first answer to ``question`` it takes; :class:`_InputEnded` if the input ends first."""
    while True:
        if not lines.interactive:
            echo(question)
        text = lines.read(question)
        if text is None:
            raise _InputEnded
        typed = uncommented(text)
        if typed.lower() in LEAVING:
            raise SetupLeft
        try:
            return answer(typed)
        except ValueError as error:
            echo(f"<input>:{lines.number}: {error}", file=sys.stderr)


def _players(text: str) -> tuple[str, ...]:
    players = tuple(text.split())
    Game(players, dealer=0)  # checks the count and the names
    return players


def _deck(text: str, players: tuple[str, ...]) -> Deck:
    name, *sets = text.split() or ["no-8s"]
    deck = Deck.named(name, sets or None)
    Game(players, deck=deck, dealer=0)  # enough cards for everyone
    return deck


def _hand(text: str, notation: Notation, game: Game, me: int) -> tuple[Card, ...]:
    return check_hand(game, me, [notation.card(token) for token in text.split()])


@_none_if_input_ends
def ask_knektpass_setup(lines: TypedLines) -> MatchRecord:
    """A Knektpass match's players in seat order, dealer, house rules, who I am, the turned card and my hand; None
    if the input ends first. A refused answer is reported as ``<input>:N: message`` and asked again; ``quit`` or
    ``exit`` leaves (:class:`SetupLeft`)."""
    players = _ask(lines, "Players in seat order (e.g. Ann Bob Cat): ", lambda text: KnektpassGame(tuple(text.split())))
    notation = KnektpassNotation(players)
    dealer = _ask(lines, "Dealer: ", notation.player)
    game = _ask(
        lines,
        f"House rules [{KnektpassRules()}]: ",
        lambda text: KnektpassGame(players.players, KnektpassRules.parse(text)),
    )
    notation = KnektpassNotation(game)
    me = _ask(lines, "Who are you? ", notation.player)
    turned = _ask(lines, "The turned card (trumps): ", notation.card)
    deal = Deal(game, dealer, turned)
    hand = _ask(lines, f"Your hand ({HAND_SIZE} cards): ", lambda text: _knektpass_hand(text, notation, deal, me))
    return MatchRecord(KnektpassRecord(deal, me, {me: hand}))


def _knektpass_hand(text: str, notation: KnektpassNotation, deal: Deal, me: int) -> tuple[Card, ...]:
    cards = tuple(notation.card(token) for token in text.split())
    check_knektpass_hand(deal, me, cards)
    return cards
