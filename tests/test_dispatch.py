"""The dispatcher runs every task once, in this process or in local processes, yields results as they finish,
puts them back in order, stops an endless stream, and raises a task's exception."""

from __future__ import annotations

import itertools
import math

import pytest

from cardlogic.dispatch import Workers, in_order


def test_every_task_once_whatever_the_processes():
    expected = [(i, math.factorial(i)) for i in range(12)]
    with Workers() as here:
        assert list(here.run(math.factorial, range(12))) == expected  # in this process, in order
    with Workers(jobs=2) as pool:
        assert pool.slots == 2
        assert sorted(pool.run(math.factorial, range(12))) == expected


def test_in_order_waits_for_the_earlier_results():
    arrivals = [(2, "c"), (0, "a"), (3, "d"), (1, "b")]
    seen = []
    for result in in_order(arrivals):
        seen.append(result)
    assert seen == ["a", "b", "c", "d"]


def test_an_endless_stream_stops_when_the_reader_stops():
    with Workers(jobs=2) as pool:
        squares = in_order(pool.run(math.isqrt, itertools.count()))
        assert list(itertools.islice(squares, 20)) == [math.isqrt(i) for i in range(20)]


def test_a_task_error_is_raised_to_the_reader():
    with Workers(jobs=2) as pool, pytest.raises(ValueError):
        list(pool.run(math.sqrt, [4, -1, 9]))
    with pytest.raises(ValueError, match="jobs"):
        Workers(jobs=0)
