# SPDX-License-Identifier: Apache-2.0
"""Behaviour the single-operator cases do not reach: SQUARED_DIFFERENCE folded at conversion against
LiteRT, the limits of BATCH_MATMUL's int16 requantization shift and of PRELU's products (checked at
both sides of the boundary), an unquantized int8 constant into a table operator, and the work of a
float32 CIFG LSTM."""

from __future__ import annotations

import numpy as np
import pytest

import helia_aot
from helia_aot.lowering import lower as lowering, verifier
from helia_aot.config import options as options_mod
from helia_aot.frontend import resources
from helia_aot.errors import UnsupportedModelError
from helia_aot.frontend import litert
from tests.modelgen import ModelBuilder
from tests.modelgen.cases import CASES_DIR, build_case_model, load_case
from tests.modelgen.litert import make_interpreter


def prepared(data: bytes):
    """The graph after conversion-time folding (what the emitter sees)."""
    options = options_mod.resolve(None, target="host")
    graph = resources.resolve(litert.load(data, "m", 0), data, "m")
    graph, _ = verifier.verify(graph, "m")
    return lowering.prepare(graph, options, "m")


def convert(data: bytes, tmp_path):
    return helia_aot.convert(data, tmp_path / "out", target="host")


# ---- SQUARED_DIFFERENCE of constants ----

# Folding runs validate() before a variant is chosen (ctx.variant is None).
@pytest.mark.parametrize("dtype, a, b", [
    ("float32", [[1.5, -2.0, 0.25], [3.0, -0.5, 7.0]], [0.5, 1.0, -0.75]),
    ("int32", [[100, -7, 3], [40000, -40000, 0]], [[-5, 9, 3], [-1000, 1000, 46340]]),
])
def test_squared_difference_of_constants_folds_to_litert_values(dtype, a, b):
    bld = ModelBuilder()
    ca = bld.const("a", np.asarray(a, dtype=np.float32 if dtype == "float32" else np.int32), dtype)
    cb = bld.const("b", np.asarray(b, dtype=np.float32 if dtype == "float32" else np.int32), dtype)
    x = bld.input("x", (2, 3), dtype)
    t = bld.tensor("t", (2, 3), dtype)
    y = bld.tensor("y", (2, 3), dtype)
    bld.op("SQUARED_DIFFERENCE", [ca, cb], [t])
    bld.op("ADD", [t, x], [y])
    bld.output(y)
    data = bld.build()
    graph = prepared(data)
    assert [op.op_type for op in graph.operators] == ["ADD"]  # folded away
    folded = next(tensor for tensor in graph.tensors if tensor is not None and tensor.name == "t")
    interp = make_interpreter(data, preserve_all_tensors=True)
    interp.set_tensor(interp.get_input_details()[0]["index"], np.zeros((2, 3), dtype=folded.data.dtype))
    interp.invoke()
    want = interp.get_tensor(next(d["index"] for d in interp.get_tensor_details() if d["name"] == "t"))
    assert folded.data.dtype == want.dtype
    np.testing.assert_array_equal(np.asarray(folded.data), want)


# ---- BATCH_MATMUL int16: the kernel takes a requantization left shift of at most 14 ----

def batch_matmul_int16(real_multiplier: float) -> bytes:
    """lhs x rhs / output scale = real_multiplier; its left shift is floor(log2(real_multiplier)) + 1."""
    b = ModelBuilder()
    lhs = b.input("lhs", (1, 2, 3), "int16", 1.0, 0)
    rhs = b.input("rhs", (1, 3, 2), "int16", 1.0, 0)
    y = b.tensor("y", (1, 2, 2), "int16", 1.0 / real_multiplier, 0)
    b.op("BATCH_MATMUL", [lhs, rhs], [y])
    b.output(y)
    return b.build()


def test_batch_matmul_int16_takes_a_shift_of_14_and_refuses_15(tmp_path):
    result = convert(batch_matmul_int16(1.5 * 2 ** 13), tmp_path / "a")  # 0.75 x 2^14: shift 14
    assert result.plan["operators"][0]["kernel"]["entry"] == "arm_batch_matmul_s16"
    with pytest.raises(UnsupportedModelError) as info:
        convert(batch_matmul_int16(1.5 * 2 ** 14), tmp_path / "b")  # 0.75 x 2^15: shift 15
    message = str(info.value)
    assert "BATCH_MATMUL" in message and "tensor 'y'" in message and "left shift of 15" in message
    assert "at most 14" in message


# ---- PRELU: x - zp where it is >= 0 (up to 127 for int8, 32767 for int16 at zp 0) shifted left must stay an int32 ----

def prelu(dtype: str, shift: int) -> bytes:
    """Input / output scale ratio 0.75 x 2^shift (left shift `shift`); alpha's ratio far smaller."""
    b = ModelBuilder()
    x = b.input("x", (1, 4), dtype, 1.0, 0)
    alpha = b.const("alpha", np.full((4,), 3, dtype=np.int8), "int8", 2.0 ** -12, 0)
    y = b.tensor("y", (1, 4), dtype, 1.0 / (0.75 * 2 ** shift), 0)
    b.op("PRELU", [x, alpha], [y])
    b.output(y)
    return b.build()


