"""``cardlogic view RECORD --as NAME``: the record as one player saw it."""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace

from cardlogic.cli.common import RECORD_HELP, at_least, load_record, source_name
from cardlogic.literature import RecordError, write_record


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "view",
        help="write the record as one player saw it",
        description="Write the record with Me set to NAME and every other hand removed (the record must show "
        "NAME's hand), after checking the record as 'cardlogic check' does.",
    )
    parser.add_argument("record", metavar="RECORD", help=RECORD_HELP)
    parser.add_argument("--as", dest="player", required=True, metavar="NAME", help="the player whose view to write")
    parser.add_argument(
        "--events", type=at_least(0, "a number of events, 0 or more"), metavar="N", help="keep only the first N events"
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    record = load_record(args.record)
    if record is None:
        return 1
    try:
        view = record.view_as(args.player)
    except RecordError as error:
        print(f"{source_name(args.record)}: {error.message}", file=sys.stderr)
        return 1
    if args.events is not None:
        view = replace(view, events=view.events[: args.events], lines=view.lines[: args.events])
    sys.stdout.write(write_record(view))
    return 0
