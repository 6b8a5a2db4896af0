"""``cardlogic live`` and the files a user owns: a resumed record keeps its lines, nothing else is overwritten."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import signal
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from cardlogic.cards import iter_cards
from cardlogic.literature import Record, format_event, play_random_game, write_record
from tests.cli.scripted import GAME, SEED

NOT_THIS_GAME = "already exists and holds something other than this game's record: not written; --force replaces it"


def full_record(events: int) -> tuple[str, list[str]]:
    """The text of the scripted game's full record with its first ``events`` events and a comment; the rest."""
    hands, played = play_random_game(GAME, SEED)
    full = Record(GAME, None, {p: tuple(iter_cards(hand)) for p, hand in enumerate(hands)}, played[:events])
    return write_record(full) + "# our notes\n", [format_event(event, GAME) for event in played[events:]]


def live(*args: str | Path, typed: str = "quit\n", cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "cardlogic", "live", *map(str, args)],
        input=typed,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        cwd=cwd,
    )


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith("."))


def test_resuming_an_autosave_keeps_every_line_the_user_wrote(tmp_path):
    text, rest = full_record(13)
    autosave = tmp_path / "g.live.txt"
    autosave.write_text(text)
    autosave.chmod(0o640)
    done = live(autosave)
    assert done.returncode == 0, done.stderr
    assert autosave.read_text() == text  # quitting at once changes nothing: six hands and the comment stay
    done = live(autosave, typed=f"{rest[0]}\nquit\n")
    assert done.returncode == 0, done.stderr
    assert autosave.read_text() == text + rest[0] + "\n"
    assert stat.S_IMODE(autosave.stat().st_mode) == 0o640
    assert leftovers(tmp_path) == []  # no lock or temporary file survives a clean exit


def test_autosave_refuses_a_file_that_is_not_this_game_s(tmp_path):
    text, rest = full_record(13)
    record = tmp_path / "g.txt"
    record.write_text(text)
    notes = tmp_path / "notes.txt"
    notes.write_text("notes\n")
    done = live(record, "--autosave", notes)
    assert done.returncode == 1
    assert done.stderr.strip().splitlines() == [f"cardlogic live: {notes} {NOT_THIS_GAME}"]
    assert notes.read_text() == "notes\n"
    longer = tmp_path / "longer.live.txt"  # this game's autosave, further on than the record
    longer.write_text(text + "".join(line + "\n" for line in rest))
    before = longer.read_text()
    assert live(record, "--autosave", longer).returncode == 1
    assert longer.read_text() == before
    earlier = tmp_path / "earlier.live.txt"  # this game's autosave from before the record's last events
    earlier.write_text(full_record(5)[0])
    assert live(record, "--autosave", earlier).returncode == 0
    assert earlier.read_text() == full_record(5)[0] + "".join(line + "\n" for line in full_record(5)[1][:8])
    assert live(record, "--autosave", notes, "--force").returncode == 0
    assert notes.read_text() == text


def test_save_refuses_links_devices_and_other_files(tmp_path):
    text, _rest = full_record(13)
    record = tmp_path / "g.txt"
    record.write_text(text)
    notes = tmp_path / "notes.txt"
    notes.write_text("notes\n")
    link = tmp_path / "link.txt"
    link.symlink_to(notes)
    typed = f"save {link}\nsave /dev/null\nsave {notes}\nsave --force {notes}\nquit\n"
    done = live(record, typed=typed)
    assert done.returncode == 1
    assert done.stderr.strip().splitlines() == [  # a command's errors: no line of the autosave named
        f"{link} is a symbolic link: not written",
        "/dev/null is not a regular file (a device, a pipe or a socket): not written",
        f"{notes} {NOT_THIS_GAME}",
    ]
    assert link.is_symlink() and notes.read_text() == text
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_two_sessions_started_together_never_share_an_autosave(tmp_path):
    text, rest = full_record(13)
    record = tmp_path / "g.txt"
    record.write_text(text)
    command = [sys.executable, "-m", "cardlogic", "live", str(record)]
    sessions = [
        subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for _ in range(2)
    ]
    names = []
    for session in sessions:
        out, err = session.communicate(f"{rest[0]}\nquit\n", timeout=120)
        assert session.returncode == 0, err
        names.append(re.search(r"Autosaving to (\S+)\.", out).group(1))
    assert sorted(Path(name).name for name in names) == ["g.live-2.txt", "g.live.txt"]
    assert [Path(name).read_text() for name in names] == [text + rest[0] + "\n"] * 2
    assert record.read_text() == text


