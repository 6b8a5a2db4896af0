"""The rule for every file cardlogic writes: only missing paths or this game's own record, atomically, modes kept."""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
import tempfile
import time

import pytest

from cardlogic.files import (
    LOCK_BEING_MADE_SECONDS,
    NameLock,
    RecordText,
    WriteRefusedError,
    check_writable,
    claim_name,
    refusal,
    remove_stale_temporaries,
    replace_text,
    write_owned,
)


def own(text: str) -> bool:
    return text.startswith("this game")


def test_a_missing_path_is_written_with_the_ordinary_mode(tmp_path):
    target = tmp_path / "new.txt"
    write_owned(target, "this game\n")
    assert target.read_text() == "this game\n"
    mask = os.umask(0)
    os.umask(mask)
    assert stat.S_IMODE(target.stat().st_mode) == 0o666 & ~mask
    assert sorted(p.name for p in tmp_path.iterdir()) == ["new.txt"]  # no temporary file is left


def test_the_game_s_own_file_is_replaced_keeping_its_mode(tmp_path):
    target = tmp_path / "game.txt"
    target.write_text("this game, earlier\n")
    target.chmod(0o640)
    write_owned(target, "this game, now\n", own)
    assert target.read_text() == "this game, now\n"
    assert stat.S_IMODE(target.stat().st_mode) == 0o640


@pytest.mark.parametrize(
    ("make", "reason"),
    [
        (
            lambda p: p.write_text("my notes\n"),
            "holds something other than this game.s record: not written; --force replaces it",
        ),
        (
            lambda p: p.write_bytes(b"\xff\xfe\x00binary"),
            "holds something other than this game.s record: not written; --force replaces it",
        ),
        (lambda p: p.mkdir(), "is a folder"),
        (lambda p: p.symlink_to(p.with_name("elsewhere.txt")), "is a symbolic link"),
    ],
)
def test_anything_else_is_refused_and_left_as_it_was(tmp_path, make, reason):
    target = tmp_path / "target.txt"
    (tmp_path / "elsewhere.txt").write_text("this game\n")
    make(target)
    before = os.lstat(target)
    with pytest.raises(WriteRefusedError, match=reason):
        write_owned(target, "this game\n", own)
    after = os.lstat(target)
    assert (after.st_mode, after.st_ino, after.st_mtime_ns) == (before.st_mode, before.st_ino, before.st_mtime_ns)
    assert (tmp_path / "elsewhere.txt").read_text() == "this game\n"


