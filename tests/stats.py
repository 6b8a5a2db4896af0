"""Goodness-of-fit p-values for the statistical tests (scipy is not a dependency).

>>> round(chi_square_pvalue([50, 50], [50, 50]), 6)
1.0
>>> round(chi_square_sf(3.841459, 1), 4), round(chi_square_sf(18.307038, 10), 4)
(0.05, 0.05)
"""

from __future__ import annotations

import math
from collections.abc import Sequence


def chi_square_sf(statistic: float, df: int) -> float:
    """P(X >= ``statistic``) for X chi-square with ``df`` >= 1 degrees of freedom, exact.

    Uses the closed forms of the upper regularized gamma function at integer and
    half-integer order (Abramowitz & Stegun 26.4.4, 26.4.5), summed in log space
    so large statistics neither overflow nor lose the tail.
    """
    if df < 1:
        raise ValueError("df must be at least 1")
    if statistic <= 0:
        return 1.0
    half = statistic / 2
    log_half = math.log(half)
    if df % 2 == 0:
        total = sum(math.exp(i * log_half - math.lgamma(i + 1) - half) for i in range(df // 2))
    else:
        total = math.erfc(math.sqrt(half)) + sum(
            math.exp((i - 0.5) * log_half - math.lgamma(i + 0.5) - half) for i in range(1, (df + 1) // 2)
        )
    return min(1.0, total)


def chi_square_pvalue(observed: Sequence[float], expected: Sequence[float]) -> float:
    """Pearson's chi-square p-value of ``observed`` counts against ``expected`` counts.

    Cells expected to be empty must be observed empty (else the p-value is 0.0)
    and add no degree of freedom; ``df`` is the number of other cells minus one.
    ``expected`` should sum to the same total as ``observed``.
    """
    if len(observed) != len(expected):
        raise ValueError("one expected count per observed count")
    statistic = 0.0
    cells = 0
    for seen, wanted in zip(observed, expected):
        if wanted > 0:
            statistic += (seen - wanted) ** 2 / wanted
            cells += 1
        elif seen:
            return 0.0
    return 1.0 if cells < 2 else chi_square_sf(statistic, cells - 1)
