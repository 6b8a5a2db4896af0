"""Tournaments: pairing, reproducibility, intervals, and the advise and tournament commands."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from cardlogic.arguments import MAX_SEED
from cardlogic.cli import main
from cardlogic.literature import Rules
from cardlogic.literature.bots import BOTS
from cardlogic.literature.tournament import Match, play_bots, tournament, wilson

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_paired_games_swap_the_teams():
    result = tournament(("counting", "random"), players=4, games=4, seed=2)
    assert [r.teams for r in result.results] == [("counting", "random"), ("random", "counting")] * 2
    assert result.games == 4 and sum(result.wins.values()) + result.ties == 4


def test_a_fixed_seed_gives_the_same_games_whatever_the_processes():
    one = tournament(("counting", "random"), players=4, games=5, seed=3)
    again = tournament(("counting", "random"), players=4, games=5, seed=3, jobs=2)
    assert one.results == again.results and one.games == 5


def test_every_seed_a_tournament_accepts_plays():
    # A game's seed is the tournament's times a million; the bots' seeds must still fit 32 bits.
    for seed in (200, MAX_SEED):
        result = tournament(("counting", "random"), players=4, games=1, seed=seed)
        assert result.games == 1 and Match(("counting", "random"), players=4, seed=seed).record(0).events


def test_the_advisor_beats_random_play():
    result = tournament(("advisor", "random"), players=4, games=12, seed=1)
    assert wilson(result.wins["advisor"], result.games)[0] > 0.6  # 11 or 12 wins of 12


def test_bad_bots():
    with pytest.raises(ValueError, match="unknown bot"):
        tournament(("counting", "oracle"))
    with pytest.raises(ValueError, match="different"):
        tournament(("counting", "counting"))


def test_wilson_interval():
    low, high = wilson(70, 100)
    assert low == pytest.approx(0.6041, abs=1e-4) and high == pytest.approx(0.7810, abs=1e-4)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0


def test_tournament_json(capsys):
    code, out, _ = run(
        capsys,
        "tournament",
        "--bots",
        "counting,random",
        "--players",
        "4",
        "--games",
        "4",
        "--seed",
        "5",
        "--jobs",
        "1",
        "--json",
    )
    data = json.loads(out)
    assert code == 0
    assert data["games"] == 4 and set(data["wins"]) == {"counting", "random"}
    assert sum(data["wins"].values()) + data["ties"] == 4
    assert set(data["rates"]) == {"counting wins", "ties", "random wins"}
    assert data["rules"] == str(Rules())  # every rule named, so a result says what it was played under
    for rate in data["rates"].values():
        assert rate["low"] <= rate["rate"] <= rate["high"]
    code, again, _ = run(
        capsys,
        "tournament",
        "--bots",
        "counting,random",
        "--players",
        "4",
        "--games",
        "4",
        "--seed",
        "5",
        "--jobs",
        "2",
        "--json",
    )
    assert {k: v for k, v in json.loads(again).items() if k != "seconds"} == {
        k: v for k, v in data.items() if k != "seconds"
    }


def test_sprt_json_names_the_house_rules(capsys):
    argv = ["sprt", "--bots", "counting,random", "--players", "4", "--seed", "5", "--max-games", "20", "--json"]
    code, out, _ = run(capsys, *argv, "--rules", "after-claim=team-picks")
    assert code == 0
    assert json.loads(out)["games"]["rules"] == str(Rules(after_claim="team-picks"))


def test_tournament_rejects_bad_bots(capsys):
    with pytest.raises(SystemExit):
        main(["tournament", "--bots", "counting"])
    capsys.readouterr()


def test_advise_json(capsys):
    code, out, _ = run(capsys, "advise", str(EXAMPLES / "ann-view.txt"), "--json")
    data = json.loads(out)
    assert code == 0 and data["observer"] == "Ann" and data["to_move"] == "Ann"
    assert {"to_move", "asks", "claims", "recommendation"} <= set(data)
    assert data["asks"] and all(
        set(a) == {"target", "card", "p_yes", "info_bits", "leak_bits", "value"} for a in data["asks"]
    )
    assert all({"set", "assignment", "p_correct", "p_team_holds", "expected_points"} <= set(c) for c in data["claims"])
    assert len(data["claims"]) == 6  # every unclaimed set
    assert data["recommendation"]["action"] in ("ask", "claim", "pass")
    assert data["recommendation"]["reason"]


def test_advise_table(capsys):
    code, out, _ = run(capsys, "advise", str(EXAMPLES / "mini.txt"))
    assert code == 0 and "Recommendation:" in out


def test_advise_needs_a_player(capsys, tmp_path):
    path = tmp_path / "game.txt"
    lines = (EXAMPLES / "mini.txt").read_text().splitlines(keepends=True)
    path.write_text("".join(line for line in lines if not line.startswith(("Me:", "Hand "))), encoding="utf-8")
    code, _, err = run(capsys, "advise", str(path))
    assert code == 1 and "Me:" in err


def test_a_watcher_sees_every_event_as_played_and_changes_nothing():
    match = Match(("advisor", "counting"), players=4, seed=3)
    game, hands, teams = match.setup(1)
    seen = []
    watched = play_bots(game, hands, teams, 7, lambda bots, event: seen.append((len(bots), event)))
    assert [event for _, event in seen] == list(watched.history) == list(play_bots(game, hands, teams, 7).history)
    assert {count for count, _ in seen} == {4}


def test_the_claim_calibration_script_reports_the_advisors_uncertain_claims(tmp_path):
    out = tmp_path / "claims.json"
    done = _benchmark_script("claim_calibration.py", "counting", "4", "3", "4", "--json", str(out))
    assert done.returncode == 0, done.stderr
    data = json.loads(out.read_text())
    assert data["count"] == 1 and data["at_least_0.8"]["count"] == 1  # one guessed claim in these four games
    assert "1 uncertain claims, 1 right" in done.stdout
    refused = _benchmark_script("claim_calibration.py", "nobody", "4", "3", "4")
    assert refused.returncode == 2 and "Traceback" not in refused.stderr
    assert refused.stderr.splitlines()[-1].endswith("unknown bot 'nobody' (expected one of " + ", ".join(BOTS) + ")")


def test_the_team_split_script_scores_each_prior_against_the_base_rate(tmp_path):
    out = tmp_path / "split.json"
    done = _benchmark_script("team_split.py", "counting", "4", "3", "2", "--json", str(out))
    assert done.returncode == 0, done.stderr
    data = json.loads(out.read_text())
    share = data["share"]
    assert data["players"]["count"] == data["rules"]["count"] == data["base rate"]["count"] > 0
    assert data["base rate"]["brier"] == pytest.approx(share * (1 - share))
    assert 0 < data["players"]["brier"] < 1 and 0 < data["rules"]["brier"] < 1
    assert f"{share:.3f} of them with the opponents" in done.stdout
    refused = _benchmark_script("team_split.py", "nobody", "4", "3", "2")
    assert refused.returncode == 2 and "Traceback" not in refused.stderr


def _benchmark_script(name: str, *arguments: str) -> subprocess.CompletedProcess[str]:
    """Run ``benchmarks/NAME`` with ``arguments``, its output captured."""
    script = Path(__file__).resolve().parents[2] / "benchmarks" / name
    return subprocess.run([sys.executable, str(script), *arguments], check=False, capture_output=True, text=True)
