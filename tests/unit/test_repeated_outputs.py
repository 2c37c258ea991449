# SPDX-License-Identifier: Apache-2.0
"""A variant whose last output is repeated (SPLIT, UNPACK: one output per piece) matches one or more
outputs, checks each against that declaration, and the verifier's arity rule says "at least"."""

from __future__ import annotations

import pytest

from helia_aot.errors import InvalidModelError
from helia_aot.ir.graph import Graph, Operator, Tensor
from helia_aot.ops.base import Operand, OpLowering, Variant
from helia_aot.lowering.verifier import _Verifier

_SPLIT_LIKE = Variant("int8", inputs=(Operand("input", ("int8",)),),
                      outputs=(Operand("output", ("int8",), repeated=True),))
_FIXED = Variant("int8", inputs=(Operand("input", ("int8",)),), outputs=(Operand("output", ("int8",)),))


def _t(index: int, dtype: str = "int8") -> Tensor:
    return Tensor(index, f"t{index}", (2,), dtype)


def test_repeated_output_matches_one_or_more():
    x = _t(0)
    assert _SPLIT_LIKE.matches([x], [_t(1)])
    assert _SPLIT_LIKE.matches([x], [_t(1), _t(2), _t(3)])
    assert not _SPLIT_LIKE.matches([x], [])
    # every repeated output meets the declaration, not just the first
    assert not _SPLIT_LIKE.matches([x], [_t(1), _t(2, "int16")])
    assert _SPLIT_LIKE.operand_for_output(5).role == "output"


def test_fixed_outputs_still_exact():
    x = _t(0)
    assert _FIXED.matches([x], [_t(1)])
    assert not _FIXED.matches([x], [_t(1), _t(2)])
    assert _FIXED.operand_for_output(1) is None


class _Module(OpLowering):
    variants = (_SPLIT_LIKE,)


class _FixedModule(OpLowering):
    variants = (_FIXED,)


def _arity(module, outputs: int) -> None:
    tensors = [_t(k) for k in range(outputs + 1)]
    graph = Graph("main", 0, tensors, [], [0], list(range(1, outputs + 1)), operator_code_count=1)
    op = Operator(0, "SPLIT", [0], list(range(1, outputs + 1)))
    _Verifier(graph, "m.tflite").check_arity(op, module(), "operator 0 (SPLIT)")


def test_arity_of_repeated_outputs():
    _arity(_Module, 1)
    _arity(_Module, 4)
    with pytest.raises(InvalidModelError, match="has 0 outputs; SPLIT takes at least 1"):
        _arity(_Module, 0)
    with pytest.raises(InvalidModelError, match="has 2 outputs; SPLIT takes 1\\."):
        _arity(_FixedModule, 2)
