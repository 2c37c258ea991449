# SPDX-License-Identifier: Apache-2.0
"""One test per float32 variant: convert a single-operator float model built with tests.modelgen and
check the emitted call (or inline C), its parameters, the plan entry and the module's library
switches. Sizes are small enough to check the scratch formulas by hand."""

from __future__ import annotations

import re

import numpy as np
import pytest

import helia_aot
from helia_aot.emit.c_syntax import c_float
from helia_aot.errors import UnsupportedModelError
from helia_aot.library.kernel_library import library_switches
from tests.modelgen import ModelBuilder

from .helpers import function_body

FLT_MAX = c_float(float(np.finfo(np.float32).max))  # the literal of LiteRT's NONE range


def convert(builder: ModelBuilder, tmp_path, target="host", **kw):
    out = tmp_path / "out"
    result = helia_aot.convert(builder.build(), out, target=target, **kw)
    return (result, (out / "src" / "model_model.c").read_text(), (out / "include" / "model_common.h").read_text())


def only_op(result) -> dict:
    assert len(result.plan["operators"]) == 1
    return result.plan["operators"][0]


def assert_switch(common_h: str, needed: bool) -> None:
    guarded = "#if !defined(ARM_NN_ENABLE_F32) || !(ARM_NN_ENABLE_F32)" in common_h
    assert guarded == needed
    # The check comes before the library header, so it is the first error a wrong build sees.
    if needed:
        assert common_h.index("ARM_NN_ENABLE_F32") < common_h.index('#include "arm_nnfunctions.h"')


def weights(rng, shape):
    return rng.standard_normal(shape).astype(np.float32)


def conv_model(op="CONV_2D", in_shape=(1, 8, 8, 4), w_shape=(6, 3, 3, 4), out_shape=(1, 8, 8, 6),
               options=None, bias=True):
    rng = np.random.default_rng(0)
    b = ModelBuilder()
    x = b.input("x", in_shape, dtype="float32")
    w = b.const("w", weights(rng, w_shape), dtype="float32")
    channels = w_shape[3] if op == "DEPTHWISE_CONV_2D" else w_shape[0]
    inputs = [x, w, b.const("b", weights(rng, (channels,)), dtype="float32") if bias else None]
    y = b.tensor("y", out_shape, dtype="float32")
    b.op(op, inputs, [y], {"padding": "SAME", "stride_h": 1, "stride_w": 1, **(options or {})})
    b.output(y)
    return b


def test_conv_2d_float32(tmp_path):
    result, model_c, common_h = convert(conv_model(options={"stride_h": 2, "fused_activation_function": "RELU6"},
                                                   out_shape=(1, 4, 8, 6)), tmp_path)
    op = only_op(result)
    assert op["variant"] == "float32" and op["kernel"]["entry"] == "arm_convolve_wrapper_f32"
    body = function_body(model_c, 0)
    # SAME 3x3 on 8 rows with stride 2: one row of padding in total, 0 before; 1 before in W.
    assert "{ 1, 2 }, /* stride w, h */\n        { 1, 0 }, /* padding w, h */" in body
    assert "{ 0.0f, 6.0f },\n        ARM_NN_WEIGHT_FORMAT_STANDARD" in body
    assert "arm_convolve_wrapper_f32(&buf_ctx, &conv_params," in body
    assert "const cmsis_nn_dims filter_dims = { 6, 3, 3, 4 };" in body
    # The patch GEMM's tile: 8 rows of 3 * 3 * 4 floats.
    assert op["kernel"]["local_scratch_bytes"] == 8 * 3 * 3 * 4 * 4
    assert result.report["operators"][0]["macs"] == 4 * 8 * 6 * 3 * 3 * 4
    assert_switch(common_h, True)
    assert "#include <math.h>" not in model_c


