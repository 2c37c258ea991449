# SPDX-License-Identifier: Apache-2.0
"""Arithmetic operators (MAXIMUM, MINIMUM, ABS, NEG, DIV, SQUARED_DIFFERENCE, PRELU, BATCH_MATMUL): the
entry or inline C each variant lowers to, and each operator's main refusal, a one-line message naming the
operator, the tensor and the rule."""

from __future__ import annotations

import numpy as np
import pytest

import helia_aot
from helia_aot.errors import UnsupportedModelError
from tests.modelgen import ModelBuilder

from .helpers import function_body

QUANT = {"int8": dict(scale=0.05, zero_point=3), "int16": dict(scale=0.001, zero_point=0)}


def convert(builder: ModelBuilder, tmp_path, target="host", **kw):
    out = tmp_path / "out"
    result = helia_aot.convert(builder.build(), out, target=target, **kw)
    return result, (out / "src" / "model_model.c").read_text()


def binary(op, dtype, shape1, shape2, out_shape, options=None, out_quant=None, out_dtype=None):
    b = ModelBuilder()
    q = QUANT.get(dtype, {})
    x1 = b.input("x1", shape1, dtype=dtype, **q)
    x2 = b.input("x2", shape2, dtype=dtype, **q)
    y = b.tensor("y", out_shape, dtype=out_dtype or dtype, **(out_quant if out_quant is not None else q))
    b.op(op, [x1, x2], [y], options)
    b.output(y)
    return b


def refusal(builder, tmp_path) -> str:
    with pytest.raises(UnsupportedModelError) as info:
        convert(builder, tmp_path)
    message = str(info.value)
    assert "\n" not in message.split(". ")[0]
    return message


# ---- MAXIMUM / MINIMUM --------------------------------------------------------------------------------

@pytest.mark.parametrize("op", ["MAXIMUM", "MINIMUM"])
def test_minmax_int8_calls_the_entry_with_merged_dims(tmp_path, op):
    result, model_c = convert(binary(op, "int8", (2, 1, 3, 4), (2, 5, 1, 4), (2, 5, 3, 4)), tmp_path)
    entry = f"arm_{op.lower()}_s8"
    assert result.plan["operators"][0]["kernel"]["entry"] == entry
    body = function_body(model_c, 0)
    assert "const cmsis_nn_dims input1_dims = { 2, 1, 3, 4 };" in body
    assert "const cmsis_nn_dims input2_dims = { 2, 5, 1, 4 };" in body
    assert f"return {entry}(&ctx," in body


def test_minmax_rank5_alternating_broadcast_is_inline(tmp_path):
    result, model_c = convert(binary("MAXIMUM", "int16", (2, 1, 3, 1, 2), (1, 4, 1, 5, 1), (2, 4, 3, 5, 2)),
                              tmp_path)
    body = function_body(model_c, 0)
    assert "arm_maximum_s16" not in body
    assert "*out++ = a > b ? a : b;" in body
    assert "in2[i1 * 5 + i3]" in body


def test_minmax_int32_is_inline(tmp_path):
    _, model_c = convert(binary("MINIMUM", "int32", (3, 4), (), (3, 4)), tmp_path)
    body = function_body(model_c, 0)
    assert "*out++ = a < b ? a : b;" in body and "in2[0]" in body


def test_minmax_refuses_a_wrong_output_shape(tmp_path):
    message = refusal(binary("MAXIMUM", "int8", (2, 3), (3,), (3, 3)), tmp_path)
    assert "MAXIMUM" in message and "'y'" in message
    assert "output shape [3, 3] does not match the broadcast shape [2, 3]" in message


def unary(op, dtype, shape, out_shape=None, in_quant=None, out_quant=None):
    b = ModelBuilder()
    x = b.input("x", shape, dtype=dtype, **(in_quant if in_quant is not None else QUANT.get(dtype, {})))
    y = b.tensor("y", out_shape or shape, dtype=dtype, **(out_quant if out_quant is not None else
                                                         QUANT.get(dtype, {})))
    b.op(op, [x], [y])
    b.output(y)
    return b


