"""Knektpass's part of ``cardlogic knektpass live``: how a match's events and advice are shown, its commands, what
Tab completes."""

from __future__ import annotations

import argparse
from collections.abc import Iterable

from rich.console import Console

from cardlogic.cards import format_cards
from cardlogic.cli.common import plural
from cardlogic.cli.knektpass_advice import print_advice, print_chances
from cardlogic.cli.live import follow_game, greet, open_game
from cardlogic.cli.live.session import LiveSession, say, with_lines_of
from cardlogic.knektpass import Play, PlayerState
from cardlogic.knektpass.match import describe_outcome
from cardlogic.knektpass.match_record import NextDeal, read_match
from cardlogic.knektpass.shorthand import VERBS
from cardlogic.table.core import Update
from cardlogic.table.knektpass import LiveMatch, describe_option

HELP = """Type an event, or a command. Left out, the player is the one to move.
Events, short forms first (names by any prefix no other name shares):
  ann 6s             Ann plays 6S (or 6s alone, when Ann is to move)
  cat takes          the dealer Cat takes the turned card (me: cat takes 7h,
                     the card I put down); cat leaves: leaves it
  bob plays          Bob plays this deal (also: bob in); bob folds (bob out)
  bob exchanges 2    Bob exchanges 2 cards (also: bob ex 2, bob 2); bob stands
                     (bob 0); my own: bob ex 7c 8c for 7d ad (the cards put
                     down, then those drawn), or bob ex 2 and then the cards
  deal 9s            the next deal, its turned card 9S; my 5 cards are asked
                     for (or: deal 9s as ks qs jh 6c)
  Ann plays 6S       (the record notation, as in docs/knektpass.md)
Expected points are my change of points in the deal: points count down to 0,
so minus is good.
Knektpass commands:
  advise       every choice I have now: expected points, P(minimum), tricks
  grid         where every card I do not hold may be: P(each holder has it)
  why CARD     where CARD is now and the fewest plays that force it, by line
  hand         my hand now, sorted (trumps highest first)
  trick        the cards on the table in this trick"""

GLANCE_OPTIONS = 3
"""How many choices the advice at a glance shows."""


class KnektpassView:
    """What ``cardlogic knektpass live`` shows of a :class:`LiveMatch`, and the commands particular to it."""

    help = HELP
    commands = ("advise", "grid", "why", "hand", "trick")

    def __init__(self, game: LiveMatch, console: Console) -> None:
        self.game = game
        self.console = console

    def command(self, name: str, arguments: list[str]) -> None:
        game = self.game
        if name == "advise":
            if not game.observer_decides():
                self.say(f"{game.status().to_move()}: nothing for me to decide")
                return
            print_advice(game.advice(), game.deal, game.hand(), self.console, game.belief.prior_answered)
        elif name == "grid":
            belief = game.belief
            me = None if game.observer is None else game.deal.game.players[game.observer]
            print_chances(self.console, game.chances(), belief.holders, me, f"prior: {belief.prior_answered}")
        elif name == "why":
            if len(arguments) != 1:
                raise ValueError("why needs one card: why CARD")
            out = game.why(game.notation.card(arguments[0]))
            self.say(with_lines_of(out, game.autosave or "the record as save writes it"))
        elif name == "hand":
            if game.observer is None:
                raise ValueError("a spectator has no hand: the record names no Me player")
            self.say(f"my hand: {format_cards(game.hand())} (trumps {'SHDC'[game.deal.trump_suit]})")
        elif name == "trick":
            trick, names = game.view.trick, game.deal.game.players
            self.say("trick: " + (", ".join(f"{names[p]} {card}" for p, card in trick) or "no card played yet"))

    def report(self, update: Update) -> None:
        """One line, as Literature's: the event, who is to move, its autosave line; the trick's taker, the deal's
        outcome."""
        game = self.game
        status = game.status()
        out = [f"ok: {game.describe(update.event)}; {status.to_move()} (line {update.line})"]
        view, names = game.view, game.deal.game.players
        if isinstance(update.event, Play) and not view.trick and not view.is_over:
            out.append(f"trick {view.tricks_played} to {names[view.to_move or 0]}")
        outcome = game.outcome()
        if outcome is not None and not isinstance(update.event, NextDeal):
            out.append(f"deal {game.number} over: {describe_outcome(outcome, names)}; score {status.score()}")
        self.say("\n".join(out))

    def glance(self) -> None:
        """Two lines: the best choice with its chance of the trick minimum and expected points, then the next."""
        advice, names = self.game.advice(), self.game.deal.game.players
        best, *others = advice.options
        advice_line = (
            f"advice: {describe_option(best.event, names)}: P(minimum) {best.chance:.2f}, "
            f"expected points {best.points:+.2f} (minus is good)"
        )
        out = [advice_line]
        if others:
            out.append(
                "next best: "
                + " | ".join(
                    f"{describe_option(o.event, names)} {o.points:+.2f}, {o.chance:.2f}"
                    for o in others[: GLANCE_OPTIONS - 1]
                )
            )
        self.say("\n".join(out))

    def say(self, text: str) -> None:
        say(self.console, text, self.game.deal.game.players)

    def completions(self, before: str) -> Iterable[str]:
        """What may come next after ``before``: the player to move, then a verb or the cards I may play; after
        ``why``, the cards of the deck."""
        game = self.game
        names, tokens = game.deal.game.players, before.split()
        view = game.view
        playable = []
        if isinstance(view, PlayerState) and view.to_move == game.observer:
            playable = [str(card) for card in game.deal.sorted_hand(view.playable(view.hand))]
        if tokens and tokens[0].lower() == "why":
            return [str(card) for card in game.deal.game.deck] if len(tokens) == 1 else []
        if len(tokens) > 1:
            return []
        verbs = {"trump": ["takes", "leaves"], "bid": ["plays", "folds"], "exchange": ["exchanges", "stands"]}
        words = [*verbs.get(view.phase, []), *(playable if view.phase == "play" else [])]
        if not tokens:
            mover = [] if view.to_move is None else [names[view.to_move]]
            return [*mover, *words, *([] if view.to_move is not None else ["deal"])]
        return words if tokens[0].lower() not in VERBS else []


def follow(args: argparse.Namespace, saved: list[str]) -> int:
    """``cardlogic knektpass live [RECORD]``: read the match (or ask its set-up), then run the session loop."""
    from cardlogic.cli.live.setup import ask_knektpass_setup

    opened = open_game(
        args,
        ask_knektpass_setup,
        lambda text: read_match(text, source=args.record),
        lambda record, text: LiveMatch(record, samples=args.samples, seed=args.seed, prior=args.prior, text=text),
        "knektpass live",
    )
    if isinstance(opened, int):
        return opened
    game, lines, notice = opened
    return follow_game(
        args, game, lambda console: KnektpassView(game, console), lines, notice, saved, "knektpass live", _greet
    )


def _greet(session: LiveSession) -> None:
    game = session.game
    assert isinstance(game, LiveMatch)
    knektpass = game.deal.game
    table = f"{len(knektpass.players)} players, {len(knektpass.deck)} cards, {knektpass.rules}"
    greet(session, table, game.belief.prior, f"Deal {game.number}, {plural(len(game.events), 'event')} so far")
