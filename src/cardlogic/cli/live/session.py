"""The command loop of ``cardlogic live``: each typed line is an event or a command; refused lines change nothing."""

from __future__ import annotations

import sys

from rich.console import Console
from rich.table import Table

from cardlogic.cards import Card, iter_cards
from cardlogic.cli.advise import asks_table, claims_table, print_recommendation
from cardlogic.cli.belief import print_table
from cardlogic.cli.live.console import SlowNotice, TypedLines
from cardlogic.cli.live.notation import HELP, KEYWORDS, Notation
from cardlogic.inference import InferenceError
from cardlogic.literature import Ask, Claim, format_event
from cardlogic.literature.advice import Advice
from cardlogic.table.literature import LiveGame, Update

REFUSED = (ValueError, IndexError, OSError, InferenceError)
"""What a typed line may fail with (bad notation, an illegal or impossible event, a bad command): reported by
line number, and nothing changes."""

BEST_ASKS = 5
"""How many of the best asks the advice at a glance shows."""
WORTH_CLAIMING = 0.5
"""A claim is shown at a glance when certain, forced, or when the team holds the set with at least this chance."""

COMMANDS = ("advise", "undo", "save", "grid", "why", "hand", "exposed", "help", "quit")


class LiveSession:
    """A :class:`LiveGame` driven by typed lines, printing what each one changed."""

    def __init__(
        self, game: LiveGame, lines: TypedLines, notice: SlowNotice | None = None, console: Console | None = None
    ) -> None:
        self.game = game
        self.lines = lines
        self.notice = notice or SlowNotice()
        self.console = console or Console(highlight=False, soft_wrap=True)
        self.notation = Notation(game.game)
        self.refused = 0

    def run(self) -> int:
        """Handle every line until ``quit`` or the end of input; exit code 1 if some line was refused, else 0."""
        while (line := self.lines.read(f"{self.to_move_text()}> ")) is not None:
            text = line.split("#", 1)[0].strip()
            if not text:
                continue
            if text.lower() in ("quit", "exit"):
                break
            try:
                with self.notice.guard():
                    self.handle(text)
            except REFUSED as error:
                self.refused += 1
                print(f"<input>:{self.lines.number}: {error}", file=sys.stderr, flush=True)
            sys.stdout.flush()  # a program driving live through a pipe sees each answer before typing on
        return 1 if self.refused else 0

    def handle(self, text: str) -> None:
        """Carry out one line: a command, or else an event."""
        tokens = text.split()
        command, arguments = tokens[0].lower(), tokens[1:]
        if len(tokens) > (3 if command == "save" else 2) or command not in (*COMMANDS, "belief"):
            self.push(text)
        elif command == "help":
            self.console.print(HELP, markup=False)
        elif command == "advise":
            self.show_advice(self.game.advice())
        elif command == "undo":
            self.undo(arguments)
        elif command == "save":
            force = arguments[:1] == ["--force"]
            if len(arguments) != 1 + force:
                raise ValueError("save needs a file name: save FILE, or save --force FILE to replace another file")
            self.game.save(arguments[-1], force=force)
            self.console.print(f"saved {len(self.game.public.history)} events to {arguments[-1]}", markup=False)
        elif command in ("grid", "belief"):
            belief = self.game.belief
            print_table(belief.marginals(), self._name(belief.observer), belief)
        elif command == "why":
            if len(arguments) != 1:
                raise ValueError("why needs one card: why CARD")
            self.why(arguments[0])
        elif command == "hand":
            self.show_hand()
        elif command == "exposed":
            self.show_exposed()
        else:
            self.push(text)

    # -- events ------------------------------------------------------------------------------------------------------

    def push(self, text: str) -> None:
        update = self.game.push(self.notation.parse(text))
        self.report(update)

    def report(self, update: Update) -> None:
        names = self.game.game.players
        line = self.game.line_of(len(self.game.public.history) - 1)
        self.console.print(
            f"ok: {format_event(update.event, self.game.game)}; {self.to_move_text()} (line {line})", markup=False
        )
        for fact in update.certain:
            self.console.print(f"  now certain: {names[fact.holder]} holds {fact.card}", markup=False)
        self.advise_my_team()

    def advise_my_team(self) -> None:
        """The advice at a glance, if the observer's team is to move."""
        if self.game.team_to_move():
            try:
                self.show_advice(self.game.advice())
            except InferenceError as error:  # the game stands; only the advice is out of reach
                self.console.print(f"no advice: {error}", markup=False)

    def undo(self, arguments: list[str]) -> None:
        if len(arguments) > 1 or (arguments and not arguments[0].isdigit()):
            raise ValueError("undo takes a number of events: undo or undo N")
        undone = self.game.undo(int(arguments[0]) if arguments else 1)
        for event in undone:
            self.console.print(f"undone: {format_event(event, self.game.game)}", markup=False)
        self.console.print(f"{len(self.game.public.history)} events; {self.to_move_text()}", markup=False)

    # -- what the commands show ------------------------------------------------------------------------------------

    def show_advice(self, advice: Advice) -> None:
        """Who is to move, the recommendation, the best few asks and the claims worth thinking about."""
        game = self.game.game
        self.console.print(self.to_move_text(), markup=False)
        print_recommendation(advice, self.console)
        if advice.asks:
            best = advice.asks[:BEST_ASKS]
            self.console.print(asks_table(game, best, f"best asks ({len(best)} of {len(advice.asks)})"))
        claims = [c for c in advice.claims if c.certain or c.forced or c.p_team_holds >= WORTH_CLAIMING]
        if claims:
            self.console.print(claims_table(advice, game, claims, "claims worth thinking about"))

    def why(self, token: str) -> None:
        """Where ``token``'s card can be now, and every event that placed or ruled it out, by autosave line."""
        game, belief, public = self.game.game, self.game.belief, self.game.public
        names, history = game.players, public.history
        card = self.notation.card(token)
        set_index = game.deck.set_index_of(card)
        card_set = game.deck.sets[set_index]
        out = [f"{card} ({card_set.name}): {self._where_now(card)}"]
        everyone = (1 << len(names)) - 1
        possible = everyone
        observer = belief.observer
        if observer is not None:
            mine = self.game.setup.hands.get(observer, ())
            possible = 1 << observer if card in mine else everyone & ~(1 << observer)
            out.append(f"  at the deal: {'in my hand' if card in mine else 'not in my hand'}")
        ruled = dict(belief.explain(card))
        for index, event in enumerate(history):
            said = []
            if index in ruled:
                possible &= ~ruled[index]
                holders = [names[p] for p in range(len(names)) if possible >> p & 1]
                said.append(
                    f"dealt to {holders[0]}"
                    if len(holders) == 1
                    else "not dealt to " + ", ".join(names[p] for p in range(len(names)) if ruled[index] >> p & 1)
                )
            if isinstance(event, Ask) and event.card == card and event.yes:
                said.append(f"{names[event.asker]} takes it from {names[event.target]}")
            if isinstance(event, Claim) and event.set_index == set_index:
                said.append(f"{card_set.name} claimed, {event.outcome}")
            if said:
                out.append(f"  line {self.game.line_of(index)}: {format_event(event, game)}  -> {'; '.join(said)}")
        if len(out) == 1 + (observer is not None):
            out.append("  no event has said anything about it yet")
        where = self.game.autosave or "the record as 'save' writes it"
        out.append(f"(lines of {where})")
        self.console.print("\n".join(out), markup=False)

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
        self.console.print(f"my hand, {len(hand)} cards: {groups or 'empty'}", markup=False)

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
        self.console.print(f"known to everyone: {known} of my {len(hand)} cards", markup=False)

    # -- wording -----------------------------------------------------------------------------------------------------

    def to_move_text(self) -> str:
        public, game = self.game.public, self.game.game
        if public.is_over:
            scores = public.scores
            return f"the game is over, {scores[0]}-{scores[1]}"
        to_move = public.to_move
        if len(public.movers) > 1 or to_move is None:
            return "anyone may move first"
        observer = self.game.belief.observer
        who = game.players[to_move]
        if observer is None:
            return f"{who} to move"
        if to_move == observer:
            return f"{who} to move (me)"
        side = "my teammate" if game.team_of(to_move) == game.team_of(observer) else "opponent"
        return f"{who} to move ({side})"

    def completions(self) -> list[str]:
        """The words Tab completes now: commands, names, cards in play, set names, notation keywords."""
        game, public = self.game.game, self.game.public
        sets = [game.deck.sets[index] for index in public.unclaimed]
        cards = [str(card) for card_set in sets for card in card_set.cards]
        return [*COMMANDS, *game.players, *cards, *(s.name for s in sets), *(s.short for s in sets), *KEYWORDS]

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