def test_conv_2d_float32_sizes_and_activations(tmp_path):
    # 1x1 stride 1 on the same size: no scratch; NONE clamps to the float range as LiteRT does.
    result, model_c, _ = convert(conv_model(w_shape=(6, 1, 1, 4)), tmp_path)
    assert only_op(result)["kernel"]["local_scratch_bytes"] == 0
    assert f"{{ -{FLT_MAX}, {FLT_MAX} }}" in function_body(model_c, 0)
    # 1x1 stride 2: a tile of 8 input rows of channels.
    result, model_c, _ = convert(conv_model(w_shape=(6, 1, 1, 4), out_shape=(1, 4, 4, 6),
                                            options={"stride_h": 2, "stride_w": 2, "padding": "VALID",
                                                     "fused_activation_function": "RELU_N1_TO_1"}), tmp_path / "b")
    assert only_op(result)["kernel"]["local_scratch_bytes"] == 8 * 4 * 4
    assert "{ -1.0f, 1.0f }" in function_body(model_c, 0)
    # 1 x 5 over one row, stride 2 in W: the 1 x N path packs one window.
    result, _, _ = convert(conv_model(in_shape=(1, 1, 20, 4), w_shape=(6, 1, 5, 4), out_shape=(1, 1, 8, 6),
                                      options={"padding": "VALID", "stride_w": 2}), tmp_path / "c")
    assert only_op(result)["kernel"]["local_scratch_bytes"] == 5 * 4 * 4
    # The portable kernels need no scratch.
    result, _, _ = convert(conv_model(), tmp_path / "d", kernel_library="portable")
    assert only_op(result)["kernel"]["local_scratch_bytes"] == 0


def test_conv_2d_float32_refuses_groups(tmp_path):
    with pytest.raises(UnsupportedModelError, match="float32 grouped convolution"):
        convert(conv_model(w_shape=(6, 3, 3, 2)), tmp_path)


@pytest.mark.parametrize("activation", ["TANH", "SIGN_BIT"])
def test_conv_2d_float32_fused_tanh_and_sign_bit_clamp_nothing(tmp_path, activation):
    """LiteRT's CalculateActivationRange<float> gives TANH and SIGN_BIT the whole float range: the module is
    NONE's, byte for byte (tests/e2e/test_differential.py runs such cases against LiteRT)."""
    _, none_c, _ = convert(conv_model(), tmp_path / "none")
    _, act_c, _ = convert(conv_model(options={"fused_activation_function": activation}), tmp_path / "act")
    # Only the header's model hash differs.
    def code(text):
        return [line for line in text.split("\n") if "from model sha256" not in line]
    assert code(act_c) == code(none_c)


def test_depthwise_conv_2d_float32(tmp_path):
    model = conv_model("DEPTHWISE_CONV_2D", w_shape=(1, 3, 3, 4), out_shape=(1, 8, 8, 4),
                       options={"depth_multiplier": 1, "dilation_w_factor": 1})
    result, model_c, common_h = convert(model, tmp_path)
    op = only_op(result)
    assert op["kernel"]["entry"] == "arm_depthwise_conv_wrapper_f32"
    body = function_body(model_c, 0)
    assert "const cmsis_nn_dw_conv_params_f32 dw_conv_params = {\n        1," in body
    assert "arm_depthwise_conv_wrapper_f32(&buf_ctx, &dw_conv_params," in body
    # Multiplier 1, no dilation: a tile of 4 packed windows of 3 * 3 * 4 floats.
    assert op["kernel"]["local_scratch_bytes"] == 4 * 3 * 3 * 4 * 4
    assert_switch(common_h, True)
    mult2 = conv_model("DEPTHWISE_CONV_2D", w_shape=(1, 3, 3, 8), out_shape=(1, 8, 8, 8),
                       options={"depth_multiplier": 2})
    result, model_c, _ = convert(mult2, tmp_path / "m2")
    assert only_op(result)["kernel"]["local_scratch_bytes"] == 0
    assert "dw_conv_params = {\n        2," in function_body(model_c, 0)


def test_depthwise_conv_2d_float32_one_input_channel_on_mve(tmp_path):
    # On MVE a one-input-channel depthwise runs as a convolution: its re-laid filter (output channels
    # rounded up to 4) plus the convolution's patch tile.
    model = conv_model("DEPTHWISE_CONV_2D", in_shape=(1, 8, 8, 1), w_shape=(1, 3, 3, 6), out_shape=(1, 8, 8, 6),
                       options={"depth_multiplier": 6})
    result, _, _ = convert(model, tmp_path, target="corstone300")
    assert only_op(result)["kernel"]["local_scratch_bytes"] == 8 * 3 * 3 * 4 + 8 * 3 * 3 * 1 * 4
    result, _, _ = convert(model, tmp_path / "host")
    assert only_op(result)["kernel"]["local_scratch_bytes"] == 0


