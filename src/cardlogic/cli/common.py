"""What the subcommands share: reading a record file and reporting its problems as ``FILE:LINE: message``."""

from __future__ import annotations

import sys

from cardlogic.literature import Record, RecordError, read_record


def load_record(path: str) -> Record | None:
    """The record in ``path``, or None after printing why it cannot be read."""
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except OSError as error:
        print(f"{path}: {error.strerror or error}", file=sys.stderr)
        return None
    try:
        return read_record(text, source=path)
    except RecordError as error:
        report(path, error)
        return None


def report(path: str, error: RecordError) -> int:
    """Print ``path:line: message`` for ``error`` and return exit code 1."""
    print(f"{path}:{error.line}: {error.message}", file=sys.stderr)
    return 1
