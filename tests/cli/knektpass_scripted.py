"""A scripted Knektpass match for the live tests: Bob's view of a whole match played by bots, and the short forms
that type it."""

from __future__ import annotations

from cardlogic.cards import format_cards
from cardlogic.knektpass import Bid, Exchange, Game, Play, Rules, TakeTrump
from cardlogic.knektpass.match_record import MatchEvent, MatchRecord, NextDeal
from cardlogic.knektpass.tournament import observed_match

GAME = Game(("Ann", "Bob", "Cat"), Rules.parse("points=4 lone=2 penalty=2"))
"""Three players from 4 points: a match of a few deals."""
ME = 1
SEED = 3


def bobs_match(seed: int = SEED, game: Game = GAME, me: int = ME, deals: int | None = None) -> MatchRecord:
    """The observer's view of a whole match (its first ``deals`` deals only, if given) between greedy bots."""
    return observed_match(game, me, seed, deals)


def short_form(event: MatchEvent, game: Game = GAME, me: int = ME) -> tuple[str, str | None]:
    """How a hurried player types ``event``, and the answer to the question live then asks (None: none): the
    player by initial or left out for my own events, a next deal's hand asked for."""
    if isinstance(event, NextDeal):
        return f"deal {str(event.turned).lower()}", format_cards(event.hand).lower()
    who = "" if event.player == me else game.players[event.player][0].lower() + " "
    if isinstance(event, Play):
        return f"{who}{str(event.card).lower()}", None
    if isinstance(event, Bid):
        return f"{who}{'in' if event.plays else 'out'}", None
    if isinstance(event, TakeTrump):
        if not event.take:
            return f"{who}leave", None
        return (f"{who}take", None) if event.discard is None else ("take", str(event.discard).lower())
    assert isinstance(event, Exchange)
    if event.count == 0:
        return f"{who}stand", None
    if event.discards is None:
        return f"{who}{event.count}", None
    assert event.draws is not None
    return f"ex {event.count}", f"{format_cards(event.discards)} for {format_cards(event.draws)}".lower()