def test_fully_connected_float32(tmp_path):
    rng = np.random.default_rng(1)
    b = ModelBuilder()
    x = b.input("x", (2, 3, 4), dtype="float32")
    w = b.const("w", weights(rng, (5, 12)), dtype="float32")
    y = b.tensor("y", (2, 5), dtype="float32")
    b.op("FULLY_CONNECTED", [x, w, None], [y], {"fused_activation_function": "RELU"})
    b.output(y)
    result, model_c, common_h = convert(b, tmp_path)
    op = only_op(result)
    assert op["kernel"]["entry"] == "arm_fully_connected_f32" and op["kernel"]["local_scratch_bytes"] == 0
    body = function_body(model_c, 0)
    assert f"fc_params = {{ {{ 0.0f, {FLT_MAX} }}, ARM_NN_WEIGHT_FORMAT_STANDARD }};" in body
    assert "input_dims = { 2, 1, 1, 12 };" in body and "filter_dims = { 12, 1, 1, 5 };" in body
    assert "output_dims = { 2, 1, 1, 5 };" in body
    assert "&bias_dims, NULL,\n" in body and "ARM_NN_LAYOUT_NHWC);" in body
    assert result.report["total_macs"] == 2 * 12 * 5
    assert_switch(common_h, True)


def test_transpose_conv_float32(tmp_path):
    rng = np.random.default_rng(2)
    b = ModelBuilder()
    shape = b.const("shape", np.array([1, 9, 10, 3], np.int32), dtype="int32")
    w = b.const("w", weights(rng, (3, 3, 2, 4)), dtype="float32")
    x = b.input("x", (1, 5, 5, 4), dtype="float32")
    bias = b.const("b", weights(rng, (3,)), dtype="float32")
    y = b.tensor("y", (1, 9, 10, 3), dtype="float32")
    b.op("TRANSPOSE_CONV", [shape, w, x, bias], [y], {"padding": "SAME", "stride_h": 2, "stride_w": 2})
    b.output(y)
    result, model_c, _ = convert(b, tmp_path)
    op = only_op(result)
    assert op["kernel"]["entry"] == "arm_transpose_conv_wrapper_f32" and op["kernel"]["local_scratch_bytes"] == 0
    body = function_body(model_c, 0)
    # Forward SAME on the 9-row output: (5 - 1) * 2 + 3 - 9 = 2 rows of padding, 1 before, no offset;
    # on the 10 columns: (5 - 1) * 2 + 2 - 10 = 0.
    assert "{ 2, 2 }, /* stride w, h */\n        { 0, 1 }, /* padding w, h */" in body
    assert "{ 0, 0 }, /* padding offsets w, h */" in body
    assert "filter_dims = { 3, 3, 2, 4 };" in body
    assert "arm_transpose_conv_wrapper_f32(&buf_ctx, &output_ctx, &conv_params," in body


@pytest.mark.parametrize("op_type, entry", [("AVERAGE_POOL_2D", "arm_avg_pool_f32"),
                                            ("MAX_POOL_2D", "arm_max_pool_f32")])
def test_pools_float32(tmp_path, op_type, entry):
    b = ModelBuilder()
    x = b.input("x", (1, 5, 6, 3), dtype="float32")
    y = b.tensor("y", (1, 3, 3, 3), dtype="float32")
    b.op(op_type, [x], [y], {"padding": "SAME", "stride_h": 2, "stride_w": 2, "filter_height": 3,
                             "filter_width": 2, "fused_activation_function": "RELU6"})
    b.output(y)
    result, model_c, _ = convert(b, tmp_path, target="apollo4p_evb")
    op = only_op(result)
    assert op["kernel"]["entry"] == entry and op["kernel"]["local_scratch_bytes"] == 0
    body = function_body(model_c, 0)
    assert f"{entry}(&buf_ctx, &pool_params" in body
    assert "filter_dims = { 1, 3, 2, 1 };" in body and "{ 0.0f, 6.0f }" in body


def unary(op_type, shape=(1, 4, 6), options=None):
    b = ModelBuilder()
    x = b.input("x", shape, dtype="float32")
    y = b.tensor("y", shape, dtype="float32")
    b.op(op_type, [x], [y], options)
    b.output(y)
    return b


@pytest.mark.parametrize("op_type, kind, param, options", [
    ("LOGISTIC", "SIGMOID", "0.0f", None), ("RELU", "RELU", "0.0f", None), ("RELU6", "RELU6", "0.0f", None),
    ("HARD_SWISH", "HARDSWISH", "0.0f", None), ("LEAKY_RELU", "LEAKY_RELU", c_float(0.3), {"alpha": 0.3}),
])
def test_activations_float32(tmp_path, op_type, kind, param, options):
    result, model_c, common_h = convert(unary(op_type, options=options), tmp_path)
    assert only_op(result)["kernel"]["entry"] == "arm_nn_activation_f32"
    assert re.search(rf"arm_nn_activation_f32\([^,]+, [^,]+, 24, ARM_NN_FLT_ACT_{kind}, {re.escape(param)}\);",
                     function_body(model_c, 0))
    assert_switch(common_h, True)


