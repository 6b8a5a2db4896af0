"""``cardlogic warmup``, the warm-up a command runs first and what live says on a first run: on an empty numba cache (a
temporary NUMBA_CACHE_DIR)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from cardlogic.cli import main

pexpect = pytest.importorskip("pexpect")

EXAMPLES = Path(__file__).parents[2] / "examples"
BOB = EXAMPLES / "knektpass" / "bob.txt"


def test_a_command_in_a_terminal_warms_up_first_and_warmup_then_finds_the_cache_warm(tmp_path):
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path), TERM="xterm")
    env.pop("CARDLOGIC_WARMUP", None)
    child = pexpect.spawn(
        sys.executable,
        ["-m", "cardlogic", "knektpass", "advise", str(BOB)],
        env=env,
        dimensions=(24, 80),
        encoding="utf-8",
        timeout=300,
    )
    child.expect_exact("compiling the solver's kernels, once")
    child.expect_exact("Knektpass, 5 players")  # the progress bar names each step
    child.expect_exact("Compiled in")
    child.expect_exact("best: Bob plays")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    stamps = sorted(p.parent.name.split("_")[0] for p in tmp_path.glob("*/cardlogic-warmup-knektpass-*.stamp"))
    assert stamps == ["inference", "knektpass"]
    compiled = {p.name.split("-")[0] for p in tmp_path.glob("knektpass_*/*.nbi")}
    assert compiled >= {"kernels.legal_mask", "kernels.search", "kernels.move_values", "kernels.start_values"}
    again = subprocess.run(
        [sys.executable, "-m", "cardlogic", "warmup", "--game", "knektpass"],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    assert again.stdout == "The kernels are compiled already (the numba cache is warm).\n"


def test_a_command_whose_output_goes_to_a_pipe_does_not_warm_up(capsys, monkeypatch):
    monkeypatch.delenv("CARDLOGIC_WARMUP", raising=False)
    monkeypatch.setattr("cardlogic.cli.warmup.is_warm", lambda games=(): pytest.fail("checked the cache"))
    assert main(["knektpass", "advise", str(BOB), "--json", "--samples", "4"]) == 0
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize(
    ("command", "record", "step"),
    [
        (["live"], EXAMPLES / "mini.txt", "Literature, 6 players"),
        (["knektpass", "live"], BOB, "Knektpass, 3 players"),
    ],
)
def test_live_on_a_cold_cache_says_it_compiles_first_and_ctrl_c_leaves_with_nothing_saved(
    tmp_path, command, record, step
):
    """On a first run in a terminal, live says it compiles the kernels (a minute or more) and shows each step;
    Ctrl-C then ends it at once, before the game is opened. Only the notice is awaited, not the compiling."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"), TERM="xterm", PROMPT_TOOLKIT_NO_CPR="1")
    env.pop("CARDLOGIC_WARMUP", None)
    autosave = tmp_path / "game.live.txt"
    child = pexpect.spawn(
        sys.executable,
        ["-m", "cardlogic", *command, str(record), "--autosave", str(autosave)],
        env=env,
        dimensions=(24, 80),
        encoding="utf-8",
        timeout=60,
    )
    child.expect_exact("First run of this installation: compiling the solver's kernels, once")
    child.expect_exact(step)
    child.sendintr()
    child.expect_exact("interrupted; nothing was saved")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    assert not autosave.exists()
