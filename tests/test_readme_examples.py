"""Every record the README shows and every file in ``examples/`` passes ``cardlogic check`` and ``cardlogic belief``."""

import re
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
