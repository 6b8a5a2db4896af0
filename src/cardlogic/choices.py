"""What every game's model of how players choose shares: named weights, a temperature, the rules' share of every
choice, a JSON file, fitting by maximum likelihood, a history kept in step with a game's, and the effective sample
size of deals weighed by a model.

A game's model (:class:`cardlogic.literature.choices.ChoiceModel`,
:class:`cardlogic.knektpass.choices.ChoiceModel`) is a frozen dataclass that
derives from :class:`WeightedChoices`, declares its weights as fields, names
them in ``WEIGHTS`` and gives ``log_likelihoods(history, truth)``.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any, ClassVar, Protocol, Self, TypeVar

import numpy as np


class ChoiceModelError(ValueError):
    """A choice model file that cannot be read: not JSON, a missing or unknown field, a value out of range."""


def model_text(path: str | Path) -> str:
    """The text of the model file ``path``, read as UTF-8 whatever the locale; :class:`ChoiceModelError` where it
    is not UTF-8 text."""
    try:
        return Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        raise ChoiceModelError(f"{path}: not UTF-8 text (byte {error.object[error.start]:#04x})") from None


def decode_json(text: str, source: str) -> Any:
    """``text`` decoded from JSON; :class:`ChoiceModelError` names ``source``, the line and the problem."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise ChoiceModelError(f"{source}:{error.lineno}: not JSON: {error.msg}") from None


@dataclass(frozen=True)
class WeightedChoices:
    """The weights named by ``WEIGHTS`` (fields of the subclass), divided by ``temperature``, and the rules' share
    ``mix`` of every choice; ``NUMBERS`` are the other fields that must be finite numbers."""

    temperature: float = 1.0
    mix: float = 0.05
    fitted_on: str = ""

    WEIGHTS: ClassVar[tuple[str, ...]] = ()
    NUMBERS: ClassVar[tuple[str, ...]] = ("temperature", "mix")

    def __post_init__(self) -> None:
        for name in (*self.WEIGHTS, *self.NUMBERS):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
                raise ChoiceModelError(f"{name} must be a finite number, not {value!r}")
        if not isinstance(self.fitted_on, str):
            raise ChoiceModelError(f"fitted_on must be text, not {self.fitted_on!r}")
        if not self.temperature > 0:
            raise ChoiceModelError(f"temperature must be positive, not {self.temperature}")
        if not 0.01 <= self.mix <= 1:
            raise ChoiceModelError(f"mix (the rules' share of every choice) must be in [0.01, 1], not {self.mix}")

    @classmethod
    def from_json(cls, text: str, source: str = "<model>") -> Self:
        """Read a model written by :meth:`to_json`; :class:`ChoiceModelError` names ``source`` and the problem."""
        return cls.from_data(decode_json(text, source), source)

    @classmethod
    def from_data(cls, data: Any, source: str = "<model>") -> Self:
        """The model of ``data`` decoded from JSON (an object of its fields), read from ``source``."""
        known = {f.name for f in fields(cls)}
        if not isinstance(data, dict) or set(data) - known:
            extra = sorted(set(data) - known) if isinstance(data, dict) else []
            raise ChoiceModelError(
                f"{source}:1: unknown fields {', '.join(extra)}" if extra else f"{source}:1: not an object"
            )
        try:
            return cls(**data)
        except (TypeError, ChoiceModelError) as error:
            raise ChoiceModelError(f"{source}:1: {error}") from None

    @classmethod
    def read(cls, path: str | Path) -> Self:
        return cls.from_json(model_text(path), str(path))

    def to_json(self) -> str:
        return json.dumps(asdict(self), indent=2) + "\n"

    def weights(self) -> np.ndarray:
        return np.array([getattr(self, name) for name in self.WEIGHTS])

    def with_weights(self, values: Iterable[float], fitted_on: str | None = None) -> Self:
        changes: dict[str, Any] = dict(zip(self.WEIGHTS, map(float, values)))
        return replace(self, **changes, fitted_on=self.fitted_on if fitted_on is None else fitted_on)

    def log_likelihoods(self, history: Any, truth: np.ndarray) -> np.ndarray:
        raise NotImplementedError


class ChoiceHistory(Protocol):
    """What a game's history of choices (the arrays its model reads) answers: how many events it holds, those
    events as the public saw them, and the next one pushed."""

    @property
    def events(self) -> int: ...

    @property
    def recorded(self) -> Sequence[Any]: ...

    def push(self, event: Any) -> None: ...


H = TypeVar("H", bound=ChoiceHistory)


def in_step(history: H, events: Sequence[Any], fresh: Callable[[], H]) -> H:
    """``history`` extended by the events of ``events`` (a public history) it does not hold yet, or, where it holds
    events that ``events`` no longer starts with (some were undone), ``fresh()`` extended by them all."""
    if tuple(history.recorded) != tuple(events[: history.events]):
        history = fresh()
    for event in events[history.events :]:
        history.push(event)
    return history


def effective_size(weights: np.ndarray, counts: np.ndarray | None = None) -> float:
    """The effective sample size of importance ``weights`` (of deals drawn ``counts`` times each, default once):
    (sum w)^2 / sum w^2 over the draws."""
    if counts is None:
        return float(weights.sum() ** 2 / (weights**2).sum())
    return float((counts * weights).sum() ** 2 / (counts * weights**2).sum())


class Fittable(Protocol):
    """What :func:`fit` changes and scores: a model's weights (as one array) and the log-likelihood of a history
    under the truth (one row)."""

    def weights(self) -> np.ndarray: ...

    def with_weights(self, values: Iterable[float], fitted_on: str | None = None) -> Self: ...

    def log_likelihoods(self, history: Any, truth: np.ndarray) -> np.ndarray: ...


F = TypeVar("F", bound=Fittable)


def fit(model: F, games: Sequence[tuple[Any, np.ndarray]], fitted_on: str, empty: str) -> F:
    """The weights of greatest likelihood of ``games`` (each a history and its truth, one row, as the model's
    ``log_likelihoods`` reads them), each within +-10, from ``model``'s weights; everything else of the model is
    kept (its temperature too), so a player who chose at random weighs little in the fit (their choices are
    explained by the rules).

    Raises ValueError with the message ``empty`` when ``games`` is empty.
    """
    from scipy.optimize import minimize

    if not games:
        raise ValueError(empty)

    def loss(values: np.ndarray) -> float:
        trial = model.with_weights(values)
        return -sum(float(trial.log_likelihoods(h, truth)[0]) for h, truth in games)

    start = model.weights()
    found = minimize(loss, start, method="L-BFGS-B", bounds=[(-10, 10)] * len(start))
    return model.with_weights(found.x, fitted_on)
