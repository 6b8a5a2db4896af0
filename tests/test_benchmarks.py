"""The benchmark suite runs end to end (smoke mode) and writes the JSON it promises; not a speed gate."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from cardlogic.bench.report import _advise_command_target, markdown, print_report, results_page, targets
from cardlogic.bench.scenarios import SPECS, load_scenarios, make_scenario, scenario_text
from cardlogic.bench.suite import PLANS, run_suite
from cardlogic.cli.bench import main as bench_main

SCENARIOS = Path(__file__).resolve().parents[1] / "benchmarks" / "scenarios"
STATS = {"median", "q1", "q3", "min", "max", "n"}
# CI runs the whole suite in quick mode after the tests (.ci/run); here every figure only has to be produced and
# written: the smoke plan with one repeat, an early 4-player and the 6-player scenario (live and accuracy need
# it), and no literature game (the package comparison has its own tests in tests/crosscheck).
PLAN = replace(PLANS["smoke"], repeats=1, literature_games=0, only=("04p-no-8s-early", "06p-no-8s-middle"))


@pytest.fixture(scope="module")
def results() -> dict:
    return json.loads(json.dumps(run_suite(SCENARIOS, PLAN, progress=False)))


def test_every_stored_scenario_is_its_spec_regenerated_and_a_valid_record():
    stored = {s.name: s for s in load_scenarios(SCENARIOS)}
    assert sorted(stored) == sorted(spec.name for spec in SPECS)
    for spec in SPECS:
        scenario = stored[spec.name]
        assert scenario.record.check() == []
        assert scenario.record.observer is not None
    spec = SPECS[0]
    assert scenario_text(make_scenario(spec)) == (SCENARIOS / f"{spec.name}.txt").read_text()


def test_cardlogic_check_accepts_a_scenario_file():
    path = SCENARIOS / "06p-jokers-middle.txt"
    done = subprocess.run(
        [sys.executable, "-m", "cardlogic", "check", str(path)], check=False, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr


def test_results_have_every_figure_and_target(results):
    assert results["mode"] == "smoke"
    assert {s["name"] for s in results["scenarios"]} == set(PLAN.only)
    figures = results["figures"]
    assert set(figures) == {
        "baseline",
        "exact",
        "sampler",
        "accuracy",
        "csp",
        "rejection",
        "advice",
        "live",
        "advice_rules",
        "live_rules",
        "serve",
        "cold_start",
        "advise_command",
        "first_advice",
        "knektpass_live",
        "knektpass_serve",
        "knektpass_first_advice",
        "memory",
        "literature_pkg",
        "calibration",
        "advisor_decisions",
    }
    assert set(results["figure_seconds"]) == set(figures)
    names = {s["name"] for s in results["scenarios"]}
    for figure in ("exact", "sampler", "csp", "rejection"):
        assert {row["scenario"] for row in figures[figure]} == names
    assert sorted((row["scenario"], row["view"]) for row in figures["exact"]) == sorted(
        (name, view) for name in names for view in ("player", "spectator")
    )
    assert all(set(row["seconds"]) == STATS for row in figures["exact"] if row["status"] == "ok")
    assert all(row["deals_per_cpu_second"]["median"] > 0 for row in figures["sampler"])
    assert {row["status"] for row in figures["csp"]} <= {"ok", "gave up"}
    assert all(0 <= row["acceptance"] <= 1 for row in figures["rejection"])
    assert all(0 <= row["tv_mean"]["median"] <= row["tv_max"]["median"] <= 1 for row in figures["accuracy"])
    assert figures["advice"]["status"] in ("ok", "not measured yet")
    assert figures["first_advice"] == {"status": "not measured in smoke mode", "rows": []}  # minutes: full plan only
    assert figures["cold_start"]["cold_seconds"]["n"] >= 1 and figures["cold_start"]["warm_seconds"]["n"] >= 1
    assert [row["players"] for row in figures["live"]["rows"]] == [6]  # smoke keeps one 6-player scenario
    assert [(row["players"], row["prior"]) for row in figures["live"]["rows"]] == [(6, "players")]  # the default
    assert {row["prior"] for row in figures["advice"]["rows"]} == {"players"}
    assert all(row["answered"].startswith("players") for row in figures["advice"]["rows"] if "answered" in row)
    assert [(row["players"], row["prior"]) for row in figures["live_rules"]["rows"]] == [(6, "rules")]
    assert {row["prior"] for row in figures["advice_rules"]["rows"]} == {"rules"}
    assert {row["answered"] for row in figures["advice_rules"]["rows"] if "answered" in row} <= {"rules"}
    assert [row["players"] for row in figures["serve"]["rows"]] == [6]
    assert figures["serve"]["rows"][0]["advised"] > 0
    assert figures["advise_command"]["rows"] == []  # smoke keeps no 8-12 player scenario
    assert [row["players"] for row in figures["knektpass_live"]["rows"]] == [3, 4, 5]
    assert all(row["events"] > 0 for row in figures["knektpass_live"]["rows"])
    assert [row["players"] for row in figures["knektpass_serve"]["rows"]] == [3, 5]
    assert all(row["events"] > 0 and row["advised"] > 0 for row in figures["knektpass_serve"]["rows"])
    assert figures["knektpass_first_advice"] == {"status": "not measured in smoke mode", "rows": []}
    sampled = [row for row in figures["memory"]["processes"] if "--method sample" in row["what"]]
    assert [row["what"] for row in sampled] == ["cardlogic belief --method sample --samples 10,000"]
    calibration = figures["calibration"]
    for view in ("asker", "spectator"):
        for prior in ("rules", "players"):
            scores = calibration["asks"][view][prior]
            assert scores["count"] > 0 and 0 <= scores["brier"] <= 1 and scores["log_loss"] >= 0
            assert sum(b["count"] for b in scores["reliability"]) == scores["count"]
    assert calibration["diagram"] == "not drawn"
    decisions = figures["advisor_decisions"]
    assert decisions["decisions"] == decisions["cpu_seconds"]["n"] == sum(decisions["priors"].values()) > 0
    assert set(decisions["priors"]) <= {"players", "players, tempered", "rules"}
    assert len(results["targets"]) == 26
    for target in results["targets"]:
        assert target["met"] in (True, False, None)
        assert (target["ratio"] is None) == (target["met"] is None)


def test_the_strong_players_calibration_is_a_target_of_its_own(results):
    """Where the plan scores games of strong against itself (not in smoke mode), their asker's Brier and log-loss
    are targets beside the mixed games'."""
    figures = json.loads(json.dumps(results["figures"]))
    calibration = figures["calibration"]
    calibration["strong"] = {key: calibration[key] for key in ("asks", "games", "improvement")}
    names = [row["name"] for row in targets({"figures": figures})]
    strong = [name for name in names if "strong v strong" in name]
    assert strong == [
        "Brier score of P(yes), asker's view, strong v strong, players' prior v rules",
        "log-loss of P(yes), asker's view, strong v strong, players' prior v rules",
    ]
    assert len(names) == len(results["targets"]) + 2