# ---- ABS / NEG ----------------------------------------------------------------------------------------

def test_abs_int8_rescales_with_the_input_zero_point(tmp_path):
    b = unary("ABS", "int8", (2, 8), in_quant=dict(scale=0.05, zero_point=3), out_quant=dict(scale=0.1, zero_point=-7))
    result, model_c = convert(b, tmp_path)
    assert result.plan["operators"][0]["kernel"]["entry"] == "arm_abs_s8"
    # 0.05 / 0.1 = 0.5 = 2^30 * 2^-31 (shift 0); the entry subtracts input_offset = 3 itself.
    assert f"arm_abs_s8((int8_t *)(arena + " in function_body(model_c, 0)
    assert f", 3, (int8_t *)" in function_body(model_c, 0)
    assert f"-7,\n        {1 << 30}, 0, true, -128, 127,\n        16);" in function_body(model_c, 0)


def test_abs_same_scale_does_not_rescale(tmp_path):
    _, model_c = convert(unary("ABS", "int16", (5,)), tmp_path)
    assert "0, 0, false, -32768, 32767" in function_body(model_c, 0)


def test_abs_float32_and_int32(tmp_path):
    _, model_c = convert(unary("ABS", "float32", (3, 4)), tmp_path / "f", kernel_library="portable")
    assert "arm_nn_abs_f32(" in function_body(model_c, 0) and ", 12);" in function_body(model_c, 0)
    # ns-cmsis-nn 7.29.2 has no arm_nn_abs_f32: fabsf inline (the sign bit cleared, as the entry).
    _, model_c = convert(unary("ABS", "float32", (3, 4)), tmp_path / "n")
    assert "*out++ = fabsf(x);" in function_body(model_c, 0) and "arm_nn_abs_f32(" not in model_c
    _, model_c = convert(unary("ABS", "int32", (3, 4)), tmp_path / "i")
    assert "*out++ = x < 0 && x != INT32_MIN ? -x : x;" in function_body(model_c, 0)


def test_abs_refuses_a_scale_ratio_that_overflows(tmp_path):
    b = unary("ABS", "int8", (4,), in_quant=dict(scale=0.05 * 2 ** 23, zero_point=0),
              out_quant=dict(scale=0.05, zero_point=0))
    message = refusal(b, tmp_path)
    assert "ABS" in message and "'y'" in message and "left shift of 24" in message
    assert "overflows int32" in message


@pytest.mark.parametrize("dtype,line", [("int8", "*out++ = x == -128 ? x : (int8_t)-x;"),
                                        ("int16", "*out++ = x == -32768 ? x : (int16_t)-x;"),
                                        ("int32", "*out++ = x == INT32_MIN ? x : (int32_t)-x;"),
                                        ("float32", "*out++ = -x;")])
def test_neg_is_inline(tmp_path, dtype, line):
    result, model_c = convert(unary("NEG", dtype, (2, 3)), tmp_path)
    assert result.plan["operators"][0]["kernel"]["entry"] in (None, "inline C", "")
    assert line in function_body(model_c, 0)


def test_neg_takes_an_output_of_another_shape_with_as_many_elements(tmp_path):
    result, model_c = convert(unary("NEG", "float32", (2, 3), out_shape=(3, 2)), tmp_path)
    assert result.plan["operators"][0]["op_type"] == "NEG"
    assert "6" in function_body(model_c, 0)  # the loop runs over the 6 flat elements


def test_neg_refuses_an_output_of_another_size(tmp_path):
    message = refusal(unary("NEG", "float32", (2, 3), out_shape=(2, 4)), tmp_path)
    assert "NEG" in message and "'y'" in message
    assert "output shape [2, 4] holds 8 elements, the input [2, 3] 6" in message
    assert "reference undefined" in message


