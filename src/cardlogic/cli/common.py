"""What the subcommands share: reading a record (and its belief), reporting problems as ``FILE:LINE: message``,
the types of numeric options and the help layout."""

from __future__ import annotations

import argparse
import contextlib
import logging
import sys
import textwrap
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, TypeVar

from cardlogic.arguments import MAX_DRAWN_DEALS, MAX_SAMPLES, MAX_SEED
from cardlogic.belief import Marginals
from cardlogic.cli.console import echo
from cardlogic.inference import InferenceError
from cardlogic.literature import Record, RecordError, read_record
from cardlogic.literature.belief import DEFAULT_PRIOR, PRIORS, LiteratureBelief, check_record
from cardlogic.literature.rules import MAX_PLAYERS, MIN_PLAYERS

if TYPE_CHECKING:
    from rich.progress import Progress, ProgressColumn

STDIN = "-"
"""The RECORD argument that means standard input."""
RECORD_HELP = "game record file, or - for standard input"


def source_name(path: str) -> str:
    """How messages name the record at ``path``: ``<stdin>`` for :data:`STDIN`."""
    return "<stdin>" if path == STDIN else path


MAX_RECORD_CHARACTERS = 1_000_000
"""The longest record a command reads: about 40,000 events, checked in about 2 s (a whole game of either game
writes a few thousand characters); reading is linear, but a longer file is most likely not a record."""


def read_text(path: str) -> str | None:
    """The text of the file ``path`` (standard input for ``-``), or None after printing why it cannot be read
    (also when it is longer than :data:`MAX_RECORD_CHARACTERS`)."""
    try:
        if path == STDIN:
            text = sys.stdin.read(MAX_RECORD_CHARACTERS + 1)
        else:
            with open(path, encoding="utf-8") as handle:
                text = handle.read(MAX_RECORD_CHARACTERS + 1)
    except UnicodeDecodeError as error:
        print(_not_utf8(path, error), file=sys.stderr)
        return None
    except OSError as error:
        print(f"{source_name(path)}: {error.strerror or error}", file=sys.stderr)
        return None
    if len(text) > MAX_RECORD_CHARACTERS:
        print(
            f"{source_name(path)}: longer than {MAX_RECORD_CHARACTERS:,} characters, the most a record may have",
            file=sys.stderr,
        )
        return None
    return text


def _not_utf8(path: str, error: UnicodeDecodeError) -> str:
    """``path:LINE: message`` for the first byte of ``path`` that is not UTF-8, as Notepad's "ANSI" or a binary file
    has (``error``'s position counts from the block being decoded, not from the file's start)."""
    line = 0
    if path != STDIN:
        with contextlib.suppress(OSError):
            with open(path, "rb") as handle:
                data = handle.read(4 * MAX_RECORD_CHARACTERS)  # a character is at most 4 bytes
            try:
                data.decode("utf-8")
            except UnicodeDecodeError as found:
                error, line = found, data.count(b"\n", 0, found.start) + 1
    where = f"{source_name(path)}:{line}" if line else source_name(path)
    return f"{where}: not UTF-8 text (byte 0x{error.object[error.start]:02x}): save the record as UTF-8"


def parse_record(path: str) -> Record | None:
    """The record in ``path`` (standard input for ``-``), read but not yet replayed, or None after printing why
    it cannot be read: for a command that builds a belief from it at once, which checks it
    (:meth:`LiteratureBelief.from_record`)."""
    text = read_text(path)
    if text is None:
        return None
    try:
        return read_record(text, source=source_name(path))
    except RecordError as error:
        report(path, error)
        return None


def load_record(path: str) -> Record | None:
    """The record in ``path``, checked as ``cardlogic check`` checks it (:func:`check_record`), or None after
    printing its first problem."""
    record = parse_record(path)
    if record is None:
        return None
    try:
        check_record(record)
    except RecordError as error:
        report(path, error)
        return None
    except InferenceError as error:
        print(f"{source_name(path)}: {error}", file=sys.stderr)
        return None
    return record


def report(path: str, error: RecordError) -> int:
    """Print ``path:line: message`` for ``error`` (``path: message`` for the whole record) and return exit code 1."""
    name = source_name(path)
    echo(f"{name}:{error.line}: {error.message}" if error.line else f"{name}: {error.message}", file=sys.stderr)
    return 1


