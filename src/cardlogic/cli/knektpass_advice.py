"""How Knektpass advice is printed: every choice with its expected points, P(minimum) and expected tricks, shared
by ``cardlogic knektpass advise`` and ``cardlogic knektpass live``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Console

from cardlogic.cards import Card, card_mask, format_cards
from cardlogic.cli.console import print_title, titled_table
from cardlogic.knektpass import Deal, format_event
from cardlogic.knektpass.advice import Advice


def print_advice(
    advice: Advice, deal: Deal, hand: Sequence[Card], console: Console, prior_answered: str | None = None
) -> None:
    """The advice table (every choice with its expected points, P(minimum) and expected tricks), the best
    choice, what the sign of the expected points means, and last the prior that answered where one is given."""
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
    if prior_answered is not None:
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
