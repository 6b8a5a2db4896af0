"""Every command that reads a record rejects the records ``check`` rejects, at the same first line.

The corpus: full records from ``simulate`` (both games) and the views of them, with one event line mutated
(an answer flipped, a card, a player or a count replaced, a line dropped or repeated). For each mutated
record ``check`` is the referee: where it rejects a well-formed record at ``FILE:LINE: message``, ``belief
--json``, ``view`` and ``advise`` (and the live game core, for Literature) reject it with that same line;
where it accepts, they answer or refuse with a ``FILE...`` message; no command ever raises.
"""

from __future__ import annotations

import random
import re

import pytest

from cardlogic.cli import main
from cardlogic.cli.common import MAX_RECORD_CHARACTERS
from cardlogic.knektpass import read_record as read_knektpass
from cardlogic.knektpass import scan_record as scan_knektpass
from cardlogic.knektpass import write_record as write_knektpass
from cardlogic.literature import RecordError, read_record, scan_record, write_record
from cardlogic.table.literature import LiveGame

LATER = re.compile(r" \(and [\d,]+ later events? that follows? from it (was|were) not checked\)$")
CARD = re.compile(r"\b(10|[2-9JQKA])[SHDC]\b")


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def simulated(capsys, game: str, seed: int, players: int) -> str:
    prefix = ("knektpass",) if game == "knektpass" else ()
    code, out, _ = run(capsys, *prefix, "simulate", "--seed", str(seed), "--players", str(players))
    assert code == 0
    return "".join(line + "\n" for line in out.splitlines() if not line.startswith("#"))


def views(text: str, game: str) -> list[str]:
    """The full record ``text`` and every player's view of it."""
    if game == "knektpass":
        record = read_knektpass(text)
        return [text, *(write_knektpass(record.view_as(p)) for p in record.hands)]
    record = read_record(text)
    return [text, *(write_record(record.view_as(p)) for p in record.hands)]


def mutated(text: str, rng: random.Random) -> str:
    """``text`` with one event line changed: an answer flipped, a card, player or count replaced, or the line
    dropped or repeated."""
    lines = text.splitlines()
    first = lines.index("") + 1
    if first >= len(lines):
        return text
    index = rng.randrange(first, len(lines))
    line = lines[index]
    names = lines[0].split()[1:]
    cards = [match.group(0) for match in CARD.finditer(text)]
    kind = rng.randrange(6)
    if kind == 0 and (": yes" in line or ": no" in line):
        line = line.replace(": yes", ": n-o").replace(": no", ": yes").replace(": n-o", ": no")
    elif kind == 1 and CARD.search(line):
        spots = list(CARD.finditer(line))
        spot = rng.choice(spots)
        line = line[: spot.start()] + rng.choice(cards) + line[spot.end() :]
    elif kind == 2:
        name = rng.choice([n for n in names if n in line] or names)
        line = line.replace(name, rng.choice(names), 1)
    elif kind == 3 and re.search(r"\d+", line):
        line = re.sub(r"\b\d\b", str(rng.randrange(1, 6)), line, count=1)
    elif kind == 4:
        del lines[index]
        return "\n".join(lines) + "\n"
    else:
        lines.insert(index, line)
        return "\n".join(lines) + "\n"
    lines[index] = line
    return "\n".join(lines) + "\n"


def commands(text: str, game: str, path: str) -> list[tuple[str, ...]]:
    """The commands that read ``text`` (at ``path``), as argument lists."""
    prefix = ("knektpass",) if game == "knektpass" else ()
    me = re.search(r"^Me: (\S+)", text, re.MULTILINE)
    shown = re.findall(r"^Hand (\S+):", text, re.MULTILINE)
    found = [(*prefix, "belief", "--json", path)]
    if shown:
        found.append((*prefix, "view", path, "--as", shown[0]))
    if me:
        found.append((*prefix, "advise", "--json", path))
    return found


def first_line(err: str) -> str:
    return LATER.sub("", err.splitlines()[0]) if err else ""


