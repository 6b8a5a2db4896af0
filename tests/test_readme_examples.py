"""What the README and the pages under docs/ show is what the software does.

- Every record they show, and every file in ``examples/``, passes ``check`` and ``belief``.
- Every ``console`` block runs: each ``$ cardlogic ...`` line exits 0 (or as its ``; echo "exit $?"`` shows) and
  prints every line shown after it. Commands too long for the tests (tournaments of hundreds of games, a cluster)
  are shown in ``sh`` blocks: each ``cardlogic`` line there must be accepted by the command's argument parser.
- Every ``python`` block of a page runs, in order, in one namespace.
- The README stays under 250 lines, and every figure of its results tables is the one in the generated results.
"""

import io
import json
import re
import runpy
import shlex
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from cardlogic.cli import build_parser, main
from cardlogic.literature import Rules

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
PAGES = {"README.md": README} | {
    f"docs/{path.name}": path.read_text(encoding="utf-8") for path in sorted((ROOT / "docs").glob("*.md"))
}


def _blocks(text: str, language: str) -> list[str]:
    """The fenced blocks of ``text`` opened as ```` ```language ```` ("" for a plain fence), in order."""
    blocks, current, opened = [], [], None
    for line in text.splitlines(keepends=True):
        if opened is None and line.startswith("```"):
            opened, current = line[3:].strip(), []
        elif opened is not None and line.rstrip() == "```":
            if opened == language:
                blocks.append("".join(current))
            opened = None
        elif opened is not None:
            current.append(line)
    return blocks


# A record block is a fenced block (plain or text) whose first line is the Players header.
RECORDS = {
    f"{page} record {number}": text
    for page, content in PAGES.items()
    for number, text in enumerate(
        (block for language in ("", "text") for block in _blocks(content, language) if block.startswith("Players:")),
        start=1,
    )
}
RECORDS.update(
    {f"examples/{path.name}": path.read_text(encoding="utf-8") for path in sorted((ROOT / "examples").glob("*.txt"))}
)  # Literature; Knektpass in examples/knektpass, and its records shown in the docs have a Trump header
RECORDS.update(
    {f"examples/knektpass/{p.name}": p.read_text(encoding="utf-8") for p in sorted((ROOT / "examples").glob("*/*.txt"))}
)


def test_the_readme_shows_a_record():
    assert any(name.startswith("README.md") for name in RECORDS)


@pytest.mark.parametrize("command", ["check", "belief"])
@pytest.mark.parametrize("name", sorted(RECORDS))
def test_every_shown_record_passes(tmp_path, capsys, name, command):
    path = tmp_path / "record.txt"
    path.write_text(RECORDS[name], encoding="utf-8")
    game = ["knektpass"] if "\nTrump:" in RECORDS[name] else []
    code = main([*game, command, str(path)])
    _, err = capsys.readouterr()
    assert (code, err) == (0, "")


def _console_steps(page: str) -> list[tuple[str, list[str]]]:
    """Each ``$`` line of the page's console blocks with the output lines shown after it."""
    steps: list[tuple[str, list[str]]] = []
    for block in _blocks(PAGES[page], "console"):
        for line in block.splitlines():
            if line.startswith("$ "):
                steps.append((line[2:], []))
            elif line.strip() and line.strip() != "...":
                steps[-1][1].append(line.strip())
    return steps


CONSOLE = [(page, command, shown) for page in PAGES for command, shown in _console_steps(page)]


@pytest.mark.parametrize(("page", "command", "shown"), CONSOLE, ids=[f"{p}: {c}" for p, c, _ in CONSOLE])
def test_every_console_command_runs_and_prints_what_is_shown(monkeypatch, page, command, shown):
    monkeypatch.chdir(ROOT)
    command, echoes_exit = command.removesuffix('; echo "exit $?"'), command.endswith('; echo "exit $?"')
    argv = shlex.split(command)
    assert argv[0] == "cardlogic", f"{page}: only cardlogic commands run in console blocks"
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(argv[1:])
    printed = [line.strip() for line in (out.getvalue() + err.getvalue()).splitlines()]
    if echoes_exit:
        printed.append(f"exit {code}")
    else:
        assert code == 0, err.getvalue()
    missing = [line for line in shown if line not in printed]
    assert missing == [], f"{page}: {command} did not print these lines"


def _shell_commands(text: str) -> list[list[str]]:
    """The ``cardlogic`` commands of the page's sh blocks (continued lines joined, environment settings dropped)."""
    commands = []
    for block in _blocks(text, "sh"):
        for line in block.replace("\\\n", " ").splitlines():
            words = shlex.split(line, comments=True)
            while words and re.fullmatch(r"[A-Z_]+=\S*", words[0]):
                words.pop(0)
            if words[:1] == ["cardlogic"]:
                commands.append(words[1:])
    return commands


SHELL = [(page, argv) for page, text in PAGES.items() for argv in _shell_commands(text)]


