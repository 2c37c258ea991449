# SPDX-License-Identifier: Apache-2.0
"""The element-wise family's rules (issue #30): each refusal is raised through its declared Rule, so it is one
line ending with the rule's source (the reference check it mirrors, or the limit it is); the two rules relaxed
to what LiteRT runs (DIV's TANH / SIGN_BIT activation, unquantized int16 ABS) convert. That they also match
LiteRT is walked by the differential cases (tests/e2e/differential_ops/elementwise.py pins them first)."""

from __future__ import annotations

import numpy as np
import pytest

import helia_aot
from helia_aot import ops
from helia_aot.errors import UnsupportedModelError
from tests.modelgen import ModelBuilder

FAMILY = ("ABS", "DIV", "EXP", "LOG", "NEG", "RSQRT", "SQRT", "SQUARE", "SQUARED_DIFFERENCE", "MAXIMUM", "MINIMUM",
          "HARD_SWISH", "LEAKY_RELU", "PRELU", "GELU", "RELU", "RELU6", "RELU_0_TO_1", "RELU_N1_TO_1", "LOGICAL_AND",
          "LOGICAL_NOT", "LOGICAL_OR", "SELECT_V2", "WHERE", "CAST", "ZEROS_LIKE", "FILL")


def _unary(op, dtype, shape=(1, 8), xq=(None, None), yq=(None, None), options=None, out_shape=None):
    b = ModelBuilder()
    x = b.input("x", shape, dtype=dtype, scale=xq[0], zero_point=xq[1])
    y = b.tensor("y", out_shape or shape, dtype=dtype, scale=yq[0], zero_point=yq[1])
    b.op(op, [x], [y], options or {})
    b.output(y)
    return b


def _binary(op, dtype, sa, sb, out, q=(None, None), qy=None, options=None):
    b = ModelBuilder()
    x1 = b.input("a", sa, dtype=dtype, scale=q[0], zero_point=q[1])
    x2 = b.input("b", sb, dtype=dtype, scale=q[0], zero_point=q[1])
    qy = qy or q
    y = b.tensor("y", out, dtype=dtype, scale=qy[0], zero_point=qy[1])
    b.op(op, [x1, x2], [y], options or {})
    b.output(y)
    return b


def _prelu_unbroadcastable():
    b = ModelBuilder()
    x = b.input("x", (1, 3, 4, 5), dtype="float32")
    alpha = b.const("alpha", np.zeros((3,), np.float32))
    y = b.tensor("y", (1, 3, 4, 5), dtype="float32")
    b.op("PRELU", [x, alpha], [y])
    b.output(y)
    return b


def _fill(value_shape=(), dims_shape=(2,)):
    b = ModelBuilder()
    d = b.const("dims", np.asarray([2, 3], np.int32).reshape(dims_shape))
    v = b.input("value", value_shape, dtype="float32")
    y = b.tensor("y", (2, 3), dtype="float32")
    b.op("FILL", [d, v], [y])
    b.output(y)
    return b


def _where_at_run_time_read_on():
    b = ModelBuilder()
    c = b.input("condition", (2, 3), dtype="bool")
    y = b.tensor("y", (6, 2), dtype="int64")
    b.op("WHERE", [c], [y])
    z = b.tensor("z", (6, 2), dtype="int32")
    b.op("CAST", [y], [z])
    b.output(z)
    return b


