"""``cardlogic fit RECORD... -o MODEL``: fit the players' styles of choosing to full game records."""

from __future__ import annotations

import argparse
import sys

from cardlogic.cli.common import parse_record, plural, read_text, report, source_name
from cardlogic.files import WriteRefusedError, check_writable, write_owned
from cardlogic.literature import RecordError
from cardlogic.literature.choices import DEFAULT_STYLES, ChoiceModelError, PlayerStyles, fit, fitting_game


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "fit",
        help="fit the players' styles of choosing to full game records",
        description="Fit the weights of the players' styles behind --prior players (docs/beliefs.md: every style at "
        "once, each player's choices mixed over them) by maximum likelihood to full records (every starting hand "
        "given), and write them as JSON.",
    )
    parser.add_argument("records", nargs="+", metavar="RECORD", help="full game record files")
    parser.add_argument("-o", "--output", required=True, metavar="MODEL", help="the model file to write")
    parser.add_argument("--force", action="store_true", help="overwrite MODEL if it exists")
    parser.add_argument(
        "--start", metavar="MODEL", help="start from this model's or these styles' weights (default: the shipped ones)"
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    try:  # before the fit, not after
        check_writable(args.output, force=args.force)
    except WriteRefusedError as error:
        print(f"cardlogic fit: {error}", file=sys.stderr)
        return 1
    start = DEFAULT_STYLES
    if args.start:
        text = read_text(args.start)  # says why a file cannot be read, one that is not UTF-8 too
        if text is None:
            return 1
        try:
            start = PlayerStyles.from_json(text, source_name(args.start))
        except ChoiceModelError as error:
            print(error, file=sys.stderr)
            return 1
    games = []
    events = 0
    for path in args.records:
        record = parse_record(path)
        if record is None:
            return 1
        if not record.is_full:
            print(f"{source_name(path)}:1: not a full record: fitting needs every starting hand", file=sys.stderr)
            return 1
        try:
            record.replay()
        except RecordError as error:
            return report(path, error)
        games.append(fitting_game(record))
        events += len(record.events)
    described = f"maximum likelihood on {plural(len(games), 'record')} ({plural(events, 'event')})"
    styles = fit(start, games, described)
    write_owned(args.output, styles.to_json(), force=args.force)
    for name, model in zip(styles.names, styles.models):
        weights = ", ".join(f"{weight} {getattr(model, weight):+.2f}" for weight in model.WEIGHTS)
        print(f"{args.output}: {described}: {name}: {weights}")
    return 0
