"""``cardlogic live RECORD``: follow a game as it is played, one typed event at a time.

The record gives the set-up (and any events so far). Each line typed is an event
in record notation, or a command: ``undo``, ``belief``, ``save FILE``, ``help``,
``quit``. A mistyped or impossible event is reported as ``<input>:N: message``
and changes nothing; an accepted one prints what became certain because of it.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator

from cardlogic.belief import Belief
from cardlogic.cli.belief import print_table
from cardlogic.cli.common import load_belief
from cardlogic.constraints import InconsistentError
from cardlogic.inference import InferenceError
from cardlogic.literature import (IllegalEventError, InvalidEventError, Record, format_event,
                                  parse_event, write_record)

REJECTED = (InvalidEventError, IllegalEventError, InconsistentError, InferenceError, OSError, IndexError)
"""What a typed line may fail with: reported by line number, and nothing changes."""

HELP = """Type an event in record notation, e.g.
  Bob asks Ann for 5S: no
  Cat claims low-hearts: Cat 2H 3H; Eve 4H 5H 6H 7H => correct
  Cat passes to Eve
or a command: undo, belief, save FILE, help, quit."""


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("live", help="follow a game event by event, with beliefs as you go",
                                   description="Start from a record (set-up and any events so far) and read events "
                                               "typed one a line. " + HELP.replace("\n", " "))
    parser.add_argument("record", help="game record file with the set-up (Players, Dealer, Me, Hand ...)")
    parser.add_argument("--method", choices=("auto", "exact", "sample"), default="auto", help="inference backend")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    loaded = load_belief(args.record, method=args.method)
    if loaded is None:
        return 1
    record, belief = loaded
    session = LiveSession(record, belief)
    print(f"{len(record.events)} events read; {session.to_move_text()}. Type 'help' for help.")
    return session.run(_input_lines())


class LiveSession:
    """A belief that grows by typed lines, reporting each rejected line by its number."""

    def __init__(self, record: Record, belief: Belief) -> None:
        self.record = record
        self.belief = belief
        self.rejected = 0

    def run(self, lines: Iterator[str]) -> int:
        """Handle every line; exit code 1 when some line was rejected, else 0."""
        for number, line in enumerate(lines, 1):
            text = line.split("#", 1)[0].strip()
            if not text:
                continue
            if text.lower() in ("quit", "exit"):
                break
            try:
                self.handle(text)
            except REJECTED as error:
                self.rejected += 1
                print(f"<input>:{number}: {error}", file=sys.stderr)
        return 1 if self.rejected else 0

    def handle(self, text: str) -> None:
        word, _, rest = text.partition(" ")
        command = word.lower()
        if command == "help":
            print(HELP)
        elif command == "undo":
            if not self.belief.tracker.public.history:
                raise IndexError("nothing to undo")
            event = self.belief.pop()
            print(f"undone: {format_event(event, self.belief.game)}; {self.to_move_text()}")
        elif command == "belief":
            print_table(self.belief.marginals(), self._observer_name(), self.belief)
        elif command == "save":
            self.save(rest.strip())
        else:
            self.push(text)

    def push(self, text: str) -> None:
        game = self.belief.game
        event = parse_event(text, game)
        before = set(self.belief.certain())
        recorded = self.belief.push(event)
        news = [fact for fact in self.belief.certain() if fact not in before and fact.has]
        print(f"ok: {format_event(recorded, game)}; {self.to_move_text()}")
        for fact in news:
            print(f"  now certain: {game.players[fact.player]} holds {fact.card}")

    def save(self, path: str) -> None:
        if not path:
            raise OSError("save needs a file name")
        history = list(self.belief.tracker.public.history)
        record = Record(self.record.game, self.record.observer, dict(self.record.hands), history)
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(write_record(record))
        print(f"saved {len(history)} events to {path}")

    def to_move_text(self) -> str:
        public = self.belief.tracker.public
        if public.is_over:
            scores = public.scores
            return f"the game is over, {scores[0]}-{scores[1]}"
        if public.to_move is None:
            return "anyone may move first"
        return f"{self.belief.game.players[public.to_move]} to move"

    def _observer_name(self) -> str | None:
        observer = self.belief.observer
        return None if observer is None else self.belief.game.players[observer]


def _input_lines() -> Iterator[str]:
    """Typed lines: a prompt with history on a terminal, plain lines from a pipe."""
    if not sys.stdin.isatty():
        yield from sys.stdin
        return
    from prompt_toolkit import PromptSession
    session: PromptSession[str] = PromptSession()
    while True:
        try:
            yield session.prompt("event> ")
        except (EOFError, KeyboardInterrupt):
            return