def test_a_new_game_s_autosave_is_refused_before_the_set_up(tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_text("notes\n")
    for command in (["live"], ["knektpass", "live"]):
        done = subprocess.run(
            [sys.executable, "-m", "cardlogic", *command, "--autosave", str(notes)],
            input="Ann Bob Cat Dan\n",
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert done.returncode == 1
        assert done.stdout == ""  # not one set-up question
        assert done.stderr.strip().splitlines() == [f"cardlogic {' '.join(command)}: {notes} {NOT_THIS_GAME}"]
        assert notes.read_text() == "notes\n"


def test_resuming_an_autosave_another_session_holds_says_why_it_goes_on_in_a_copy(tmp_path):
    text, _rest = full_record(13)
    autosave = tmp_path / "g.live.txt"
    autosave.write_text(text)
    holding = subprocess.Popen(
        [sys.executable, "-m", "cardlogic", "live", str(autosave)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert holding.stdout is not None
        while "Autosaving to" not in (line := holding.stdout.readline()):
            assert line, holding.stderr.read() if holding.stderr else ""
        done = live(autosave)
    finally:
        holding.communicate("quit\n", timeout=120)
    assert done.returncode == 0, done.stderr
    copy = tmp_path / "g.live-2.txt"
    assert (
        f"{autosave} is in use by another session (process {holding.pid}): this session saves to a copy, {copy}\n"
        in (done.stdout)
    )
    assert f"Autosaving to {copy}." in done.stdout


def test_sigterm_ends_a_session_as_ctrl_c_does_leaving_no_lock(tmp_path):
    text, rest = full_record(13)
    autosave = tmp_path / "g.live.txt"
    autosave.write_text(text)
    command = [sys.executable, "-m", "cardlogic", "live", str(autosave)]
    session = subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    assert session.stdin is not None and session.stdout is not None
    session.stdin.write(f"{rest[0]}\n")
    session.stdin.flush()
    while not (line := session.stdout.readline()).startswith("ok: ") and line:
        pass
    assert leftovers(tmp_path) == [".g.live.txt.lock"]
    session.send_signal(signal.SIGTERM)  # waiting for the next line, as at the table
    _, err = session.communicate(timeout=60)
    assert session.returncode == 143, err  # 128 + SIGTERM, as a shell reports it; Ctrl-C gives 130
    assert err.strip() == f"interrupted; everything up to the last accepted event is in {autosave}"
    assert autosave.read_text() == text + rest[0] + "\n"
    assert leftovers(tmp_path) == []


def test_a_file_in_a_missing_folder_is_refused_in_one_line_before_anything_is_done(tmp_path):
    """``--autosave``, ``save``, ``fit -o`` and ``serve --autosave`` into a folder that does not exist (or a path
    through a file) say so as every other refusal does, exit 1, and show no traceback; ``fit`` before its fit."""
    text, _rest = full_record(13)
    record = tmp_path / "g.txt"
    record.write_text(text)
    notes = tmp_path / "notes.txt"
    notes.write_text("notes\n")
    missing = tmp_path / "no-such-folder" / "game.live.txt"
    refused = f"{missing} is in a folder that does not exist: not written"
    for args in ([record, "--autosave", missing], ["--autosave", missing]):
        done = live(*args)
        assert (done.returncode, done.stderr.strip()) == (1, f"cardlogic live: {refused}")
    done = live(record, typed=f"save {missing}\nsave {notes / 'x.txt'}\nquit\n")
    assert done.stderr.strip().splitlines() == [
        refused,
        f"{notes / 'x.txt'} is in a folder that does not exist: not written",
    ]
    knektpass = Path(__file__).parents[2] / "examples" / "knektpass" / "bob.txt"
    for name, args in (
        ("knektpass live", [knektpass, "--autosave", missing]),
        ("serve", ["--port", "0", knektpass, "--autosave", missing]),
        ("serve", ["--port", "0", "--autosave", missing]),  # before the set-up on the page
        ("fit", [record, "-o", missing]),
    ):
        done = subprocess.run(
            [sys.executable, "-m", "cardlogic", *name.split(), *map(str, args)],
            input="quit\n",
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert (done.returncode, done.stderr.strip()) == (1, f"cardlogic {name}: {refused}"), args
    assert not missing.parent.exists()


@pytest.mark.skipif(not Path("/dev/fd").is_dir() or shutil.which("bash") is None, reason="needs bash and /dev/fd")
@pytest.mark.parametrize("command", [["live"], ["knektpass", "live"]])
def test_a_record_where_no_autosave_can_be_written_is_refused_with_the_way_out(tmp_path, command):
    """A record read through ``<(...)`` (as one in a read-only folder) has no folder to autosave beside it: live
    says so and how to save elsewhere; it stopped on a traceback, making the lock file."""
    example = Path(__file__).parents[2] / "examples" / ("mini.txt" if command == ["live"] else "knektpass/bob.txt")
    line = shlex.join([sys.executable, "-m", "cardlogic", *command])
    done = subprocess.run(
        ["bash", "-c", f"{line} <(cat {shlex.quote(str(example))}) < /dev/null"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        cwd=tmp_path,
    )
    assert done.returncode == 1
    assert re.fullmatch(
        rf"cardlogic {' '.join(command)}: /dev/fd/\d+\.live\.txt is in a folder I may not write to: not written; "
        r"--autosave FILE saves elsewhere\n",
        done.stderr,
    ), done.stderr
    assert list(tmp_path.iterdir()) == []
