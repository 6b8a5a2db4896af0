"""``cardlogic live`` in a pseudo-terminal, typed as a person would: prompt, Tab completion, and a SIGKILL."""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from cardlogic.cli import main
from cardlogic.literature import actor, format_event, read_record, write_record
from tests.cli.scripted import GAME, annes_view, setup_text, typed

pexpect = pytest.importorskip("pexpect")


def spawn(*args: str) -> pexpect.spawn:
    # pexpect answers no cursor-position requests; the kernels compile when first needed, not all at the start
    env = dict(os.environ, TERM="xterm", PROMPT_TOOLKIT_NO_CPR="1", CARDLOGIC_WARMUP="off")
    return pexpect.spawn(
        sys.executable, ["-m", "cardlogic", "live", *args], env=env, dimensions=(50, 200), encoding="utf-8", timeout=60
    )


def accepted(child: pexpect.spawn, event_text: str) -> None:
    child.expect_exact(f"ok: {event_text};")


def test_whole_game_typed_in_a_terminal(tmp_path):
    view = annes_view()
    setup, autosave, saved = tmp_path / "game.txt", tmp_path / "auto.txt", tmp_path / "saved.txt"
    setup.write_text(setup_text(view))
    lines = [typed(event, GAME) for event in view.events]
    canonical = [format_event(event, GAME) for event in view.events]
    child = spawn(str(setup), "--autosave", str(autosave))
    child.logfile_read = transcript = io.StringIO()
    child.expect_exact(f"Autosaving to {autosave}")
    child.sendline("f ann 9x +")
    child.expect_exact(f"{autosave}:{read_record(write_record(view)).lines[0]}: unknown card '9x'")
    for line, text in zip(lines[:10], canonical[:10]):
        child.sendline(line)
        accepted(child, text)
    child.sendline("undo 2")
    child.expect_exact(f"undone: {canonical[8]}")
    child.expect_exact("8 events;")
    for line, text in zip(lines[8:10], canonical[8:10]):
        child.sendline(line)
        accepted(child, text)
    child.sendline("why 10h")
    child.expect_exact("10H (high-hearts): out of play (its set is claimed)")
    child.sendline(f"save {saved}")
    child.expect_exact(f"saved 10 events to {saved}")
    asker = GAME.players[actor(view.events[10])]
    child.send(asker[:2].lower() + "\t")
    child.expect_exact(f"> {asker}")  # the prefix, completed in place
    child.sendline(" " + lines[10].split(" ", 1)[1])
    accepted(child, canonical[10])
    for line, text in zip(lines[11:], canonical[11:]):
        child.sendline(line)
        accepted(child, text)
    child.expect_exact("the game is over")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 1  # the mistyped line
    assert "Recommendation:" in transcript.getvalue() and "best asks" in transcript.getvalue()
    assert read_record(autosave.read_text()) == view
    assert read_record(saved.read_text()).events == view.events[:10]


def test_killed_session_resumes_from_its_autosave_with_nothing_lost(tmp_path, capsys):
    view = annes_view()
    setup = tmp_path / "game.txt"
    setup.write_text(setup_text(view))
    lines = [typed(event, GAME) for event in view.events]
    child = spawn(str(setup))
    autosave = tmp_path / "game.live.txt"
    child.expect_exact(f"Autosaving to {autosave}")
    for line, event in zip(lines[:12], view.events[:12]):
        child.sendline(line)
        accepted(child, format_event(event, GAME))
    child.send(lines[12][:3])  # half a line typed, then the process dies
    child.kill(signal.SIGKILL)
    child.close()
    assert read_record(autosave.read_text()).events == view.events[:12]
    assert main(["check", str(autosave)]) == 0
    capsys.readouterr()
    done = subprocess.run(
        [sys.executable, "-m", "cardlogic", "live", str(autosave)],
        input="\n".join(lines[12:]),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "12 events so far" in done.stdout and f"Autosaving to {autosave}" in done.stdout
    assert read_record(autosave.read_text()) == view


def test_my_ask_typed_without_its_answer_asks_for_it(tmp_path):
    """``ann dan 4h`` (I ask; live cannot know the answer) asks for the answer, offering those still possible, as a
    claim asks for its outcome: it was refused ("the ask needs its answer"), and a '-' typed next then recorded
    the ask live had advised, another card."""
    record = tmp_path / "mini.txt"
    record.write_text((Path(__file__).parents[2] / "examples" / "mini.txt").read_text())
    child = spawn(str(record))
    child.expect_exact("Recommendation: ask Dan for 4H")
    child.sendline("ann dan 2h")
    child.expect_exact("Ann asks Dan for 2H: the answer? + (yes) or - (no); empty drops it")
    child.sendline("maybe")
    child.expect_exact("the answer must be + (yes) or - (no), not 'maybe'")
    child.sendline("ann dan 2h")
    child.expect_exact("the answer?")
    child.sendline("-")
    accepted(child, "Ann asks Dan for 2H: no")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    assert (tmp_path / "mini.live.txt").read_text().endswith("Ann asks Dan for 2H: no\n")


def test_a_command_typed_for_a_question_is_carried_out_and_quit_leaves_at_once(tmp_path):
    """At live's question, a command is carried out and the question asked again, ``undo`` drops the line asked
    about and takes back the last event, and ``quit`` drops it and leaves: each was refused as an answer ("the
    answer must be + (yes) or - (no), not 'quit'"), so leaving took an empty answer first."""
    record = tmp_path / "mini.txt"
    record.write_text((Path(__file__).parents[2] / "examples" / "mini.txt").read_text())
    events = read_record(record.read_text()).events
    child = spawn(str(record))
    child.expect_exact("Recommendation: ask Dan for 4H")
    child.sendline("ann dan 2h")
    child.expect_exact("Ann asks Dan for 2H: the answer?")
    child.sendline("hand")
    child.expect_exact("my hand, 3 cards")
    child.expect_exact("Ann asks Dan for 2H: the answer?")
    child.sendline("undo")
    child.expect_exact("dropped: nothing recorded")
    child.expect_exact("undone: Dan asks Ann for KS: no")
    child.sendline("dan cat 2s")
    child.expect_exact("Dan asks Cat for 2S: the answer?")
    child.sendline("quit")
    child.expect_exact("dropped: nothing recorded")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert read_record((tmp_path / "mini.live.txt").read_text()).events == events[:-1]
