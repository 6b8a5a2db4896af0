"""A ``cardlogic live`` process killed by SIGKILL at random moments never loses an event it accepted.

Each trial forks a process that runs the live command on the autosave of the trial before (a fork is a real
process, started in milliseconds because the parent has imported and compiled everything), types the rest of
the game into it through a pipe and kills it after a random delay. Every event it printed ``ok:`` for must be in
the autosave, which must be a whole record of the game's first events.
"""

from __future__ import annotations

import os
import random
import select
import signal
import sys
import time
from collections.abc import Iterator, Sequence

import pytest

import cardlogic.cli.live.console
import cardlogic.cli.live.literature  # noqa: F401 (imported before forking, as the command imports it)
from cardlogic.cli import main
from cardlogic.literature import read_record
from cardlogic.table.literature import LiveGame
from tests.cli.scripted import GAME, annes_view, setup_text, typed

TRIALS = 20


class Trials:
    """Trial numbers: ``minimum`` of them, then more until ``goal`` events were accepted in all, up to three times
    as many (a loaded machine gets through fewer events before each random moment)."""

    def __init__(self, minimum: int, goal: int) -> None:
        self.minimum, self.goal, self.accepted = minimum, goal, 0

    def __iter__(self) -> Iterator[int]:
        for trial in range(3 * self.minimum):
            if trial >= self.minimum and self.accepted >= self.goal:
                return
            yield trial


def run_until_killed(autosave: str, lines: list[str], delay: float, command: Sequence[str] = ("live",)) -> str:
    """Run ``cardlogic COMMAND AUTOSAVE`` (``live`` by default) in a forked process fed ``lines``, SIGKILL it
    after ``delay`` seconds (or when it ends first), and return what it printed."""
    feed_read, feed_write = os.pipe()
    out_read, out_write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: the live command on the pipes, then out without cleaning up
        try:
            os.dup2(feed_read, 0)
            os.dup2(out_write, 1)
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, 2)
            for fd in (feed_read, feed_write, out_read, out_write, devnull):
                os.close(fd)
            sys.stdin = open(0, encoding="utf-8", closefd=False)
            sys.stdout = open(1, "w", encoding="utf-8", buffering=1, closefd=False)
            sys.stderr = open(2, "w", encoding="utf-8", closefd=False)
            os._exit(main([*command, autosave]))
        finally:
            os._exit(99)
    os.close(feed_read)
    os.close(out_write)
    os.write(feed_write, ("\n".join(lines) + "\n").encode())
    os.close(feed_write)
    printed = b""
    deadline = time.monotonic() + delay
    while (left := deadline - time.monotonic()) > 0:
        ready, _, _ = select.select([out_read], [], [], left)
        if ready:
            chunk = os.read(out_read, 65536)
            if not chunk:
                break
            printed += chunk
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    while chunk := os.read(out_read, 65536):
        printed += chunk
    os.close(out_read)
    return printed.decode()


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_sigkill_at_random_moments_never_loses_an_accepted_event(tmp_path):
    view = annes_view()
    lines = [typed(event, GAME) for event in view.events]
    autosave = tmp_path / "game.live.txt"
    rng = random.Random(5)
    warm = LiveGame(view)  # compiled once here, so that every forked process starts at once
    warm.advice()
    kept = 0
    for trial in (trials := Trials(TRIALS, len(view.events))):
        if kept == len(view.events):
            kept = 0  # the game is over: start it again
        if kept == 0:
            autosave.write_text(setup_text(view))
        printed = run_until_killed(str(autosave), lines[kept:], rng.uniform(0.0, 0.8))
        accepted = sum(1 for line in printed.splitlines() if line.startswith("ok: "))
        saved = read_record(autosave.read_text())  # whole: it reads, the rename was atomic
        assert saved.events == view.events[: len(saved.events)], f"trial {trial}"
        assert len(saved.events) >= kept + accepted, f"trial {trial}: {accepted} accepted, not all saved"
        kept = len(saved.events)
        trials.accepted += accepted
    assert trials.accepted >= trials.goal  # the kills fell all along the game, not only before the first event
