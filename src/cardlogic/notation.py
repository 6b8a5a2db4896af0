"""What every game's record notation shares: a problem at a line, and the error that reports it.

Each game reads and writes its own records (:mod:`cardlogic.literature.record`,
:mod:`cardlogic.knektpass.record`); both report problems the same way, as
``SOURCE:LINE: message``:

>>> str(RecordError(7, "unknown player 'Zed'", source="game.txt"))
"game.txt:7: unknown player 'Zed'"
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple


class Problem(NamedTuple):
    """What is wrong at ``line`` (1-based; 0 for the record as a whole)."""

    line: int
    message: str


class RecordError(ValueError):
    """A record that cannot be read or replayed: ``line`` (1-based, 0 for the whole record) and ``message``.

    ``problems`` lists every problem found, first one first; ``source`` names the
    record (a file name) in ``str(error)``.
    """

    def __init__(self, line: int, message: str, source: str = "<record>",
                 problems: Sequence[Problem] = ()) -> None:
        super().__init__(f"{source}:{line}: {message}" if line else f"{source}: {message}")
        self.line = line
        self.message = message
        self.source = source
        self.problems = list(problems) or [Problem(line, message)]
