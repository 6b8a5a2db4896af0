"""The console a command prints its tables through."""

from __future__ import annotations

import os
import sys
from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING

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


def titled_table(title: str, columns: Sequence[str], left: Collection[str] = ()) -> Table:
    """An empty table under ``title`` (justified left) with ``columns``: the first and those in ``left`` aligned
    left (names), the others right (numbers)."""
    from rich.table import Table

    table = Table(title=title, title_justify="left")
    for column in columns:
        table.add_column(column, justify="left" if column == columns[0] or column in left else "right")
    return table
