"""The console a command prints its tables through."""

from __future__ import annotations

import os
import sys

from rich.console import Console


class CommandConsole(Console):
    """A rich console for a command's output that ends quietly when its reader leaves early (``| head``).

    The command then exits 0, as it does when a plain print meets the closed pipe; rich alone exits 1.
    """

    def on_broken_pipe(self) -> None:
        self.quiet = True
        # what is still buffered for standard output goes nowhere, so that Python's last flush does not fail too
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        raise BrokenPipeError