def test_force_replaces_another_regular_file_but_never_a_link_or_a_device(tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\n")
    write_owned(notes, "this game\n", own, force=True)
    assert notes.read_text() == "this game\n"
    link = tmp_path / "link.txt"
    link.symlink_to(notes)
    with pytest.raises(WriteRefusedError, match="symbolic link"):
        check_writable(link, own, force=True)
    assert refusal("/dev/null", own, force=True) == "is not a regular file (a device, a pipe or a socket)"


def test_a_lock_holds_a_name_for_one_session_and_a_dead_session_s_lock_is_taken_over(tmp_path):
    name = tmp_path / "game.live.txt"
    first, second = NameLock(name), NameLock(name)
    assert first.acquire() and not second.acquire()
    first.release()
    assert second.acquire()
    second.release()
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    (tmp_path / ".game.live.txt.lock").write_text(dead.stdout)  # left by a process that is gone
    (tmp_path / ".game.live.txt.abc123.tmp").write_text("half a record")  # left by a crash mid-write
    third = NameLock(name)
    assert third.acquire()
    assert not (tmp_path / ".game.live.txt.abc123.tmp").exists()
    third.release()
    assert list(tmp_path.iterdir()) == []


def test_a_lock_file_its_session_has_just_made_is_held_before_its_process_id_is_in_it(tmp_path):
    """Two sessions starting together: the second read the first's lock while still empty, took it for a crash's,
    removed it and took the name too (both autosaving to one file, each removing the other's temporary file)."""
    name = tmp_path / "game.live.txt"
    lock = tmp_path / ".game.live.txt.lock"
    lock.touch()  # created, its process id not yet written
    assert not NameLock(name).acquire() and lock.exists()
    made = time.time() - LOCK_BEING_MADE_SECONDS - 1
    os.utime(lock, (made, made))  # a crash between creating it and writing the id: stale once that long ago
    taken = NameLock(name)
    assert taken.acquire() and lock.read_text() == f"{os.getpid()}\n"
    taken.release()


def test_claim_name_skips_names_held_or_taken(tmp_path):
    names = [tmp_path / f"n{k}.txt" for k in range(4)]
    held = NameLock(names[0])
    assert held.acquire()
    names[1].write_text("taken")
    path, lock = claim_name(iter(names), lambda p: not p.exists())
    assert path == names[2]
    lock.release()
    held.release()


def test_remove_stale_temporaries_touches_only_its_own_name(tmp_path):
    (tmp_path / ".a.txt.x1.tmp").write_text("")
    (tmp_path / ".b.txt.x1.tmp").write_text("")
    assert remove_stale_temporaries(tmp_path / "a.txt") == 1
    assert [p.name for p in tmp_path.iterdir()] == [".b.txt.x1.tmp"]


def test_replace_text_leaves_the_old_file_whole_when_writing_fails(tmp_path, monkeypatch):
    target = tmp_path / "game.txt"
    target.write_text("old\n")

    def broken(*_args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", broken)
    with pytest.raises(OSError, match="No space"):
        replace_text(target, "new\n")
    assert target.read_text() == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["game.txt"]


@pytest.fixture
def python_sigint():
    """Python's own Ctrl-C handler, as a process started from a terminal has it (pytest run as a background job of a
    shell script starts with SIGINT ignored)."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


@pytest.mark.parametrize("moment", ["mkstemp", "fsync"])
def test_ctrl_c_while_a_file_is_replaced_waits_for_the_rename_and_leaves_no_temporary_file(
    tmp_path, monkeypatch, moment, python_sigint
):
    """SIGINT inside the write (here raised by the process itself at two moments) is held back until the file is
    whole, new, and its temporary file gone; then it is the usual KeyboardInterrupt."""
    target = tmp_path / "game.txt"
    target.write_text("old\n")
    module = {"mkstemp": tempfile, "fsync": os}[moment]
    original = getattr(module, moment)

    def interrupted(*args, **kwargs):
        found = original(*args, **kwargs)
        os.kill(os.getpid(), signal.SIGINT)
        return found

    monkeypatch.setattr(module, moment, interrupted)
    with pytest.raises(KeyboardInterrupt):
        replace_text(target, "new\n")
    assert target.read_text() == "new\n"
    assert [p.name for p in tmp_path.iterdir()] == ["game.txt"]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_a_process_that_ignores_ctrl_c_goes_on_ignoring_it_while_a_file_is_replaced(tmp_path, monkeypatch):
    target = tmp_path / "game.txt"
    original = os.fsync

    def interrupted(fd):
        original(fd)
        os.kill(os.getpid(), signal.SIGINT)

    monkeypatch.setattr(os, "fsync", interrupted)
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)  # as a background job of a shell script starts
    try:
        replace_text(target, "new\n")  # no KeyboardInterrupt
        assert signal.getsignal(signal.SIGINT) == signal.SIG_IGN
    finally:
        signal.signal(signal.SIGINT, previous)
    assert target.read_text() == "new\n"


def test_a_sigint_handler_set_outside_python_is_left_alone(tmp_path, monkeypatch):
    """Python cannot put back a handler it did not install (getsignal says None), so it must not replace one."""
    monkeypatch.setattr(signal, "getsignal", lambda number: None)
    installed = []
    monkeypatch.setattr(signal, "signal", lambda *arguments: installed.append(arguments))
    replace_text(tmp_path / "game.txt", "new\n")
    assert installed == [] and (tmp_path / "game.txt").read_text() == "new\n"


TEXT = """\ufeffPlayers: Ann Bob
# the header is as the user wrote it
Hand Ann: 2S

Ann asks Bob for 3S: no
# a comment after the first event
Bob asks Ann for 4S: no
"""


def test_record_text_keeps_the_user_s_lines_drops_events_taken_back_and_appends_new_ones():
    written = RecordText.of(TEXT, [5, 7])
    assert written.render(2, []) == (TEXT.lstrip("\ufeff"), [5, 7])
    text, lines = written.render(1, ["Bob asks Ann for 5S: yes"])
    assert text.splitlines()[4:] == [
        "Ann asks Bob for 3S: no",
        "# a comment after the first event",
        text.splitlines()[6],
    ]
    assert lines == [5, 7] and text.splitlines()[6] == "Bob asks Ann for 5S: yes"
    text, lines = RecordText.of("Players: Ann Bob\n", []).render(0, ["Ann asks Bob for 3S: no"])
    assert text == "Players: Ann Bob\n\nAnn asks Bob for 3S: no\n" and lines == [3]
