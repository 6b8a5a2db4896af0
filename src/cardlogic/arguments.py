"""Checks of the values the library's public functions take: each names the argument it refuses.

A wrong type is an :class:`ArgumentTypeError` (a :class:`TypeError`), a value out of range an
:class:`ArgumentError` (a :class:`ValueError`), so a caller's mistake is never answered silently
nor by a numba or numpy error from deep inside:

>>> integer("players", 13, 4, 12)
Traceback (most recent call last):
...
cardlogic.arguments.ArgumentError: players must be from 4 to 12, not 13
>>> boolean("yes", "no")
Traceback (most recent call last):
...
cardlogic.arguments.ArgumentTypeError: yes must be True or False, not 'no'
"""

from __future__ import annotations

import math
import operator
from typing import Any, TypeVar

Bounded = TypeVar("Bounded", int, float)

MAX_SEED = 2**32 - 1
"""The largest seed: the sampler's MCMC chain seeds numpy's legacy generator, which takes 32 bits."""
MAX_SAMPLES = 10_000_000
"""The most deals one belief draws for its marginals (they are counted as they are drawn, in bounded memory)."""
MAX_DRAWN_DEALS = 1_000_000
"""The most deals :meth:`~cardlogic.belief.Belief.sample` returns: each is a row of the array it returns."""


class ArgumentError(ValueError):
    """A value out of the range an argument takes; the message names the argument."""


class ArgumentTypeError(TypeError):
    """A value of the wrong type for an argument; the message names the argument."""


def integer(name: str, value: Any, low: int | None = None, high: int | None = None) -> int:
    """``value`` as an ``int`` (numpy integers too, never a bool or a float) within ``low`` .. ``high``."""
    if isinstance(value, bool):
        raise ArgumentTypeError(f"{name} must be an integer, not {value!r}")
    try:
        number = operator.index(value)
    except TypeError:
        raise ArgumentTypeError(f"{name} must be an integer, not {value!r}") from None
    return _in_range(name, number, low, high)


def number(name: str, value: Any, low: float | None = None, high: float | None = None) -> float:
    """``value`` as a finite ``float`` (an integer too, never a bool) within ``low`` .. ``high``.

    >>> number("danger", 1), number("risky_claim", 0.8, 0, 1)
    (1.0, 0.8)
    """
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ArgumentTypeError(f"{name} must be a finite number, not {value!r}")
    return float(_in_range(name, value, low, high))


def _in_range(name: str, value: Bounded, low: float | None, high: float | None) -> Bounded:
    """``value`` if it lies within ``low`` .. ``high`` (None: unbounded), else an :class:`ArgumentError` naming it."""
    if (low is not None and value < low) or (high is not None and value > high):
        if high is None:
            raise ArgumentError(f"{name} must be {low} or more, not {value}")
        if low is None:
            raise ArgumentError(f"{name} must be {high} or less, not {value}")
        raise ArgumentError(f"{name} must be from {low} to {high}, not {value}")
    return value


def boolean(name: str, value: Any) -> bool:
    """``value`` if it is ``True`` or ``False`` (a string such as ``"no"`` is refused, not read as true)."""
    if not isinstance(value, bool):
        raise ArgumentTypeError(f"{name} must be True or False, not {value!r}")
    return value


def text(name: str, value: Any) -> str:
    """``value`` if it is a ``str``."""
    if not isinstance(value, str):
        raise ArgumentTypeError(f"{name} must be a string, not {value!r}")
    return value


def seed(value: Any, name: str = "seed") -> int:
    """A seed: an integer from 0 to :data:`MAX_SEED`."""
    return integer(name, value, 0, MAX_SEED)


def samples(value: Any, name: str = "samples", high: int = MAX_SAMPLES) -> int:
    """A number of deals to draw: from 1 to ``high`` (:data:`MAX_SAMPLES`)."""
    return integer(name, value, 1, high)