def agree(capsys, tmp_path, text: str, game: str) -> bool:
    """Run every command on ``text``; assert they agree with ``check``; return whether check rejected it."""
    path = str(tmp_path / "record.txt")
    (tmp_path / "record.txt").write_text(text, encoding="utf-8")
    prefix = ("knektpass",) if game == "knektpass" else ()
    checked, _, check_err = run(capsys, *prefix, "check", path)
    assert checked in (0, 1) and "Traceback" not in check_err
    record, problems = (scan_knektpass if game == "knektpass" else scan_record)(text)
    well_formed = record is not None and not problems
    for argv in commands(text, game, path):
        code, out, err = run(capsys, *argv)
        assert code in (0, 1), (argv, err)
        if checked:
            assert code == 1 and out == "", (argv, text, check_err, out)
            if well_formed:
                assert first_line(err) == first_line(check_err), (argv, text)
        elif code:
            assert err.startswith(path), (argv, err)
    if game == "literature" and checked and well_formed:
        record = read_record(text)
        with pytest.raises(RecordError) as error:
            LiveGame(record)
        assert f"{path}:{error.value.line}: {error.value.message}" == first_line(check_err)
    return checked == 1


# (game, seed, players): small tables keep the views' exact beliefs quick; 12 players covers the largest table.
GAMES = [("literature", 1, 4), ("literature", 2, 6), ("literature", 3, 12), ("knektpass", 1, 3), ("knektpass", 2, 4)]


@pytest.mark.parametrize(("game", "seed", "players"), GAMES)
def test_a_flipped_answer_in_a_full_record_is_rejected_by_every_command_at_its_line(
    capsys, tmp_path, game, seed, players
):
    text = simulated(capsys, game, seed, players)
    assert not agree(capsys, tmp_path, text, game)
    rng = random.Random(seed)
    rejected = 0
    for _ in range(15):
        rejected += agree(capsys, tmp_path, mutated(text, rng), game)
    assert rejected >= 4


FUZZED = 60
"""Mutated records and views per game below: with the flipped answers above, over 300 records a run."""


@pytest.mark.parametrize(("game", "seed", "players"), GAMES[:2] + GAMES[3:])
def test_fuzzed_records_and_views_never_raise_and_none_is_answered_that_check_rejects(
    capsys, tmp_path, game, seed, players
):
    rng = random.Random(100 + seed)
    texts = views(simulated(capsys, game, 100 + seed, players), game)
    for _ in range(FUZZED):
        agree(capsys, tmp_path, mutated(rng.choice(texts), rng), game)


@pytest.mark.parametrize("game", ["literature", "knektpass"])
def test_a_file_longer_than_a_record_may_be_is_refused_in_one_line(capsys, tmp_path, game):
    path = tmp_path / "huge.txt"
    path.write_text("# " + "x" * MAX_RECORD_CHARACTERS + "\n", encoding="utf-8")
    prefix = ("knektpass",) if game == "knektpass" else ()
    for argv in [("check", str(path)), ("belief", str(path)), ("view", str(path), "--as", "Ann")]:
        assert run(capsys, *prefix, *argv) == (
            1,
            "",
            f"{path}: longer than {MAX_RECORD_CHARACTERS:,} characters, the most a record may have\n",
        )


@pytest.mark.parametrize("game", ["literature", "knektpass"])
def test_a_record_not_in_utf_8_is_refused_at_the_line_of_its_first_such_byte(capsys, tmp_path, game):
    """As Notepad saves "ANSI" (Latin-1): past the first block read, too; it was Python's codec error, with no
    line and the byte's place in the block."""
    path = tmp_path / "latin-1.txt"
    path.write_bytes(b"Players: Ann Bob Cat Dan\n" + b"# a long comment\n" * 1000 + "# Zoë\n".encode("latin-1"))
    prefix = ("knektpass",) if game == "knektpass" else ()
    for argv in [("check", str(path)), ("belief", str(path)), ("view", str(path), "--as", "Ann")]:
        assert run(capsys, *prefix, *argv) == (
            1,
            "",
            f"{path}:1002: not UTF-8 text (byte 0xeb): save the record as UTF-8\n",
        )
