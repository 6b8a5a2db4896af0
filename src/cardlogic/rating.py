"""How much stronger one bot is than another, from their games: Wilson intervals, Elo, and the SPRT over paired games.

Rates (wins, ties, losses out of games) get 95% Wilson score intervals. The
sequential probability ratio test asks whether bot A is stronger than bot B by
elo1 rather than elo0. As on Stockfish's Fishtest, games come in pairs on the
same deal with the sides swapped, and a pair is one observation: its score ``x``
is A's mean score over the two games (a win 1, a tie 1/2, a loss 0), so one of 0,
1/4, 1/2, 3/4, 1 (the pentanomial model; pairing removes most of the luck of the
deal from its variance). Elo ``e`` means an expected score of ``1 / (1 +
10**(-e / 400))``.

After ``N`` pairs the log-likelihood ratio of H1 (elo = ``elo1``) against H0
(elo = ``elo0``) is the generalized SPRT's normal approximation (M. Van den
Bergh, as in Fishtest's ``LLR_alt``)::

    LLR = N / 2 * ln(r0 / r1),   r_k = mean over pairs of (x - s_k)**2,   s_k = score(elo_k)

The test stops when LLR reaches ``ln((1 - beta) / alpha)`` (accept H1: A is
stronger by elo1) or falls to ``ln(beta / (1 - alpha))`` (accept H0: by elo0 or
less), after at least :data:`MIN_PAIRS` pairs; ``alpha`` and ``beta`` are the
rates of accepting H1 when H0 holds and H0 when H1 holds. Nothing here knows a
game: each game's tournament turns its results into rates and pair scores.

>>> [round(x, 3) for x in wilson(70, 100)]
[0.604, 0.781]
>>> round(llr([1, 0.5, 0.75, 1], elo0=0, elo1=400 * math.log10(3)), 4)  # s0 = 1/2, s1 = 3/4: 2 ln 3
2.1972
>>> [round(bound, 4) for bound in SPRT(0, 20, 0.05, 0.05).bounds]
[-2.9444, 2.9444]
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

MIN_PAIRS = 10
"""Pairs played before the test may stop: the approximation needs a variance estimate to lean on."""


def wilson(successes: int, trials: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The Wilson score interval for a binomial rate (95% by default)."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1.0 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    low = 0.0 if successes == 0 else max(0.0, centre - half)  # exact at the ends, where rounding would stray
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return low, high


def score(elo: float) -> float:
    """The expected score of a player ``elo`` points stronger: ``1 / (1 + 10**(-elo / 400))``."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def elo(mean_score: float) -> float:
    """The Elo difference that gives ``mean_score`` (inf at 1, -inf at 0)."""
    if mean_score <= 0.0:
        return -math.inf
    if mean_score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / mean_score - 1.0)


def llr(pairs: Sequence[float], elo0: float, elo1: float) -> float:
    """The log-likelihood ratio of elo1 against elo0 after the pair scores ``pairs`` (see the module docstring)."""
    return _llr(len(pairs), sum(pairs), sum(x * x for x in pairs), elo0, elo1)


def _llr(n: int, total: float, squares: float, elo0: float, elo1: float) -> float:
    """:func:`llr` from the number of pairs, the sum of their scores and the sum of their squares."""
    if n == 0:
        return 0.0
    s0, s1 = score(elo0), score(elo1)
    mean, mean_square = total / n, squares / n
    r0 = max(0.0, mean_square - 2.0 * s0 * mean + s0 * s0)  # mean of (x - s0)**2
    r1 = max(0.0, mean_square - 2.0 * s1 * mean + s1 * s1)
    if r1 <= 1e-15:
        return math.inf
    if r0 <= 1e-15:
        return -math.inf
    return n / 2.0 * math.log(r0 / r1)


@dataclass(frozen=True)
class SPRT:
    """The hypotheses and error rates of one test: H0 elo = ``elo0``, H1 elo = ``elo1`` (> elo0)."""

    elo0: float = 0.0
    elo1: float = 20.0
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        if not (math.isfinite(self.elo0) and math.isfinite(self.elo1)):
            raise ValueError(f"elo0 and elo1 must be finite numbers, not {self.elo0!r} and {self.elo1!r}")
        if not self.elo1 > self.elo0:
            raise ValueError("elo1 must be greater than elo0")
        if not (0.0 < self.alpha < 0.5 and 0.0 < self.beta < 0.5):
            raise ValueError("alpha and beta must lie strictly between 0 and 0.5")

    @property
    def bounds(self) -> tuple[float, float]:
        """(lower, upper): accept H0 at or below the lower bound, H1 at or above the upper one."""
        return math.log(self.beta / (1.0 - self.alpha)), math.log((1.0 - self.beta) / self.alpha)

    def decide(self, value: float, pairs: int) -> str | None:
        """``"H1"``, ``"H0"`` or None (play on) for the ratio ``value`` after ``pairs`` pairs."""
        if pairs < MIN_PAIRS:
            return None
        lower, upper = self.bounds
        return "H1" if value >= upper else "H0" if value <= lower else None

    def run(
        self, pairs: Iterable[float], max_pairs: int | None = None, progress: Callable[[int, float], None] | None = None
    ) -> SPRTResult:
        """Read pair scores until the test decides, or ``max_pairs`` are read, or ``pairs`` ends (undecided);
        ``progress(pairs read, llr)`` is called after each."""
        seen: list[float] = []
        total = squares = 0.0
        decision = None
        for x in pairs:
            seen.append(x)
            total += x
            squares += x * x
            value = _llr(len(seen), total, squares, self.elo0, self.elo1)
            if progress:
                progress(len(seen), value)
            decision = self.decide(value, len(seen))
            if decision or (max_pairs is not None and len(seen) >= max_pairs):
                break
        return SPRTResult(self, tuple(seen), decision)


@dataclass(frozen=True)
class SPRTResult:
    """Where a test stopped: the pair scores read and the decision (None: stopped undecided)."""

    test: SPRT
    pairs: tuple[float, ...]
    decision: str | None
    llr: float = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "llr", llr(self.pairs, self.test.elo0, self.test.elo1))

    @property
    def mean(self) -> float:
        """A's mean score per game."""
        return sum(self.pairs) / max(1, len(self.pairs))

    def elo_interval(self, z: float = 1.959963984540054) -> tuple[float, float, float]:
        """A's Elo advantage and its 95% interval (by default), from the mean and variance of the pair scores.

        Where every pair was won (or every one lost) the variance is 0 and the Elo infinite; the finite end of the
        interval is then the Wilson bound of ``n`` pairs all won (lost), so a sweep still bounds the difference.
        """
        n = len(self.pairs)
        if n < 2:
            return elo(self.mean), -math.inf, math.inf
        mean = self.mean
        if mean in (0.0, 1.0):
            low, high = wilson(round(mean * n), n, z)
            return elo(mean), elo(low), elo(high)
        variance = sum((x - mean) ** 2 for x in self.pairs) / (n - 1)
        half = z * math.sqrt(variance / n)
        return elo(mean), elo(mean - half), elo(mean + half)
