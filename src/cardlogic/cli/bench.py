"""``cardlogic bench``: the benchmark suite (also ``python benchmarks/run.py``), a table and optional JSON."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path

from cardlogic.files import WriteRefusedError, check_writable, write_owned

DEFAULT_SCENARIOS = Path("benchmarks") / "scenarios"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The suite's options, shared by ``cardlogic bench`` and ``benchmarks/run.py``."""
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument(
        "--quick",
        action="store_const",
        const="quick",
        dest="mode",
        help="fewer repeats and smaller samples: about four minutes on 2 cores",
    )
    mode.add_argument(
        "--smoke",
        action="store_const",
        const="smoke",
        dest="mode",
        help="a few scenarios, a few seconds: checks that the suite runs (for tests and CI)",
    )
    parser.add_argument(
        "--json", metavar="FILE", help="also write the results as JSON to FILE (a new file or an earlier run's)"
    )
    parser.add_argument(
        "--results",
        metavar="FILE",
        help="also write the results page in Markdown to FILE (benchmarks/RESULTS.md; a new file or an earlier page)",
    )
    parser.add_argument(
        "--from-json", metavar="FILE", help="measure nothing: report the results of an earlier run's JSON FILE"
    )
    parser.add_argument(
        "--force", action="store_true", help="let --json and --results replace a file that is not an earlier run's"
    )
    parser.add_argument("--markdown", action="store_true", help="print the tables as Markdown")
    parser.add_argument(
        "--scenarios",
        metavar="DIR",
        type=Path,
        default=DEFAULT_SCENARIOS,
        help=f"directory of scenario records (default {DEFAULT_SCENARIOS})",
    )
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.set_defaults(mode="full", handler=run)


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "bench",
        help="run the benchmark suite",
        description="Measure the exact backend, the numba sampler, the python-constraint2 oracle, a naive rejection "
        "sampler, advice latency, CLI cold start and peak memory on the stored scenario records, print "
        "the targets (met or not) and every figure. Run it from a checkout (it reads "
        "benchmarks/scenarios). The comparison with the PyPI literature package needs the test extra: "
        "pip install 'cardlogic[test]'.",
    )
    add_arguments(parser)


def run(args: argparse.Namespace) -> int:
    from cardlogic.bench.report import markdown, print_report, results_page
    from cardlogic.bench.scenarios import load_scenarios
    from cardlogic.bench.suite import PLANS, run_suite

    if args.from_json:
        try:
            text = Path(args.from_json).read_text(encoding="utf-8")
        except (OSError, ValueError) as error:
            print(f"cardlogic bench: cannot read {args.from_json}: {error}", file=sys.stderr)
            return 1
        if not _earlier_results(text):
            print(f"cardlogic bench: {args.from_json} is not {RESULTS}", file=sys.stderr)
            return 1
        results = json.loads(text)
    elif not args.scenarios.is_dir():
        print(
            f"cardlogic bench: no scenario directory {args.scenarios} (run from a checkout, or give --scenarios)",
            file=sys.stderr,
        )
        return 1
    else:
        try:  # before minutes of measuring: a folder without scenarios, or a file in it that is not one
            load_scenarios(args.scenarios)
        except (OSError, ValueError) as error:
            print(f"cardlogic bench: {error}", file=sys.stderr)
            return 1
    outputs: list[tuple[str, Callable[[str], bool], str, Callable[[dict], str]]] = []  # path, owned by us, contents
    if args.json:
        outputs.append((args.json, _earlier_results, RESULTS, lambda found: json.dumps(found, indent=1) + "\n"))
    if args.results:
        outputs.append((args.results, _earlier_page, "an earlier results page", results_page))
    try:  # before minutes of measuring, not after
        for path, owned, own, _ in outputs:
            check_writable(path, owned, force=args.force, own=own)
    except WriteRefusedError as error:
        print(f"cardlogic bench: {error}", file=sys.stderr)
        return 1
    if not args.from_json:
        results = run_suite(args.scenarios, PLANS[args.mode], progress=not args.no_progress)
    for path, owned, own, contents in outputs:
        write_owned(path, contents(results), owned, force=args.force, own=own)
    if args.markdown:
        sys.stdout.write(markdown(results))
    else:
        print_report(results)
    return 0


def main(argv: list[str] | None = None) -> int:
    """``benchmarks/run.py``: the same options as ``cardlogic bench``."""
    parser = argparse.ArgumentParser(prog="benchmarks/run.py", description="Run the cardlogic benchmark suite.")
    add_arguments(parser)
    args = parser.parse_args(argv)
    return args.handler(args)


RESULTS = "the JSON of a run of the suite"
"""What ``--json`` writes, and the only JSON ``--from-json`` reads or ``--json`` replaces."""


def _earlier_results(text: str) -> bool:
    """Whether ``text`` is the suite's own JSON, which a new run may replace."""
    try:
        earlier = json.loads(text)
    except ValueError:
        return False
    return isinstance(earlier, dict) and earlier.get("suite") == "cardlogic-bench"


def _earlier_page(text: str) -> bool:
    """Whether ``text`` is a results page the suite wrote, which a new one may replace."""
    from cardlogic.bench.report import RESULTS_TITLE

    return text.startswith(RESULTS_TITLE)
