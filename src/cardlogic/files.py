"""The files cardlogic writes for a user: only a path they named or an autosave name claimed for one session.

Every file cardlogic writes follows one rule:

- A path is replaced only when it is a regular file that holds this game's own record (the caller's ``is_own``
  says so, e.g. the same set-up with its events a prefix of the game's), or when the user forces it. A symbolic
  link, a folder, a device, a pipe, or a file holding anything else is refused with :class:`WriteRefusedError`,
  before anything is written.
- A replaced file keeps its permissions; a new one gets the ordinary ``0666 & ~umask``. The text goes to a
  temporary file beside the target and replaces it in one rename, after a flush to disk, so a crash at any moment
  leaves the old file or the new one, whole. Ctrl-C (SIGINT) waits until the rename is done or the temporary file
  is gone. A temporary file that a crash left behind is removed when its name is next claimed.
- An autosave name belongs to one session at a time: :class:`NameLock` holds it by a lock file beside it, created
  exclusively and holding the session's process id; a lock whose process is gone is stale and is taken over.
- What a user wrote in a record (headers, every hand, comments) survives a rewrite: :class:`RecordText` keeps
  their lines and only drops the lines of events taken back and appends the new ones.
"""

from __future__ import annotations

import contextlib
import os
import signal
import stat
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path


class WriteRefusedError(ValueError):
    """A path cardlogic will not write without being forced: it is not a file this game owns."""


UNWRITABLE_FOLDER = "is in a folder I may not write to"


def refusal(
    path: str | os.PathLike[str],
    is_own: Callable[[str], bool] | None = None,
    *,
    force: bool = False,
    own: str = "this game's record",
) -> str | None:
    """Why ``path`` may not be written, or None when it may: it is missing from a folder that exists and may be
    written to, or a regular file ``is_own`` accepts.

    ``is_own`` gets the file's text (a file that is not UTF-8 text is never its own); ``own`` says in the refusal
    what it accepts. Without ``is_own`` only a missing path may be written. ``force`` accepts any regular file; a
    link, a folder or a device is refused even then.
    """
    target = Path(path)
    try:
        status = target.lstat()
    except (FileNotFoundError, NotADirectoryError):
        if not target.parent.is_dir():
            return "is in a folder that does not exist"
        return None if os.access(target.parent, os.W_OK) else UNWRITABLE_FOLDER
    except OSError as error:
        return error.strerror or str(error)
    if stat.S_ISLNK(status.st_mode):
        return "is a symbolic link"
    if stat.S_ISDIR(status.st_mode):
        return "is a folder"
    if not stat.S_ISREG(status.st_mode):
        return "is not a regular file (a device, a pipe or a socket)"
    if force:
        return None
    if is_own is None:
        return "already exists"
    try:
        text: str | None = target.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        text = None
    except OSError as error:
        return error.strerror or str(error)
    return None if text is not None and is_own(text) else f"already exists and holds something other than {own}"


def check_writable(
    path: str | os.PathLike[str],
    is_own: Callable[[str], bool] | None = None,
    *,
    force: bool = False,
    own: str = "this game's record",
    exists_hint: str = "--force replaces it",
) -> None:
    """Raise :class:`WriteRefusedError` unless ``path`` may be written (see :func:`refusal`, and ``own`` there); a
    file refused for being there already is refused with ``exists_hint``, the way on."""
    reason = refusal(path, is_own, force=force, own=own)
    if reason is not None:
        raise _refused(path, reason, exists_hint if reason.startswith("already exists") else None)


def _refused(path: str | os.PathLike[str], reason: str, hint: str | None = None) -> WriteRefusedError:
    """The error of a file not written for ``reason``, with the way on where there is one."""
    return WriteRefusedError(f"{os.fspath(path)} {reason}: not written" + (f"; {hint}" if hint else ""))


def replace_text(path: str | os.PathLike[str], text: str) -> None:
    """Replace ``path`` with ``text`` atomically, keeping its permissions (see the module's rule).

    Checks nothing about what is at ``path``: call :func:`check_writable` first. An :class:`OSError` names
    ``path``, not the temporary file it failed on.
    """
    try:
        _replace(Path(path), text)
    except OSError as error:
        raise OSError(error.errno, error.strerror, os.fspath(path)) from error


def _replace(target: Path, text: str) -> None:
    folder = target.parent
    try:
        mode = stat.S_IMODE(target.stat().st_mode)
    except FileNotFoundError:
        mode = 0o666 & ~_umask()
    with sigint_deferred():  # a KeyboardInterrupt inside mkstemp would leave a temporary file nobody knows of
        descriptor, temporary = tempfile.mkstemp(prefix=_temporary_prefix(target), suffix=".tmp", dir=folder)
        try:
            with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
                handle.write(text)
                handle.flush()
                os.fchmod(handle.fileno(), mode)
                os.fsync(handle.fileno())
            os.replace(temporary, target)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
    directory = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(directory)
    finally:
        os.close(directory)


@contextlib.contextmanager
def sigint_deferred() -> Iterator[None]:
    """Hold Ctrl-C (SIGINT) back while the block runs, then raise its KeyboardInterrupt (in the main thread, where
    Python handles signals; elsewhere nothing changes). The handler found is put back: in a process that ignores
    SIGINT (a background job of a shell script starts so) it stays ignored, and a handler set outside Python, which
    Python could not put back, is left alone."""
    previous = signal.getsignal(signal.SIGINT)
    if threading.current_thread() is not threading.main_thread() or previous is None:
        yield
        return
    caught: list[int] = []
    signal.signal(signal.SIGINT, lambda number, _frame: caught.append(number))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if caught and callable(previous):
        previous(signal.SIGINT, None)  # Python's own handler raises KeyboardInterrupt
    elif caught and previous == signal.SIG_DFL:
        raise KeyboardInterrupt


