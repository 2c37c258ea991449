# SPDX-License-Identifier: Apache-2.0
"""What the compiler computes at conversion time against LiteRT on the same inputs: the folds of operators whose
inputs are all constants (OpLowering.fold), so folding a constant subgraph never changes a module's outputs, and
the nearest-neighbour index tables the resize code is generated from. The operators' own tests cover their
run-time code; these cover the conversion-time values."""

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


@pytest.mark.parametrize("in_size, out_size", [(5, 1), (5, 2), (5, 3), (3, 7), (6, 4)])
@pytest.mark.parametrize("align_corners, half_pixel", [(False, False), (True, False), (False, True)])
def test_nearest_neighbour_indices_are_litert_s(in_size, out_size, align_corners, half_pixel):
    """The source index of every output column (shared.spatial.nearest_indices, which the inline C and the
    constant tables use) is the one LiteRT's RESIZE_NEAREST_NEIGHBOR reads: read back from a row 0, 1, 2, ..."""
    from helia_aot.ops.shared.spatial import nearest_indices
    b = ModelBuilder()
    x = b.input("x", (1, 1, in_size, 1), "float32")
    y = b.tensor("y", (1, 1, out_size, 1), "float32")
    b.op("RESIZE_NEAREST_NEIGHBOR", [x, b.const("size", np.array([1, out_size], np.int32))], [y],
         {"align_corners": align_corners, "half_pixel_centers": half_pixel})
    b.output(y)
    row = np.arange(in_size, dtype=np.float32).reshape(1, 1, in_size, 1)
    read = run_reference(b.build(), [row])[0].reshape(-1).astype(int).tolist()
    assert nearest_indices(in_size, out_size, align_corners, half_pixel) == read
