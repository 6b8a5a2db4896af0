"""Ctrl-C typed into ``cardlogic live`` on a terminal at random moments: never a traceback, nothing accepted lost.

Each trial forks a process on a new pseudo-terminal (a fork starts in milliseconds because the parent has imported
and compiled everything) that runs the live command on the autosave of the trial before. The test types the rest
of the game into it and sends Ctrl-C after a random delay: while it starts, while a line is typed, while one is
worked on, or at an idle prompt. At the prompt Ctrl-C drops the line and the session goes on (it is then told to
quit); while work runs it ends the session. Either way no traceback is printed, the autosave is a whole, possible
record that keeps every event it held and every event the session printed ``ok:`` for, and no lock or temporary
file is left beside it. A dropped line may make the lines typed after it another game; the next trial then starts
the game again.
"""

from __future__ import annotations

import os
import random
import signal
import sys
import time
import traceback
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import pytest

import cardlogic.cli.live.console
import cardlogic.cli.live.literature  # noqa: F401 (imported before forking, as the command imports it)
from cardlogic.cli import main
from cardlogic.cli.live.session import LiveSession
from cardlogic.literature import read_record
from cardlogic.literature.belief import check_record
from cardlogic.table.literature import LiveGame
from tests.cli.scripted import GAME, annes_view, setup_text, typed
from tests.cli.test_live_kill import Trials

pexpect = pytest.importorskip("pexpect")
from pexpect import fdpexpect  # noqa: E402 (only once pexpect is known to be there)

TRIALS = 24
CTRL_C = "\x03"


def interrupted_session(autosave: str, lines: list[str], rng: random.Random) -> tuple[str, int]:
    """Run ``cardlogic live AUTOSAVE`` on a new pseudo-terminal, type ``lines`` into it one by one, send Ctrl-C at
    a random moment, then ``quit`` should the session still run; return what it printed and its exit status."""
    with live_on_terminal(autosave) as session:
        child = session.child
        if rng.random() < 0.25:  # while it starts: imports, reads the record, claims the autosave, writes it
            with_pause(child, rng.uniform(0.0, 0.2))
        else:
            child.expect_exact("Autosaving to")
            typing = rng.randrange(len(lines) + 1)  # the lines typed whole before the Ctrl-C
            for line in lines[:typing]:
                child.send(line + "\r")
                with_pause(child, rng.uniform(0.0, 0.05))
            if typing < len(lines) and rng.random() < 0.5:
                line = lines[typing]
                child.send(line[: rng.randrange(1, len(line) + 1)])  # half a line
            with_pause(child, rng.uniform(0.0, 0.3))
        child.send(CTRL_C)
        return session.finish()


@dataclass
class LiveOnTerminal:
    """``cardlogic live`` running in a forked process: its id, its terminal, and what it printed so far."""

    pid: int
    child: fdpexpect.fdspawn
    printed: list[str]
    reaped: bool = False

    def finish(self) -> tuple[str, int]:
        """Once Ctrl-C was sent: let the session settle, type ``quit`` should it still run, wait for it to end;
        return what it printed and its exit status."""
        settle(self.child)
        if _alive(self.pid):  # end the line the Ctrl-C left (a half line it fell before), then leave
            self.child.send("\rquit\r")
        deadline = time.monotonic() + 30
        while _alive(self.pid):
            assert time.monotonic() < deadline, "".join(self.printed)
            with_pause(self.child, 0.05)
        with_pause(self.child, 0.1)
        _, status = os.waitpid(self.pid, 0)
        self.reaped = True
        return "".join(self.printed).replace("\r\n", "\n"), os.waitstatus_to_exitcode(status)

    def close(self) -> None:
        """Kill the session should it still run and reap it (once reaped, its process id may be another's), then
        close its terminal."""
        if not self.reaped:
            if _alive(self.pid):
                os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
            self.reaped = True
        self.child.close()


