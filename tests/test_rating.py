"""The SPRT's statistic against values worked out by hand, its decisions, its error rates on simulated pairs, and a
short run of ``cardlogic sprt``."""

from __future__ import annotations

import json
import math
import random

import pytest

from cardlogic.cli import main
from cardlogic.rating import MIN_PAIRS, SPRT, elo, llr, score

ELO_75 = 400 * math.log10(3)
"""The Elo advantage that scores exactly 3/4."""


def test_scores_and_elo():
    assert score(0) == 0.5 and score(ELO_75) == pytest.approx(0.75)
    assert elo(0.75) == pytest.approx(ELO_75) and elo(1.0) == math.inf and elo(0.0) == -math.inf


def test_llr_by_hand():
    # s0 = 1/2, s1 = 3/4. Pairs 1, 1/2, 3/4, 1: r0 = (1/4 + 0 + 1/16 + 1/4) / 4 = 9/64, r1 = (3 / 16) / 4 = 3/64,
    # so LLR = 4/2 ln 3.
    assert llr([1, 0.5, 0.75, 1], 0, ELO_75) == pytest.approx(2 * math.log(3))
    # Pairs 1, 0, 1/2, 1/2: r0 = (1/4 + 1/4) / 4 = 1/8, r1 = (1/16 + 9/16 + 1/16 + 1/16) / 4 = 3/16: 2 ln(2/3).
    assert llr([1, 0, 0.5, 0.5], 0, ELO_75) == pytest.approx(2 * math.log(2 / 3))
    assert llr([], 0, 20) == 0.0
    assert llr([0.5] * 3, 0, 20) == -math.inf  # no spread at all around s0


def test_bounds_and_decisions():
    test = SPRT(0, 20, alpha=0.05, beta=0.1)
    lower, upper = test.bounds
    assert lower == pytest.approx(math.log(0.1 / 0.95)) and upper == pytest.approx(math.log(0.9 / 0.05))
    assert test.decide(upper, MIN_PAIRS) == "H1" and test.decide(lower, MIN_PAIRS) == "H0"
    assert test.decide(0.0, MIN_PAIRS) is None and test.decide(100.0, MIN_PAIRS - 1) is None
    with pytest.raises(ValueError):
        SPRT(10, 0)
    with pytest.raises(ValueError):
        SPRT(0, 10, alpha=0.5)
    for elo0, elo1 in ((0, math.inf), (-math.inf, 0), (0, math.nan)):
        with pytest.raises(ValueError, match="finite"):
            SPRT(elo0, elo1)


def test_a_run_stops_at_the_first_pair_past_a_bound():
    test = SPRT(0, 200)
    won = test.run(iter([1.0] * 100))
    assert won.decision == "H1" and len(won.pairs) == MIN_PAIRS  # LLR 5 ln(0.25 / 0.0576...) > ln 19
    even = test.run(iter([0.5] * 100))
    assert even.decision == "H0" and len(even.pairs) == MIN_PAIRS
    seen = []
    undecided = SPRT(0, 5).run([1.0, 0.0] * 50, max_pairs=30, progress=lambda n, value: seen.append(n))
    assert undecided.decision is None and len(undecided.pairs) == 30 and seen == list(range(1, 31))
    assert undecided.mean == 0.5 and undecided.elo_interval()[0] == 0.0


def _pairs(rng: random.Random, win: float, tie: float):
    """Endless pair scores of independent games won with probability ``win`` and tied with ``tie``."""

    def game() -> float:
        u = rng.random()
        return 1.0 if u < win else 0.5 if u < win + tie else 0.0

    while True:
        yield (game() + game()) / 2


@pytest.mark.parametrize("truth", ["H0", "H1"])
def test_error_rates_on_simulated_pairs(truth):
    """Where the truth is H0 (or H1), the test accepts the other about as rarely as alpha (beta) says."""
    test = SPRT(0, 60, alpha=0.05, beta=0.05)
    tie = 0.2
    mean = score(test.elo0 if truth == "H0" else test.elo1)
    win = mean - tie / 2  # mean = win + tie / 2
    rng = random.Random(7)
    runs = 300
    wrong = sum(test.run(_pairs(rng, win, tie), max_pairs=5000).decision != truth for _ in range(runs))
    assert wrong / runs < 0.1


def test_the_sprt_command(capsys):
    code = main(
        ["sprt", "--bots", "counting,random", "--players", "4", "--seed", "3", "--elo1", "200", "--jobs", "1", "--json"]
    )
    data = json.loads(capsys.readouterr().out)
    assert code == 0
    assert data["sprt"]["decision"] == "H1" and data["sprt"]["llr"] >= data["sprt"]["bounds"][1]
    assert data["games"]["games"] == data["sprt"]["games"] == 2 * data["sprt"]["pairs"] >= 2 * MIN_PAIRS
    code = main(["sprt", "--bots", "counting,random", "--players", "4", "--elo1", "200", "--jobs", "1"])
    out = capsys.readouterr().out
    assert code == 0 and "H1 accepted: counting is stronger than random by 200 Elo or more" in out


def test_the_sprt_command_rejects_bad_bounds(capsys):
    assert main(["sprt", "--bots", "counting,random", "--elo0", "5", "--elo1", "5"]) == 2
    assert "elo1 must be greater" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["sprt", "--bots", "counting,random", "--alpha", "0.7"])
    capsys.readouterr()
