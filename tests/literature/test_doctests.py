import doctest

import pytest

import cardlogic.literature
from cardlogic.literature import events, record, rules, selfplay, state


@pytest.mark.parametrize("module", [cardlogic.literature, rules, events, state, selfplay, record])
def test_docstring_examples(module):
    assert doctest.testmod(module).failed == 0
