"""The console a command prints its tables through, and the one way its messages to a person fit the terminal."""

from __future__ import annotations

import itertools
import os
import re
import sys
import textwrap
from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING, TextIO

from rich.console import Console

if TYPE_CHECKING:
    from rich.table import Table


class CommandConsole(Console):
    """A rich console for a command's output that ends quietly when its reader leaves early (``| head``).

    The command then exits 0, as it does when a plain print meets the closed pipe; rich alone exits 1.
    """

    def on_broken_pipe(self) -> None:
        self.quiet = True
        # what is still buffered for standard output goes nowhere, so that Python's last flush does not fail too
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        raise BrokenPipeError


def titled_table(title: str | None, columns: Sequence[str], left: Collection[str] = ()) -> Table:
    """An empty table under ``title`` (justified left; None: none, for one :func:`print_title` prints above it)
    with ``columns``: the first and those in ``left`` aligned left (names), the others right (numbers)."""
    from rich.table import Table

    table = Table(title=title, title_justify="left")
    for column in columns:
        table.add_column(column, justify="left" if column == columns[0] or column in left else "right")
    return table


SHORTEST_NAME = 8
"""The fewest characters :func:`print_title` cuts a name to, its ellipsis included: any fewer would not say who."""


def print_title(console: Console, name: str, rest: str) -> None:
    """Print ``name + rest``, the title of the table printed next, on one line of ``console`` (a table's own title
    wraps at the table's width, however narrow): a player's ``name`` too long for it is cut short, ending in an
    ellipsis. Where even :data:`SHORTEST_NAME` characters of it leave too little room, the title wraps between
    words, the name whole."""
    from rich.text import Text

    room = console.width - len(rest)
    shown = name if len(name) <= room or room < SHORTEST_NAME else name[: room - 1] + "…"
    console.print(Text(shown + rest, style="table.title"))


HEADER_WIDTH = 12
"""The widest a player's column grows: a longer name folds onto more lines of its header, where it would push
the others onto pages of their own."""


def column_pages(headers: Sequence[str], fixed: int, width: int) -> list[list[int]]:
    """The holders' columns of ``headers`` (of probabilities) split into the fewest groups of near-equal size, in
    order, whose tables fit ``width`` beside the columns that every page repeats, ``fixed`` characters wide."""
    room = width - 1 - fixed  # a column takes its width, 2 of padding and a rule
    needs = [min(max(len(header), len("0.000")), HEADER_WIDTH) + 3 for header in headers]
    players = len(headers)
    for count in range(1, players + 1):
        bounds = [round(players * page / count) for page in range(count + 1)]
        pages = [list(range(start, end)) for start, end in itertools.pairwise(bounds)]
        if all(sum(needs[p] for p in page) <= room for page in pages):
            return pages
    return [[player] for player in range(players)]


_NO_BREAK = "\u00a0"
"""A no-break space: :func:`wrap` joins a name to its number with it while it breaks lines (textwrap breaks only
at ASCII whitespace), and prints it as a plain space."""


def wrap(text: str, width: int, names: Collection[str] = ()) -> str:
    """``text`` with every line longer than ``width`` broken between words, continuations indented by two; never
    between one of ``names`` and the number after it (``Bartholomew 12``: a score or a count of cards), nor before
    a ``|`` between parts (it ends a line rather than starts one)."""
    bound = re.compile(rf"(?<!\S)({'|'.join(map(re.escape, names))}) (?=\d+(?!\S))") if names else None
    out = []
    for line in text.split("\n"):
        if len(line) <= width:
            out.append(line)
            continue
        indent = " " * (len(line) - len(line.lstrip()) + 2)
        kept = (line if bound is None else bound.sub(rf"\1{_NO_BREAK}", line)).replace(" | ", f"{_NO_BREAK}| ")
        filled = textwrap.fill(kept, width, subsequent_indent=indent, break_long_words=False, break_on_hyphens=False)
        out.append(filled.replace(_NO_BREAK, " "))
    return "\n".join(out)


def terminal_width(stream: TextIO) -> int | None:
    """The width of the terminal ``stream`` writes to; None when it writes to anything else (a pipe, a file) or the
    terminal does not say (a width of 0)."""
    try:
        return (os.get_terminal_size(stream.fileno()).columns or None) if stream.isatty() else None
    except (OSError, ValueError):
        return None


def echo(text: str, file: TextIO | None = None, names: Collection[str] = ()) -> None:
    """Print ``text`` to ``file`` (default standard output) and flush: on a terminal wrapped between words to its
    width (never between one of ``names`` and its number), elsewhere (a pipe, a file) each line whole, as a program
    reading it expects."""
    stream = file or sys.stdout
    width = terminal_width(stream)
    print(text if width is None else wrap(text, width, names), file=stream, flush=True)
