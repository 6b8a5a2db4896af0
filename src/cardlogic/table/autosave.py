"""Which file a game at the table autosaves to, claimed for this session alone (see :mod:`cardlogic.files`).

- Named by the user (``--autosave FILE``): that file, if no other session holds it and it is missing or holds this
  game's record (the same set-up, its events a prefix of the game's, so nothing is lost); ``force`` replaces any
  regular file.
- Resuming a record: the record itself when it is an autosave (``NAME.live.txt`` or ``NAME.live-N.txt``), so a game
  goes on in its own file; otherwise, or when another session holds it, the first of ``NAME.live.txt``,
  ``NAME.live-2.txt``, ... beside the record that is missing.
- A new game: the first missing one of ``game-DATE-TIME.live.txt``, ``...live-2.txt``, ... in the working folder.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from cardlogic.files import NameLock, WriteRefusedError, check_writable, claim_name, refusal

if TYPE_CHECKING:
    from cardlogic.table.core import TableGame

AUTOSAVE = re.compile(r"\.live(-\d+)?$")
"""How an autosave's stem ends: ``.live`` or ``.live-N``."""


def claim_autosave(
    record: Path | None,
    named: Path | None,
    is_own: Callable[[str], bool],
    *,
    stem: Path | None = None,
    force: bool = False,
) -> tuple[Path, NameLock]:
    """The autosave path for a game read from ``record`` (None for a new game), and this session's lock on it.

    ``named`` is the path the user gave, if any; ``is_own`` says whether a file's text is this game's record;
    ``stem`` names a new game's file (default ``game``). Raises :class:`~cardlogic.files.WriteRefusedError` when
    the named path may not be written or another session holds it.
    """
    if named is not None:
        lock = NameLock(named)  # a name whose lock cannot be made (its folder missing) is refused as any file is
        try:
            if not lock.acquire():
                raise WriteRefusedError(f"{named} is the autosave of another cardlogic session that is still running")
            check_writable(named, is_own, force=force)
        except BaseException:  # refused, or a Ctrl-C: no lock is left behind
            lock.release()
            raise
        return named, lock
    if record is None:
        return claim_name(_numbered(stem or Path("game")), _missing)
    candidates: Iterator[Path] = _numbered(record.with_name(AUTOSAVE.sub("", record.stem)))
    if AUTOSAVE.search(record.stem):
        candidates = itertools.chain([record], candidates)
    return claim_name(candidates, lambda path: _missing(path) or (path == record and refusal(path, is_own) is None))


def moved_note(record: Path | None, path: Path) -> str | None:
    """Why a game resumed from the autosave ``record`` is saved to ``path``, another file, when it is: another
    session holds ``record`` (its process named when its lock says). None when the game goes on in its own file."""
    if record is None or path == record or not AUTOSAVE.search(record.stem):
        return None
    holder = NameLock(record).holder()
    process = "" if holder is None else f" (process {holder})"
    return f"{record} is in use by another session{process}: this session saves to a copy, {path}"


def start_autosave(game: TableGame, path: Path, resumed: Path | None) -> None:
    """Make ``path`` (claimed by :func:`claim_autosave`) ``game``'s autosave and write the game there now.

    An earlier autosave of this game at ``path`` (not the record it was read from) keeps its user's lines; a file
    that already holds exactly the game is left untouched. Raises :class:`OSError` when it cannot be written.
    """
    game.autosave = str(path)
    if path.exists() and path != resumed and game.is_own(earlier := path.read_text(encoding="utf-8")):
        game.write_over(earlier)
    # a missing file is written now; an existing one only when it differs from the game
    if _missing(path) or refusal(path, lambda written: written == game.text()) is not None:
        game.save(game.autosave)


def _numbered(stem: Path) -> Iterator[Path]:
    for number in itertools.count(1):
        yield stem.with_name(stem.name + (".live.txt" if number == 1 else f".live-{number}.txt"))


def _missing(path: Path) -> bool:
    return not path.exists() and not path.is_symlink()