REFUSALS = {
    "HARD_SWISH exponent": (lambda: _unary("HARD_SWISH", "int8", xq=(0.1, 0), yq=(0.1 / 128 * 0.99, 0)),
                            "multiplier exponent of 1", "(LiteRT: activations.cc HardSwishPrepare)"),
    "SQUARED_DIFFERENCE multiplier": (lambda: _binary("SQUARED_DIFFERENCE", "int8", (4,), (4,), (4,), (0.05, 0),
                                                      (1e-8, 0)),
                                      "is too fine", "(LiteRT and TFLM: squared_difference.cc Prepare"),
    "SQUARED_DIFFERENCE int16 shift": (lambda: _binary("SQUARED_DIFFERENCE", "int16", (4,), (4,), (4,), (0.001, 0),
                                                       (1e-9, 0)),
                                       "overflows int32 for the largest squared difference",
                                       "(reference undefined: micro squared_difference.cc SquaredDifference<int16_t>)"),
    "ABS rescale shift": (lambda: _unary("ABS", "int8", xq=(1.0, 0), yq=(1e-7, 0)), "overflows int32",
                          "(reference undefined: LiteRT's MultiplyByQuantizedMultiplier"),
    "EXP table": (lambda: _unary("EXP", "int8", xq=(1.5, 0), yq=(1.0, -128)), "EXP table is undefined",
                  "(reference undefined: kernels/internal/reference/integer_ops/lut.h LUTPopulate)"),
    "RELU_N1_TO_1 shift": (lambda: _unary("RELU_N1_TO_1", "int8", xq=(0.02, 0), yq=(0.02 / 5e7, 0)),
                           "left shift of 26",
                           "(reference undefined: LiteRT's MultiplyByQuantizedMultiplier"),
    "PRELU alpha": (_prelu_unbroadcastable, "does not broadcast onto", "(LiteRT: activations.cc PreluPrepare; TFLM unchecked)"),
    "FILL value rank": (lambda: _fill((1,)), "value must be a scalar (rank 0)", "(LiteRT and TFLM: fill.cc Prepare"),
    "FILL dims a matrix": (lambda: _fill(dims_shape=(1, 2)), "dims must be a vector, has shape [1, 2]",
                           "(LiteRT and TFLM: fill.cc Prepare"),
    "WHERE run-time coordinates read on": (_where_at_run_time_read_on, "another operator reads the coordinates",
                                           "(helia-aot limit)"),
    "LOGICAL_AND int8": (lambda: _binary("LOGICAL_AND", "int8", (4,), (4,), (4,), (0.1, 0)),
                         "takes bool tensors", "(LiteRT: logical.cc LogicalImpl"),
    "NEG output size": (lambda: _unary("NEG", "float32", out_shape=(1, 9)), "holds 9 elements, the input [1, 8] 8",
                        "(reference undefined"),
    "DIV int8": (lambda: _binary("DIV", "int8", (4,), (4,), (4,), (0.05, 0)), "int8 DIV: LiteRT rounds",
                 "(reference undefined: reference div.h DivElementwise)"),
}


@pytest.mark.parametrize("case", list(REFUSALS))
def test_a_refusal_ends_with_its_rules_source(case, tmp_path):
    build, detail, tag = REFUSALS[case]
    with pytest.raises(UnsupportedModelError) as info:
        helia_aot.convert(build().build(), tmp_path / "out", target="host")
    message = str(info.value.args[0])
    assert "\n" not in message
    assert detail in message, message
    assert message.endswith(")") and tag in message, message


@pytest.mark.parametrize("op_type", FAMILY)
def test_every_variant_of_the_family_declares_sourced_rules(op_type):
    variants = [v for name, v in ops.catalog() if name == op_type]
    assert variants, op_type
    for variant in variants:
        assert variant.rules, f"{op_type} [{variant.name}] declares no rule"
        for operand in (*variant.inputs, *variant.outputs):
            assert all(source is not None for _, source in operand.rule_sources()), (op_type, variant.name)


@pytest.mark.parametrize("activation", ["TANH", "SIGN_BIT"])
def test_div_takes_tanh_and_sign_bit_as_no_clamp(activation, tmp_path):
    # div.cc clamps with CalculateActivationRange, which bounds only RELU, RELU6 and RELU_N1_TO_1
    helia_aot.convert(_binary("DIV", "float32", (2, 3), (3,), (2, 3),
                              options={"fused_activation_function": activation}).build(), tmp_path / "out",
                      target="host")
    body = (tmp_path / "out" / "src" / "model_model.c").read_text()
    # NONE's clamp: [lowest, max] of float, as LiteRT's CalculateActivationRange<float> gives for these
    assert "v < -3.4028234663852886e+38f ? -3.4028234663852886e+38f : (v > 3.4028234663852886e+38f" in body


def test_logical_and_broadcasts_past_rank_4(tmp_path):
    # LiteRT runs a rank-5 bool broadcast (measured); the merged-dimension loop takes it
    helia_aot.convert(_binary("LOGICAL_AND", "bool", (2, 1, 2, 1, 3), (1, 2, 1, 2, 3), (2, 2, 2, 2, 3)).build(),
                      tmp_path / "out", target="host")
    body = (tmp_path / "out" / "src" / "model_model.c").read_text()
    assert "*out++ = (uint8_t)(a && b);" in body and "i4 < 3" in body


def test_unquantized_int16_abs_takes_the_raw_codes(tmp_path):
    # LiteRT's elementwise.cc runs int16 ABS without quantization on the codes (AbsInt16EvalImpl)
    helia_aot.convert(_unary("ABS", "int16").build(), tmp_path / "out", target="host")
    body = (tmp_path / "out" / "src" / "model_model.c").read_text()
    assert "x != INT16_MIN ? (int16_t)-x : x" in body


def test_quantized_int16_abs_keeps_its_kernel(tmp_path):
    helia_aot.convert(_unary("ABS", "int16", xq=(1 / 1024, 0), yq=(1 / 2048, 0)).build(), tmp_path / "out",
                      target="host")
    assert "arm_abs_s16" in (tmp_path / "out" / "src" / "model_model.c").read_text()