def test_tanh_float32_is_inline_libm(tmp_path):
    result, model_c, common_h = convert(unary("TANH"), tmp_path)
    op = only_op(result)
    assert op["kernel"]["entry"] is None and op["fixed"] == {"function": "tanhf", "implementation": "inline"}
    assert "out[i] = tanhf(in[i]);" in function_body(model_c, 0)
    assert "#include <math.h>" in model_c
    assert_switch(common_h, False)  # no library float entry, no switch
    assert result.kernel_symbols == []


def softmax(beta):
    b = ModelBuilder()
    x = b.input("x", (3, 10), dtype="float32")
    y = b.tensor("y", (3, 10), dtype="float32")
    b.op("SOFTMAX", [x], [y], {"beta": beta})
    b.output(y)
    return b


def test_softmax_float32(tmp_path):
    result, model_c, common_h = convert(softmax(1.0), tmp_path)
    assert only_op(result)["kernel"]["entry"] == "arm_softmax_f32"
    assert re.search(r"return arm_softmax_f32\(\(float \*\)\(arena \+ \d+\), 3, 10, \(float \*\)\(arena \+ \d+\)\);",
                     function_body(model_c, 0))
    assert_switch(common_h, True)
    # arm_softmax_f32 has no beta: any other beta is LiteRT's arithmetic inline.
    result, model_c, common_h = convert(softmax(0.5), tmp_path / "b")
    assert only_op(result)["kernel"]["entry"] is None
    body = function_body(model_c, 0)
    assert "const float e = expf((in[i] - max) * 0.5f);" in body and "out[i] = out[i] / sum;" in body
    assert "#include <math.h>" in model_c
    assert_switch(common_h, False)


def binary(op_type, shape_b, act="NONE"):
    b = ModelBuilder()
    a = b.input("a", (1, 3, 4, 2), dtype="float32")
    c = b.input("c", shape_b, dtype="float32")
    y = b.tensor("y", (1, 3, 4, 2), dtype="float32")
    b.op(op_type, [a, c], [y], {"fused_activation_function": act})
    b.output(y)
    return b


@pytest.mark.parametrize("op_type, symbol", [("ADD", "+"), ("SUB", "-"), ("MUL", "*")])
def test_binary_float32(tmp_path, op_type, symbol):
    entry = f"arm_elementwise_{op_type.lower()}_f32"
    if op_type == "SUB":
        # ns-cmsis-nn 7.29.2 has no arm_elementwise_sub_f32: the same clamp(a - b) per element, inline.
        result, model_c, common_h = convert(binary(op_type, (1, 3, 4, 2), "RELU"), tmp_path / "ns")
        op = only_op(result)
        assert op["kernel"]["entry"] is None and op["fixed"]["why"].endswith(f"has no {entry}")
        body = function_body(model_c, 0)
        # Equal shapes merge into one run of 24 elements.
        assert "in1[n * 0 + h * 0 + w * 0 + c * 1]" in body and "- in2[n * 0 + h * 0 + w * 0 + c * 1]" in body
        assert_switch(common_h, False)
    kernels = {"kernel_library": "portable"} if op_type == "SUB" else {}
    result, model_c, common_h = convert(binary(op_type, (1, 3, 4, 2), "RELU"), tmp_path, **kernels)
    assert only_op(result)["kernel"]["entry"] == entry
    assert re.search(rf"{entry}\([^,]+, [^,]+, [^,]+, 0.0f,\n\s+{re.escape(FLT_MAX)}, 24\);", function_body(model_c, 0))
    assert_switch(common_h, True)
    # Broadcasting: inline, each input read at its strides (0 along broadcast axes).
    result, model_c, common_h = convert(binary(op_type, (3, 1, 2)), tmp_path / "b")
    op = only_op(result)
    assert op["kernel"]["entry"] is None and op["fixed"]["why"] == "broadcast"
    body = function_body(model_c, 0)
    assert "in1[n * 0 + h * 8 + w * 2 + c * 1]" in body and f"{symbol} in2[n * 0 + h * 2 + w * 0 + c * 1]" in body
    assert_switch(common_h, False)


