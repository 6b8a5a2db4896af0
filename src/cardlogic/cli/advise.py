"""``cardlogic advise RECORD``: claim safety, every question's worth and one recommendation for the observer."""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Sequence

from rich.console import Console
from rich.table import Table

from cardlogic.cli.common import (
    DRAWN,
    RECORD_HELP,
    WEIGHED,
    add_deals_argument,
    add_prior_argument,
    parse_record,
    plural,
    report,
    source_name,
)
from cardlogic.cli.console import CommandConsole, titled_table
from cardlogic.cli.warmup import ensure_warm
from cardlogic.inference import InferenceError
from cardlogic.literature import Ask, Claim, Game, Pass, RecordError
from cardlogic.literature.advice import Advice, AskAdvice, ClaimAdvice, advise_record
from cardlogic.literature.belief import FIRST_DEALS


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "advise",
        help="claim safety, the value of every question, and what to do now",
        description="For the record's observer (Me:): every unclaimed set's claim (P(team holds it), the most likely "
        "assignment and P(it is correct), expected points), every legal ask when the observer is to move "
        "(P(yes), bits gained, bits leaked to the table, look-ahead value), and one recommendation.",
    )
    parser.add_argument("record", metavar="RECORD", help=f"{RECORD_HELP} (a player's view: it must name Me)")
    add_prior_argument(parser)
    add_deals_argument(parser, FIRST_DEALS)
    parser.add_argument("--json", action="store_true", help="print JSON instead of tables")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    record = parse_record(args.record)
    if record is None:
        return 1
    if record.observer is None:
        print(f"{source_name(args.record)}: advice needs a player's view: add a Me: line", file=sys.stderr)
        return 1
    ensure_warm("literature")
    try:
        advice = advise_record(record, prior=args.prior, deals=args.deals)
    except RecordError as error:
        return report(args.record, error)
    except InferenceError as error:
        print(f"{source_name(args.record)}: {error}", file=sys.stderr)
        return 1
    if args.json:
        json.dump(as_json(advice, record.game), sys.stdout)
        print()
    else:
        print_advice(advice, record.game)
    return 0


def _bits(value: float | None) -> float | None:
    return None if value is None or math.isinf(value) else value


def event_json(event: Ask | Claim | Pass | None, game: Game) -> dict:
    names = game.players
    if isinstance(event, Ask):
        return {"action": "ask", "player": names[event.asker], "target": names[event.target], "card": str(event.card)}
    if isinstance(event, Claim):
        return {
            "action": "claim",
            "player": names[event.claimer],
            "set": game.deck.sets[event.set_index].name,
            "assignment": {str(card): names[holder] for card, holder in event.assignment},
        }
    if isinstance(event, Pass):
        return {"action": "pass", "player": names[event.giver], "receiver": names[event.receiver]}
    return {"action": "wait"}


def as_json(advice: Advice, game: Game) -> dict:
    names = game.players
    return {
        "observer": names[advice.observer],
        "to_move": None if advice.to_move is None else names[advice.to_move],
        "asks": [
            {
                "target": names[a.target],
                "card": str(a.card),
                "p_yes": a.p_yes,
                "info_bits": a.info_bits,
                "leak_bits": _bits(a.leak_bits),
                "value": a.value,
            }
            for a in advice.asks
        ],
        "claims": [
            {
                "set": c.name,
                "assignment": {str(card): names[holder] for card, holder in c.assignment},
                "p_correct": c.p_correct,
                "p_team_holds": c.p_team_holds,
                "expected_points": c.expected_points,
                "certain": c.certain,
                "forced": c.forced,
            }
            for c in advice.claims
        ],
        "hold": [game.deck.sets[index].name for index in advice.hold],
        "recommendation": {**event_json(advice.recommendation.event, game), "reason": advice.recommendation.reason},
        "method": advice.method,
        "samples": advice.samples,
        "stderr": advice.stderr,
        "prior": advice.prior,
        "caption": method_caption(advice),
    }


