"""``cardlogic tournament --bots A,B``: paired games between two bots' teams, with win rates and 95% intervals."""

from __future__ import annotations

import argparse
import json
import sys

from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from cardlogic.cli.common import PLAYERS, SEED, add_workers_arguments, at_least, play_with_progress
from cardlogic.cli.console import CommandConsole, titled_table
from cardlogic.dispatch import Workers
from cardlogic.literature import GameError, Rules
from cardlogic.literature.bots import BOTS
from cardlogic.literature.decks import DECK_NAMES
from cardlogic.literature.rules import MAX_PLAYERS, MIN_PLAYERS
from cardlogic.literature.tournament import Match, TournamentResult


def _bots(text: str) -> tuple[str, str]:
    names = tuple(name.strip() for name in text.split(","))
    unknown = [name for name in names if name not in BOTS]
    if unknown:
        raise argparse.ArgumentTypeError(f"unknown bot {unknown[0]!r} (expected one of {', '.join(BOTS)})")
    if len(names) != 2 or names[0] == names[1]:
        raise argparse.ArgumentTypeError(f"expected two different bots out of {', '.join(BOTS)}, as A,B")
    return names


BOTS_HELP = ", ".join(
    f"{name}, which CHEATS (it is given every hand: a reference for the ceiling, not a player)"
    if getattr(bot, "sees_every_hand", False)
    else name
    for name, bot in BOTS.items()
)
"""The bots by name for the help, the cheat labelled as such."""


def add_match_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of a match between two bots and where its games are played (shared with ``cardlogic sprt``)."""
    parser.add_argument(
        "--bots",
        type=_bots,
        required=True,
        metavar="A,B",
        help="the two bots, e.g. advisor,counting; out of " + BOTS_HELP,
    )
    parser.add_argument(
        "--players", type=PLAYERS, default=6, metavar="N", help=f"players, {MIN_PLAYERS} to {MAX_PLAYERS} (default 6)"
    )
    parser.add_argument("--seed", type=SEED, default=0, help="seed for the deals and the bots (default 0)")
    parser.add_argument("--deck", default="no-8s", choices=DECK_NAMES, help="deck variant (default no-8s)")
    parser.add_argument("--rules", default="", help='house rules, e.g. "wrong-claim=opponents high-double=on"')
    add_workers_arguments(parser)
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")


def match_from(args: argparse.Namespace, command: str) -> Match | None:
    """The match the options describe, or None after printing why the house rules are wrong."""
    try:
        rules = Rules.parse(args.rules)
    except GameError as error:
        print(f"cardlogic {command}: {error}", file=sys.stderr)
        return None
    return Match(args.bots, args.players, args.deck, str(rules), args.seed)


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "tournament",
        help="play two bots' teams against each other and report win rates",
        description="Play GAMES games between a team of bot A and a team of bot B (one bot per team, every seat of "
        "the team), in pairs on the same deal with the teams (so seats and the first move) swapped, and "
        "print win, tie and loss rates with 95% Wilson intervals, locally or on a Dask cluster. Bots: "
        + BOTS_HELP
        + ".",
    )
    add_match_arguments(parser)
    parser.add_argument(
        "--games",
        type=at_least(1, "a number of games, 1 or more"),
        default=100,
        metavar="GAMES",
        help="games to play (default 100)",
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    match = match_from(args, "tournament")
    if match is None:
        return 2
    return play_with_progress(
        "tournament",
        f"{args.bots[0]} v {args.bots[1]}",
        args.games,
        args.scheduler,
        Workers(args.jobs, args.scheduler),
        lambda workers, advance: match.tournament(args.games, workers, progress=advance),
        lambda result: show(result, args.json),
        (
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            TimeRemainingColumn(),
        ),
    )


def show(result: TournamentResult, as_json: bool) -> None:
    """Print ``result`` as JSON or as a table."""
    if as_json:
        json.dump(result.as_json(), sys.stdout)
        print()
    else:
        print_result(result)


def print_result(result: TournamentResult) -> None:
    summary = result.as_json()
    first, second = result.bots
    table = titled_table(
        f"{first} v {second}: {result.games} games, {result.players} players, deck {result.deck}, seed {result.seed}",
        ("result", "games", "rate", "95% interval"),
    )
    wins = summary["wins"]
    counts = {f"{first} wins": wins[first], "ties": summary["ties"], f"{second} wins": wins[second]}
    for label, rate in summary["rates"].items():
        table.add_row(label, str(counts[label]), f"{rate['rate']:.1%}", f"{rate['low']:.1%} - {rate['high']:.1%}")
    console = CommandConsole()
    console.print(table)
    console.print(
        f"average sets: {first} {result.points(first):.2f}, {second} {result.points(second):.2f}; "
        f"{summary['unfinished']} unfinished; {result.seconds:.1f} s"
    )
