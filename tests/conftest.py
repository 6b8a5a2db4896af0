"""What every test shares: commands run in their own process, never in a resident server (tests/cli/test_resident.py
turns servers on for its own commands, in a private directory of its own), and a command's width is its terminal's
(a COLUMNS or LINES inherited from the process that runs the tests, as a worker process of the test run may have,
would wrap what a test in a pseudo-terminal of 200 columns expects on one line), and ``write``, a record file for a
command to read.

The test run starts the files that take minutes first (:data:`STARTED_FIRST`)."""

import os
from pathlib import Path

import pytest

os.environ["CARDLOGIC_RESIDENT"] = "0"
for name in ("COLUMNS", "LINES"):
    os.environ.pop(name, None)

STARTED_FIRST = (
    "crosscheck/test_literature_pkg.py",
    "test_benchmarks.py",
    "belief/test_choices.py",
    "literature/test_properties.py",
    "advice/test_cluster.py",
    "belief/test_soundness.py",
    "test_doctests.py",
    "cli/test_every_command_checks.py",
    "knektpass/test_bots.py",
    "advice/test_bots.py",
    "belief/test_exact.py",
    "inference/test_exact.py",
    "cli/test_resident.py",
    "web/test_browser.py",
    "advice/test_tournament.py",
)
"""The longest files, longest first. Each file runs in one worker (``--dist loadfile``), so a file of minutes that
starts late ends the run late; pyproject's ``--no-loadscope-reorder`` keeps this order, where pytest-xdist would
start the files with the most tests first. The other files follow in their usual order. An estimate: a stale one
costs time, never a result."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    rank = {name: k for k, name in enumerate(STARTED_FIRST)}

    def place(item: pytest.Item) -> int:
        name = item.path.relative_to(here).as_posix() if item.path.is_relative_to(here) else ""
        return rank.get(name, len(rank))

    items.sort(key=place)  # stable: the tests of a file keep their order


@pytest.fixture
def write(tmp_path: Path):
    """``write(text, name)``: ``text`` written to the file ``name`` (default ``record.txt``) of this test's own
    directory, and its path."""

    def write(text: str, name: str = "record.txt") -> str:
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        return str(path)

    return write
