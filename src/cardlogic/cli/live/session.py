"""The command loop of ``cardlogic live``, for any game: each typed line is an event or a command.

The loop knows only :class:`~cardlogic.table.core.TableGame` (push a typed line,
undo, save, status, log) and a :class:`GameView`, the game's own part: its
commands, how its events and advice are shown, what Tab completes. A refused
event is reported as ``FILE:LINE: message``, LINE being the autosave line the
event would have taken; a command's error (``save``, ``why``, ``undo``, ...)
as its message alone, being no line of the record. Either changes nothing.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Collection, Iterable, Sequence
from typing import Protocol

from rich.console import Console

from cardlogic.cli.console import echo, wrap
from cardlogic.cli.live.console import LEAVING, SlowNotice, TypedLines
from cardlogic.inference import InferenceError
from cardlogic.notation import folded, uncommented
from cardlogic.table.core import Incomplete, TableGame, Update

REFUSED = (ValueError, IndexError, OSError, InferenceError)
"""What a typed line may fail with (bad notation, an illegal or impossible event, a bad command): reported (an
event by its line number), and nothing changes."""

COMMANDS_HELP = """Commands for every game:
  status       whose turn, the score and every hand count (also shown below the
               prompt on a terminal)
  score        the score, my side first
  sizes        every player's number of cards
  teams        who plays with whom
  log [N]      the last N events (all without N), by line of the autosave
  undo [N]     take back the last event (or the last N)
  save FILE    write the game so far to FILE, a new file or this game's record
               (save --force FILE: any file)
  help         this text
  quit         leave (also: exit, Ctrl-D); everything is already saved
When live asks for the rest of a line, a command typed instead is carried out
and the question asked again; undo, quit and an empty answer drop the line.
On a terminal, Tab completes what may come next, Up/Down recall earlier lines
(kept across resumes), and Ctrl-C drops the line being typed."""

COMMANDS = ("status", "score", "sizes", "teams", "log", "undo", "save", "help", *LEAVING)


class GameView(Protocol):
    """A game's own part of the loop: its commands, its events and advice as shown, its completions."""

    @property
    def help(self) -> str:
        """The game's part of ``help``: its events and commands."""

    @property
    def commands(self) -> Sequence[str]:
        """The commands particular to the game."""

    def command(self, name: str, arguments: list[str]) -> None:
        """Carry out one of :attr:`commands`; ValueError when its arguments are wrong."""

    def report(self, update: Update) -> None:
        """Show what an accepted event brought."""

    def glance(self) -> None:
        """The advice at a glance, shown whenever the observer's side is to decide."""

    def completions(self, before: str) -> Iterable[str]:
        """The words Tab may complete after ``before``, the line typed so far up to the word being typed."""