# ---- SQUARED_DIFFERENCE -------------------------------------------------------------------------------

def test_squared_difference_int8_entries(tmp_path):
    out_q = dict(scale=0.01, zero_point=-128)
    result, model_c = convert(binary("SQUARED_DIFFERENCE", "int8", (2, 5), (2, 5), (2, 5), out_quant=out_q),
                              tmp_path / "a")
    assert result.plan["operators"][0]["kernel"]["entry"] == "arm_elementwise_squared_difference_s8"
    # Both scales 0.05: multipliers 1/2 (2^30, shift 0); output (0.1)^2 / (2^14 * 0.01) = 6.1e-5 -> shift -13.
    body = function_body(model_c, 0)
    assert f"-3, {1 << 30}, 0, -3, {1 << 30}, 0, 7," in body
    assert ", 10);" in body and "-128, " in body
    # A single-element second input goes first, to the scalar entry.
    result, model_c = convert(binary("SQUARED_DIFFERENCE", "int8", (2, 5), (1,), (2, 5), out_quant=out_q),
                              tmp_path / "b")
    assert result.plan["operators"][0]["kernel"]["entry"] == "arm_squared_difference_scalar_s8"
    body = function_body(model_c, 0)
    assert body.index("(int8_t *)(arena + ") < body.index(",\n")
    result, _ = convert(binary("SQUARED_DIFFERENCE", "int8", (2, 1, 5), (3, 1), (2, 3, 5), out_quant=out_q),
                        tmp_path / "c")
    assert result.plan["operators"][0]["kernel"]["entry"] == "arm_squared_difference_s8"


def test_squared_difference_int32_wraps_in_unsigned(tmp_path):
    _, model_c = convert(binary("SQUARED_DIFFERENCE", "int32", (3,), (3,), (3,)), tmp_path)
    body = function_body(model_c, 0)
    assert "const uint32_t d = (uint32_t)a - (uint32_t)b;" in body and "*out++ = (int32_t)(d * d);" in body


def test_squared_difference_refuses_a_too_fine_output_scale(tmp_path):
    b = binary("SQUARED_DIFFERENCE", "int8", (4,), (4,), (4,), out_quant=dict(scale=1e-7, zero_point=0))
    message = refusal(b, tmp_path)
    assert "SQUARED_DIFFERENCE" in message and "'y'" in message and "output scale 1e-07 is too fine" in message


def test_squared_difference_int16_is_tflms_inline_arithmetic(tmp_path):
    # LiteRT refuses int16; TFLM computes it (matched by tests/e2e/test_differential.py's SQUARED_DIFFERENCE walk).
    result, source = convert(binary("SQUARED_DIFFERENCE", "int16", (2, 4), (4,), (2, 4)), tmp_path)
    body = function_body(source, 0)
    assert result.plan["operators"][0]["fixed"]["implementation"] == "inline"
    assert "const int32_t raw = scaled1 - scaled2;" in body and "(int16_t)(y < -32768" in body


# ---- PRELU --------------------------------------------------------------------------------------------

def prelu_model(dtype, in_shape, alpha_shape, alpha_dtype=None, const_alpha=True, out_shape=None):
    b = ModelBuilder()
    q = QUANT.get(dtype, {})
    x = b.input("x", in_shape, dtype=dtype, **q)
    alpha_dtype = alpha_dtype or ("int8" if dtype == "int16" else dtype)
    aq = dict(scale=0.01, zero_point=0) if alpha_dtype != "float32" else {}
    if const_alpha:
        values = np.linspace(-1, 1, int(np.prod(alpha_shape))).reshape(alpha_shape)
        values = (values * 100).astype(np.int8) if alpha_dtype == "int8" else values.astype(np.float32)
        alpha = b.const("alpha", values, dtype=alpha_dtype, **aq)
    else:
        alpha = b.input("alpha", alpha_shape, dtype=alpha_dtype, **aq)
    y = b.tensor("y", out_shape or in_shape, dtype=dtype, **q)
    b.op("PRELU", [x, alpha], [y])
    b.output(y)
    return b


