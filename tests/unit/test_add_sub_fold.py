# SPDX-License-Identifier: Apache-2.0
"""ADD and SUB folded at conversion time (issue #30) against LiteRT's reference kernels running the same operator
with the constants as run-time inputs: float32, int8 and int16 (general scales and the power-of-two path), with
extremes, broadcasting and every fused activation, equal bit for bit."""

from __future__ import annotations

import zlib

import numpy as np
import pytest

from helia_aot import ops
from helia_aot.frontend import litert as frontend
from helia_aot.ops.base import OpContext
from helia_aot.ops.shared.fixed_point import multiply_by_quantized_multiplier, multiply_by_quantized_multiplier_array
from tests.modelgen import ModelBuilder
from tests.modelgen.litert import run_reference

ACTIVATIONS = ("NONE", "RELU", "RELU6", "RELU_N1_TO_1", "TANH")
# (input 0, input 1): equal shapes, broadcasting either way, a scalar-like operand.
SHAPES = (((2, 3, 4), (2, 3, 4)), ((2, 1, 4), (3, 1)), ((1, 4), (2, 3, 4)), ((2, 3), (1,)), ((1, 2, 1, 3), (2, 2, 1)))


def _model(op: str, dtype: str, shapes, quant=(None, None, None), options=None) -> bytes:
    b = ModelBuilder()
    out_shape = np.broadcast_shapes(*shapes)
    (qa, qb, qy) = quant
    x0 = b.input("x0", shapes[0], dtype, *(qa or ()))
    x1 = b.input("x1", shapes[1], dtype, *(qb or ()))
    y = b.tensor("y", out_shape, dtype, *(qy or ()))
    b.op(op, [x0, x1], [y], options or {})
    b.output(y)
    return b.build()


def _fold(data: bytes, values: list[np.ndarray]) -> np.ndarray:
    """The operator with `values` as constant inputs, validated and folded as lowering._fold_constants does."""
    graph = frontend.load(data)
    op = graph.operators[0]
    for t, value in zip(op.inputs, values):
        graph.tensors[t].data = np.asarray(value, dtype=graph.tensors[t].dtype)
    ctx = OpContext(graph, op, "op", None, None, None)
    module = ops.get(op.op_type)
    module.validate(ctx)
    folded = module.fold(ctx)
    assert folded is not None, f"{op.op_type} does not fold"
    return np.asarray(folded[0])


def _assert_same(got: np.ndarray, want: np.ndarray) -> None:
    assert got.dtype == want.dtype and got.shape == want.shape
    if got.dtype == np.float32:
        nan = np.isnan(want)
        np.testing.assert_array_equal(np.isnan(got), nan)
        # bit patterns: -0.0 and +0.0 apart, infinities and FLT_MAX apart
        np.testing.assert_array_equal(got[~nan].view(np.uint32), want[~nan].view(np.uint32))
    else:
        np.testing.assert_array_equal(got, want)


def _check(data: bytes, values: list[np.ndarray]) -> None:
    _assert_same(_fold(data, values), run_reference(data, values)[0])


def _codes(rng, shape, dtype) -> np.ndarray:
    """Random codes over the type's whole range, its extremes among them."""
    info = np.iinfo(dtype)
    codes = rng.integers(info.min, info.max, shape, endpoint=True).astype(dtype)
    flat = codes.reshape(-1)
    flat[:2] = rng.permutation([info.min, info.max])[:flat.size]
    return codes


_FLOAT_EXTREMES = np.array([np.finfo(np.float32).max, -np.finfo(np.float32).max, np.inf, -np.inf, np.nan, -0.0, 0.0,
                            1e-45, -1e-45, 1.0, 6.0, -1.0, 3e38, -3e38], np.float32)


def _floats(rng, shape) -> np.ndarray:
    values = (rng.standard_normal(shape) * rng.choice([1e-3, 1.0, 4.0, 1e30], shape)).astype(np.float32)
    flat = values.reshape(-1)
    k = min(flat.size, len(_FLOAT_EXTREMES))
    flat[:k] = rng.permutation(_FLOAT_EXTREMES)[:k]
    return values


@pytest.mark.parametrize("op", ["ADD", "SUB"])
@pytest.mark.parametrize("activation", ACTIVATIONS)
@pytest.mark.parametrize("shapes", SHAPES)
def test_float32_fold_is_litert(op, activation, shapes):
    rng = np.random.default_rng(30)
    data = _model(op, "float32", shapes, options={"fused_activation_function": activation})
    for _ in range(3):
        _check(data, [_floats(rng, s) for s in shapes])


