"""Literature's part of ``cardlogic live``: how its events and advice are shown, its commands, what Tab completes."""

from __future__ import annotations

from collections.abc import Iterable

from rich.console import Console
from rich.table import Table

from cardlogic.cli.advise import asks_table, claims_table, method_caption, print_recommendation, worth_claiming
from cardlogic.cli.belief import print_table
from cardlogic.cli.live.notation import HELP
from cardlogic.cli.live.session import say, with_lines_of
from cardlogic.literature import format_event
from cardlogic.literature.advice import Advice
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
            self.show_advice(self.game.full_advice())
        elif name in ("grid", "belief"):
            belief = self.game.belief
            if self.game.public.unclaimed:
                print_table(belief.marginals(), self._name(belief.observer), belief, self.console)
            else:  # a table of no rows says nothing
                self.say("no card is in play: every set is claimed")
        elif name == "why":
            if len(arguments) != 1:
                raise ValueError("why needs one card: why CARD")
            self.why(arguments[0])
        elif name == "hand":
            self.show_hand()
        elif name == "exposed":
            self.show_exposed()

    def report(self, update: Update) -> None:
        """One line: the event as recorded, who is to move, its autosave line, what I newly know for sure."""
        event = format_event(update.event, self.game.game)
        line = f"ok: {event}; {self.game.status().to_move()} (line {update.line})"
        if update.certain:
            certain = f"now certain: {', '.join(update.certain)}"
            fits = len(line) + 2 + len(certain) <= self.console.width
            line += f"; {certain}" if fits else f"\n  {certain}"
        self.say(line)

    def glance(self) -> None:
        """At most three lines: the recommendation and the best asks when I am to move, the claims worth making."""
        advice, names = self.game.advice(), self.game.game.players
        out = []
        if advice.asks:
            out.append(f"Recommendation: {advice.recommendation.reason}")
            best = " | ".join(f"{names[a.target]} {a.card} {a.p_yes:.2f}" for a in advice.best_asks(GLANCE_ASKS))
            out.append(f"best asks, P(yes): {best}")
        claims = worth_claiming(advice)
        if claims:
            out.append("claimable, P(correct): " + " | ".join(f"{c.name} {_chance(c.p_correct)}" for c in claims))
        if out:
            self.say("\n".join(out))

    def say(self, text: str) -> None:
        say(self.console, text, self.game.game.players)

    def show_advice(self, advice: Advice) -> None:
        """Who is to move, the recommendation, the best few asks, the claims worth thinking about, and how the
        numbers were worked out (which prior answered)."""
        game = self.game.game
        self.say(self.game.status().to_move())
        print_recommendation(advice, self.console)
        if advice.asks:
            best = advice.best_asks(BEST_ASKS)
            self.console.print(asks_table(advice, game, best, f"best asks ({len(best)} of {len(advice.asks)})"))
        claims = worth_claiming(advice)
        if claims:
            self.console.print(claims_table(advice, game, claims, "claims worth thinking about"))
        self.say(method_caption(advice))

    def why(self, token: str) -> None:
        """Where ``token``'s card is, and the fewest events that together force it, by autosave line."""
        out = self.game.why(self.notation.card(token))
        self.say(with_lines_of(out, self.game.autosave or "the record as 'save' writes it"))

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
        if not belief.hand:  # a table of no rows says nothing
            self.say("my hand is empty: there is nothing of it to work out")
            return
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
        """What may come next after ``before``: a mover or a command first; after an asker, opponents with cards
        (or ``claims``, ``passes``); after a target, the cards the asker may ask for, then the answer; after
        ``claims``, the unclaimed sets, then an outcome, then the claimer's teammates and the set's cards; after
        ``why``, the cards in play."""
        game, public = self.game.game, self.game.public
        names = game.players
        tokens = before.replace(":", " : ").replace(";", " ; ").split()
        sets = [game.deck.sets[index] for index in public.unclaimed]
        in_play = [str(card) for card_set in sets for card in card_set.cards]
        if not tokens:
            return [names[p] for p in public.movers]
        if tokens[0].lower() == "why":
            return in_play if len(tokens) == 1 else []
        try:
            actor = self.notation.player(tokens[0])
        except ValueError:
            return []
        rest = [token.lower() for token in tokens[1:]]
        opponents = [names[p] for p in game.opponents(actor) if public.sizes[p]]
        team = [names[p] for p in (actor, *game.teammates(actor))]
        if not rest:
            return [*opponents, "claims", "passes", *(names[p] for p in game.teammates(actor) if public.sizes[p])]
        if rest[0] == "claims":
            return self._claim_words(rest[1:], sets, team)
        if rest[0] == "passes":
            return ["to", *team[1:]] if len(rest) == 1 else team[1:]
        if rest[0] == "asks":
            rest = rest[1:]
            if not rest:
                return opponents
            asked_for = "for" in rest
            rest = [token for token in rest if token != "for"]
            if len(rest) == 1:
                return self._askable(actor) if asked_for else ["for"]
            return [] if len(rest) > 2 else ["yes", "no"]
        if len(rest) == 1:
            return self._askable(actor)
        return ["+", "-"] if len(rest) == 2 else []

    def _askable(self, asker: int) -> list[str]:
        """The cards ``asker`` may ask for as far as the observer can tell: for me, exactly my legal asks."""
        view = self.game.belief.view
        if asker == self.game.belief.observer and hasattr(view, "legal_asks"):
            return list(dict.fromkeys(str(ask.card) for ask in view.legal_asks(asker)))
        public = self.game.public
        sets = [self.game.game.deck.sets[index] for index in public.unclaimed]
        return [str(card) for card_set in sets for card in card_set.cards if public.known.get(card) != asker]

    def _claim_words(self, rest: list[str], sets: list, team: list[str]) -> list[str]:
        if not rest:
            return [card_set.short for card_set in sets] + [card_set.name for card_set in sets]
        try:
            cards = [str(card) for card in self.game.game.deck.sets[self.notation.set_index(rest[0])].cards]
        except ValueError:
            return []
        if ":" in rest or "=>" in rest:
            return ["=>", "correct", "void", "opponents", *team, *cards] if "=>" not in rest else []
        if len(rest) == 1:
            return ["ok", "void", "opp", ":"]
        return [*self.game.game.players, *cards]

    def _name(self, player: int | None) -> str | None:
        return None if player is None else self.game.game.players[player]


def _chance(p: float) -> str:
    return "certain" if p >= 1.0 else f"{p:.2f}"