def test_prelu_int16_widens_the_int8_alpha(tmp_path):
    result, model_c = convert(prelu_model("int16", (1, 3, 3, 4), (1, 1, 4)), tmp_path)
    assert result.plan["operators"][0]["kernel"]["entry"] == "arm_prelu_s16"
    body = function_body(model_c, 0)
    assert "model_op0_alpha16," in body
    assert "const cmsis_nn_dims alpha_dims = { 1, 1, 1, 4 };" in body
    assert "const cmsis_nn_dims input_dims = { 1, 1, 9, 4 };" in body
    constants = (tmp_path / "out" / "src" / "model_constants.c").read_text()
    assert "const int16_t model_op0_alpha16[4]" in constants


def test_prelu_float32_and_int8(tmp_path):
    result, _ = convert(prelu_model("float32", (2, 5), (5,)), tmp_path / "f", kernel_library="portable")
    assert result.plan["operators"][0]["kernel"]["entry"] == "arm_prelu_f32"
    # ns-cmsis-nn 7.29.2 has no arm_prelu_f32: the entry's loop inline, alpha at its broadcast strides.
    result, model_c = convert(prelu_model("float32", (2, 5), (5,)), tmp_path / "n")
    assert result.plan["operators"][0]["kernel"]["entry"] is None
    assert "x >= 0.0f ? x : x * alpha[n * 0 + h * 0 + w * 0 + c * 1]" in function_body(model_c, 0)
    result, model_c = convert(prelu_model("int8", (2, 5), (2, 5), const_alpha=False), tmp_path / "i")
    assert result.plan["operators"][0]["kernel"]["entry"] == "arm_prelu_s8"
    # input offset -3, alpha offset 0, output offset 3; identity multiplier 1.0 (2^30, shift 1).
    assert f"-3, 0, 3, {1 << 30}, 1," in function_body(model_c, 0)


def test_prelu_refuses_alpha_that_does_not_broadcast_onto_the_input(tmp_path):
    message = refusal(prelu_model("float32", (2, 1), (2, 3), out_shape=(2, 3)), tmp_path)
    assert "PRELU" in message and "'alpha'" in message
    assert "alpha shape [2, 3] does not broadcast onto the input shape [2, 1]" in message


def test_prelu_int16_refuses_a_runtime_alpha(tmp_path):
    message = refusal(prelu_model("int16", (2, 4), (4,), const_alpha=False), tmp_path)
    assert "PRELU" in message and "'alpha'" in message and "alpha must be a constant tensor" in message


# ---- DIV ----------------------------------------------------------------------------------------------

def test_div_float32_clamps_to_the_activation_range(tmp_path):
    _, model_c = convert(binary("DIV", "float32", (2, 3), (3,), (2, 3), {"fused_activation_function": "RELU6"}),
                         tmp_path)
    body = function_body(model_c, 0)
    assert "const float v = a / b;" in body and "v < 0.0f ? 0.0f : (v > 6.0f ? 6.0f : v)" in body


def test_div_int32_fails_on_a_zero_divisor_before_writing(tmp_path):
    _, model_c = convert(binary("DIV", "int32", (2, 3), (2, 3), (2, 3)), tmp_path)
    body = function_body(model_c, 0)
    assert body.index("if (in2[k] == 0)") < body.index("*out++")
    assert "(a == INT32_MIN && b == -1) ? INT32_MIN : a / b" in body


@pytest.mark.parametrize("dtype", ["int8", "int16"])
def test_div_quantized_names_a_quotient_litert_rounds_past_the_word(tmp_path, dtype):
    # Equal scales s: output multiplier 1 / s (a shift of a few bits); a dividend at its zero point has
    # headroom 31, so a divisor whose reciprocal shifts more gives RoundingDivideByPOT a shift past 31.
    message = refusal(binary("DIV", dtype, (4,), (4,), (4,)), tmp_path)
    assert "DIV" in message and "'y'" in message and f"{dtype} DIV: LiteRT rounds " in message
    assert "outside 0..31 (reference undefined: reference div.h DivElementwise)" in message


