"""``cardlogic live [RECORD]``: follow a game at the table, with advice whenever my team is to move.

The record gives the set-up and any events so far; without one the set-up is
asked for, one question at a time. Each line typed is then an event (record
notation, or the short form ``bob ann 5s +`` of an ask) or a command (see
:data:`~cardlogic.cli.live.notation.HELP`). Every accepted event is written to
the autosave file, a complete record, before the next line is read; a refused
line is reported as ``<input>:N: message`` and changes nothing.
"""

from __future__ import annotations

import argparse
import datetime
import re
import sys
import textwrap
from pathlib import Path
from typing import TYPE_CHECKING

from cardlogic.cli.common import add_prior_argument, at_least, load_record
from cardlogic.cli.live.notation import HELP
from cardlogic.inference import InferenceError
from cardlogic.literature import Record, RecordError

if TYPE_CHECKING:
    from cardlogic.cli.live.session import LiveSession

INTRODUCTION = (
    "Follow a game as it is played: start from RECORD (set-up and any events so far), or answer the set-up "
    "questions, then type one event or command a line. Every accepted event is autosaved before the next "
    "line is read."
)


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "live",
        help="follow a game event by event, with advice whenever your team is to move",
        description=textwrap.fill(INTRODUCTION, 100, break_on_hyphens=False) + "\n\n" + HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "record",
        nargs="?",
        help="game record with the set-up (Players, Dealer, Me, Hand ...) and "
        "any events so far; left out, the set-up is asked for",
    )
    parser.add_argument(
        "--autosave",
        metavar="FILE",
        help="where every change is saved (default: RECORD's name with .live.txt, next to it; for a "
        "new game, game-DATE-TIME.live.txt in the working folder)",
    )
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
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    # prompt_toolkit (about 0.2 s to import) is loaded for live only, not for every command.
    from cardlogic.cli.live.console import SlowNotice, TypedLines, WordCompleter
    from cardlogic.table.literature import LiveGame
    from cardlogic.cli.live.session import LiveSession
    from cardlogic.cli.live.setup import ask_setup

    session: LiveSession | None = None
    lines = TypedLines(WordCompleter(lambda: session.completions() if session else ()))
    if args.record is None:
        record = ask_setup(lines)
        if record is None:
            print("<input>: the input ended before the set-up was complete", file=sys.stderr)
            return 1
        autosave = args.autosave or _free_name(Path(f"game-{datetime.datetime.now():%Y%m%d-%H%M}"), None)
    else:
        record = load_record(args.record)
        if record is None:
            return 1
        autosave = args.autosave or _free_name(_stem(Path(args.record)), Path(args.record))
    notice = SlowNotice()
    try:
        with notice.guard():
            game = LiveGame(
                record, method=args.method, samples=args.samples, seed=args.seed, prior=args.prior, autosave=autosave
            )
            game.save(autosave)
    except RecordError as error:
        print(f"{args.record}:{error.line}: {error.message}", file=sys.stderr)
        return 1
    except (InferenceError, OSError) as error:
        print(f"{args.record or autosave}: {error}", file=sys.stderr)
        return 1
    session = LiveSession(game, lines, notice)
    with notice.guard():
        _greet(session, record)
    try:
        return session.run()
    except KeyboardInterrupt:
        print(f"\ninterrupted; everything up to the last accepted event is in {autosave}", file=sys.stderr)
        return 130


def _greet(session: LiveSession, record: Record) -> None:
    game = record.game
    me = "" if record.observer is None else f"; I am {game.players[record.observer]}"
    print(
        f"{len(game.players)} players, {game.deck.name} deck, {len(game.deck.sets)} sets{me}. "
        f"{len(record.events)} events so far; {session.to_move_text()}."
    )
    print(f"Autosaving to {session.game.autosave}. Type 'help' for help.", flush=True)
    session.advise_my_team()


def _stem(record: Path) -> Path:
    """``record`` without its suffix and any ``.live`` or ``.live-N`` ending: resuming an autosave reuses it."""
    return record.with_name(re.sub(r"\.live(-\d+)?$", "", record.stem))


def _free_name(stem: Path, record: Path | None) -> str:
    """``STEM.live.txt``, or ``STEM.live-2.txt`` and on, the first that is free or is ``record`` itself."""
    number = 1
    while True:
        candidate = stem.with_name(stem.name + (".live.txt" if number == 1 else f".live-{number}.txt"))
        if not candidate.exists() or (record is not None and candidate.resolve() == record.resolve()):
            return str(candidate)
        number += 1