def load_belief(path: str, **options) -> tuple[Record, LiteratureBelief] | None:
    """The record in ``path`` and its observer's belief, or None after printing why they cannot be had.

    ``options`` go to :meth:`LiteratureBelief.from_record`; a method that cannot answer (e.g. ``csp``
    on a game too large to enumerate) is reported like a bad record.
    """
    record = parse_record(path)
    if record is None:
        return None
    try:
        return record, LiteratureBelief.from_record(record, **options)
    except RecordError as error:
        report(path, error)
    except InferenceError as error:
        print(f"{source_name(path)}: {error}", file=sys.stderr)
    return None


def plural(count: int, noun: str) -> str:
    """``count`` ``noun``s, in words: ``1 event``, ``2 events``, ``8,655 consistent deals``.

    >>> plural(1, "consistent deal"), plural(8655, "consistent deal")
    ('1 consistent deal', '8,655 consistent deals')
    """
    return f"{count:,} {noun}{'' if count == 1 else 's'}"


def how_worked_out(marginals: Marginals) -> str:
    """How ``marginals`` were worked out, for the line under their table: counted exactly over the consistent deals,
    or sampled (by an MCMC chain where the exact tables would not fit)."""
    if marginals.count is not None:
        return f"{marginals.method} over {plural(marginals.count, 'consistent deal')}"
    chain = " by an MCMC chain" if marginals.method == "mcmc" else ""
    return f"sampled from {plural(marginals.samples, 'deal')}{chain}"


def at_least(minimum: int, what: str, maximum: int | None = None) -> Callable[[str], int]:
    """An argparse type: an integer from ``minimum`` (to ``maximum``), else a usage error saying ``what`` was expected.

    >>> at_least(1, "a positive number of games")("3")
    3
    """

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = None
        if value is None or value < minimum or (maximum is not None and value > maximum):
            raise argparse.ArgumentTypeError(f"expected {what}, not {text!r}")
        return value

    return parse


SEED = at_least(0, f"a seed from 0 to {MAX_SEED}", MAX_SEED)
PLAYERS = at_least(MIN_PLAYERS, f"a number of players from {MIN_PLAYERS} to {MAX_PLAYERS}", MAX_PLAYERS)
SAMPLES = at_least(1, f"a number of deals from 1 to {MAX_SAMPLES:,}", MAX_SAMPLES)
DRAWN_DEALS = at_least(1, f"a number of deals from 1 to {MAX_DRAWN_DEALS:,}", MAX_DRAWN_DEALS)
"""The deals a command draws whole, to solve each (Knektpass advice's ``--samples``): as many as
:meth:`~cardlogic.belief.Belief.sample` returns at most."""


class HelpFormatter(argparse.HelpFormatter):
    """argparse's formatter, wrapping at spaces only, so ``high-double=on`` or ``low-spades`` is never split."""

    def _split_lines(self, text: str, width: int) -> list[str]:
        return textwrap.wrap(self._whitespace_matcher.sub(" ", text).strip(), width, break_on_hyphens=False)

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        return textwrap.fill(
            self._whitespace_matcher.sub(" ", text).strip(),
            width,
            initial_indent=indent,
            subsequent_indent=indent,
            break_on_hyphens=False,
        )


class Parser(argparse.ArgumentParser):
    """An argument parser whose help (and its subcommands' help) uses :class:`HelpFormatter` unless told otherwise."""

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("formatter_class", HelpFormatter)
        super().__init__(*args, **kwargs)


DEFAULT_JOBS = 1
"""Local processes a command plays in unless told (``--jobs``): the same for every command; results do not
depend on it."""


def add_workers_arguments(parser: argparse.ArgumentParser) -> None:
    """``--jobs N`` or ``--scheduler ADDRESS``: where a command plays its games (see
    :class:`cardlogic.dispatch.Workers`)."""
    where = parser.add_mutually_exclusive_group()
    where.add_argument(
        "--jobs",
        type=at_least(1, "a number of processes, 1 or more"),
        default=DEFAULT_JOBS,
        metavar="N",
        help=f"local processes to play in parallel (default {DEFAULT_JOBS}); results do not depend on it",
    )
    where.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="play on the Dask cluster whose scheduler is at ADDRESS (e.g. tcp://10.0.0.5:8786 or "
        "tls://...); results are the same as locally. Needs pip install 'cardlogic[cluster]'",
    )


CLUSTER_LOGGERS = ("distributed", "tornado", "asyncio", "concurrent.futures")
"""The loggers a Dask client writes through: ``distributed``'s own, and those of the tornado and asyncio loops
its connections run on and of the futures it resolves (a connection reset, a task's error never retrieved)."""