def test_div_int8_at_scales_litert_defines_is_our_limit(tmp_path):
    # Output multiplier 0.5 / (0.001 x 0.05) = 10^4 (shift 14): every code pair's shift stays in 9..24.
    b = ModelBuilder()
    x = b.input("x", (4,), "int8", 0.5, 3)
    d = b.input("d", (4,), "int8", 0.001, -5)
    y = b.tensor("y", (4,), "int8", 0.05, 2)
    b.op("DIV", [x, d], [y])
    b.output(y)
    message = refusal(b, tmp_path)
    assert "int8 DIV is not supported at these scales" in message and "(helia-aot limit)" in message


# ---- BATCH_MATMUL -------------------------------------------------------------------------------------

def bmm_model(dtype, lhs_shape, rhs_shape, out_shape, adj_x=False, adj_y=False, const_rhs=False, rhs_dtype=None):
    b = ModelBuilder()
    q = QUANT.get(dtype, {})
    lhs = b.input("lhs", lhs_shape, dtype=dtype, **q)
    rhs_dtype = rhs_dtype or dtype
    rq = dict(scale=0.02, zero_point=0) if rhs_dtype != "float32" else {}
    if const_rhs:
        values = (np.arange(int(np.prod(rhs_shape))) % 7 - 3).reshape(rhs_shape)
        rhs = b.const("rhs", values.astype(rhs_dtype), dtype=rhs_dtype, **rq)
    else:
        rhs = b.input("rhs", rhs_shape, dtype=rhs_dtype, **rq)
    y = b.tensor("y", out_shape, dtype=dtype, **q)
    b.op("BATCH_MATMUL", [lhs, rhs], [y], {"adj_x": adj_x, "adj_y": adj_y})
    b.output(y)
    return b


def test_batch_matmul_int8_const_rhs_is_transposed_at_conversion(tmp_path):
    result, model_c = convert(bmm_model("int8", (2, 3, 4), (4, 5), (2, 3, 5), const_rhs=True), tmp_path)
    op = result.plan["operators"][0]
    assert op["kernel"]["entry"] == "arm_batch_matmul_s8"
    body = function_body(model_c, 0)
    assert "const cmsis_nn_dims lhs_dims = { 1, 2, 3, 4 };" in body
    assert "const cmsis_nn_dims rhs_dims = { 1, 1, 5, 4 };" in body
    assert "&rhs_dims, model_op0_rhs_t," in body
    constants = (tmp_path / "out" / "src" / "model_constants.c").read_text()
    # rhs[k][j] = (k * 5 + j) % 7 - 3 stored as rhs_t[j][k]: the first row is j = 0, k = 0..3.
    assert "model_op0_rhs_t[20]" in constants and "-3, 2, 0, -2," in constants


def test_batch_matmul_runtime_operands_are_transposed_into_scratch(tmp_path):
    result, model_c = convert(bmm_model("int8", (2, 4, 3), (2, 4, 5), (2, 3, 5), adj_x=True), tmp_path)
    body = function_body(model_c, 0)
    assert "lhs_t[(m * 3 + i) * 4 + k] = src[(m * 4 + k) * 3 + i];" in body
    assert "rhs_t[(m * 5 + j) * 4 + k] = src[(m * 4 + k) * 5 + j];" in body
    # int8 LHS 2 x 4 x 3 = 24 bytes, then the RHS (40 bytes) at the next 4-byte boundary.
    assert result.plan["operators"][0]["kernel"]["local_scratch_bytes"] == 64


