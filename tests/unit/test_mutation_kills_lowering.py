# SPDX-License-Identifier: Apache-2.0
"""Operator ids (helia_aot/lowering/operator_ids.py): a case a mutant showed untested (tests/MUTATION.md,
2026-12-02): operators writing tensors of one name are told apart by #1, #2 in execution order."""

from __future__ import annotations

from helia_aot.frontend import litert
from helia_aot.lowering.operator_ids import operator_ids
from tests.modelgen import ModelBuilder


def test_operators_writing_one_name_are_numbered_in_order():
    b = ModelBuilder()
    x = b.input("x", (1, 4), "int8", 0.5, 0)
    first = b.tensor("t", (1, 4), "int8", 0.5, 0)
    second = b.tensor("t", (1, 4), "int8", 0.5, 0)
    b.op("RELU", [x], [first])
    b.op("RELU", [first], [second])
    b.output(second)
    graph = litert.load(b.build(), "m", 0)
    assert [i for i, _ in operator_ids(graph)] == [f"{graph.name}:t#1", f"{graph.name}:t#2"]