@contextmanager
def live_on_terminal(autosave: str, work_delay: float = 0.0) -> Iterator[LiveOnTerminal]:
    """Fork ``cardlogic live AUTOSAVE`` on a new pseudo-terminal, each line's work ``work_delay`` seconds longer;
    yield it once it printed ``starting``, and kill and reap it on the way out should it still run."""
    pid, terminal = os.forkpty()
    if pid == 0:  # the child: the live command on the terminal
        code = 99
        try:
            signal.signal(signal.SIGINT, signal.default_int_handler)  # as from a terminal (a script's job ignores it)
            os.environ.update(TERM="xterm", PROMPT_TOOLKIT_NO_CPR="1", CARDLOGIC_WARMUP="off")
            sys.stdin = open(0, encoding="utf-8", closefd=False)
            sys.stdout = open(1, "w", encoding="utf-8", buffering=1, closefd=False)
            sys.stderr = open(2, "w", encoding="utf-8", buffering=1, closefd=False)
            if work_delay:
                _lengthen_work(work_delay)
            print("starting", flush=True)  # a Ctrl-C before the command starts is Python's to show
            code = main(["live", autosave])
        except BaseException:  # noqa: BLE001 (shown as Python shows whatever ends a program)
            traceback.print_exc()
            code = 1
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(code)
    session = LiveOnTerminal(pid, fdpexpect.fdspawn(terminal, encoding="utf-8", timeout=30), [])
    session.child.logfile_read = _Collect(session.printed)
    try:
        session.child.expect_exact("starting")
        yield session
    finally:
        session.close()


def _lengthen_work(seconds: float) -> None:
    """Make every line the session works on take ``seconds`` longer (in the forked child only)."""
    handle = LiveSession.handle

    def slow_handle(session: LiveSession, text: str) -> None:
        time.sleep(seconds)
        handle(session, text)

    LiveSession.handle = slow_handle  # type: ignore[method-assign]


class _Collect:
    """A file-like sink for what pexpect reads."""

    def __init__(self, into: list[str]) -> None:
        self.into = into

    def write(self, text: str) -> None:
        self.into.append(text)

    def flush(self) -> None:
        pass


def _alive(pid: int) -> bool:
    """Whether the child still runs (an exited child stays a zombie until :func:`os.waitpid` reaps it)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def settle(child: fdpexpect.fdspawn) -> None:
    """Read what the session prints until it has printed nothing for half a second (it waits for a line)."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            child.read_nonblocking(65536, timeout=0.5)
        except (pexpect.TIMEOUT, pexpect.EOF):
            return


def with_pause(child: fdpexpect.fdspawn, seconds: float) -> None:
    """Read what the session prints for ``seconds`` (so its terminal never fills up)."""
    deadline = time.monotonic() + seconds
    while (left := deadline - time.monotonic()) > 0:
        try:
            child.read_nonblocking(65536, timeout=left)
        except pexpect.TIMEOUT:
            return
        except pexpect.EOF:
            time.sleep(left)
            return


@pytest.mark.skipif(not hasattr(os, "forkpty"), reason="needs a pseudo-terminal")
def test_ctrl_c_at_random_moments_never_shows_a_traceback_nor_loses_an_accepted_event(tmp_path):
    view = annes_view()
    lines = [typed(event, GAME) for event in view.events]
    autosave = tmp_path / "game.live.txt"
    rng = random.Random(7)
    warm = LiveGame(view)  # compiled once here, so that every forked process starts at once
    warm.advice()
    kept: list = []  # the events the autosave held before the trial
    for trial in (trials := Trials(TRIALS, len(view.events))):
        if kept != view.events[: len(kept)] or len(kept) == len(view.events):
            kept = []  # a dropped line made another game, or the game is over: start it again
        if not kept:
            autosave.write_text(setup_text(view))
        printed, code = interrupted_session(str(autosave), lines[len(kept) :], rng)
        assert "Traceback" not in printed and "KeyboardInterrupt" not in printed, f"trial {trial}:\n{printed}"
        assert code in (0, 1, 130), f"trial {trial}: exit code {code}\n{printed}"  # 1: a typed-ahead line refused
        accepted = printed.count("ok: ")
        saved = read_record(autosave.read_text())  # whole: it reads, the rename was atomic
        check_record(saved)
        assert saved.events[: len(kept)] == kept, f"trial {trial}: the resumed events changed"
        assert len(saved.events) >= len(kept) + accepted, f"trial {trial}: {accepted} accepted, not all saved"
        leftovers = sorted(p.name for p in tmp_path.iterdir() if p.name not in ("game.live.txt", "game.live.history"))
        assert not leftovers, f"trial {trial}: {leftovers} left behind\n{printed}"
        kept = list(saved.events)
        trials.accepted += accepted
    assert trials.accepted >= trials.goal  # the Ctrl-Cs fell all along the game, not only before the first event