@contextlib.contextmanager
def cluster_logs_silenced(scheduler: str | None) -> Iterator[None]:
    """While a command plays on the Dask cluster at ``scheduler`` (None: locally, and nothing changes), no log line
    of :data:`CLUSTER_LOGGERS` or their children reaches the terminal: whatever goes wrong there reaches the command
    as an error (:class:`~cardlogic.dispatch.SchedulerLost`, a task's error), which it reports in one line. The
    loggers' levels are restored on leaving."""
    if scheduler is None:
        yield
        return
    with contextlib.suppress(ImportError):  # without distributed, Workers says what to install
        import distributed  # noqa: F401 -- it sets its loggers' levels as it is first imported: silence them after
    children = tuple(f"{name}." for name in CLUSTER_LOGGERS)  # some have levels of their own (distributed.client)
    names = {*CLUSTER_LOGGERS, *(name for name in logging.Logger.manager.loggerDict if name.startswith(children))}
    loggers = [logging.getLogger(name) for name in sorted(names)]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.CRITICAL + 1)
    try:
        yield
    finally:
        for logger, level in zip(loggers, levels):
            logger.setLevel(level)


def progress_bar(*columns: ProgressColumn) -> Progress:
    """A progress bar of ``columns`` on standard error, gone once done; none where standard error is not a
    terminal (a log file, a pipe), where rich would leave an empty line."""
    from rich.console import Console
    from rich.progress import Progress

    console = Console(stderr=True)
    return Progress(*columns, console=console, transient=True, disable=not console.is_terminal)


Held = TypeVar("Held")
Played = TypeVar("Played")


def play_with_progress(
    command: str,
    description: str,
    games: int,
    scheduler: str | None,
    within: contextlib.AbstractContextManager[Held],
    play: Callable[[Held, Callable[[int], None]], Played],
    show: Callable[[Played], None],
    columns: tuple[ProgressColumn, ...],
) -> int:
    """Play ``games`` games by ``play(held, advance)`` (``held`` what entering ``within`` gives, before the bar:
    the workers; ``advance(n)`` as ``n`` more are done) under a progress bar of ``columns`` on standard error, with
    the cluster's logs silenced (:func:`cluster_logs_silenced`), and ``show`` the result; the exit code. A
    :class:`~cardlogic.dispatch.ClusterError` is printed as ``cardlogic COMMAND: error`` (and the games finished
    before a lost scheduler shown): exit code 1."""
    from cardlogic.dispatch import ClusterError, SchedulerLost

    try:
        with (
            cluster_logs_silenced(scheduler),
            within as held,
            progress_bar(*columns) as progress,
        ):
            task = progress.add_task(description, total=games)
            result = play(held, lambda n: progress.advance(task, n))
    except ClusterError as error:
        print(f"cardlogic {command}: {error}", file=sys.stderr)
        if isinstance(error, SchedulerLost) and error.result is not None and error.result.games:
            show(error.result)  # the games finished before it went away
        return 1
    show(result)
    return 0


WEIGHED = "the rules' deals weighed by the players' choices"
"""What the players' prior's effective sample size is of, in a caption."""
DRAWN = "drawn from those by weight"
"""How the deals a caption's figures count came from the rules' deals weighed."""


def add_deals_argument(parser: argparse.ArgumentParser, default: int, game: str = "") -> None:
    """``--deals N``: the rules' deals the players' prior draws first in a position (``LiteratureBelief(deals=...)``;
    it draws more while their weights leave too few effective deals); ``game`` names the game it is for where a
    command serves two."""
    parser.add_argument(
        "--deals",
        type=SAMPLES,
        default=default,
        metavar="N",
        help=f"{game}the rules' deals the players' prior draws first in a position (default {default:,}, at most "
        "the deals its figures count); it draws more while their weights leave too few effective deals, up to a "
        "fixed amount of work. More: sharper chances, more slowly",
    )


def add_prior_argument(
    parser: argparse.ArgumentParser,
    priors: tuple[str, ...] = PRIORS,
    default: str | None = DEFAULT_PRIOR,
    rules: str = "every consistent deal equally likely, exact",
    players: str = "how the players chose, docs/beliefs.md",
    default_said: str | None = None,
) -> None:
    """``--prior rules|players``: the prior over deals, Literature's unless told (see
    :mod:`cardlogic.literature.belief`); ``rules`` and ``players`` say what each means in the help, and
    ``default_said`` what the default is where ``default`` (None: each game's own) does not."""
    parser.add_argument(
        "--prior",
        choices=priors,
        default=default,
        help=f"prior over deals: rules ({rules}) or players (deals weighted by {players}); "
        f"default {default_said or default}",
    )
