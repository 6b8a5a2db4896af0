"""Every command of ``cardlogic live`` (and ``cardlogic advise``) fits the console: 80 columns at 4, 8 and 12 players,
and rich's width set to 60 and 120; lines wrap between words, never inside one nor between a player's name and
their number (at every table size), messages and questions in an 80-column terminal too."""

from __future__ import annotations

import functools
import io
import os
import re
import shutil
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest
from rich.console import Console

from cardlogic.cards import iter_cards
from cardlogic.cli.advise import print_advice
from cardlogic.cli.console import wrap
from cardlogic.cli.live.console import TypedLines
from cardlogic.cli.live.literature import LiteratureView
from cardlogic.cli.live.session import LiveSession
from cardlogic.literature import Game, Record, play_random_game, write_record
from cardlogic.literature.decks import Deck
from cardlogic.table.core import Status
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
    console = Console(file=out, width=width, highlight=False, color_system=None, force_terminal=True)
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
    assert not parted(text, live.game.players)


def parted(text: str, names: Sequence[str]) -> list[str]:
    """Where ``text`` breaks a line between a player's name and the number after it (a score, a count of cards)."""
    name = "|".join(map(re.escape, names))
    return re.findall(rf"(?<!\S)(?:{name})\n *\d+(?!\S)", text)


def standing(players: int, knektpass: bool, over: bool = False) -> Status:
    """A position of a ``players``-player game with :data:`NAMES`, as each game's live shows it: Literature's two
    teams, their scores and everyone's count of cards; Knektpass's players, their points (two digits) and cards."""
    seats = range(players)
    if knektpass:
        teams = tuple((p,) for p in seats)
        scores, sizes, stage = (
            tuple(3 + 7 * p % 19 for p in seats),
            tuple(5 * (p % 3 > 0) for p in seats),
            "deal 4, the play, trick 2, trumps H",
        )
    else:
        teams, scores = (tuple(seats[::2]), tuple(seats[1::2])), (3, 4)
        sizes, stage = tuple(48 // players - p % 3 for p in seats), ""
    movers = () if over else (players - 1,)
    return Status(NAMES[:players], teams, scores, sizes, movers, observer=0, over=over, stage=stage)


class Standing:
    """A game that stands at ``status``: what live's own commands and status line ask of it."""

    autosave = None

    def __init__(self, status: Status) -> None:
        self._status = status

    def status(self) -> Status:
        return self._status


class NoGameCommands:
    commands = ()


@pytest.mark.parametrize(
    ("players", "knektpass", "over"),
    [(n, False, False) for n in range(4, 13)] + [(n, True, over) for n in range(4, 11) for over in (False, True)],
)
def test_the_status_line_keeps_every_name_with_its_number_at_80_columns(players, knektpass, over):
    """At 4 to 12 players of Literature and 4 to 10 of Knektpass (its most, with 52 cards): the status line below
    the prompt and the commands that show the score and the counts of cards break lines between a name with its
    number and the next, never inside one."""
    status = standing(players, knektpass, over)
    out = io.StringIO()
    console = Console(file=out, width=80, highlight=False, color_system=None, force_terminal=True)
    session = LiveSession(Standing(status), NoGameCommands(), TypedLines(), console=console)
    session.say(session.status_bar())
    for command in ("status", "score", "sizes", "teams"):
        session.handle(command)
    text = out.getvalue()
    assert not parted(text, status.players), text
    assert max(len(line) for line in text.splitlines()) <= 80
    whole = "\n".join([status.line(), status.line(), status.scoreboard()])
    assert sorted(text.split()) == sorted(
        [*whole.split(), *status.hand_counts().split(), *"\n".join(status.sides()).split()]
    )
    assert "\xa0" not in text  # the no-break spaces wrapping holds names with are printed as spaces


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
        "3 players, 36 cards, must-trump=on underruff=on points=12 lone=5 penalty=5 rounds=3 deck=auto; I am Bob; "
        "prior: rules."
    )
    screen = in_a_terminal(["knektpass", "live", "bob.txt"], [("Type 'help' for help.", "")], tmp_path)
    assert shown_whole(greeting, screen), screen
    typed = [("Players in seat order", "Ann Bob Cat"), ("Dealer:", "ann"), ("House rules", "")]
    typed += [("deck=auto]:", "\x04")]  # Ctrl-D: the input ends before the set-up is complete
    screen = in_a_terminal(["knektpass", "live"], typed, tmp_path)
    assert shown_whole(
        "House rules [must-trump=on underruff=on points=12 lone=5 penalty=5 rounds=3 deck=auto]:", screen
    )


LONG_NAME = "Maximiliana-Josephine-Bartholomew-Alexa"
"""A name too long for a title at 80 columns, not for a column of ``grid``."""


def test_a_table_title_keeps_one_line_at_80_columns_whatever_the_name(tmp_path):
    """``grid``'s title (with its page count) and Knektpass ``advise``'s stay on one line, the player's name cut
    short: a long name wrapped ``grid``'s ``... page 1 of`` / ``5`` at the table's width. In its column's header
    the name folds onto more lines, so that the grid takes 3 pages, not 9 (a page a column or two)."""
    game = Game((LONG_NAME, *NAMES[1:]), deck=Deck.named("no-8s"), dealer=1)
    hands, _ = play_random_game(game, 3)
    (tmp_path / "long.txt").write_text(write_record(Record(game, 0, {0: tuple(iter_cards(hands[0]))})))
    screen = in_a_terminal(["live", "long.txt"], [("Type 'help' for help.", "grid"), ("page 3 of 3", "")], tmp_path)
    titles = [line.rstrip() for line in screen.splitlines() if "P(player holds card)" in line]
    rest = "'s view: P(player holds card), page 1 of 3"
    shown = LONG_NAME[: 80 - len(rest) - 1] + "…"
    assert titles == [f"{shown}'s view: P(player holds card), page {page} of 3" for page in range(1, 4)], screen

    (tmp_path / "bob.txt").write_text((EXAMPLES / "knektpass" / "bob.txt").read_text().replace("Bob", LONG_NAME))
    screen = in_a_terminal(["knektpass", "live", "bob.txt"], [("Type 'help' for help.", "advise")], tmp_path)
    rest = " holds 7H 6H AD 7D AC; trumps H; play; 32 deals solved"
    assert f"{LONG_NAME[: 80 - len(rest) - 1]}…{rest}" in screen.splitlines(), screen


def test_a_wrapped_status_line_never_starts_a_line_with_its_separator():
    """The status line below live's prompt broke before a ``|``, leaving ``  | Ann 5 Bob 5 Cat 5`` on its own."""
    status = "Cat to move (opponent) | deal 1, the bids, trumps H | score Bob 12 Ann 12 Cat 12 | Ann 5 Bob 5 Cat 5"
    wrapped = wrap(status, 80, ("Ann", "Bob", "Cat"))
    assert wrapped.splitlines() == [
        "Cat to move (opponent) | deal 1, the bids, trumps H | score Bob 12 Ann 12",
        "  Cat 12 | Ann 5 Bob 5 Cat 5",
    ]
    assert not any(
        line.lstrip().startswith("|") for width in range(20, 100) for line in wrap(status, width).split("\n")
    )