@pytest.mark.skipif(not hasattr(os, "forkpty"), reason="needs a pseudo-terminal")
def test_ctrl_c_while_a_line_is_worked_on_ends_the_session_and_keeps_what_it_accepted(tmp_path):
    """Whether a random moment falls while work runs depends on the machine's speed; here each line's work takes
    a second longer, so a Ctrl-C sent while the third line is worked on surely falls in it."""
    view = annes_view()
    lines = [typed(event, GAME) for event in view.events[:3]]
    autosave = tmp_path / "game.live.txt"
    autosave.write_text(setup_text(view))
    with live_on_terminal(str(autosave), work_delay=1.0) as session:
        session.child.expect_exact("Autosaving to")
        for line in lines[:2]:
            session.child.send(line + "\r")
            session.child.expect_exact("ok: ")
        session.child.send(lines[2] + "\r")
        with_pause(session.child, 0.3)
        session.child.send(CTRL_C)
        text, code = session.finish()
    assert code == 130, text
    assert "interrupted; everything up to the last accepted event is in" in text
    assert "Traceback" not in text and "KeyboardInterrupt" not in text
    assert read_record(autosave.read_text()).events == view.events[:2]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.live.history", "game.live.txt"]


@pytest.mark.skipif(not hasattr(os, "forkpty"), reason="needs a pseudo-terminal")
def test_ctrl_c_at_the_prompt_drops_the_half_typed_line_and_the_session_goes_on(tmp_path):
    view = annes_view()
    lines = [typed(event, GAME) for event in view.events[:2]]
    autosave = tmp_path / "game.live.txt"
    autosave.write_text(setup_text(view))
    with live_on_terminal(str(autosave)) as session:
        session.child.expect_exact("Autosaving to")
        session.child.send(lines[0] + "\r")
        session.child.expect_exact("ok: ")
        settle(session.child)
        session.child.send(lines[1][:-1])  # half a line, dropped by the Ctrl-C
        session.child.send(CTRL_C)
        settle(session.child)
        session.child.send(lines[1] + "\r")
        session.child.expect_exact("ok: ")
        text, code = session.finish()
    assert code == 0, text
    assert "Traceback" not in text and "KeyboardInterrupt" not in text
    assert read_record(autosave.read_text()).events == view.events[:2]


def _numba_style_interrupt(by: type[KeyboardInterrupt] = KeyboardInterrupt) -> None:
    """What numba raises when Ctrl-C (or SIGTERM, ``by``) arrives while a compiled function is called or loaded from
    its cache."""
    try:
        raise by
    except KeyboardInterrupt as interrupt:
        raise SystemError("CPUDispatcher(<function kernel>) returned a result with an exception set") from interrupt


def test_ctrl_c_inside_a_compiled_function_is_an_interrupt_too(capsys, monkeypatch):
    from cardlogic.cli import interrupt_code
    from cardlogic.cli.live import interruptible

    monkeypatch.setattr("cardlogic.cli.live.ensure_warm", lambda game: None)

    def follow(args, saved):
        saved.append("game.live.txt")
        _numba_style_interrupt()

    assert interruptible(follow, None, "literature") == 130
    assert capsys.readouterr().err == "\ninterrupted; everything up to the last accepted event is in game.live.txt\n"

    def faulty(args, saved):
        raise SystemError("a real fault")

    assert interrupt_code(SystemError("a real fault")) is None
    with pytest.raises(SystemError, match="a real fault"):  # any other SystemError is no interrupt
        interruptible(faulty, None, "literature")


def test_sigterm_ends_a_session_with_exit_code_143_and_ctrl_c_with_130(capsys, monkeypatch):
    """As a shell reports a process a signal ended: 128 + 15 for SIGTERM, 128 + 2 for SIGINT; inside a compiled
    function too, and before anything is saved."""
    from cardlogic.cli import Terminated
    from cardlogic.cli.live import interruptible

    monkeypatch.setattr("cardlogic.cli.live.ensure_warm", lambda game: None)

    def stopped(by: type[KeyboardInterrupt], saved_as: str | None = None, compiled: bool = False):
        def follow(args, saved):
            saved.extend([saved_as] if saved_as else [])
            if compiled:
                _numba_style_interrupt(by)
            raise by

        return interruptible(follow, None, "literature"), capsys.readouterr().err

    saved = "\ninterrupted; everything up to the last accepted event is in game.live.txt\n"
    assert stopped(Terminated, "game.live.txt") == (143, saved)
    assert stopped(Terminated, "game.live.txt", compiled=True) == (143, saved)
    assert stopped(Terminated) == (143, "\ninterrupted; nothing was saved\n")
    assert stopped(KeyboardInterrupt, "game.live.txt") == (130, saved)


def test_sigterm_while_a_command_starts_exits_143(capsys, monkeypatch):
    from cardlogic.cli import Terminated

    def terminated(argv):
        raise Terminated

    monkeypatch.setattr("cardlogic.cli.build_parser", terminated)
    assert main(["check", "game.txt"]) == 143
    assert capsys.readouterr().err == "\ncardlogic: interrupted\n"
