"""``cardlogic belief RECORD``: where every card in play is, from the record's observer's view."""

from __future__ import annotations

import argparse
import json
import sys

from rich.console import Console
from rich.table import Table

from cardlogic.belief import Marginals
from cardlogic.cli.common import (
    DRAWN,
    RECORD_HELP,
    SAMPLES,
    SEED,
    WEIGHED,
    add_deals_argument,
    add_prior_argument,
    how_worked_out,
    load_belief,
    plural,
)
from cardlogic.cli.console import HEADER_WIDTH, CommandConsole, column_pages, print_title
from cardlogic.literature.belief import FIRST_DEALS, LiteratureBelief

CSP_MAX_DEALS = 2_000_000
"""The csp backend's default ``max_deals``, stated here so that ``--help`` need not import python-constraint2."""


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "belief",
        help="probability of every card at every player",
        description="Print P(player holds card) for every card in play, as the record's "
        "observer (Me:) sees it, or as a spectator when the record names none.",
    )
    parser.add_argument("record", metavar="RECORD", help=RECORD_HELP)
    parser.add_argument(
        "--method",
        choices=("auto", "exact", "sample", "csp"),
        default="auto",
        help="inference backend: exact counting, sampling, or csp, which enumerates every deal and "
        f"refuses a game with a bound of over {CSP_MAX_DEALS:,} deals (default auto: exact where "
        "practical, else sampling)",
    )
    parser.add_argument(
        "--samples", type=SAMPLES, default=20000, metavar="N", help="deals to draw when sampling (default 20000)"
    )
    parser.add_argument("--seed", type=SEED, default=0, help="random seed for sampling (default 0)")
    add_prior_argument(parser)
    add_deals_argument(parser, FIRST_DEALS)
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    loaded = load_belief(
        args.record, method=args.method, samples=args.samples, seed=args.seed, prior=args.prior, deals=args.deals
    )
    if loaded is None:
        return 1
    _, belief = loaded
    marginals = belief.marginals()
    observer = None if belief.observer is None else belief.game.players[belief.observer]
    if args.json:
        json.dump(as_json(marginals, observer) | {"prior": belief.prior_answered}, sys.stdout)
        print()
    else:
        print_table(marginals, observer, belief)
    return 0


def as_json(marginals: Marginals, observer: str | None) -> dict:
    return {
        "observer": observer,
        "method": marginals.method,
        "deals": None if marginals.count is None else str(marginals.count),
        "samples": marginals.samples,
        "players": list(marginals.holders),
        "cards": {
            str(card): {player: float(p) for player, p in zip(marginals.holders, row)}
            for card, row in zip(marginals.cards, marginals.probabilities)
        },
    }


def print_table(
    marginals: Marginals, observer: str | None, belief: LiteratureBelief, console: Console | None = None
) -> None:
    """P(player holds card) as a table of cards by players; where the players do not fit the console's width
    side by side (10-12 players on 80 columns), one table per group of players that does."""
    console = console or CommandConsole()
    if belief.weighting is not None:
        source = f"prior: {belief.prior_answered}, {WEIGHED}; the table: {plural(marginals.samples, 'deal')} {DRAWN}"
    else:
        source = f"{how_worked_out(marginals)}; prior: {belief.prior_answered}"
    headers = [player + (" (me)" if player == observer else "") for player in marginals.holders]
    set_width = max(len("set"), *(len(card_set.name) for card_set in belief.game.deck.sets))
    pages = column_pages(headers, (set_width + 3) + (len("card") + 3), console.width)
    deck = belief.game.deck
    for number, page in enumerate(pages, start=1):
        count = f", page {number} of {len(pages)}" if len(pages) > 1 else ""
        print_title(console, observer or "Spectator", f"'s view: P(player holds card){count}")
        table = Table()
        table.add_column("set")
        table.add_column("card")
        for holder in page:
            table.add_column(headers[holder], justify="right", max_width=HEADER_WIDTH, overflow="fold")
        previous_set = None
        for card, row in zip(marginals.cards, marginals.probabilities, strict=True):
            card_set = deck.set_of(card).name
            cells = (_cell(row[holder]) for holder in page)
            table.add_row(card_set if card_set != previous_set else "", str(card), *cells, end_section=False)
            previous_set = card_set
        console.print(table)
        console.print(source)  # at the console's width: a caption wraps at the table's, however narrow


SHADES = ((0.75, "green"), (0.5, "yellow"), (0.25, "default"), (0.0, "dim"))
"""Colours of uncertain cells by probability, likeliest first: the eye finds the probable holders at once."""


def _cell(probability: float) -> str:
    if probability == 1.0:
        return "[bold green]yes[/]"
    if probability == 0.0:
        return "[dim]·[/]"
    shade = next(colour for floor, colour in SHADES if probability >= floor)
    return f"[{shade}]{probability:.3f}[/]"
