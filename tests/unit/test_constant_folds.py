# SPDX-License-Identifier: Apache-2.0
"""Conversion-time folds of operators whose inputs are all constants (OpLowering.fold): each fold's value
equals what LiteRT's reference kernel computes for the same inputs, so folding a constant subgraph never
changes a module's outputs. The operators' own tests cover their run-time code; these cover the folds."""

from __future__ import annotations

import numpy as np
import pytest

from helia_aot import ops
from helia_aot.frontend import litert as frontend
from helia_aot.ops.base import OpContext
from tests.modelgen import ModelBuilder
from tests.modelgen.litert import run_reference


def _fold(data: bytes, values: list[np.ndarray]) -> list[np.ndarray]:
    """The fold of the model's only operator, its run-time inputs given these values as constants."""
    graph = frontend.load(data)
    op = graph.operators[0]
    for t, value in zip((t for t in op.inputs if graph.tensors[t].data is None), values):
        graph.tensors[t].data = np.asarray(value, dtype=graph.tensors[t].dtype).reshape(graph.tensors[t].shape)
    return [np.asarray(v) for v in ops.get(op.op_type).fold(OpContext(graph, op, "op", None, None, None))]


def test_float_div_fold_is_litert_div():
    b = ModelBuilder()
    x, z = b.input("x", (2, 3), "float32"), b.input("z", (3,), "float32")
    y = b.tensor("y", (2, 3), "float32")
    b.op("DIV", [x, z], [y], {"fused_activation_function": "NONE"})
    b.output(y)
    data = b.build()
    a = np.array([[1.5, -3.0, 7.0], [0.0, 2.5, -1e30]], np.float32)
    c = np.array([0.5, 4.0, 1e-10], np.float32)  # the last overflows: LiteRT clamps to +-FLT_MAX
    want = run_reference(data, [a, c])[0]
    got = _fold(data, [a, c])[0]
    assert got.dtype == np.float32 and got.tolist() == want.tolist()


@pytest.mark.parametrize("op, dtype", [("SUM", "float32"), ("REDUCE_PROD", "float32"), ("SUM", "int32"),
                                       ("REDUCE_ANY", "bool")])
def test_reduction_fold_is_litert_reduction(op, dtype):
    b = ModelBuilder()
    x = b.input("x", (2, 3, 4), dtype)
    y = b.tensor("y", (2, 1, 4), dtype)
    b.op(op, [x, b.const("axis", np.array([1], np.int32))], [y], {"keep_dims": True})
    b.output(y)
    data = b.build()
    rng = np.random.default_rng(5)
    if dtype == "bool":
        x_value = rng.integers(0, 4, (2, 3, 4)) == 0
    elif dtype == "int32":
        x_value = rng.integers(-1000, 1000, (2, 3, 4)).astype(np.int32)
    else:
        x_value = rng.uniform(-2, 2, (2, 3, 4)).astype(np.float32)
    want = run_reference(data, [x_value])[0]
    got = _fold(data, [x_value])[0]
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_allclose(got.astype(np.float64), want.astype(np.float64), rtol=1e-6)