def write_owned(
    path: str | os.PathLike[str],
    text: str,
    is_own: Callable[[str], bool] | None = None,
    *,
    force: bool = False,
    own: str = "this game's record",
) -> None:
    """:func:`check_writable`, then :func:`replace_text`: the one way a command writes a file a user named."""
    check_writable(path, is_own, force=force, own=own)
    replace_text(path, text)


def remove_stale_temporaries(path: str | os.PathLike[str]) -> int:
    """Remove the temporary files a crash left beside ``path``; return how many. Call it holding ``path``'s lock."""
    target = Path(path)
    removed = 0
    for leftover in target.parent.glob(_temporary_prefix(target) + "*.tmp"):
        with contextlib.suppress(FileNotFoundError):
            leftover.unlink()
            removed += 1
    return removed


class NameLock:
    """One session's hold on the name ``path``: the lock file ``.NAME.lock`` beside it, holding the process id.

    :meth:`acquire` creates it exclusively, so of two sessions starting together one gets the name; a lock left by
    a process that is gone (a crash, a SIGKILL) is taken over, with any temporary file it left. :meth:`release`
    removes it.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self.lock = self.path.with_name(f".{self.path.name}.lock")
        self.held = False

    def acquire(self) -> bool:
        """Take the name; False when a running process holds it, :class:`WriteRefusedError` when its folder may not
        be written to."""
        for _attempt in range(3):
            with sigint_deferred():  # created, written and known as held together
                created = self._create()
            if not created:
                if _holder_alive(self.lock):
                    return False
                with contextlib.suppress(FileNotFoundError):
                    self.lock.unlink()  # stale: its process is gone
                continue
            remove_stale_temporaries(self.path)
            return True
        return False

    def _create(self) -> bool:
        """Create the lock file with this process's id; False when it exists. Raises :class:`WriteRefusedError`
        when it cannot be made there (a folder that may not be written to, a missing one, or no folder: a record
        read from a pipe, ``<(...)``), in the words :func:`check_writable` has for the name."""
        try:
            descriptor = os.open(self.lock, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        except FileExistsError:
            return False
        except OSError:
            raise _refused(self.path, refusal(self.path, force=True) or UNWRITABLE_FOLDER) from None
        with os.fdopen(descriptor, "w") as handle:
            handle.write(f"{os.getpid()}\n")
        self.held = True
        return True

    def holder(self) -> int | None:
        """The process id of the running process that holds the name, if one does."""
        pid = _holder(self.lock)
        return pid if pid is not None and _holder_alive(self.lock) else None

    def release(self) -> None:
        if self.held:
            self.held = False
            with contextlib.suppress(FileNotFoundError):
                self.lock.unlink()


def claim_name(candidates: Iterable[Path], may_take: Callable[[Path], bool]) -> tuple[Path, NameLock]:
    """The first of ``candidates`` this session can lock and ``may_take`` accepts, with its lock.

    ``may_take`` is asked only once the name is locked, so two sessions never decide on one name together.
    """
    for candidate in candidates:
        lock = NameLock(candidate)
        try:
            if lock.acquire() and may_take(candidate):
                return candidate, lock
        except BaseException:  # a Ctrl-C too: no lock is left behind
            lock.release()
            raise
        lock.release()
    raise WriteRefusedError("no free autosave name")  # candidates are endless in practice


@dataclass(frozen=True)
class RecordText:
    """A record's text as its user wrote it, with the line of each of its events: what a rewrite keeps.

    ``lines`` are the text's lines, ``event_lines`` the 1-based line of each event, in order (one event a line).
    """

    lines: tuple[str, ...]
    event_lines: tuple[int, ...]

    @classmethod
    def of(cls, text: str, event_lines: Sequence[int]) -> RecordText:
        return cls(tuple(text.lstrip("\ufeff").splitlines()), tuple(event_lines))

    def render(self, kept: int, new_events: Sequence[str]) -> tuple[str, list[int]]:
        """The text with its first ``kept`` events and every line that is not an event, then ``new_events``.

        Returns the text and the line of each of its events (the kept ones, then the new ones).
        """
        dropped = set(self.event_lines[kept:])
        out = [line for number, line in enumerate(self.lines, 1) if number not in dropped]
        while out and not out[-1].strip():
            out.pop()
        if new_events and kept == 0 and out:
            out.append("")  # the blank line between the headers and the events, as write_record puts it
        lines = list(self.event_lines[:kept])
        for event in new_events:
            out.append(event)
            lines.append(len(out))
        return "\n".join(out) + "\n", lines


def _temporary_prefix(target: Path) -> str:
    return f".{target.name}."


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _holder(lock: Path) -> int | None:
    """The process id the lock file holds; None when it is missing or holds none."""
    try:
        pid = int(lock.read_text().strip() or 0)
    except (OSError, ValueError):
        return None
    return pid if pid > 0 else None


LOCK_BEING_MADE_SECONDS = 10.0
"""How long a lock file without a process id yet is taken as held: its session creates it, then writes its id, and
one started at the same moment must not take that moment's empty file for a crash's and take the name too."""


def _holder_alive(lock: Path) -> bool:
    pid = _holder(lock)
    if pid is None:
        try:
            return time.time() - lock.stat().st_mtime < LOCK_BEING_MADE_SECONDS
        except OSError:
            return False
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