def _int_quant(rng, dtype: str):
    """Random per-tensor quantization LiteRT and the lowering take: int16 symmetric, and for int16 ADD an output
    scale no finer than LiteRT's general path allows (twice the larger input scale < 2^15 x output scale)."""
    scales = np.exp(rng.uniform(np.log(1e-4), np.log(2.0), 2))
    out_scale = max(scales) * np.exp(rng.uniform(np.log(0.02), np.log(20.0)))
    if dtype == "int8":
        return tuple((float(s), int(rng.integers(-128, 128))) for s in (*scales, out_scale))
    return tuple((float(s), 0) for s in (*scales, out_scale))


@pytest.mark.parametrize("op", ["ADD", "SUB"])
@pytest.mark.parametrize("dtype", ["int8", "int16"])
@pytest.mark.parametrize("activation", ACTIVATIONS)
@pytest.mark.parametrize("shapes", SHAPES)
def test_quantized_fold_is_litert(op, dtype, activation, shapes):
    rng = np.random.default_rng(zlib.crc32(repr((op, dtype, activation, shapes)).encode()))
    options = {"fused_activation_function": activation}
    if dtype == "int16":
        options["pot_scale_int16"] = False  # the converter's general scales
    for _ in range(4):
        data = _model(op, dtype, shapes, _int_quant(rng, dtype), options)
        _check(data, [_codes(rng, s, np.dtype(dtype)) for s in shapes])


@pytest.mark.parametrize("op, shapes, scales", [
    ("ADD", ((2, 3, 4), (2, 3, 4)), (2.0 ** -12, 2.0 ** -14, 2.0 ** -12)),
    ("ADD", ((2, 3, 4), (2, 3, 4)), (2.0 ** -10, 2.0 ** -10, 2.0 ** -10)),
    ("SUB", ((2, 3, 4), (2, 3, 4)), (2.0 ** -15, 2.0 ** -12, 2.0 ** -12)),
    ("SUB", ((2, 1, 4), (3, 1)), (2.0 ** -12, 2.0 ** -13, 2.0 ** -12)),
])
@pytest.mark.parametrize("activation", ACTIVATIONS)
def test_int16_power_of_two_fold_is_litert(op, shapes, scales, activation):
    rng = np.random.default_rng(16)
    data = _model(op, "int16", shapes, tuple((s, 0) for s in scales),
                  {"fused_activation_function": activation, "pot_scale_int16": True})
    for _ in range(3):
        _check(data, [_codes(rng, s, np.int16) for s in shapes])


def test_sub_int16_output_multiplier_above_one_folds_as_the_c():
    """SUB, unlike ADD, takes an output scale finer than 2 x input scale / 2^15: an output multiplier above 1.
    The s16 kernel shifts left; LiteRT's reference shifts right by a negative count (undefined, garbage on the
    host), so the fold is held to the exact value: with these power-of-two scales (2 x0 - x1) x 2^14, saturated."""
    x0, x1 = np.array([[1, -1, -3], [0, 2, 3]], np.int16), np.array([[0, 1, 3], [1, -3, -3]], np.int16)
    data = _model("SUB", "int16", ((2, 3), (2, 3)), ((0.5, 0), (0.25, 0), (2.0 ** -16, 0)), {"pot_scale_int16": False})
    want = np.clip((2 * x0.astype(np.int64) - x1) << 14, -32768, 32767).astype(np.int16)
    _assert_same(_fold(data, [x0, x1]), want)


def test_multiply_by_quantized_multiplier_array_is_the_scalar_one():
    rng = np.random.default_rng(7)
    xs = np.concatenate([rng.integers(-(1 << 31), 1 << 31, 2000), [-(1 << 31), (1 << 31) - 1, 0, 1, -1]])
    for multiplier, shift in [(1 << 30, 0), (1 << 30, 1), ((1 << 31) - 1, -31), (1518500250, -5), (1073741825, 3),
                              (int(rng.integers(1 << 30, 1 << 31)), -13), (-(1 << 31), 0)]:
        got = multiply_by_quantized_multiplier_array(xs, multiplier, shift)
        want = [multiply_by_quantized_multiplier(int(x), multiplier, shift) for x in xs]
        assert got.tolist() == want
