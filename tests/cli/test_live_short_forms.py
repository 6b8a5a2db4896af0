"""``cardlogic live`` in a pseudo-terminal with short forms only: a whole game, claims live completes or asks to
confirm, ``why`` with its minimal chain, and a resume that keeps the typed history."""

from __future__ import annotations

import io
import os
import shutil
import sys
from pathlib import Path

import pytest

from cardlogic.cli import main
from cardlogic.cli.live.console import HISTORY_MARK
from cardlogic.literature import Claim, format_event, read_record
from tests.cli.scripted import GAME, annes_view, setup_text, short_forms

pexpect = pytest.importorskip("pexpect")

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def spawn(*args: str, cwd: Path | None = None) -> pexpect.spawn:
    env = dict(os.environ, TERM="xterm", PROMPT_TOOLKIT_NO_CPR="1")  # pexpect answers no cursor-position requests
    return pexpect.spawn(
        sys.executable,
        ["-m", "cardlogic", "live", *args],
        env=env,
        dimensions=(24, 80),
        encoding="utf-8",
        timeout=60,
        cwd=str(cwd) if cwd else None,
    )


def as_played(event, game=GAME) -> str:
    """``event`` as the table saw it: a wrong claim of Ann's team without its assignment, which short forms
    fill in with the best one instead of the one announced."""
    if isinstance(event, Claim) and event.outcome != "correct":
        return f"{event.claimer} {event.set_index} {event.outcome} {event.revealed}"
    return format_event(event, game)


SHORT_SEED = 20
"""A 33-event game with three claims by Ann's team, a correct one by the opponents and two passes: every event has a
short form (an opponents' wrong claim has none)."""


def test_a_whole_game_in_short_forms_only(tmp_path):
    view = annes_view(SHORT_SEED)
    setup, autosave = tmp_path / "game.txt", tmp_path / "auto.txt"
    setup.write_text(setup_text(view))
    child = spawn(str(setup), "--autosave", str(autosave))
    child.logfile_read = transcript = io.StringIO()
    child.expect_exact("Type 'help' for help.")
    asked = completed = 0
    script = short_forms(view)
    for (line, answer), event in zip(script, view.events, strict=True):
        child.sendline(line)
        if answer is not None:  # a claim by Ann's team, not certain: the best assignment, P(correct), a question
            child.expect(r"P\(correct\)\s+\d\.\d\d: the\s+outcome\?.*drops\s+it")
            child.sendline(answer)
            asked += 1
        elif isinstance(event, Claim):
            completed += 1  # live filled in the assignment itself
        child.expect_exact("ok: ")
        child.expect_exact(f"(line {read_record(autosave.read_text()).lines[-1]})")
    child.expect_exact("the game is over")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, transcript.getvalue()[-2000:]
    assert asked + completed == sum(isinstance(event, Claim) for event in view.events) and completed >= 1
    saved = read_record(autosave.read_text())
    assert [as_played(e) for e in saved.events] == [as_played(e) for e in view.events]
    assert main(["check", str(autosave)]) == 0


def test_why_names_the_fewest_events_that_force_a_card(tmp_path):
    shutil.copy(EXAMPLES / "mini.txt", tmp_path / "mini.txt")
    child = spawn("mini.txt", cwd=tmp_path)
    child.expect_exact("Type 'help' for help.")
    child.sendline("ann dan 2h -")
    child.expect_exact("(line 17)")
    child.sendline("d a 5h")  # Dan asks Ann for 5H: yes, so Dan held another low heart
    child.expect_exact("(line 18)")
    child.sendline("why 4h")
    child.expect_exact("4H (low-hearts): with Dan for sure")
    child.expect_exact("dealt to Dan: forced by 3 events")
    for line in ("line 15: Ann asks Dan for 3H: no", "line 17: Ann asks Dan for 2H: no", "line 18: Dan asks Ann"):
        child.expect_exact(line)
    child.sendline("quit")
    child.expect(pexpect.EOF)


def test_a_resumed_session_keeps_the_lines_typed_before(tmp_path):
    shutil.copy(EXAMPLES / "mini.txt", tmp_path / "mini.txt")
    child = spawn("mini.txt", cwd=tmp_path)
    child.expect_exact("Type 'help' for help.")
    child.sendline("ann dan 2h -")
    child.expect_exact("(line 17)")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert (tmp_path / "mini.live.history").read_text().startswith(HISTORY_MARK)  # beside the autosave, marked
    child = spawn("mini.live.txt", cwd=tmp_path)
    child.expect_exact("9 events so far")
    child.expect_exact("Dan to move (opponent)>")
    child.send("\x1b[A")  # Up: the last line typed in the earlier session
    child.expect_exact("quit")
    child.send("\x1b[A")  # and the one before
    child.expect_exact("ann dan 2h -")
    child.send("\x15")  # Ctrl-U clears it
    child.sendline("undo")
    child.expect_exact("undone: Ann asks Dan for 2H: no")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    assert sorted(path.name for path in tmp_path.iterdir()) == ["mini.live.history", "mini.live.txt", "mini.txt"]


def test_a_history_file_the_user_owns_is_left_alone(tmp_path):
    shutil.copy(EXAMPLES / "mini.txt", tmp_path / "mini.txt")
    notes = tmp_path / "notes.history"
    notes.write_text("my shell history, do not touch\n")
    child = spawn("mini.txt", "--autosave", "notes.txt", cwd=tmp_path)
    child.expect_exact("notes.history is not live's history of typed lines: left as it is;")
    child.expect_exact("Type 'help' for help.")
    child.sendline("ann dan 2h -")
    child.expect_exact("(line 17)")
    child.send("\x1b[A")  # Up still recalls this session's lines
    child.expect_exact("ann dan 2h -")
    child.send("\x15")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    assert notes.read_text() == "my shell history, do not touch\n"
    assert (
        read_record((tmp_path / "notes.txt").read_text()).events[-1]
        == read_record((tmp_path / "mini.txt").read_text() + "Ann asks Dan for 2H: no\n").events[-1]
    )


def test_a_history_file_that_can_no_longer_be_written_stops_nothing(tmp_path):
    """The folder of the autosave and the history goes (a stick pulled out): each line typed stopped on
    prompt_toolkit's traceback and "Press ENTER to continue"; live says once that the lines are no longer kept,
    refuses the event it cannot save, and goes on."""
    table = tmp_path / "table"
    table.mkdir()
    shutil.copy(EXAMPLES / "mini.txt", table / "mini.txt")
    child = spawn("table/mini.txt", cwd=tmp_path)
    child.logfile_read = transcript = io.StringIO()
    child.expect_exact("Type 'help' for help.")
    table.rename(tmp_path / "moved")
    child.sendline("ann dan 2h -")
    child.expect_exact("table/mini.live.history: No such file or directory: the lines typed from now on")
    child.expect_exact("table/mini.live.txt:17: ")
    child.sendline("ann dan 2h -")
    child.expect_exact("table/mini.live.txt:17: ")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    shown = transcript.getvalue()
    assert "Unhandled exception" not in shown and "Press ENTER" not in shown
    assert shown.count("the lines typed from now on") == 1
