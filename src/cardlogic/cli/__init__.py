"""The ``cardlogic`` command line: one module per subcommand, each with ``register(subparsers)``.

A subcommand's handler returns the exit code. Input problems are reported as
``FILE:LINE: message`` on standard error with exit code 1 (``<stdin>`` for a
RECORD given as ``-``); a bad option is a usage error with exit code 2.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import signal
import sys
import threading
from collections.abc import Iterator, Sequence

from cardlogic import __version__

# Subcommand modules under cardlogic.cli, in the order ``--help`` lists them.
COMMANDS: tuple[str, ...] = (
    "check",
    "simulate",
    "view",
    "belief",
    "live",
    "advise",
    "fit",
    "tournament",
    "sprt",
    "bench",
    "knektpass",
    "serve",
    "warmup",
    "resident",
)


def build_parser(argv: Sequence[str] = ()) -> argparse.ArgumentParser:
    """The parser of every subcommand, or only of the one ``argv`` starts with (its module alone is imported: the
    others' imports cost a tenth of a second or more at start-up)."""
    from cardlogic.cli.common import Parser

    parser = Parser(
        prog="cardlogic", description="Exact reasoning about hidden cards in Literature (Fish) and Knektpass."
    )
    parser.add_argument("--version", action="version", version=f"cardlogic {__version__}")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    named = argv[0] if argv else None
    for name in (named,) if named in COMMANDS else COMMANDS:
        importlib.import_module(f"cardlogic.cli.{name}").register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``cardlogic ARGV`` (default: the command line's) and return its exit code.

    From the command line (no ``argv``), a command a resident server runs goes to this installation's server when
    one listens, and otherwise runs here and starts one for next time (:mod:`cardlogic.cli.resident`).
    """
    if argv is not None:
        return _run(argv)
    from cardlogic.cli import resident

    argv = sys.argv[1:]
    try:
        code = resident.forward(argv)
    except KeyboardInterrupt:
        print("\ncardlogic: interrupted", file=sys.stderr)
        return INTERRUPTED
    if code is not None:
        return code
    code = _run(argv)
    if resident.is_resident(argv):
        resident.start_in_background()
    return code


def _run(argv: Sequence[str]) -> int:
    try:  # everything heavy is imported in here, so that Ctrl-C while the command starts is caught too
        _import_numba_arrays_without_scipy()
        args = build_parser(argv).parse_args(argv)
        return args.handler(args)
    except BrokenPipeError:
        sys.stderr.close()
        return 0
    except (KeyboardInterrupt, SystemError) as error:
        code = interrupt_code(error)
        if code is None:
            raise
        # Ctrl-C or SIGTERM while the command starts or runs (live says itself what it saved)
        print("\ncardlogic: interrupted", file=sys.stderr)
        return code


INTERRUPTED = 130
"""The exit code of a command stopped by Ctrl-C, as a shell gives a process that SIGINT ended (128 + 2)."""
TERMINATED = 143
"""The exit code of a command stopped by SIGTERM (``kill PID``), as a shell gives a process that SIGTERM ended
(128 + 15)."""


class Terminated(KeyboardInterrupt):
    """SIGTERM (``kill PID``), raised where the command stands so that it stops as Ctrl-C stops it (with exit code
    :data:`TERMINATED` instead of :data:`INTERRUPTED`)."""


def interrupt_code(error: BaseException) -> int | None:
    """The exit code of a command that ``error`` stopped: :data:`TERMINATED` for SIGTERM (:class:`Terminated`),
    :data:`INTERRUPTED` for Ctrl-C (a KeyboardInterrupt, or the SystemError numba raises around one that arrived
    while a compiled function was called or loaded from the cache); None for any other error."""
    seen: BaseException | None = error
    while seen is not None:
        if isinstance(seen, KeyboardInterrupt):
            return TERMINATED if isinstance(seen, Terminated) else INTERRUPTED
        seen = seen.__cause__ or seen.__context__
    return None


@contextlib.contextmanager
def stopped_by_sigterm_as_by_ctrl_c() -> Iterator[None]:
    """Let SIGTERM stop the block as Ctrl-C does, with :class:`Terminated`: what the block holds (an autosave's
    lock) is let go on the way out instead of being left behind by a process ended where it stood, and the command
    exits with :data:`TERMINATED`. Only in the main thread, where Python handles signals, and only while SIGTERM
    has its default action."""
    if threading.current_thread() is not threading.main_thread() or signal.getsignal(signal.SIGTERM) != signal.SIG_DFL:
        yield
        return

    def terminate(_number: int, _frame: object) -> None:
        raise Terminated

    signal.signal(signal.SIGTERM, terminate)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _import_numba_arrays_without_scipy() -> None:
    """Import numba's array functions while SciPy is hidden.

    The first kernel a command loads makes numba import ``numba.np.arraymath``,
    which imports ``scipy.linalg``, where installed, to look for a BLAS: about half
    a second of start-up, for linear algebra that no cardlogic kernel uses. With
    ``scipy.linalg`` hidden for that one import numba notes that there is no BLAS;
    it stays importable (the ``literature`` package behind the benchmarks uses it).
    """
    if "scipy.linalg" in sys.modules or "numba.np.arraymath" in sys.modules:
        return
    sys.modules["scipy.linalg"] = None  # type: ignore[assignment]  # `import scipy.linalg...` raises ImportError
    try:
        importlib.import_module("numba.np.arraymath")
    finally:
        del sys.modules["scipy.linalg"]
