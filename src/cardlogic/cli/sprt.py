"""``cardlogic sprt --bots A,B``: a sequential probability ratio test over paired games, run until it decides."""

from __future__ import annotations

import argparse
import json
import math
import sys

from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn

from cardlogic.cli.common import at_least, cluster_logs_silenced, progress_bar
from cardlogic.cli.tournament import BOTS_HELP, add_match_arguments, match_from, print_result
from cardlogic.dispatch import ClusterError, Workers
from cardlogic.rating import MIN_PAIRS, SPRT, SPRTResult


def _rate(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = None
    if value is None or not 0.0 < value < 0.5:
        raise argparse.ArgumentTypeError(f"expected an error rate between 0 and 0.5, not {text!r}")
    return value


def _elo(text: str) -> float:
    """An Elo difference: a finite number (an infinite one made every bound meaningless: "by inf Elo or more")."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"expected an Elo difference, a finite number, not {text!r}")
    return value


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "sprt",
        help="test whether bot A is stronger than bot B, with as many paired games as it takes",
        description="A sequential probability ratio test (as Stockfish's Fishtest runs them) of H1: A is ELO1 Elo "
        "stronger than B, against H0: ELO0. Games come in pairs on the same deal with the teams "
        "swapped; a pair's score is A's mean (win 1, tie 1/2, loss 0). After each pair the "
        "log-likelihood ratio (the generalized SPRT's normal approximation) is compared with "
        "ln(beta/(1-alpha)) and ln((1-beta)/alpha); the test stops when it leaves that band (after at "
        f"least {MIN_PAIRS} pairs) or after MAX games. Games are played ahead in parallel, locally or "
        "on a Dask cluster, and read in order, so the result depends only on the seed. Bots: " + BOTS_HELP + ".",
    )
    add_match_arguments(parser)
    parser.add_argument("--elo0", type=_elo, default=0.0, help="H0: A's Elo advantage (default 0)")
    parser.add_argument("--elo1", type=_elo, default=20.0, help="H1: A's Elo advantage (default 20)")
    parser.add_argument("--alpha", type=_rate, default=0.05, help="P(accept H1 | H0) (default 0.05)")
    parser.add_argument("--beta", type=_rate, default=0.05, help="P(accept H0 | H1) (default 0.05)")
    parser.add_argument(
        "--max-games",
        type=at_least(2 * MIN_PAIRS, f"a number of games, {2 * MIN_PAIRS} or more"),
        default=20_000,
        metavar="MAX",
        help="stop undecided after MAX games (default 20000)",
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    match = match_from(args, "sprt")
    if match is None:
        return 2
    try:
        test = SPRT(args.elo0, args.elo1, args.alpha, args.beta)
    except ValueError as error:
        print(f"cardlogic sprt: {error}", file=sys.stderr)
        return 2
    lower, upper = test.bounds
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("LLR {task.fields[llr]:+.2f} in [{task.fields[lower]:.2f}, {task.fields[upper]:.2f}]"),
    )
    try:
        with (
            cluster_logs_silenced(args.scheduler),
            Workers(args.jobs, args.scheduler) as workers,
            progress_bar(*columns) as progress,
        ):
            task = progress.add_task(
                f"{args.bots[0]} v {args.bots[1]}", total=args.max_games, llr=0.0, lower=lower, upper=upper
            )
            outcome, played = match.sprt(
                test,
                workers,
                args.max_games,
                progress=lambda games, value: progress.update(task, completed=games, llr=value),
            )
    except ClusterError as error:
        print(f"cardlogic sprt: {error}", file=sys.stderr)
        return 1
    if args.json:
        json.dump({"sprt": as_json(outcome), "games": played.as_json()}, sys.stdout)
        print()
    else:
        print_result(played)
        print(verdict(outcome, args.bots))
    return 0


def as_json(outcome: SPRTResult) -> dict:
    """The test, where it stopped and A's Elo estimate with its 95% interval (null where infinite)."""
    test = outcome.test
    estimate, low, high = outcome.elo_interval()
    lower, upper = test.bounds
    return {
        "elo0": test.elo0,
        "elo1": test.elo1,
        "alpha": test.alpha,
        "beta": test.beta,
        "bounds": [lower, upper],
        "llr": outcome.llr,
        "decision": outcome.decision,
        "pairs": len(outcome.pairs),
        "games": 2 * len(outcome.pairs),
        "score": outcome.mean,
        "elo": [x if math.isfinite(x) else None for x in (estimate, low, high)],
    }


def elo_text(estimate: float, low: float, high: float) -> str:
    """The Elo estimate and its 95% interval in words, an infinite end said as such rather than printed."""
    if math.isinf(estimate):  # every pair won (or lost): the finite end bounds it
        bound = f"at least {low:+.0f}" if estimate > 0 else f"at most {high:+.0f}"
        return f"Elo beyond measure ({bound} at 95%)"
    if math.isinf(low) and math.isinf(high):
        return f"Elo {estimate:+.0f} (too few pairs for an interval)"
    if math.isinf(high):
        return f"Elo {estimate:+.0f} (95% {low:+.0f} or more)"
    if math.isinf(low):
        return f"Elo {estimate:+.0f} (95% {high:+.0f} or less)"
    return f"Elo {estimate:+.0f} (95% {low:+.0f} to {high:+.0f})"


def verdict(outcome: SPRTResult, bots: tuple[str, str]) -> str:
    """One line: what the test accepted, on what evidence."""
    test = outcome.test
    lower, upper = test.bounds
    evidence = (
        f"LLR {outcome.llr:+.3f}, bounds [{lower:.3f}, {upper:.3f}], alpha {test.alpha:g}, beta {test.beta:g}, "
        f"{len(outcome.pairs)} pairs; {bots[0]} scores {outcome.mean:.3f}, {elo_text(*outcome.elo_interval())}"
    )
    if outcome.decision == "H1":
        return f"H1 accepted: {bots[0]} is stronger than {bots[1]} by {test.elo1:g} Elo or more ({evidence})"
    if outcome.decision == "H0":
        return f"H0 accepted: {bots[0]} is not stronger than {bots[1]} by more than {test.elo0:g} Elo ({evidence})"
    return f"undecided: the games ran out before the test decided ({evidence})"
