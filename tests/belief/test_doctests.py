"""The examples in the docstrings of the belief tracker's modules run as written."""

import doctest

import pytest

from cardlogic import constraints, inference
from cardlogic.cli import belief as belief_command
from cardlogic.inference import base, csp, exact, sampler
from cardlogic.literature import belief, tracking


@pytest.mark.parametrize("module", [constraints, tracking, belief, inference, base, exact, sampler, csp,
                                    belief_command], ids=lambda module: module.__name__)
def test_docstring_examples(module):
    assert doctest.testmod(module).failed == 0
