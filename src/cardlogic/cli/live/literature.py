"""Literature's part of ``cardlogic live``: how its events and advice are shown, its commands, what Tab completes."""

from __future__ import annotations

from collections.abc import Iterable

from rich.console import Console
from rich.table import Table

from cardlogic.cards import Card, iter_cards
from cardlogic.cli.advise import asks_table, claims_table, print_recommendation, worth_claiming
from cardlogic.cli.belief import print_table
from cardlogic.cli.common import plural
from cardlogic.cli.live.notation import HELP
from cardlogic.cli.live.session import say
from cardlogic.literature import Ask, Claim, format_event
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
        game, belief, public = self.game.game, self.game.belief, self.game.public
        names, history = game.players, public.history
        card = self.notation.card(token)
        set_index = game.deck.set_index_of(card)
        out = [f"{card} ({game.deck.sets[set_index].name}): {self._where_now(card)}"]
        public_events = [
            index
            for index, event in enumerate(history)
            if (isinstance(event, Ask) and event.card == card and event.yes)
            or (isinstance(event, Claim) and event.set_index == set_index)
        ]
        if public_events:
            out.append("  in public:")
            out += [f"  line {self.game.line_of(i)}: {format_event(history[i], game)}" for i in public_events]
        else:
            ruled_out = sum(1 << f.holder for f in belief.certain() if f.card == card and not f.has)
            observer = belief.observer
            beyond_hand = ruled_out & ~(0 if observer is None else 1 << observer)
            if observer is not None and belief.hand >> card & 1:
                out.append("  in my hand since the deal")
            elif not beyond_hand:
                out.append("  no event has said anything about it yet")
            else:
                possible = [p for p in range(len(names)) if not ruled_out >> p & 1]
                fact = (
                    f"dealt to {names[possible[0]]}"
                    if len(possible) == 1
                    else "not dealt to " + ", ".join(names[p] for p in range(len(names)) if beyond_hand >> p & 1)
                )
                chain = belief.forcing_events(card, ruled_out)
                hand = "" if observer is None else ", with my hand and the hand sizes"
                out.append(f"  {fact}: forced by {plural(len(chain), 'event')}{hand}:")
                out += [f"  line {self.game.line_of(i)}: {format_event(history[i], game)}" for i in chain]
        where = self.game.autosave or "the record as 'save' writes it"
        out.append(f"(lines of {where})")
        self.say("\n".join(out))

    def show_hand(self) -> None:
        belief = self.game.belief
        if belief.observer is None:
            raise ValueError("a spectator has no hand: the record names no Me player")
        hand = list(iter_cards(belief.hand))
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
        hand = sorted(iter_cards(belief.hand), key=lambda card: -rows[card][me])
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

    def _where_now(self, card: Card) -> str:
        public, names = self.game.public, self.game.game.players
        if self.game.game.deck.set_index_of(card) in public.claimed:
            return "out of play (its set is claimed)"
        if card in public.known:
            return f"with {names[public.known[card]]}, known to everyone"
        marginals = self.game.belief.marginals()
        row = marginals.probabilities[marginals.cards.index(card)]
        places = sorted(((float(p), player) for player, p in enumerate(row) if p > 0), reverse=True)
        if len(places) == 1:
            return f"with {names[places[0][1]]} for sure"
        return "now " + ", ".join(f"{names[player]} {p:.2f}" for p, player in places)

    def _name(self, player: int | None) -> str | None:
        return None if player is None else self.game.game.players[player]


def _chance(p: float) -> str:
    return "certain" if p >= 1.0 else f"{p:.2f}"