ADVISE_ASKS = 10
"""How many of the best asks ``cardlogic advise`` lists (the rest are counted in one line)."""
WORTH_CLAIMING = 0.5
"""A set is worth thinking about when its claim is certain or forced, or the team holds it with at least this chance."""


def worth_claiming(advice: Advice) -> list[ClaimAdvice]:
    """The claims worth a thought: certain, forced, or a set the team holds with at least :data:`WORTH_CLAIMING`."""
    return [c for c in advice.claims if c.certain or c.forced or c.p_team_holds >= WORTH_CLAIMING]


def print_advice(advice: Advice, game: Game, console: Console | None = None) -> None:
    """The recommendation first, then the claims worth thinking about and the best asks as tables; the sets and
    asks left out are counted, each in one line."""
    console = console or CommandConsole()
    name = game.players[advice.observer]
    print_recommendation(advice, console)
    claims = worth_claiming(advice)
    if claims:
        console.print(claims_table(advice, game, claims, f"{name}'s claims worth thinking about"))
    others = len(advice.claims) - len(claims)
    if others:
        console.print(f"{plural(others, 'other set')}: P(team holds) below {WORTH_CLAIMING}, not worth a claim")
    if advice.asks:
        best = advice.best_asks(ADVISE_ASKS)
        console.print(asks_table(advice, game, best, f"{name}'s best asks ({len(best)} of {len(advice.asks)})"))
    console.print(method_caption(advice))


def method_caption(advice: Advice) -> str:
    """How the numbers were worked out, with their error when sampled."""
    prior = f"prior: {advice.prior}"
    if advice.prior.startswith("players"):
        return f"{prior}, {WEIGHED}; the figures: {advice.samples:,} deals {DRAWN}"
    if not advice.samples:
        return f"{advice.method}: every probability is exact; {prior}"
    how = "an MCMC chain" if advice.method == "mcmc" else "exact uniform sampling"
    return (
        f"sampled from {advice.samples:,} deals by {how} (exact tables would not fit): probabilities within "
        f"about ±{2 * advice.stderr:.3f} (two standard errors); {prior}"
    )


def print_recommendation(advice: Advice, console: Console) -> None:
    """The one line ``Recommendation: REASON``, the reason exactly as in :func:`as_json`."""
    console.print(f"[bold]Recommendation:[/] {advice.recommendation.reason}")


def claims_table(advice: Advice, game: Game, claims: Sequence[ClaimAdvice], title: str) -> Table:
    """``claims`` (some of ``advice.claims``): P(team holds), best assignment, P(correct), points, flags."""
    names = game.players
    table = titled_table(
        title,
        ("set", "P(team holds)", "best assignment", "P(correct)", "expected points", "note"),
        left=("best assignment", "note"),
    )
    for c in claims:
        by_holder: dict[int, list[str]] = {}
        for card, holder in c.assignment:
            by_holder.setdefault(holder, []).append(str(card))
        placed = "; ".join(f"{names[h]} {' '.join(cards)}" for h, cards in by_holder.items())
        flags = " ".join(
            flag
            for flag, on in (("certain", c.certain), ("forced", c.forced), ("hold", c.set_index in advice.hold))
            if on
        )
        table.add_row(c.name, f"{c.p_team_holds:.3f}", placed, f"{c.p_correct:.3f}", f"{c.expected_points:+.2f}", flags)
    return table


def asks_table(advice: Advice, game: Game, asks: Sequence[AskAdvice], title: str) -> Table:
    """``asks`` (some of ``advice.asks``): P(yes), bits gained, bits leaked and value, in the order given; the
    recommended ask marked ``>`` and in bold."""
    names = game.players
    table = titled_table(title, ("ask", "P(yes)", "bits gained", "bits leaked", "value"))
    for a in asks:
        leak = _bits(a.leak_bits)
        chosen = advice.recommended(a)
        table.add_row(
            f"{'> ' if chosen else ''}{names[a.target]} for {a.card}",
            f"{a.p_yes:.3f}",
            f"{a.info_bits:.3f}",
            "-" if leak is None else f"{leak:.3f}",
            f"{a.value:.3f}",
            style="bold" if chosen else None,
        )
    return table