@pytest.mark.parametrize(("page", "argv"), SHELL, ids=[f"{p}: {' '.join(a)}" for p, a in SHELL])
def test_every_long_command_shown_is_one_the_command_line_accepts(page, argv):
    build_parser(argv).parse_args(argv)


@pytest.mark.parametrize("page", [page for page, text in PAGES.items() if _blocks(text, "python")])
def test_every_python_block_runs(monkeypatch, page):
    monkeypatch.chdir(ROOT)
    namespace: dict = {}
    for number, block in enumerate(_blocks(PAGES[page], "python"), start=1):
        exec(compile(block, f"{page} python block {number}", "exec"), namespace)


def test_the_readme_is_a_short_page():
    assert len(README.splitlines()) < 250


def test_the_readme_belief_caption_is_the_example_count(capsys):
    assert main(["belief", str(ROOT / "examples" / "mini.txt"), "--prior", "rules", "--json"]) == 0
    deals = int(re.search(r'"deals": "(\d+)"', capsys.readouterr().out)[1])
    assert f"exact over {deals:,} consistent deals" in README


def _table(text: str, header: str) -> list[list[str]]:
    """The rows of the Markdown table whose header row starts with ``header``."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"| {header}"))
    rows = []
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return rows


def test_every_speed_figure_in_the_readme_is_the_one_in_the_generated_results():
    results = (ROOT / "benchmarks" / "RESULTS.md").read_text(encoding="utf-8")
    generated = {row[0]: row for row in _table(results, "target")}  # target, bar, measured, baseline, ratio, status
    shown = _table(README, "target")
    assert shown
    for target, bar, measured, status in shown:
        assert [bar, measured, status] == [generated[target][1], generated[target][2], generated[target][5]]


def _rate(rate: dict) -> str:
    return f"{100 * rate['rate']:.1f}% ({100 * rate['low']:.1f}-{100 * rate['high']:.1f}%)"


def test_every_strength_figure_in_the_readme_is_the_one_in_the_generated_results():
    rows = _table(README, "match")
    assert rows and "`cardlogic tournament --bots A,B --players N --games G --seed S`" in README
    for match, games, wins, ties, losses, sets, sprt in rows:
        cell = re.fullmatch(r"\[(\w+) v (\w+), (\d+) players, ([\w-]+), seed (\d+)\]\(([^)]+)\)", match)
        assert cell, match
        first, second, players, deck, seed, path = cell.groups()
        data = json.loads((ROOT / path).read_text(encoding="utf-8"))
        assert (data["bots"], data["players"], data["deck"], data["seed"], str(data["games"])) == (
            [first, second],
            int(players),
            deck,
            int(seed),
            games,
        )
        assert data["rules"] == str(Rules())
        test = re.fullmatch(r"\[(H0|H1|undecided) at ([+-]\d+) Elo in (\d+) games, seed (\d+)\]\(([^)]+)\)", sprt)
        assert test, sprt
        decision, elo1, played, sprt_seed, sprt_path = test.groups()
        decided = json.loads((ROOT / sprt_path).read_text(encoding="utf-8"))
        assert (decided["sprt"]["decision"], decided["sprt"]["elo1"], decided["sprt"]["games"]) == (
            decision,
            float(elo1),
            int(played),
        )
        assert {key: decided["games"][key] for key in ("bots", "players", "deck", "seed", "rules")} == {
            "bots": [first, second],
            "players": int(players),
            "deck": deck,
            "seed": int(sprt_seed),
            "rules": str(Rules()),
        }
        rates = data["rates"]
        assert wins == f"{data['wins'][first]}, {_rate(rates[f'{first} wins'])}"
        assert ties == f"{data['ties']}, {_rate(rates['ties'])}"
        assert losses == f"{data['wins'][second]}, {_rate(rates[f'{second} wins'])}"
        assert sets == f"{data['points'][first]:.2f} v {data['points'][second]:.2f}"


def test_every_picture_shown_is_in_docs_images_and_taken_again_by_make_screenshots():
    """Each picture a page shows is in docs/images/, each there is shown, and ``benchmarks/make_screenshots.py``
    takes each again from a browser test that saves that screen."""
    shown = {name for text in PAGES.values() for name in re.findall(r"images/([\w.-]+\.png)", text)}
    stored = {path.name for path in (ROOT / "docs" / "images").iterdir()}
    script = runpy.run_path(str(ROOT / "benchmarks" / "make_screenshots.py"))
    assert shown == stored == set(script["SHOTS"].values())
    for test in script["TESTS"]:
        path, name = test.split("::")
        assert f"def {name}(" in (ROOT / path).read_text(encoding="utf-8"), test
    saving = "".join((ROOT / test.split("::")[0]).read_text(encoding="utf-8") for test in script["TESTS"])
    assert all(f'"{shot}"' in saving for shot in script["SHOTS"])
