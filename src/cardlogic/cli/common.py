"""What the subcommands share: reading a record (and its belief), reporting problems as ``FILE:LINE: message``."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from cardlogic.belief import Belief
from cardlogic.inference import InferenceError
from cardlogic.literature import Record, RecordError, read_record


STDIN = "-"
"""The RECORD argument that means standard input."""
RECORD_HELP = "game record file, or - for standard input"


def source_name(path: str) -> str:
    """How messages name the record at ``path``: ``<stdin>`` for :data:`STDIN`."""
    return "<stdin>" if path == STDIN else path


def read_text(path: str) -> str | None:
    """The text of the file ``path`` (standard input for ``-``), or None after printing why it cannot be read."""
    try:
        if path == STDIN:
            return sys.stdin.read()
        with open(path, encoding="utf-8") as handle:
            return handle.read()
    except (OSError, UnicodeDecodeError) as error:
        print(f"{source_name(path)}: {getattr(error, 'strerror', None) or error}", file=sys.stderr)
        return None


def load_record(path: str) -> Record | None:
    """The record in ``path`` (standard input for ``-``), or None after printing why it cannot be read."""
    text = read_text(path)
    if text is None:
        return None
    try:
        return read_record(text, source=source_name(path))
    except RecordError as error:
        report(path, error)
        return None


def report(path: str, error: RecordError) -> int:
    """Print ``path:line: message`` for ``error`` and return exit code 1."""
    print(f"{source_name(path)}:{error.line}: {error.message}", file=sys.stderr)
    return 1


def load_belief(path: str, **options) -> tuple[Record, Belief] | None:
    """The record in ``path`` and its observer's belief, or None after printing why they cannot be had.

    ``options`` go to :meth:`Belief.from_record`; a method that cannot answer (e.g. ``csp``
    on a game too large to enumerate) is reported like a bad record.
    """
    record = load_record(path)
    if record is None:
        return None
    try:
        return record, Belief.from_record(record, **options)
    except RecordError as error:
        report(path, error)
    except InferenceError as error:
        print(f"{source_name(path)}: {error}", file=sys.stderr)
    return None


def at_least(minimum: int, what: str) -> Callable[[str], int]:
    """An argparse type: an integer of at least ``minimum``, else an error naming ``what`` was expected."""
    def parse(text: str) -> int:
        value = int(text)
        if value < minimum:
            raise argparse.ArgumentTypeError(f"expected {what}, not {text}")
        return value
    return parse