def test_pad_and_padv2_float32(tmp_path):
    def model(op_type, value=None):
        b = ModelBuilder()
        x = b.input("x", (2, 3, 4), dtype="float32")
        pads = b.const("pads", np.array([[0, 1], [2, 0], [1, 1]], np.int32), dtype="int32")
        inputs = [x, pads] + ([b.const("v", np.array(value, np.float32), dtype="float32")] if value is not None
                              else [])
        y = b.tensor("y", (3, 5, 6), dtype="float32")
        b.op(op_type, inputs, [y])
        b.output(y)
        return b
    result, model_c, _ = convert(model("PAD"), tmp_path)
    assert only_op(result)["kernel"]["entry"] == "arm_pad_f32"
    body = function_body(model_c, 0)
    assert "(float)(0.0f)" in body and "pre_pad = { 0, 0, 2, 1 };" in body and "post_pad = { 0, 1, 0, 1 };" in body
    _, model_c, _ = convert(model("PADV2", -2.5), tmp_path / "v2")
    assert "(float)(-2.5f)" in function_body(model_c, 0)


def test_strided_slice_and_transpose_float32(tmp_path):
    b = ModelBuilder()
    x = b.input("x", (1, 6, 6, 4), dtype="float32")
    begin = b.const("begin", np.array([0, 1, 0, 0], np.int32), dtype="int32")
    end = b.const("end", np.array([1, 5, 6, 4], np.int32), dtype="int32")
    strides = b.const("strides", np.array([1, 2, 3, 1], np.int32), dtype="int32")
    y = b.tensor("y", (1, 2, 2, 4), dtype="float32")
    b.op("STRIDED_SLICE", [x, begin, end, strides], [y])
    b.output(y)
    result, model_c, _ = convert(b, tmp_path / "p", kernel_library="portable")
    assert only_op(result)["kernel"]["entry"] == "arm_strided_slice_f32"
    assert "begin_dims = { 0, 1, 0, 0 };" in function_body(model_c, 0)
    # ns-cmsis-nn 7.29.2 has no arm_strided_slice_f32: the same 4-byte copies on arm_strided_slice_s32.
    result, model_c, _ = convert(b, tmp_path)
    assert only_op(result)["kernel"]["entry"] == "arm_strided_slice_s32"
    assert "arm_strided_slice_s32((const int32_t *)" in function_body(model_c, 0)

    b = ModelBuilder()
    x = b.input("x", (2, 3, 4), dtype="float32")
    perm = b.const("perm", np.array([2, 0, 1], np.int32), dtype="int32")
    y = b.tensor("y", (4, 2, 3), dtype="float32")
    b.op("TRANSPOSE", [x, perm], [y])
    b.output(y)
    result, model_c, _ = convert(b, tmp_path / "t")
    assert only_op(result)["kernel"]["entry"] == "arm_transpose_f32"
    body = function_body(model_c, 0)
    # Rank 3 padded to 4 in front; the permutation shifts by one.
    assert "transpose_params = { 4, { 0, 3, 1, 2 }, ARM_NN_LAYOUT_NHWC };" in body
    assert "input_dims = { 1, 2, 3, 4 };" in body and "output_dims = { 1, 4, 2, 3 };" in body


def test_concatenation_float32_is_inline(tmp_path):
    b = ModelBuilder()
    a = b.input("a", (2, 3, 2), dtype="float32")
    c = b.const("c", np.ones((2, 1, 2), np.float32), dtype="float32")
    y = b.tensor("y", (2, 4, 2), dtype="float32")
    b.op("CONCATENATION", [a, c], [y], {"axis": -2})
    b.output(y)
    result, model_c, common_h = convert(b, tmp_path)
    assert only_op(result)["kernel"]["entry"] is None
    body = function_body(model_c, 0)
    # 2 outer rows of 8 floats: 6 from the input at offset 0, 2 from the constant at offset 6.
    assert re.search(r"memcpy\(out \+ r \* 8 \+ 0, \(float \*\)\(arena \+ \d+\) \+ r \* 6,\n\s+24u\);", body)
    assert re.search(r"memcpy\(out \+ r \* 8 \+ 6, model_t\d+ \+ r \* 2,\n\s+8u\);", body)
    assert_switch(common_h, False)
    with pytest.raises(UnsupportedModelError, match="fused activation on CONCATENATION"):
        b2 = ModelBuilder()
        a = b2.input("a", (1, 2), dtype="float32")
        y = b2.tensor("y", (1, 4), dtype="float32")
        b2.op("CONCATENATION", [a, a], [y], {"axis": 1, "fused_activation_function": "RELU"})
        b2.output(y)
        convert(b2, tmp_path / "r")


