"""The examples in every module's docstrings run as written (from the checkout's root, like the README)."""

import doctest
import importlib
import pkgutil

import pytest

import cardlogic

MODULES = [
    "cardlogic",
    *sorted(
        info.name
        for info in pkgutil.walk_packages(cardlogic.__path__, "cardlogic.")
        if not info.name.endswith("__main__")  # running it is running the command
    ),
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    assert doctest.testmod(module, optionflags=doctest.ELLIPSIS).failed == 0
