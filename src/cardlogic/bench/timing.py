"""Repeat a call and summarise its times: median and spread, for a noisy shared machine.

>>> stats = summarize([3.0, 1.0, 2.0, 4.0])
>>> stats["median"], stats["min"], stats["max"], stats["n"]
(2.5, 1.0, 4.0, 4)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

import numpy as np


def summarize(values: Sequence[float]) -> dict[str, float | int]:
    """Median, quartiles, extremes and count of ``values`` (empty: count 0 and NaNs)."""
    if not len(values):
        return {
            "median": float("nan"),
            "q1": float("nan"),
            "q3": float("nan"),
            "min": float("nan"),
            "max": float("nan"),
            "n": 0,
        }
    a = np.asarray(values, dtype=float)
    q1, median, q3 = np.percentile(a, [25, 50, 75])
    return {
        "median": float(median),
        "q1": float(q1),
        "q3": float(q3),
        "min": float(a.min()),
        "max": float(a.max()),
        "n": len(a),
    }


def repeat(call: Callable[[], object], repeats: int, warmup: int = 1) -> tuple[list[float], list[float]]:
    """Wall-clock and process-CPU seconds of ``repeats`` calls, after ``warmup`` untimed ones."""
    for _ in range(warmup):
        call()
    wall, cpu = [], []
    for _ in range(repeats):
        c0, w0 = time.process_time(), time.perf_counter()
        call()
        wall.append(time.perf_counter() - w0)
        cpu.append(time.process_time() - c0)
    return wall, cpu