def test_mean_float32_is_inline(tmp_path):
    b = ModelBuilder()
    x = b.input("x", (3, 4, 5), dtype="float32")
    axis = b.const("axis", np.array([0, -1], np.int32), dtype="int32")
    y = b.tensor("y", (4,), dtype="float32")
    b.op("MEAN", [x, axis], [y], {"keep_dims": False})
    b.output(y)
    result, model_c, _ = convert(b, tmp_path)
    assert only_op(result)["kernel"]["entry"] is None
    body = function_body(model_c, 0)
    # Input [1, 3, 4, 5]: the output [4] is read along H only; 3 * 5 elements per mean.
    assert "out[n * 0 + h * 0 + w * 1 + c * 0] += *in++;" in body
    assert "out[i] = out[i] / 15.0f;" in body


def test_reshape_float32_is_an_alias(tmp_path):
    b = ModelBuilder()
    x = b.input("x", (1, 2, 3), dtype="float32")
    shape = b.const("shape", np.array([1, 6], np.int32), dtype="int32")
    r = b.tensor("r", (1, 6), dtype="float32")
    y = b.tensor("y", (1, 6), dtype="float32")
    b.op("RESHAPE", [x, shape], [r], {"new_shape": [1, 6]})
    b.op("RELU", [r], [y])
    b.output(y)
    result, _, _ = convert(b, tmp_path)
    assert [o["variant"] for o in result.plan["operators"]] == ["any", "float32"]
    assert result.plan["operators"][0]["alias_of"] == "x"


def test_library_switches_follow_the_float_api():
    assert library_switches(["arm_convolve_s8", "arm_dequantize_s16_f32", "arm_quantize_f32_s16"]) == []
    assert library_switches(["arm_convolve_wrapper_f32", "arm_softmax_s8"]) == ["ARM_NN_ENABLE_F32"]
    assert library_switches(["arm_softmax_f16", "arm_nn_activation_f32"]) == ["ARM_NN_ENABLE_F16",
                                                                               "ARM_NN_ENABLE_F32"]


def test_integer_module_declares_no_switch(tmp_path):
    b = ModelBuilder()
    x = b.input("x", (1, 4), scale=0.5, zero_point=0)
    y = b.tensor("y", (1, 4), scale=0.5, zero_point=0)
    b.op("RELU", [x], [y])
    b.output(y)
    _, model_c, common_h = convert(b, tmp_path)
    assert "ARM_NN_ENABLE" not in common_h and "#include <math.h>" not in model_c


def test_golden_data_counts_float_differences_in_steps_of_the_range(tmp_path):
    out = tmp_path / "out"
    helia_aot.convert(softmax(1.0).build(), out, with_test_data=True, num_test_samples=3)
    golden = np.load(out / "test" / "golden.npz")
    step = float(np.ptp(golden["output_0"].astype(np.float64))) * 1e-5
    main_c = (out / "test" / "model_test_main.c").read_text()
    assert f"code_diff_float(got[e], expected[e], {c_float(step)});" in main_c


def test_float_tensors_with_leftover_quantization_metadata(tmp_path):
    """Some exporters leave scales on float tensors; float variants compute in float regardless."""
    b = ModelBuilder()
    x = b.input("x", (1, 4, 4, 2), dtype="float32", scale=0.1, zero_point=3)
    p = b.tensor("p", (1, 2, 2, 2), dtype="float32", scale=0.7, zero_point=-1)
    b.op("MAX_POOL_2D", [x], [p], {"padding": "VALID", "stride_h": 2, "stride_w": 2, "filter_height": 2,
                                   "filter_width": 2, "fused_activation_function": "RELU"})
    r = b.tensor("r", (1, 8), dtype="float32", scale=0.2, zero_point=0)
    b.op("RESHAPE", [p, b.const("s", np.array([1, 8], np.int32), dtype="int32")], [r], {"new_shape": [1, 8]})
    y = b.tensor("y", (1, 16), dtype="float32", scale=0.3, zero_point=0)
    b.op("CONCATENATION", [r, r], [y], {"axis": 1})
    b.output(y)
    result, model_c, _ = convert(b, tmp_path)
    assert [o["variant"] for o in result.plan["operators"]] == ["float32", "any", "float32"]
    assert f"{{ 0.0f, {FLT_MAX} }}" in function_body(model_c, 0)
