"""``cardlogic live [RECORD]``: follow a game at the table, with advice on my turn (my team's claims on a teammate's).

The record gives the set-up and any events so far; without one the set-up is
asked for, one question at a time. Each line typed is then an event (record
notation, or the short form ``bob ann 5s +`` of an ask) or a command (see
:data:`~cardlogic.cli.live.notation.HELP`). Every accepted event is written to
the autosave file, a complete record, before the next line is read; a refused
event is reported as ``AUTOSAVE:N: message``, N the line it would have taken there, a command's error as its
message alone, and neither changes anything.
"""

from __future__ import annotations

import argparse
import datetime
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from cardlogic.cli import interrupt_code, stopped_by_sigterm_as_by_ctrl_c
from cardlogic.cli.common import STDIN, add_deals_argument, add_prior_argument, at_least, plural, read_text, report
from cardlogic.cli.console import echo
from cardlogic.cli.live.notation import HELP
from cardlogic.cli.warmup import ensure_warm
from cardlogic.files import WriteRefusedError, check_writable
from cardlogic.inference import InferenceError
from cardlogic.literature import Record, RecordError, read_record
from cardlogic.literature.belief import FOLLOWED_DEALS

if TYPE_CHECKING:
    from rich.console import Console

    from cardlogic.cli.live.console import SlowNotice, TypedLines
    from cardlogic.cli.live.session import GameView, LiveSession
    from cardlogic.table.core import TableGame

RecordT = TypeVar("RecordT")
GameT = TypeVar("GameT", bound="TableGame")

INTRODUCTION = (
    "Follow a game as it is played: start from RECORD (set-up and any events so far), or answer the set-up "
    "questions, then type one event or command a line. Every accepted event is autosaved before the next "
    "line is read."
)


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "live",
        help="follow a game event by event, with advice on your turn (your team's claims on a teammate's)",
        description=textwrap.fill(INTRODUCTION, 79, break_on_hyphens=False) + "\n\n" + HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "record",
        nargs="?",
        help="game record with the set-up (Players, Dealer, Me, Hand ...) and "
        "any events so far; left out, the set-up is asked for",
    )
    add_autosave_arguments(parser)
    parser.add_argument(
        "--method",
        choices=("auto", "exact", "sample"),
        default="auto",
        help="inference backend (default: auto, exact where practical, else sampling)",
    )
    parser.add_argument(
        "--samples",
        type=at_least(1, "a positive number of deals"),
        default=20000,
        help="deals to draw when sampling (default 20000)",
    )
    parser.add_argument("--seed", type=int, default=0, help="random seed for sampling (default 0)")
    add_prior_argument(parser)
    add_deals_argument(parser, FOLLOWED_DEALS)
    parser.set_defaults(handler=run)


def add_autosave_arguments(parser: argparse.ArgumentParser) -> None:
    """``--autosave FILE`` and ``--force``, as every live command takes them."""
    parser.add_argument(
        "--autosave",
        metavar="FILE",
        help="where every change is saved: a new file or this game's own record (default: RECORD itself when it "
        "is an autosave, else RECORD's name with .live.txt, or .live-2.txt and on, next to it; for a new game, "
        "game-DATE-TIME.live.txt in the working folder)",
    )
    parser.add_argument(
        "--force",
        action="store_true",
        help="let --autosave replace a file that holds something other than this game's record",
    )


def run(args: argparse.Namespace) -> int:
    return interruptible(_follow, args, "literature")


def interruptible(follow: Callable[[argparse.Namespace, list[str]], int], args: argparse.Namespace, game: str) -> int:
    """Run a live command's ``follow(args, saved)`` once ``game``'s kernels are warm; Ctrl-C while work runs, or
    SIGTERM at any time, ends it with a word on what is saved (``saved`` gets the autosave's path once it is
    written) and exit code 130 (Ctrl-C) or 143 (SIGTERM)."""
    saved: list[str] = []
    try:
        with stopped_by_sigterm_as_by_ctrl_c():
            ensure_warm(game)
            return follow(args, saved)
    except (KeyboardInterrupt, SystemError) as error:
        code = interrupt_code(error)
        if code is None:
            raise
        # Ctrl-C while work runs ends the session; at the prompt it only drops the line
        where = f"everything up to the last accepted event is in {saved[0]}" if saved else "nothing was saved"
        echo(f"\ninterrupted; {where}", file=sys.stderr)
        return code


def _follow(args: argparse.Namespace, saved: list[str]) -> int:
    # prompt_toolkit (about 0.2 s to import) is loaded for live only, not for every command.
    from cardlogic.cli.live.literature import LiteratureView
    from cardlogic.cli.live.setup import ask_setup
    from cardlogic.table.literature import LiveGame

    def start(record: Record, text: str | None) -> LiveGame:
        return LiveGame(
            record,
            method=args.method,
            samples=args.samples,
            seed=args.seed,
            prior=args.prior,
            deals=args.deals,
            text=text,
        )

    opened = open_game(args, ask_setup, lambda text: read_record(text, source=args.record), start, "live")
    if isinstance(opened, int):
        return opened
    game, lines, notice = opened
    return follow_game(
        args,
        game,
        lambda console: LiteratureView(game, console),
        lines,
        notice,
        saved,
        "live",
        lambda session: _greet(session, game.record(), game.belief.prior),
    )


