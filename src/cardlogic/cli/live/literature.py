"""Literature's part of ``cardlogic live``: how its events and advice are shown, its commands, what Tab completes."""

from __future__ import annotations

from collections.abc import Iterable

from rich.console import Console
from rich.table import Table

from cardlogic.cli.advise import asks_table, claims_table, print_recommendation, worth_claiming
from cardlogic.cli.belief import print_table
from cardlogic.cli.live.notation import HELP
from cardlogic.cli.live.session import say
from cardlogic.literature import format_event
from cardlogic.literature.advice import Advice
from cardlogic.literature.shorthand import KEYWORDS
from cardlogic.table.core import Update
from cardlogic.table.literature import LiveGame

BEST_ASKS = 5
"""How many of the best asks ``advise`` shows."""
GLANCE_ASKS = 3
"""How many of the best asks the advice at a glance shows."""


class LiteratureView:
    """What ``cardlogic live`` shows of a Literature :class:`LiveGame`, and the commands particular to it."""

    help = HELP
    commands = ("advise", "grid", "belief", "why", "hand", "exposed")

    def __init__(self, game: LiveGame, console: Console) -> None:
        self.game = game
        self.console = console
        self.notation = game.notation

    def command(self, name: str, arguments: list[str]) -> None:
        if name == "advise":
            self.show_advice(self.game.advice())
        elif name in ("grid", "belief"):
            belief = self.game.belief
            print_table(belief.marginals(), self._name(belief.observer), belief, self.console)
        elif name == "why":
            if len(arguments) != 1:
                raise ValueError("why needs one card: why CARD")
            self.why(arguments[0])
        elif name == "hand":
            self.show_hand()
        elif name == "exposed":
            self.show_exposed()

    def report(self, update: Update) -> None:
        """One line: the event as recorded, its autosave line, who is to move, what I newly know for sure."""
        certain = f"; now certain: {', '.join(update.certain)}" if update.certain else ""
        event = format_event(update.event, self.game.game)
        self.say(f"ok: {event}; {self.game.status().to_move()} (line {update.line}){certain}")

    def glance(self) -> None:
        """At most three lines: the recommendation and the best asks when I am to move, the claims worth making."""
        advice, names = self.game.advice(), self.game.game.players
        out = []
        if advice.asks:
            out.append(f"Recommendation: {advice.recommendation.reason}")
            best = " | ".join(f"{names[a.target]} {a.card} {a.p_yes:.2f}" for a in advice.asks[:GLANCE_ASKS])
            out.append(f"best asks, P(yes): {best}")
        claims = worth_claiming(advice)
        if claims:
            out.append("claimable, P(correct): " + " | ".join(f"{c.name} {_chance(c.p_correct)}" for c in claims))
        if out:
            self.say("\n".join(out))

    def say(self, text: str) -> None:
        say(self.console, text)

    def show_advice(self, advice: Advice) -> None:
        """Who is to move, the recommendation, the best few asks and the claims worth thinking about."""
        game = self.game.game
        self.say(self.game.status().to_move())
        print_recommendation(advice, self.console)
        if advice.asks:
            best = advice.asks[:BEST_ASKS]
            self.console.print(asks_table(game, best, f"best asks ({len(best)} of {len(advice.asks)})"))
        claims = worth_claiming(advice)
        if claims:
            self.console.print(claims_table(advice, game, claims, "claims worth thinking about"))

    def why(self, token: str) -> None:
        """Where ``token``'s card is, and the fewest events that together force it, by autosave line."""
        out = self.game.why(self.notation.card(token))
        where = self.game.autosave or "the record as 'save' writes it"
        out.append(f"(lines of {where})")
        self.say("\n".join(out))

    def show_hand(self) -> None:
        belief = self.game.belief
        if belief.observer is None:
            raise ValueError("a spectator has no hand: the record names no Me player")
        hand = belief.hand
        deck = self.game.game.deck
        by_set: dict[str, list[str]] = {}
        for card in hand:
            by_set.setdefault(deck.set_of(card).name, []).append(str(card))
        groups = "; ".join(f"{name} {' '.join(cards)}" for name, cards in by_set.items())
        self.say(f"my hand, {len(hand)} cards: {groups or 'empty'}")

    def show_exposed(self) -> None:
        """A spectator's P(I hold card) for each card of my hand: what the other players can work out."""
        belief, spectator = self.game.belief, self.game.spectator
        if belief.observer is None or spectator is None:
            raise ValueError("a spectator has no hand: the record names no Me player")
        me = belief.observer
        marginals = spectator.marginals()
        rows = dict(zip(marginals.cards, marginals.probabilities))
        hand = sorted(belief.hand, key=lambda card: -rows[card][me])
        table = Table(
            title="my hand as the table sees it",
            title_justify="left",
            caption="P: a spectator's P(I hold the card), from public information only",
            caption_justify="left",
        )
        table.add_column("card")
        table.add_column("set")
        table.add_column("P", justify="right")
        for card in hand:
            p = float(rows[card][me])
            table.add_row(str(card), self.game.game.deck.set_of(card).name, "known" if p >= 1.0 else f"{p:.3f}")
        self.console.print(table)
        known = sum(1 for card in hand if rows[card][me] >= 1.0)
        self.say(f"known to everyone: {known} of my {len(hand)} cards")

    def completions(self, before: str) -> Iterable[str]:
        """Names, cards in play, set names, notation keywords."""
        game, public = self.game.game, self.game.public
        sets = [game.deck.sets[index] for index in public.unclaimed]
        cards = [str(card) for card_set in sets for card in card_set.cards]
        return [*game.players, *cards, *(s.name for s in sets), *(s.short for s in sets), *KEYWORDS]

    def _name(self, player: int | None) -> str | None:
        return None if player is None else self.game.game.players[player]


def _chance(p: float) -> str:
    return "certain" if p >= 1.0 else f"{p:.2f}"
