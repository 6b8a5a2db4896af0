"""Every command of ``cardlogic live`` (and ``cardlogic advise``) fits the console: 80 columns at 4, 8 and 12 players,
and rich's width set to 60 and 120; lines wrap between words, never inside one, messages and questions in an
80-column terminal too."""

from __future__ import annotations

import functools
import io
import os
import re
import shutil
import sys
from pathlib import Path

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

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

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


def in_a_terminal(command: list[str], typed: list[tuple[str, str]], cwd: Path) -> str:
    """What ``cardlogic COMMAND`` shows in an 80-column pseudo-terminal as each ``(line, awaited)`` of ``typed`` is
    sent once its ``awaited`` text has appeared (an empty line sends nothing), escape sequences left out."""
    pexpect = pytest.importorskip("pexpect")
    env = dict(os.environ, TERM="xterm", PROMPT_TOOLKIT_NO_CPR="1", CARDLOGIC_WARMUP="off")
    child = pexpect.spawn(
        sys.executable,
        ["-m", "cardlogic", *command],
        env=env,
        dimensions=(24, 80),
        encoding="utf-8",
        timeout=120,
        cwd=str(cwd),
    )
    child.logfile_read = transcript = io.StringIO()
    for awaited, line in typed:
        child.expect_exact(awaited)
        if line:
            child.sendline(line)
    child.sendline("quit")
    child.expect(pexpect.EOF)
    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", transcript.getvalue())


def shown_whole(message: str, screen: str) -> bool:
    """Whether every word of ``message`` appears whole, in order, on ``screen`` (however the lines break)."""
    return " ".join(message.split()) in " ".join(screen.split())


MESSAGES = (
    "save needs a file name: save FILE, or save --force FILE to replace another file",
    (
        "Dan claims high-spades => correct: who held 9S JS QS? Type it again naming them: Dan claims high-spades ok "
        "bob 9S ..."
    ),
    (
        "Dan claims low-spades => opponents: type the assignment announced, in record notation (Dan claims "
        "low-spades: NAME CARDS; NAME CARDS => opponents)"
    ),
)
"""Literature live's longest messages on the mini game, each over 80 columns."""


def test_live_messages_wrap_between_words_in_a_terminal(tmp_path):
    shutil.copy(EXAMPLES / "mini.txt", tmp_path)
    typed = [("Type 'help' for help.", "ann dan 2h -"), ("(line 17)", "save")]
    typed += [(MESSAGES[0].split()[-1], "dan claims hs ok"), ("bob 9S ...", "dan claims ls opp"), ("=> opponents)", "")]
    screen = in_a_terminal(["live", "mini.txt"], typed, tmp_path)
    assert all(shown_whole(message, screen) for message in MESSAGES), screen
    assert MESSAGES[1] not in screen  # wrapped: the message is wider than the terminal


def test_knektpass_live_greeting_and_set_up_questions_wrap_between_words(tmp_path):
    shutil.copy(EXAMPLES / "knektpass" / "bob.txt", tmp_path)
    greeting = (
        "3 players, 36 cards, must-trump=on underruff=on points=12 lone=5 penalty=5 rounds=3 deck=auto; I am Bob."
    )
    screen = in_a_terminal(["knektpass", "live", "bob.txt"], [("Type 'help' for help.", "")], tmp_path)
    assert shown_whole(greeting, screen), screen
    typed = [("Players in seat order", "Ann Bob Cat"), ("Dealer:", "ann"), ("House rules", "")]
    typed += [("deck=auto]:", "\x04")]  # Ctrl-D: the input ends before the set-up is complete
    screen = in_a_terminal(["knektpass", "live"], typed, tmp_path)
    assert shown_whole(
        "House rules [must-trump=on underruff=on points=12 lone=5 penalty=5 rounds=3 deck=auto]:", screen
    )
