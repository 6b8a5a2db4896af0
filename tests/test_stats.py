"""The chi-square helper against textbook quantiles."""

import pytest

from tests.stats import chi_square_pvalue, chi_square_sf


@pytest.mark.parametrize(
    ("statistic", "df", "tail"),
    [
        (3.841459, 1, 0.05),
        (6.634897, 1, 0.01),
        (5.991465, 2, 0.05),
        (7.814728, 3, 0.05),
        (18.307038, 10, 0.05),
        (124.342113, 100, 0.05),
        (1.0, 1, 0.3173105),
        (0.5, 3, 0.9188914),
    ],
)
def test_survival_function_matches_tables(statistic, df, tail):
    assert chi_square_sf(statistic, df) == pytest.approx(tail, rel=1e-5)


def test_extreme_statistics_neither_overflow_nor_go_negative():
    assert 0.0 <= chi_square_sf(1e5, 7) < 1e-300
    assert chi_square_sf(2000, 3000) == pytest.approx(1.0)
    assert chi_square_sf(0.0, 4) == 1.0


def test_pvalue_of_counts():
    assert chi_square_pvalue([50, 50], [50, 50]) == 1.0
    assert chi_square_pvalue([60, 40], [50, 50]) == pytest.approx(0.0455003, rel=1e-5)
    assert chi_square_pvalue([1, 99], [0, 100]) == 0.0  # an impossible cell was hit
    assert chi_square_pvalue([0, 100], [0, 100]) == 1.0  # one possible cell: no freedom
