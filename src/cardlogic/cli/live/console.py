"""Reading what a person types: a prompt with completion and history on a terminal, plain lines from a pipe."""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

from prompt_toolkit import PromptSession
from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document
from prompt_toolkit.history import FileHistory

from cardlogic.cli import Terminated
from cardlogic.cli.console import echo, terminal_width, wrap
from cardlogic.files import refusal, replace_text
from cardlogic.notation import folded

HISTORY_MARK = "# cardlogic live: the lines typed at the table, for Up and Down\n"
"""The first line of every history file live writes, which marks it as live's own."""


class WordCompleter(Completer):
    """Completes the word before the cursor, case and accents aside (``zo`` to Zoë), from ``words(before)``, asked
    afresh each time with the line typed before that word, so the words offered can follow the context."""

    def __init__(self, words: Callable[[str], Iterable[str]]) -> None:
        self.words = words

    def get_completions(self, document: Document, complete_event: CompleteEvent) -> Iterable[Completion]:
        typed = document.get_word_before_cursor(WORD=True)
        key = folded(typed)
        before = document.text_before_cursor[: len(document.text_before_cursor) - len(typed)]
        for word in dict.fromkeys(self.words(before)):
            if folded(word).startswith(key) and word != typed:
                yield Completion(word, start_position=-len(typed))


LEAVING = ("quit", "exit")
"""The words that leave live, typed at its prompt or for a set-up question."""


class KeptHistory(FileHistory):
    """The typed lines kept in a file, where a line that can no longer be written there (its folder gone, the disk
    full) is kept in memory only, and :attr:`lost` says why, rather than stopping the prompt on a traceback."""

    def __init__(self, path: str) -> None:
        super().__init__(path)
        self.path = path
        self.lost: str | None = None

    def store_string(self, string: str) -> None:
        try:
            super().store_string(string)
        except OSError as error:
            self.lost = error.strerror or str(error)


class TypedLines:
    """Numbered input lines. On a terminal: a prompt with Tab completion (see :meth:`complete_from`) and history."""

    def __init__(self) -> None:
        self.number = 0
        self.interactive = sys.stdin.isatty() and sys.stdout.isatty()
        self._completer = WordCompleter(lambda before: ())
        self._session: PromptSession[str] | None = None
        self._history: KeptHistory | None = None
        if self.interactive:
            self._session = PromptSession(completer=self._completer, complete_while_typing=False)

    def complete_from(self, words: Callable[[str], Iterable[str]]) -> None:
        """From now on, Tab completes the word being typed from ``words(line typed before it)``."""
        self._completer.words = words

    def keep_history(self, path: str) -> str | None:
        """From now on, read earlier lines from ``path`` and add each new one to it (a terminal only).

        Only a history file of live's own is used (created with :data:`HISTORY_MARK` as its first line); anything
        else at ``path`` is left as it is, and the reason is returned: Up and Down then recall this session's lines.
        """
        if not self.interactive:
            return None
        if refusal(path, lambda text: text.startswith(HISTORY_MARK)) is not None:
            return f"{path} is not live's history of typed lines: left as it is; Up and Down recall this session's only"
        if not Path(path).exists():
            replace_text(path, HISTORY_MARK)
        self._history = KeptHistory(path)
        self._session = PromptSession(completer=self._completer, complete_while_typing=False, history=self._history)
        return None

    def read(self, prompt: str, toolbar: Callable[[], str] | None = None) -> str | None:
        """The next line without its newline (``prompt`` shown on a terminal only); None at the end of input.

        On a terminal ``toolbar()`` is shown below the prompt; Ctrl-C abandons the line being typed and Ctrl-D
        ends the input.
        """
        while True:
            if self._session is None:
                line = sys.stdin.readline()
                if not line:
                    return None
                self.number += 1
                return line.rstrip("\n")
            try:
                line = self._session.prompt(_fitted(prompt), bottom_toolbar=toolbar)
            except EOFError:
                return None
            except Terminated:
                raise
            except KeyboardInterrupt:  # Ctrl-C typed: the line is dropped
                continue
            self._say_if_history_lost()
            self.number += 1
            return line

    def _say_if_history_lost(self) -> None:
        """Say once that the history file stopped taking the lines typed (Up and Down still recall them)."""
        history = self._history
        if history is not None and history.lost is not None:
            echo(f"{history.path}: {history.lost}: the lines typed from now on are not kept for a resume")
            self._history = None


def _fitted(prompt: str) -> str:
    """``prompt`` wrapped between words to the terminal's width, keeping the space it ends with before the answer."""
    width = terminal_width(sys.stdout)
    question = prompt.rstrip()
    return prompt if width is None else wrap(question, width) + prompt[len(question) :]


class SlowNotice:
    """Says so when guarded work runs past ``after`` seconds, so a slow answer never looks like a frozen program.

    The first time, the likely cause is named: on a first run the solver's kernels compile (a few seconds once;
    a warm start takes about one second on 2 cores).
    """

    def __init__(self, after: float = 2.0) -> None:
        self.after = after
        self._warned = False
        self._timer: threading.Timer | None = None

    @contextmanager
    def guard(self) -> Iterator[None]:
        self._start()
        try:
            yield
        finally:
            self._stop()

    @contextmanager
    def paused(self) -> Iterator[None]:
        """Inside :meth:`guard`: no notice while a person answers a question (the time is theirs, not the
        solver's); the guard's clock starts afresh after."""
        running = self._timer is not None
        self._stop()
        try:
            yield
        finally:
            if running:
                self._start()

    def _start(self) -> None:
        self._timer = threading.Timer(self.after, self._say)
        self._timer.daemon = True
        self._timer.start()

    def _stop(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _say(self) -> None:
        if self._warned:
            echo("working on it ...")
        else:
            echo("warming up the solver (a first run compiles it, which takes a few seconds once) ...")
        self._warned = True