def _greet(session: LiveSession, record: Record, prior: str) -> None:
    game = record.game
    table = f"{len(game.players)} players, {game.deck.name} deck, {len(game.deck.sets)} sets"
    greet(session, table, prior, f"{plural(len(record.events), 'event')} so far")


def open_game(
    args: argparse.Namespace,
    ask_setup: Callable[[TypedLines], RecordT | None],
    read: Callable[[str], RecordT],
    start: Callable[[RecordT, str | None], GameT],
    command: str,
) -> tuple[GameT, TypedLines, SlowNotice] | int:
    """The opening every game's live command shares: ``args.record`` read with ``read`` (or its set-up asked
    for with ``ask_setup``, once ``--autosave`` is known to be writable), then the game made by
    ``start(record, text)`` while a slow start is announced; the exit code, after saying why, where any of it
    fails. ``command`` names the command in messages."""
    from cardlogic.cli.live.console import SlowNotice, TypedLines
    from cardlogic.cli.live.setup import SetupLeft

    lines = TypedLines()
    text = None
    if args.record is None:
        if args.autosave is not None:
            # Only a record could be this game's: anything else is refused before the set-up is asked for
            try:
                check_writable(args.autosave, lambda written: _reads(read, written), force=args.force)
            except WriteRefusedError as error:
                echo(f"cardlogic {command}: {error}", file=sys.stderr)
                return 1
        try:
            record = ask_setup(lines)
        except SetupLeft:
            echo("left before the set-up was complete: nothing was saved")
            return 0
        if record is None:
            echo("<input>: the input ended before the set-up was complete", file=sys.stderr)
            return 1
    else:
        text = read_text(args.record)
        if text is None:
            return 1
        try:
            record = read(text)
        except RecordError as error:
            return report(args.record, error)
    notice = SlowNotice()
    try:
        with notice.guard():
            game = start(record, text)
    except RecordError as error:
        return report(args.record, error)
    except InferenceError as error:
        echo(f"{args.record}: {error}", file=sys.stderr)
        return 1
    return game, lines, notice


def _reads(read: Callable[[str], object], text: str) -> bool:
    """Whether ``text`` reads as a record by ``read``."""
    try:
        read(text)
    except RecordError:
        return False
    return True


def follow_game(
    args: argparse.Namespace,
    game: TableGame,
    make_view: Callable[[Console], GameView],
    lines: TypedLines,
    notice: SlowNotice,
    saved: list[str],
    command: str,
    greet: Callable[[LiveSession], None],
) -> int:
    """Claim ``game``'s autosave (``--autosave``, ``--force``, beside ``args.record``), write it, greet and run the
    session loop: the part of every game's live command after its record is read. ``saved`` gets the autosave's
    path once written; ``command`` names the command in messages."""
    from rich.console import Console

    from cardlogic.cli.live.session import LiveSession
    from cardlogic.table.autosave import claim_autosave, moved_note, start_autosave

    resumed = None if args.record in (None, STDIN) else Path(args.record)
    named = None if args.autosave is None else Path(args.autosave)
    try:
        path, lock = claim_autosave(
            resumed, named, game.is_own, stem=Path(f"game-{datetime.datetime.now():%Y%m%d-%H%M}"), force=args.force
        )
    except WriteRefusedError as error:
        elsewhere = "" if named else "; --autosave FILE saves elsewhere"  # the name was live's choice
        echo(f"cardlogic {command}: {error}{elsewhere}", file=sys.stderr)
        return 1
    try:
        try:
            start_autosave(game, path, resumed)
        except OSError as error:
            echo(f"{path}: {error.strerror or error}", file=sys.stderr)
            return 1
        saved.append(str(path))
        moved = moved_note(resumed, path)
        if moved is not None:
            echo(moved)
        unkept = lines.keep_history(str(path.with_suffix(".history")))
        if unkept is not None:
            echo(unkept)
        console = Console(highlight=False)
        session = LiveSession(game, make_view(console), lines, notice, console)
        lines.complete_from(session.completions)
        with notice.guard():
            greet(session)
        return session.run()
    finally:
        lock.release()


def greet(session: LiveSession, table: str, prior: str, so_far: str) -> None:
    """The opening every game's live command prints: ``table`` (who plays with what) with who I am and the prior
    that answers, ``so_far`` (the events) with who is to move, and where the game is autosaved; then the advice
    when I am to decide."""
    status = session.game.status()
    me = "" if status.observer is None else f"; I am {status.players[status.observer]}"
    echo(f"{table}{me}; prior: {prior}.", names=status.players)
    echo(f"{so_far}; {status.to_move()}.", names=status.players)
    echo(f"Autosaving to {session.game.autosave}. Type 'help' for help.")
    session.advise_if_deciding()
