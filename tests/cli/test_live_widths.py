"""Every command of ``cardlogic live`` (and ``cardlogic advise``) fits the console: 80 columns at 4, 8 and 12 players,
and rich's width set to 60 and 120; lines wrap between words, never inside one."""

from __future__ import annotations

import functools
import io

import pytest
from rich.console import Console

from cardlogic.cards import iter_cards
from cardlogic.cli.advise import print_advice
from cardlogic.cli.live.console import TypedLines
from cardlogic.cli.live.literature import LiteratureView
from cardlogic.cli.live.session import LiveSession
from cardlogic.literature import Game, Record, play_random_game
from cardlogic.literature.decks import Deck
from cardlogic.table.literature import LiveGame

NAMES = ("Annabel", "Bartholomew", "Cat", "Dan", "Evangeline", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kit", "Lou")
"""Long names among short ones: the widest tables a table of friends produces."""

COMMANDS = ["help", "status", "score", "sizes", "teams", "log", "log 3", "advise", "grid", "hand", "exposed"]


@functools.cache
def position(players: int, seed: int = 3) -> tuple[LiveGame, list[str]]:
    """Annabel's game at the first position after the opening where her team is to move, and the cards to ask
    ``why`` about (one of hers, one placed in public, one hidden)."""
    game = Game(NAMES[:players], deck=Deck.named("no-8s"), dealer=1)
    hands, events = play_random_game(game, seed)
    full = Record(game, None, {p: tuple(iter_cards(hand)) for p, hand in enumerate(hands)}, events)
    view = full.view_as(0)
    live = LiveGame(Record(game, 0, dict(view.hands)))
    for event in view.events:
        live.push(event)
        if len(live.events) >= 2 * players and live.observer_decides() and live.public.to_move == 0:
            break
    cards = [str(live.belief.hand[0])] + [str(card) for card in list(live.public.known)[:1]]
    cards.append(str(live.belief.in_play()[-1]))
    return live, cards


def rendered(live: LiveGame, width: int, lines: list[str], advice: bool = True) -> str:
    """What ``lines`` print at ``width``; then, with ``advice``, the advice at a glance, the status bar and what
    ``cardlogic advise`` prints."""
    out = io.StringIO()
    console = Console(file=out, width=width, highlight=False, color_system=None)
    session = LiveSession(live, LiteratureView(live, console), TypedLines(), console=console)
    for line in lines:
        session.handle(line)
    if advice:
        session.advise_if_deciding()
        session.say(session.status_bar())
        print_advice(live.full_advice(), live.game, console)
    return out.getvalue()


@pytest.fixture(scope="module", params=[4, 8, 12])
def game(request):
    return position(request.param)


@pytest.mark.parametrize("width", [60, 80, 120])
def test_every_command_fits_the_width(game, width):
    live, cards = game
    whys = [f"why {card}" for card in cards] if width == 80 else []  # slow at 12 players: once is enough
    text = rendered(live, width, [*COMMANDS, *whys])
    too_wide = [line for line in text.splitlines() if len(line) > width]
    assert not too_wide, f"{len(too_wide)} lines over {width} columns, e.g. {too_wide[0]!r}"
    assert "…" not in text  # nothing cut short


def test_wrapping_keeps_every_word_whole():
    live, _ = position(12)
    wide = rendered(live, 400, ["help", "log", "status"], advice=False)
    narrow = rendered(live, 60, ["help", "log", "status"], advice=False)
    assert sorted(wide.split()) == sorted(narrow.split())
