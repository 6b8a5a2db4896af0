"""``cardlogic check RECORD``: is the record well-formed, is every event legal, and does some deal explain it?"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace

from cardlogic.cli.common import RECORD_HELP, plural, read_text, source_name
from cardlogic.inference import InferenceError
from cardlogic.literature import Problem, Record, RecordError, scan_record
from cardlogic.literature.belief import check_record


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "check",
        help="check a game record's notation, the legality of every event and that some deal explains it",
        description="Read a game record and replay it: with every hand (full record) under all the rules, with the "
        "Me player's hand (a view) as far as that hand tells, else as far as public information tells; "
        "for a view or a spectator's record, also check that some deal of the cards explains every "
        "event. Prints RECORD:LINE: message for every malformed line and for the first event that is "
        "illegal or that no deal explains (saying how many later events, which follow from it, were not "
        "checked) and exits 1; otherwise prints a short ok line.",
    )
    parser.add_argument("record", metavar="RECORD", help=RECORD_HELP)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    name = source_name(args.record)
    text = read_text(args.record)
    if text is None:
        return 1
    record, problems = scan_record(text)
    if record is not None:
        problems = first_problems(record, problems)
    for line, message in problems:
        print(f"{name}:{line}: {message}" if line else f"{name}: {message}", file=sys.stderr)
    if problems:
        return 1
    assert record is not None
    print(f"{name}: ok, {plural(len(record.events), 'event')}")
    return 0


def first_problems(record: Record, notation: list[Problem]) -> list[Problem]:
    """``notation`` (the malformed lines of ``record``'s text) with the first problem of replaying ``record``.

    A malformed line, an illegal event or an event that no deal explains leaves the
    position after it unknown, so the replay stops at the first of them; that problem
    says how many later events were therefore not checked.
    """
    first_line = notation[0].line if notation else None
    readable = sum(1 for line in record.lines if first_line is None or line < first_line)
    replayed = replace(record, events=record.events[:readable], lines=record.lines[:readable])
    problems = list(notation)
    try:
        check_record(replayed)
    except RecordError as error:
        problems.append(Problem(error.line, error.message))
    except InferenceError as error:
        return [Problem(0, f"cannot tell whether some deal explains the record: {error}"), *problems]
    problems.sort(key=lambda problem: problem.line)
    if problems:
        stop = problems[0]
        later = sum(1 for line in record.lines if line > stop.line)
        if later:
            follow = "that follows from it was" if later == 1 else "that follow from it were"
            problems[0] = Problem(
                stop.line, f"{stop.message} (and {plural(later, 'later event')} {follow} not checked)"
            )
    return problems
