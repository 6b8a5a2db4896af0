"""Distinct rows as integers: the same rows, order and inverse as numpy's unique over rows."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from cardlogic.inference.base import distinct_rows


@given(seed=st.integers(0, 10_000), base=st.integers(1, 13), columns=st.sampled_from([1, 3, 8, 40]))
def test_distinct_rows_are_numpys_unique_rows(seed: int, base: int, columns: int) -> None:
    rows = np.random.default_rng(seed).integers(0, base, (50, columns)).astype(np.int8)
    distinct, inverse = distinct_rows(rows, base)
    expected, expected_inverse = np.unique(rows, axis=0, return_inverse=True)
    assert np.array_equal(distinct, expected) and distinct.dtype == rows.dtype
    assert np.array_equal(inverse, expected_inverse.ravel())
