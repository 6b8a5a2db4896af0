"""The examples in the Knektpass modules' docstrings run, and hold."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ("cardlogic.knektpass", "cardlogic.knektpass.rules", "cardlogic.knektpass.events",
           "cardlogic.knektpass.state", "cardlogic.knektpass.match", "cardlogic.knektpass.record",
           "cardlogic.knektpass.tracking", "cardlogic.knektpass.belief", "cardlogic.knektpass.solver",
           "cardlogic.knektpass.advice", "cardlogic.knektpass.bots", "cardlogic.knektpass.tournament")


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
