"""``cardlogic check RECORD``: is the record well-formed, and is every event legal?"""

from __future__ import annotations

import argparse
import sys

from cardlogic.literature import scan_record


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "check", help="check a game record's notation and the legality of every event",
        description="Read a game record and replay it: with every hand (full record) under all the rules, with the "
                    "Me player's hand (a view) as far as that hand tells, else as far as public information tells. "
                    "Prints RECORD:LINE: message for every malformed line and every illegal event (checking goes on "
                    "past each, skipping it) and exits 1; otherwise prints a short ok line.")
    parser.add_argument("record", help="game record file")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    path = args.record
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except (OSError, UnicodeDecodeError) as error:
        print(f"{path}: {getattr(error, 'strerror', None) or error}", file=sys.stderr)
        return 1
    record, problems = scan_record(text)
    if record is not None:
        problems = sorted(problems + record.check(), key=lambda problem: problem.line)
    for line, message in problems:
        print(f"{path}:{line}: {message}", file=sys.stderr)
    if problems:
        return 1
    assert record is not None
    print(f"{path}: ok, {len(record.events)} events")
    return 0
