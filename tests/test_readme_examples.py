"""Every record the README shows and every file in ``examples/`` passes ``cardlogic check`` and ``cardlogic belief``."""

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cardlogic.cli import main

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
# A record block is a fenced block whose first line is the Players header.
README_RECORDS = re.findall(r"^```\n(Players:.*?)^```", README, re.MULTILINE | re.DOTALL)
RECORDS = {f"README record {number}": text for number, text in enumerate(README_RECORDS, start=1)}
RECORDS.update(
    {f"examples/{path.name}": path.read_text(encoding="utf-8") for path in sorted((ROOT / "examples").glob("*.txt"))}
)  # Literature; other games in subfolders


def test_the_readme_shows_a_record():
    assert README_RECORDS


@pytest.mark.parametrize("command", ["check", "belief"])
@pytest.mark.parametrize("name", sorted(RECORDS))
def test_every_shown_record_passes(tmp_path, capsys, name, command):
    path = tmp_path / "record.txt"
    path.write_text(RECORDS[name], encoding="utf-8")
    code = main([command, str(path)])
    _, err = capsys.readouterr()
    assert (code, err) == (0, "")


def test_the_readme_belief_caption_is_the_example_count(capsys):
    assert main(["belief", str(ROOT / "examples" / "mini.txt"), "--json"]) == 0
    deals = int(re.search(r'"deals": "(\d+)"', capsys.readouterr().out)[1])
    assert f"exact over {deals:,} consistent deals" in README


LIVE_TRANSCRIPT = re.search(r"^```\n\$ cardlogic live (\S+)\n(.*?)^```", README, re.MULTILINE | re.DOTALL)
PROMPT = re.compile(r"^(?:\S+ to move \((?:me|my teammate|opponent)\)|the game is over[^>]*)> (.*)$")


def test_the_readme_live_transcript_is_what_live_prints(tmp_path):
    """The README's ``cardlogic live`` session, typed through a pipe in a copy of the example's folder: the lines
    after each prompt are typed, everything else is printed, and nothing is written into the checkout."""
    assert LIVE_TRANSCRIPT
    record, transcript = LIVE_TRANSCRIPT[1], LIVE_TRANSCRIPT[2].splitlines()
    (tmp_path / record).parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(ROOT / record, tmp_path / record)
    typed = [match[1] for line in transcript if (match := PROMPT.match(line))]
    printed = [line for line in transcript if not PROMPT.match(line)]
    before = sorted(path.name for path in (ROOT / record).parent.iterdir())
    done = subprocess.run(
        [sys.executable, "-m", "cardlogic", "live", record],
        input="\n".join(typed) + "\n",
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=120,
        check=False,
    )
    assert (done.returncode, done.stderr) == (0, "")
    slow = ("warming up the solver", "working on it")  # said only when a busy machine takes over 2 s
    assert [line for line in done.stdout.splitlines() if not line.startswith(slow)] == printed
    assert sorted(path.name for path in (ROOT / record).parent.iterdir()) == before
