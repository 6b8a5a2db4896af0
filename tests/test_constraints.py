import itertools

import numpy as np
import pytest

from cardlogic.constraints import DealModel, InconsistentError


def test_placing_and_forbidding_narrow_allowed_sets():
    model = DealModel(("A", "B", "C"), (1, 1, 1), [0, 1, 2])
    model.place(0, 2)
    model.forbid(1, 0)
    assert model.certain_holder(0) == 2 and model.allowed[1] == 0b110
    assert model.fixed_counts() == [0, 0, 1]


def test_many_restrictions_narrow_at_once_or_not_at_all():
    model = DealModel(("A", "B", "C"), (1, 1, 1), [0, 1, 2])
    model.restrict_all({0: 0b100, 1: ~0b001})
    assert model.allowed == {0: 0b100, 1: 0b110, 2: 0b111}
    with pytest.raises(InconsistentError):
        model.restrict_all({2: 0b001, 0: 0b001})  # 2 could go to A, but 0 cannot: neither narrows
    assert model.allowed == {0: 0b100, 1: 0b110, 2: 0b111}


def test_unit_clauses_become_placements_and_satisfied_clauses_vanish():
    model = DealModel(("A", "B"), (2, 2), [0, 1, 2, 3])
    model.forbid(0, 0)
    model.require_one_of(0, [0, 1])  # 0 cannot be at A, so 1 must be
    assert model.certain_holder(1) == 0 and model.clauses == []


def test_subsumed_clauses_are_dropped():
    model = DealModel(("A", "B"), (2, 2), [0, 1, 2, 3])
    model.require_one_of(0, [0, 1, 2])
    model.require_one_of(0, [0, 1])
    assert [c.card_mask for c in model.clauses] == [0b11]


def test_rejected_narrowing_leaves_model_unchanged():
    model = DealModel(("A", "B"), (1, 1), [0, 1])
    model.place(0, 0)
    before = (dict(model.allowed), list(model.clauses))
    with pytest.raises(InconsistentError):
        model.place(1, 0)
    with pytest.raises(InconsistentError):
        model.forbid(0, 0)
    assert (model.allowed, model.clauses) == before


def test_consistency_of_a_deal():
    model = DealModel(("A", "B"), (1, 1), [5, 6])
    model.require_one_of(1, [5])
    assert model.is_consistent({5: 1, 6: 0}) and not model.is_consistent({5: 0, 6: 1})


def test_rows_of_deals_are_consistent_exactly_where_each_deal_is():
    model = DealModel(("A", "B", "C"), (2, 2, 2), [0, 1, 2, 3, 4, 5])
    model.forbid(0, 2)
    model.require_one_of(1, [2, 3])
    model.require([(4, 0b001), (5, 0b100)])
    deals = np.array(list(itertools.product(range(3), repeat=6)), np.int8)  # every assignment, sizes or not
    expected = [model.is_consistent(dict(zip(model.cards, row.tolist()))) for row in deals]
    assert model.consistent_rows(deals).tolist() == expected
    assert 0 < sum(expected) < len(deals)
