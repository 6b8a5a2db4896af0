"""How Knektpass advice is printed, every choice with its expected points, P(minimum) and expected tricks, and where
the cards lie: shared by ``cardlogic knektpass advise``, ``knektpass belief`` and ``knektpass live``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Console
from rich.table import Table

from cardlogic.cards import Card, card_mask, format_cards
from cardlogic.cli.console import HEADER_WIDTH, column_pages, print_title, titled_table
from cardlogic.knektpass import Deal, format_event
from cardlogic.knektpass.advice import Advice


def print_advice(advice: Advice, deal: Deal, hand: Sequence[Card], console: Console, prior_answered: str) -> None:
    """The advice table (every choice with its expected points, P(minimum) and expected tricks), the best
    choice, what the sign of the expected points means, and last the prior that answered."""
    name = deal.game.players[advice.player]
    cards = format_cards(deal.sorted_hand(card_mask(hand)))
    trumps = "SHDC"[deal.trump_suit]
    print_title(console, name, f" holds {cards}; trumps {trumps}; {advice.phase}; {advice.samples} deals solved")
    out = titled_table(None, ("choice", "expected points", "P(minimum)", "expected tricks"))
    for option in advice.options:
        out.add_row(
            format_event(option.event, deal), f"{option.points:+.2f}", f"{option.chance:.2f}", f"{option.tricks:.2f}"
        )
    console.print(out)
    console.print(f"best: {format_event(advice.best, deal)}")
    console.print(f"expected points: {name}'s change of points, counted down to 0: minus is good")
    console.print(f"prior: {prior_answered}")


def as_json(advice: Advice, deal: Deal) -> dict[str, Any]:
    """The advice as ``cardlogic knektpass advise --json`` prints it: every choice, best first."""
    options = [
        {"event": format_event(o.event, deal), "points": o.points, "chance": o.chance, "tricks": o.tricks}
        for o in advice.options
    ]
    return {
        "player": deal.game.players[advice.player],
        "phase": advice.phase,
        "samples": advice.samples,
        "best": options[0]["event"],
        "options": options,
    }


def print_chances(
    console: Console, chances: Mapping[Card, Sequence[float]], holders: Sequence[str], me: str | None, source: str
) -> None:
    """P(each of ``holders`` has the card now) for every card of ``chances`` (blank where 0, 1 where certain), as
    ``me`` (None: a spectator; else marked ``(me)`` among the holders) sees it, ``source`` saying how it was worked
    out: in pages of holders where they do not all fit the console's width, as ``cardlogic belief`` prints
    Literature's."""
    headers = [holder + (" (me)" if holder == me else "") for holder in holders]
    pages = column_pages(headers, len("card") + 3, console.width)
    for number, page in enumerate(pages, start=1):
        count = f", page {number} of {len(pages)}" if len(pages) > 1 else ""
        print_title(console, me or "Spectator", f"'s view: where the cards lie{count}")
        out = Table()
        out.add_column("card")
        for holder in page:
            out.add_column(headers[holder], justify="right", max_width=HEADER_WIDTH, overflow="fold")
        for card, row in chances.items():
            out.add_row(str(card), *("" if row[h] == 0 else "1" if row[h] == 1 else f"{row[h]:.3f}" for h in page))
        console.print(out)
        console.print(source)  # at the console's width: a caption wraps at the table's, however narrow