def test_reports_render(results, capsys):
    print_report(results)
    assert "Targets" in capsys.readouterr().out
    text = markdown(results)
    assert text.startswith("**Targets") and "| sampler deals/s per core" in text
    assert "Reliability of P(yes), asker's view" in text


def test_the_reliability_diagram_is_drawn_or_skipped_with_a_message(results, tmp_path):
    from cardlogic.bench.calibration import reliability_png

    message = reliability_png(results["figures"]["calibration"], tmp_path / "reliability.png")
    drawn = (tmp_path / "reliability.png").exists()
    assert drawn == message.startswith("reliability diagram written"), message
    assert drawn or "matplotlib is not installed" in message


def test_the_results_page_names_its_run_and_is_written_again_from_the_json(results, tmp_path, capsys):
    saved, page = tmp_path / "bench.json", tmp_path / "RESULTS.md"
    saved.write_text(json.dumps(results), encoding="utf-8")
    assert bench_main(["--from-json", str(saved), "--results", str(page), "--markdown"]) == 0
    text = page.read_text(encoding="utf-8")
    assert text == results_page(results) and text.startswith("# Benchmark results\n")
    machine = results["machine"]
    for fact in (results["date"], f"commit: {results['commit']}", f"{machine['cpus']} CPUs", machine["numba"]):
        assert fact in text
    assert markdown(results) in text and capsys.readouterr().out == markdown(results)
    assert bench_main(["--from-json", str(tmp_path / "missing.json")]) == 1
    assert "cannot read" in capsys.readouterr().err


def test_from_json_reads_only_a_run_s_json_and_json_writes_a_copy(results, tmp_path, capsys):
    """JSON that is not a run (an empty object, a list) is refused in one line, where it raised a KeyError or a
    TypeError; a run's is written again where --json names, which it ignored."""
    saved, copy = tmp_path / "bench.json", tmp_path / "copy.json"
    saved.write_text(json.dumps(results), encoding="utf-8")
    for text in ("{}", "[]", '{"figures": 1}'):
        other = tmp_path / "other.json"
        other.write_text(text, encoding="utf-8")
        assert bench_main(["--from-json", str(other), "--markdown"]) == 1
        out, err = capsys.readouterr()
        assert (out, err) == ("", f"cardlogic bench: {other} is not the JSON of a run of the suite\n")
    assert bench_main(["--from-json", str(saved), "--json", str(copy), "--markdown"]) == 0
    assert json.loads(copy.read_text(encoding="utf-8")) == results
    capsys.readouterr()
    assert bench_main(["--from-json", str(saved), "--json", str(other), "--markdown"]) == 1
    assert capsys.readouterr().err == (
        f"cardlogic bench: {other} already exists and holds something other than the JSON of a run of the suite: "
        "not written; --force replaces it\n"
    )


def test_the_report_ends_quietly_when_its_reader_leaves_early(results, tmp_path):
    """``cardlogic bench --from-json FILE | head -1``: exit code 0 and nothing on standard error, as every other
    command; rich's own console exited 1."""
    saved = tmp_path / "bench.json"
    saved.write_text(json.dumps(results), encoding="utf-8")
    command = subprocess.Popen(
        [sys.executable, "-m", "cardlogic", "bench", "--from-json", str(saved)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert command.stdout is not None
    command.stdout.close()  # the reader leaves before the first line
    _, errors = command.communicate(timeout=120)
    assert (command.returncode, errors) == (0, "")


def test_the_advise_command_target_is_the_warm_figure_with_the_resident_server_up():
    def row(players: int, new: float, resident: float | None) -> dict:
        found = {"players": players, "stage": "early", "seconds": {"median": new}, "peak_mb": 150.0}
        return found if resident is None else {**found, "resident_seconds": {"median": resident}}

    figures = {"advise_command": {"imports_seconds": {"median": 0.9}, "rows": [row(10, 2.0, 0.5), row(12, 2.4, 0.8)]}}
    target = _advise_command_target(figures)
    assert (target["target"], target["measured"], target["met"]) == ("< 1 s", 0.8, True)
    assert target["baseline"] == "importing alone: 0.90 s; a new process: 2.40 s"
    assert "resident server up" in target["note"]
    earlier = {"advise_command": {"imports_seconds": {"median": 0.9}, "rows": [row(10, 2.0, None)]}}
    assert (_advise_command_target(earlier)["measured"], _advise_command_target(earlier)["met"]) == (2.0, False)