def test_batch_matmul_mve_scratch_holds_kernel_sums(tmp_path):
    result, model_c = convert(bmm_model("int8", (3, 4), (5, 4), (3, 5), adj_y=True), tmp_path, target="corstone300")
    assert result.plan["operators"][0]["kernel"]["local_scratch_bytes"] == 5 * 4
    assert ", 20 };" in function_body(model_c, 0)


def test_batch_matmul_a16w8_widens_the_rhs(tmp_path):
    result, model_c = convert(bmm_model("int16", (3, 4), (4, 2), (3, 2), const_rhs=True, rhs_dtype="int8"), tmp_path)
    assert result.plan["operators"][0]["kernel"]["entry"] == "arm_batch_matmul_s16"
    constants = (tmp_path / "out" / "src" / "model_constants.c").read_text()
    assert "const int16_t model_op0_rhs_t[8]" in constants


def test_batch_matmul_float32_is_inline(tmp_path):
    _, model_c = convert(bmm_model("float32", (2, 1, 3, 4), (1, 2, 4, 5), (2, 2, 3, 5)), tmp_path)
    body = function_body(model_c, 0)
    assert "acc += l[i * 4 + k] * r[k * 5 + j];" in body
    assert "const float *l = lhs + b0 * 12;" in body and "const float *r = rhs + b1 * 20;" in body


def test_batch_matmul_refuses_mismatched_inner_dims(tmp_path):
    message = refusal(bmm_model("int8", (3, 4), (5, 2), (3, 2)), tmp_path)
    assert "BATCH_MATMUL" in message and "'rhs'" in message
    assert "inner dimensions differ: lhs 4 (adj_x False), rhs 5 (adj_y False)" in message


def test_batch_matmul_refuses_three_merged_batch_axes_for_int8(tmp_path):
    message = refusal(bmm_model("int8", (2, 1, 2, 3, 4), (1, 2, 1, 4, 5), (2, 2, 2, 3, 5)), tmp_path)
    assert "BATCH_MATMUL" in message and "three merged batch dimensions" in message


def test_inline_binary_loop_says_what_it_computes(tmp_path):
    """The inline broadcast loop opens with its operator's own comment (what it computes, and how it matches
    LiteRT), so a reader of the generated C need not look it up."""
    _, model_c = convert(binary("DIV", "float32", (2, 3), (3,), (2, 3)), tmp_path)
    assert "/* DIV float32: a / b, clamped as LiteRT (NaN passes)" in function_body(model_c, 0)


def _prelu_alpha(codes: list[int]) -> ModelBuilder:
    """int8 PRELU, input / output 0.05 / 1e-5 (a shift of 13), alpha at scale 50 with these constant codes."""
    b = ModelBuilder()
    x = b.input("x", (1, 4), dtype="int8", scale=0.05, zero_point=0)
    alpha = b.const("alpha", np.array(codes, np.int8), dtype="int8", scale=50.0, zero_point=0)
    y = b.tensor("y", (1, 4), dtype="int8", scale=0.00001, zero_point=0)
    b.op("PRELU", [x, alpha], [y])
    b.output(y)
    return b


def test_prelu_names_the_alpha_product_whose_shift_overflows(tmp_path):
    # input / output needs 2^13 (fits for x - zp <= 127); input x alpha / output 2^18 overflows for (-128) x (-128),
    # the product of the lowest input code and alpha's lowest constant code.
    message = refusal(_prelu_alpha([127, -128, 3, -4]), tmp_path)
    assert "tensor 'y': the input x alpha / output scale ratio needs a left shift of 18, which overflows int32 " \
           "for values in [-16256, 16384]" in message, message


def test_prelu_takes_a_shift_its_constant_alpha_keeps_within_int32(tmp_path):
    # The same scales as above with small alpha codes: (x - zp) x (alpha - zp) stays in [-384, 512], 512 << 18 fits.
    result, _ = convert(_prelu_alpha([1, -2, 3, -4]), tmp_path)
    assert result.plan["operators"][0]["kernel"]["entry"] == "arm_prelu_s8"