@pytest.mark.parametrize("dtype, fits, overflows", [("int8", 24, 25), ("int16", 16, 17)])
def test_prelu_left_shift_limit_follows_the_input_range(tmp_path, dtype, fits, overflows):
    # LiteRT shifts only x - zp >= 0 by the identity ratio: int8 127 << 24 < 2^31 <= 127 << 25;
    # int16 32767 << 16 < 2^31 <= 32767 << 17
    result = convert(prelu(dtype, fits), tmp_path / "a")
    assert result.plan["operators"][0]["kernel"]["entry"] == f"arm_prelu_s{dtype[3:]}"
    with pytest.raises(UnsupportedModelError) as info:
        convert(prelu(dtype, overflows), tmp_path / "b")
    message = str(info.value)
    assert "PRELU" in message and "tensor 'y'" in message
    assert f"left shift of {overflows}, which overflows int32 for values in [0, {127 if dtype == 'int8' else 32767}]" \
        in message


# ---- an int8 constant without quantization into a table operator ----

@pytest.mark.parametrize("op", ["EXP", "LOG", "SQRT", "RELU_N1_TO_1"])
def test_unquantized_int8_constant_into_a_table_operator_is_refused(tmp_path, op):
    """Folding runs the operator's rules before any variant is chosen: an int8 tensor with no scale is
    no quantized int8 there either, so the refusal is the one the variant's operand rule gives."""
    b = ModelBuilder()
    c = b.const("c", np.arange(4, dtype=np.int8).reshape(1, 4), "int8")
    x = b.input("x", (1, 4), "int8")
    t = b.tensor("t", (1, 4), "int8")
    y = b.tensor("y", (1, 4), "int8")
    b.op(op, [c], [t])
    b.op("ADD", [t, x], [y])
    b.output(y)
    with pytest.raises(UnsupportedModelError) as info:
        convert(b.build(), tmp_path)
    message = str(info.value)
    assert op in message and "tensor 'c'" in message and "(int8) has no quantization parameters" in message


# ---- float32 CIFG LSTM: three gates, no input gate ----

def test_float32_cifg_lstm_computes_three_gates(tmp_path):
    case = load_case(CASES_DIR / "unidirectional_sequence_lstm_float32_cifg_layer_norm.yaml")
    data = build_case_model(case)
    graph = prepared(data)
    op = graph.operators[0]
    assert op.inputs[1] < 0  # no input-to-input weights: CIFG
    x, w_cell, w_rec = (graph.tensors[op.inputs[k]] for k in (0, 3, 7))
    steps, batch, inputs = (x.shape if op.options.get("time_major") else (x.shape[1], x.shape[0], x.shape[2]))
    cells, outputs = w_cell.shape[0], w_rec.shape[1]
    result = convert(data, tmp_path)
    # forget, cell and output gates: cells x (inputs + outputs) multiply-accumulates each, per row and step
    assert result.report["total_macs"] == batch * steps * 3 * cells * (inputs + outputs)


@pytest.mark.parametrize("op", ["RELU", "RELU6"])
def test_int16_relu_rescale_past_int32_is_reference_undefined(tmp_path, op):
    # input / output 2^-11 / 2^-33.3: LiteRT's QuantizedReluX shifts q - zp left by 23, past int32 for |q| >= 256.
    b = ModelBuilder()
    x = b.input("x", (1, 16), "int16", 0.00048828125, 0)
    y = b.tensor("y", (1, 16), "int16", 9.765625e-11, 0)
    b.op(op, [x], [y])
    b.output(y)
    with pytest.raises(UnsupportedModelError) as info:
        convert(b.build(), tmp_path / "out")
    message = str(info.value)
    assert f"{op}" in message and "needs a left shift of 23, which overflows int32 for q - zero point in " \
        "[-32768, 32767]" in message
    assert "(reference undefined: LiteRT's MultiplyByQuantizedMultiplier" in message


def _fc(in_shape, out_shape) -> bytes:
    b = ModelBuilder()
    x = b.input("x", in_shape, "int8", 0.05, 0)
    w = b.const("w", np.ones((3, 8), np.int8), "int8", 0.02, 0)
    y = b.tensor("y", out_shape, "int8", 0.1, 0)
    b.op("FULLY_CONNECTED", [x, w], [y])
    b.output(y)
    return b.build()


def test_fully_connected_output_rows_past_the_input_are_reference_undefined(tmp_path):
    # 7 inputs over depth 8 is no row; TFLM reads one row per output row: past the input.
    with pytest.raises(UnsupportedModelError) as info:
        convert(_fc((1, 7), (1, 3)), tmp_path / "a")
    message = str(info.value)
    assert "does not hold 0 rows" in message and "(reference undefined: TFLM fully_connected.cc" in message
    # Fewer output rows than the input holds: TFLM computes them, LiteRT resizes the output: our limit.
    with pytest.raises(UnsupportedModelError) as info:
        convert(_fc((2, 8), (1, 3)), tmp_path / "b")
    assert "does not hold 2 rows" in str(info.value) and "(helia-aot limit)" in str(info.value)