class LiveSession:
    """A :class:`TableGame` driven by typed lines, printing what each one changed through its :class:`GameView`."""

    def __init__(
        self,
        game: TableGame,
        view: GameView,
        lines: TypedLines,
        notice: SlowNotice | None = None,
        console: Console | None = None,
    ) -> None:
        self.game = game
        self.view = view
        self.lines = lines
        self.notice = notice or SlowNotice()
        self.console = console or Console(highlight=False)
        self.refused = 0
        self.left = False

    def run(self) -> int:
        """Handle every line until ``quit`` (at the prompt or for a question) or the end of input; exit code 1 if
        some line was refused, else 0."""
        while not self.left:
            line = self.lines.read(f"{self.game.status().to_move()}> ", self.status_bar)
            if line is None:
                break
            text = uncommented(line)
            if not text:
                continue
            if text.lower() in LEAVING:
                break
            self.handle(text)
            sys.stdout.flush()  # a program driving live through a pipe sees each answer before typing on
        return 1 if self.refused else 0

    def next_line_prefix(self) -> str:
        """``FILE:LINE: ``, the autosave line the next event would take: where a refused event is reported."""
        return f"{self.game.autosave or '<input>'}:{self.game.next_line()}: "

    def refuse(self, where: str, error: Exception) -> None:
        """Report a refused line, ``where`` before its message (an event's :meth:`next_line_prefix`, a command's
        nothing), and count it for the exit code."""
        self.refused += 1
        message = str(error)
        if isinstance(error, OSError) and error.strerror and error.filename:  # a file could not be written
            message = f"{error.filename}: {error.strerror}: nothing changed"
        echo(f"{where}{message}", file=sys.stderr)

    def is_event(self, text: str) -> bool:
        """Whether the line ``text`` is an event rather than a command: it starts with no command's name, or it is
        too long for the command it starts with and that word starts a player's name (``why ann 5s +`` at a table
        with Whyte)."""
        tokens = text.split()
        command = tokens[0].lower()
        if command not in (*COMMANDS, *self.view.commands):
            return True
        too_long = len(tokens) > (3 if command == "save" else 2)
        return too_long and any(folded(name).startswith(command) for name in self.game.status().players)

    def handle(self, text: str) -> None:
        """Carry out one line, an event or else a command; a refused one is reported, an event by its line."""
        if not self.is_event(text):
            with self.notice.guard():
                self.obey(text)
            return
        where = self.next_line_prefix()
        try:
            with self.notice.guard():
                self.push(text)
        except REFUSED as error:
            self.refuse(where, error)

    def obey(self, text: str) -> None:
        """Carry out the command ``text``; a refused one is reported by its message alone."""
        try:
            self.command(text)
        except REFUSED as error:
            self.refuse("", error)

    def command(self, text: str) -> None:
        """Carry out the command ``text``."""
        tokens = text.split()
        command, arguments = tokens[0].lower(), tokens[1:]
        if command in self.view.commands:
            self.view.command(command, arguments)
        elif command == "help":
            self.say(self.view.help + "\n" + COMMANDS_HELP)
        elif command == "status":
            self.say(self.game.status().line())
        elif command == "score":
            self.say(self.game.status().scoreboard())
        elif command == "sizes":
            self.say(self.game.status().hand_counts())
        elif command == "teams":
            self.say("\n".join(self.game.status().sides()))
        elif command == "log":
            self.log(arguments)
        elif command == "undo":
            self.undo(arguments)
        elif command == "save":
            force = arguments[:1] == ["--force"]
            if len(arguments) != 1 + force:
                raise ValueError("save needs a file name: save FILE, or save --force FILE to replace another file")
            self.game.save(arguments[-1], force=force)
            self.say(f"saved {len(self.game.events)} events to {arguments[-1]}")

    def status_bar(self) -> str:
        """The status line, wrapped to the terminal's width, each name with its number: shown below the prompt."""
        status = self.game.status()
        return wrap(status.line(), self.console.width, status.players)

    def push(self, text: str) -> None:
        try:
            update = self.game.push(self.game.parse(text))
        except Incomplete as question:
            answered = self.complete(question)
            if answered is None:
                return
            update = answered
        self.view.report(update)
        self.advise_if_deciding()

    def complete(self, question: Incomplete) -> Update | None:
        """Ask ``question`` and push the event the answer completes; None (nothing recorded) on an empty answer.
        An answer refused, by the question or when its event is pushed, is reported as a refused event is and the
        question asked again: the answer typed next is still the answer.

        A command typed for the answer is carried out as at the prompt, and the question asked again; ``undo``
        first drops the line asked about (its question was of the game before the undo), and ``quit`` drops it
        and leaves."""
        while True:
            self.say(question.question)
            with self.notice.paused():
                answer = self.lines.read("> ")
            typed = "" if answer is None else uncommented(answer)
            if not typed or typed.lower() in LEAVING:
                self.say("dropped: nothing recorded")
                self.left = bool(typed)
                return None
            if not self.is_event(typed):  # a command
                if typed.split()[0].lower() == "undo":
                    self.say("dropped: nothing recorded")
                    self.obey(typed)
                    return None
                self.obey(typed)
                continue
            try:
                return self.game.push(question.complete(typed))
            except Incomplete as again:
                question = again
            except REFUSED as error:
                self.refuse(self.next_line_prefix(), error)

    def advise_if_deciding(self) -> None:
        """The advice at a glance, if the observer's side is to decide."""
        if self.game.observer_decides():
            try:
                self.view.glance()
            except InferenceError as error:  # the game stands; only the advice is out of reach
                self.say(f"no advice: {error}")

    def undo(self, arguments: list[str]) -> None:
        if len(arguments) > 1 or (arguments and not arguments[0].isdecimal()):
            raise ValueError("undo takes a number of events: undo or undo N")
        undone = self.game.undo(int(arguments[0]) if arguments else 1)
        for event in undone:
            self.say(f"undone: {self.game.describe(event)}")
        self.say(f"{len(self.game.events)} events; {self.game.status().to_move()}")

    def log(self, arguments: list[str]) -> None:
        if len(arguments) > 1 or (arguments and not arguments[0].isdecimal()):
            raise ValueError("log takes a number of events: log or log N")
        events = self.game.log(int(arguments[0]) if arguments else None)
        self.say("\n".join(f"{line:>4}  {text}" for line, text in events) or "no events yet")

    def completions(self, before: str) -> list[str]:
        """The words Tab completes after ``before``: the commands at the start of a line, then the game's words."""
        words = list(self.view.completions(before))
        if not before.strip():
            words += [*COMMANDS, *self.view.commands]
        return words

    def say(self, text: str) -> None:
        say(self.console, text, self.game.status().players)


def with_lines_of(out: list[str], where: str) -> str:
    """``out``'s lines, and ``(lines of WHERE)`` after them when one names a line (``why``'s plays and events);
    an answer that names none (a card in my hand) needs no footnote."""
    named = any(re.search(r"\bline \d", text) for text in out)
    return "\n".join([*out, f"(lines of {where})"] if named else out)


def say(console: Console, text: str, names: Collection[str] = ()) -> None:
    """Print ``text`` on ``console``: on a terminal each line wrapped at its width between words, never inside one
    nor between one of ``names`` (the players') and the number after it (a score, a count of cards); elsewhere (a
    pipe, a file) each line whole, as :func:`~cardlogic.cli.console.echo` prints, for a program reading it."""
    shown = wrap(text, console.width, names) if console.is_terminal else text
    console.print(shown, markup=False, highlight=False, soft_wrap=True)
