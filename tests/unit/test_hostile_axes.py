# SPDX-License-Identifier: Apache-2.0
"""Axis arguments are range-checked for every operator (OpLowering.axes, checked by check_axes before
the module's own rules): the registry is walked so an operator whose schema options or operands name
an axis cannot leave it undeclared, and every declaration is shown to refuse an axis out of range."""

from __future__ import annotations

import re

import numpy as np
import pytest
from ai_edge_litert import schema_py_generated as schema

import helia_aot
from helia_aot import ops
from helia_aot.errors import UnsupportedModelError
from helia_aot.ir.graph import Graph, Operator, Tensor
from helia_aot.ops.base import OpContext
from tests.modelgen.builder import ModelBuilder

# Option fields the schema names like an axis that hold no axis (booleans).
_NOT_AXES = {"keep_dims", "keep_num_dims"}
_AXIS_NAME = re.compile(r"(^|_)(axis|axes|dims?)$")
_AXIS_ROLE = re.compile(r"(^|_)(axis|axes)$")  # an operand's role ("dims" there is a shape: FILL)
# LiteRT operators whose input tensors hold axes (TFLite's builtin operator definitions): position.
_AXIS_INPUTS = {"EXPAND_DIMS": 1, "SPLIT": 0, "SPLIT_V": 2, "MEAN": 1, "SUM": 1, "REDUCE_MAX": 1, "REDUCE_MIN": 1,
                "REDUCE_PROD": 1, "REDUCE_ANY": 1, "ARG_MAX": 1, "ARG_MIN": 1, "REVERSE_V2": 1, "CUMSUM": 1}


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def _axis_arguments(op_type: str, module) -> set[str]:
    """What names an axis for this operator: its options table's axis-like fields, its operands whose
    role is an axis, and LiteRT's axis inputs."""
    found = set()
    table = module.options_table_for(op_type)
    if table:
        fields = vars(getattr(schema, f"{table}T")())
        found |= {f"option {_snake(f)}" for f in fields if _AXIS_NAME.search(_snake(f)) and _snake(f) not in _NOT_AXES}
    for variant in module.variants:
        found |= {f"input {k}" for k, o in enumerate(variant.inputs) if _AXIS_ROLE.search(o.role)}
    if op_type in _AXIS_INPUTS:
        found.add(f"input {_AXIS_INPUTS[op_type]}")
    return found


def test_every_operator_declares_the_axes_it_takes():
    undeclared = {}
    for op_type, module in sorted(ops.load_all().items()):
        missing = _axis_arguments(op_type, module) - {a.source for a in module.axes}
        if missing:
            undeclared[op_type] = sorted(missing)
    assert not undeclared, f"operators taking axes they do not declare in OpLowering.axes: {undeclared}"
    assert any(module.axes for module in ops.load_all().values())


def _context(op_type: str, module, value: int) -> OpContext:
    """Every input and output a rank-2 tensor; every declared axis (option or constant input) `value`."""
    count = max([len(v.inputs) for v in module.variants] + [3])
    tensors = [Tensor(k, f"t{k}", (2, 3), "int32", data=np.zeros((2, 3), np.int32)) for k in range(count + 1)]
    options = {}
    for axis in module.axes:
        kind, _, name = axis.source.partition(" ")
        if kind == "option":
            options[name] = [value] if name.endswith("dims") and name != "batch_dims" else value
        else:
            tensors[int(name)] = Tensor(int(name), f"axis{name}", (1,), "int32", data=np.array([value], np.int32))
    op = Operator(0, op_type, list(range(count)), [count], options)
    graph = Graph("g", 0, tensors, [op], [], [count])
    return OpContext(graph, op, f"g:{op_type}@0", None, None, None)


@pytest.mark.parametrize("op_type", sorted(t for t, m in ops.load_all().items() if m.axes))
def test_every_declared_axis_is_refused_out_of_range_and_accepted_in_it(op_type):
    module = ops.get(op_type)
    module.check_axes(_context(op_type, module, 0))
    module.check_axes(_context(op_type, module, -2))
    for bad in (9, -9, 2**31 - 1, -2**31):
        with pytest.raises(UnsupportedModelError, match=rf"axis {bad} is outside .* \((option|input) \w+\)"):
            module.check_axes(_context(op_type, module, bad))


def _squeeze(dims: list[int]) -> bytes:
    b = ModelBuilder("squeeze")
    x = b.input("x", (1, 4), "float32")
    y = b.tensor("y", (4,), "float32")
    b.op("SQUEEZE", [x], [y], {"squeeze_dims": dims})
    b.output(y)
    return b.build()


def _expand_dims(axis: int) -> bytes:
    b = ModelBuilder("expand_dims")
    x = b.input("x", (1, 4), "float32")
    y = b.tensor("y", (1, 4, 1), "float32")
    b.op("EXPAND_DIMS", [x, b.const("axis", np.array([axis]), "int32")], [y])
    b.output(y)
    return b.build()


@pytest.mark.parametrize("model, message", [
    (lambda: _squeeze([9]), r"tensor 'x': axis 9 is outside \[-2, 2\) for its input 0 of rank 2 \(option squeeze_dims\)"),
    (lambda: _expand_dims(2**31 - 1), r"tensor 'axis': axis 2147483647 is outside \[-3, 3\) for its input 0 of rank 2 plus the new axis \(input 1\)"),
])
def test_an_axis_out_of_range_is_refused_in_one_line(tmp_path, model, message):
    with pytest.raises(UnsupportedModelError, match=message) as err:
        helia_aot.convert(model(), tmp_path / "m")
    assert "\n" not in str(err.value) and not (tmp_path / "m").exists()


def test_axes_in_range_still_convert(tmp_path):
    helia_aot.convert(_squeeze([0]), tmp_path / "s")
    helia_aot.convert(_expand_dims(-1), tmp_path / "e")
