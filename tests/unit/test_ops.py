# SPDX-License-Identifier: Apache-2.0
"""One test per operator: convert a single-operator model built with tests.modelgen and check the
emitted ns-cmsis-nn call, its parameters and the plan entry. Scales are powers of two so every
multiplier can be checked by hand: real 1.0 -> (1 << 30, shift 1); 0.5 -> (1 << 30, shift 0)."""

from __future__ import annotations

import re

import numpy as np
import pytest

import helia_aot
from helia_aot.errors import UnsupportedModelError
from tests.modelgen import ModelBuilder

from .helpers import function_body

Q30 = 1 << 30


def convert(builder: ModelBuilder, tmp_path, target="host", **kw):
    out = tmp_path / "out"
    result = helia_aot.convert(builder.build(), out, target=target, **kw)
    model_c = (out / "src" / "model_model.c").read_text()
    constants_c = (out / "src" / "model_constants.c").read_text()
    return result, model_c, constants_c


def const_values(constants_c: str, symbol: str) -> list[int]:
    match = re.search(rf"{symbol}\[\d+\] = \{{\n(.*?)\n\}};", constants_c, re.S)
    assert match, symbol
    return [int(v) for v in re.findall(r"-?\d+", match.group(1))]


def arena(result, tensor: str) -> str:
    """The C expression of a tensor's buffer as the plan places it (`(arena + offset)`)."""
    (buffer,) = [b for b in result.plan["memory"]["buffers"] if tensor in b["tensors"]]
    return f"(arena + {buffer['offset']})"


def assert_disjoint(result, *tensors: str) -> None:
    """Buffers live at once must not overlap."""
    spans = sorted((b["offset"], b["offset"] + b["bytes"]) for b in result.plan["memory"]["buffers"]
                   if set(b["tensors"]) & set(tensors))
    assert len(spans) == len(tensors)
    assert all(end <= start for (_, end), (start, _) in zip(spans, spans[1:])), spans


def only_op(result) -> dict:
    assert len(result.plan["operators"]) == 1
    return result.plan["operators"][0]


def conv_model(kernel=(3, 3), stride=1, padding="SAME", in_c=4, out_c=2, hw=(8, 8), act="NONE"):
    b = ModelBuilder()
    x = b.input("x", (1, *hw, in_c), scale=0.5, zero_point=-3)
    w = b.const("w", np.ones((out_c, *kernel, in_c), np.int8), dtype="int8", scale=[0.25] * out_c, zero_point=0,
                quantized_dimension=0)
    bias = b.const("b", np.arange(out_c, dtype=np.int32), dtype="int32", scale=[0.125] * out_c, zero_point=0)
    oh = (hw[0] + stride - 1) // stride if padding == "SAME" else (hw[0] - kernel[0]) // stride + 1
    ow = (hw[1] + stride - 1) // stride if padding == "SAME" else (hw[1] - kernel[1]) // stride + 1
    y = b.tensor("y", (1, oh, ow, out_c), scale=0.125, zero_point=5)
    b.op("CONV_2D", [x, w, bias], [y], {"padding": padding, "stride_h": stride, "stride_w": stride,
                                         "fused_activation_function": act})
    b.output(y)
    return b


def test_conv_2d(tmp_path):
    result, model_c, consts = convert(conv_model(stride=2, act="RELU6"), tmp_path)
    op = only_op(result)
    assert op["kernel"]["entry"] == "arm_convolve_s8"
    body = function_body(model_c, 0)
    assert "arm_convolve_s8(&buf_ctx, &weight_sum_ctx, &conv_params" in body
    # input offset = -zp, output offset = zp; SAME 3x3 stride 2 on 8x8 pads 0 before, 1 after.
    assert "3, 5,\n        { 2, 2 }, /* stride w, h */\n        { 0, 0 }, /* padding w, h */" in body
    # RELU6 at scale 0.125, zero point 5: [5, 5 + 48].
    assert "{ 5, 53 }" in body
    assert "const cmsis_nn_dims filter_dims = { 2, 3, 3, 4 };" in body
    # 0.5 * 0.25 / 0.125 = 1.0 per channel.
    assert const_values(consts, "model_op0_multiplier") == [Q30, Q30]
    assert const_values(consts, "model_op0_shift") == [1, 1]
    # Plain-C scratch: 2 * 36 columns * sizeof(int16).
    assert op["kernel"]["local_scratch_bytes"] == 144
    assert result.report["operators"][0]["macs"] == 4 * 4 * 2 * 3 * 3 * 4


def test_conv_2d_helium_convolution_on_mve(tmp_path):
    """A 3x3 convolution on the Cortex-M55 with ns-cmsis-nn: our Helium convolution is a candidate with
    two gathered columns of scratch (or what the plain-C arm_convolve_s8 it runs on a host needs, if
    larger), and the cost model takes it; beside the portable kernels (no scratch) it is not offered."""
    result, model_c, _ = convert(conv_model(), tmp_path, target="corstone300")
    op = only_op(result)
    kernel = op["kernel"]
    assert kernel["candidates"] == ["arm_convolve_s8", "helia_mve_convolve_s8", "arm_convolve_wrapper_s8"]
    assert kernel["entry"] == "helia_mve_convolve_s8"
    options = {o["entry"]: o for o in kernel["choice"]["options"]}
    depth = 3 * 3 * 4
    # max(2 columns of 36 bytes, plain C's 2 columns of 36 int16) = 144 bytes.
    assert options["helia_mve_convolve_s8"]["scratch_bytes"] == max(2 * depth, 2 * depth * 2) == 144
    assert kernel["local_scratch_bytes"] == 144
    assert options["helia_mve_convolve_s8"]["estimated_instructions"] < \
        options["arm_convolve_s8"]["estimated_instructions"]
    body = function_body(model_c, 0)
    assert "helia_mve_convolve_s8(&buf_ctx, &weight_sum_ctx, &conv_params" in body
    assert "NULL,\n        &output_dims" not in body  # no upscale_dims argument
    portable, _, _ = convert(conv_model(), tmp_path / "p", target="corstone300", kernel_library="portable")
    assert "helia_mve_convolve_s8" not in only_op(portable)["kernel"]["candidates"]


def test_conv_2d_mve_weight_sums_and_1x1(tmp_path):
    result, model_c, consts = convert(conv_model(kernel=(1, 1), padding="VALID"), tmp_path, target="corstone300")
    op = only_op(result)
    # On MVE the cost model takes our Helium 1x1 convolution (no scratch, fewer instructions), which
    # reads the same precomputed weight sums as arm_convolve_1x1_s8_fast.
    assert op["kernel"]["entry"] == "helia_mve_convolve_1x1_s8"
    assert op["kernel"]["candidates"][:2] == ["arm_convolve_1x1_s8_fast", "helia_mve_convolve_1x1_s8"]
    options = {o["entry"]: o for o in op["kernel"]["choice"]["options"]}
    assert options["helia_mve_convolve_1x1_s8"]["estimated_instructions"] < \
        options["arm_convolve_1x1_s8_fast"]["estimated_instructions"]
    assert op["kernel"]["weight_sums"] == "precomputed"
    # bias + input_offset * row sum: row sum 4 (ones), input offset 3.
    assert const_values(consts, "model_op0_weight_sum") == [0 + 3 * 4, 1 + 3 * 4]
    body = function_body(model_c, 0)
    assert "helia_mve_convolve_1x1_s8(&buf_ctx, &weight_sum_ctx, &conv_params" in body
    assert "HELIA_UNCONST(void *, model_op0_weight_sum)" in body
    # "specialized" keeps the library's own 1x1 entry.
    result, model_c, _ = convert(conv_model(kernel=(1, 1), padding="VALID"), tmp_path / "s", target="corstone300",
                                 config={"optimization": {"kernel": "specialized"}})
    assert only_op(result)["kernel"]["entry"] == "arm_convolve_1x1_s8_fast"
    assert "arm_convolve_1x1_s8_fast(&buf_ctx, &weight_sum_ctx, &conv_params" in function_body(model_c, 0)
    # Beside the portable kernels (no weight sums) the Helium kernel gets no buffer and sums the rows itself.
    result, model_c, _ = convert(conv_model(kernel=(1, 1), padding="VALID"), tmp_path / "p", target="corstone300",
                                 kernel_library="portable")
    assert only_op(result)["kernel"]["entry"] == "helia_mve_convolve_1x1_s8"
    assert "const cmsis_nn_context weight_sum_ctx = { NULL, 0 };" in function_body(model_c, 0)
    # A grouped 1x1 convolution (4 input channels, filters of 2: two groups) is not a candidate for it.
    b = ModelBuilder()
    x = b.input("x", (1, 4, 4, 4), scale=0.5, zero_point=-3)
    w = b.const("w", np.ones((2, 1, 1, 2), np.int8), dtype="int8", scale=[0.25] * 2, zero_point=0, quantized_dimension=0)
    bias = b.const("b", np.zeros(2, np.int32), dtype="int32", scale=[0.125] * 2, zero_point=0)
    y = b.tensor("y", (1, 4, 4, 2), scale=0.125, zero_point=5)
    b.op("CONV_2D", [x, w, bias], [y], {"padding": "VALID", "stride_h": 1, "stride_w": 1})
    b.output(y)
    result, _, _ = convert(b, tmp_path / "grouped", target="corstone300")
    assert "helia_mve_convolve_1x1_s8" not in only_op(result)["kernel"]["candidates"]


def test_depthwise_conv_2d(tmp_path):
    b = ModelBuilder()
    x = b.input("x", (1, 6, 6, 8), scale=0.5, zero_point=1)
    w = b.const("w", np.full((1, 3, 3, 8), 2, np.int8), dtype="int8", scale=[0.25] * 8, zero_point=0,
                quantized_dimension=3)
    bias = b.const("b", np.zeros(8, np.int32), dtype="int32", scale=[0.125] * 8, zero_point=0)
    y = b.tensor("y", (1, 6, 6, 8), scale=0.25, zero_point=0)
    b.op("DEPTHWISE_CONV_2D", [x, w, bias], [y], {"padding": "SAME", "stride_h": 1, "stride_w": 1,
                                                   "depth_multiplier": 1})
    b.output(y)
    result, model_c, consts = convert(b, tmp_path, target="corstone300")
    op = only_op(result)
    # On MVE the cost model takes our Helium 3x3 kernel (no scratch, the fewest instructions).
    assert op["kernel"]["entry"] == "helia_mve_depthwise_conv_3x3_s8"
    assert "helia_mve_depthwise_conv_3x3_s8(&buf_ctx, &dw_conv_params" in function_body(model_c, 0)
    # The wrapper would take arm_depthwise_conv_s8_opt on MVE; "specialized" picks the 3x3 entry.
    result, model_c, consts = convert(b, tmp_path / "s", target="corstone300",
                                      config={"optimization": {"kernel": "specialized"}})
    op = only_op(result)
    assert op["kernel"]["entry"] == "arm_depthwise_conv_3x3_s8"
    assert op["kernel"]["candidates"][:2] == ["arm_depthwise_conv_3x3_s8", "arm_depthwise_conv_s8_opt"]
    assert op["knobs"]["kernel"]["value"] == "specialized"
    assert "arm_depthwise_conv_3x3_s8(&buf_ctx, &dw_conv_params" in function_body(model_c, 0)
    assert const_values(consts, "model_op0_multiplier") == [Q30] * 8  # 0.5*0.25/0.25 = 0.5
    assert const_values(consts, "model_op0_shift") == [0] * 8
    generic, _, gconsts = convert(b, tmp_path / "g", target="corstone300", config={"optimization": {"kernel": "generic"}})
    gop = only_op(generic)
    assert gop["kernel"]["entry"] == "arm_depthwise_conv_wrapper_s8"
    assert gop["kernel"]["local_scratch_bytes"] == 4 * 124 * 3 * 3  # MVE opt buffer
    # MVE weight sums: bias 0 + input_offset (-1) * 9 taps * 2.
    assert const_values(gconsts, "model_op0_weight_sum") == [-18] * 8


def test_fully_connected(tmp_path):
    b = ModelBuilder()
    x = b.input("x", (1, 16), scale=0.5, zero_point=2)
    w = b.const("w", np.ones((4, 16), np.int8), dtype="int8", scale=0.25, zero_point=0)
    bias = b.const("b", np.array([1, 2, 3, 4], np.int32), dtype="int32", scale=0.125, zero_point=0)
    y = b.tensor("y", (1, 4), scale=0.25, zero_point=-1)
    b.op("FULLY_CONNECTED", [x, w, bias], [y], {"fused_activation_function": "RELU"})
    b.output(y)
    result, model_c, consts = convert(b, tmp_path, target="corstone300")
    op = only_op(result)
    # On the Cortex-M55 the cost tables pick our Helium kernel (same arguments and kernel sums) over
    # ns-cmsis-nn's; the specialized knob keeps the library's entry.
    assert op["kernel"]["entry"] == "helia_mve_fully_connected_s8"
    assert op["kernel"]["candidates"][0] == "arm_fully_connected_s8"
    specialized, _, _ = convert(b, tmp_path / "s", target="corstone300", config={"optimization": {"kernel": "specialized"}})
    assert only_op(specialized)["kernel"]["entry"] == "arm_fully_connected_s8"
    body = function_body(model_c, 0)
    assert "helia_mve_fully_connected_s8(&buf_ctx, &fc_params" in body
    assert "const cmsis_nn_fc_params fc_params = {\n        -2, 0, -1, { -1, 127 }\n    };" in body
    assert f"quant_params = {{ {Q30}, 0 }};" in body
    assert "const cmsis_nn_dims filter_dims = { 16, 1, 1, 4 };" in body
    # MVE kernel sums: bias + input_offset(-2) * 16.
    assert const_values(consts, "model_op0_kernel_sum") == [1 - 32, 2 - 32, 3 - 32, 4 - 32]
    assert op["kernel"]["local_scratch_bytes"] == 0
    assert result.report["total_macs"] == 64


def pool_model(op_type):
    b = ModelBuilder()
    x = b.input("x", (1, 4, 4, 3), scale=0.5, zero_point=0)
    y = b.tensor("y", (1, 2, 2, 3), scale=0.5, zero_point=0)
    b.op(op_type, [x], [y], {"padding": "VALID", "stride_h": 2, "stride_w": 2, "filter_height": 2,
                             "filter_width": 2})
    b.output(y)
    return b


def test_average_pool_2d(tmp_path):
    result, model_c, _ = convert(pool_model("AVERAGE_POOL_2D"), tmp_path, target="apollo4p_evb")
    op = only_op(result)
    assert op["kernel"]["entry"] == "arm_avgpool_s8"
    assert op["kernel"]["local_scratch_bytes"] == 3 * 4  # DSP build: one int32 per channel
    assert "const cmsis_nn_dims filter_dims = { 1, 2, 2, 1 };" in function_body(model_c, 0)


def test_max_pool_2d(tmp_path):
    result, model_c, _ = convert(pool_model("MAX_POOL_2D"), tmp_path)
    assert only_op(result)["kernel"]["entry"] == "arm_max_pool_s8"
    assert "arm_max_pool_s8(&buf_ctx, &pool_params" in function_body(model_c, 0)


def alias_model(op_type, out_shape, options=None, extra=None):
    b = ModelBuilder()
    x = b.input("x", (1, 2, 3, 4), scale=0.5, zero_point=0)
    inputs = [x]
    if extra is not None:
        inputs.append(b.const("shape", np.asarray(extra, np.int32), dtype="int32"))
    y = b.tensor("y", out_shape, scale=0.5, zero_point=0)
    b.op(op_type, inputs, [y], options)
    # A consumer after the alias shows the alias sharing bytes with the input.
    z = b.tensor("z", out_shape, scale=0.5, zero_point=0)
    b.op("RELU", [y], [z])
    b.output(z)
    return b


@pytest.mark.parametrize("op_type,shape,options,extra", [
    ("RESHAPE", (1, 24), {"new_shape": [1, 24]}, [1, 24]),
])
def test_reshape(tmp_path, op_type, shape, options, extra):
    check_alias(tmp_path, alias_model(op_type, shape, options, extra))


def test_squeeze(tmp_path):
    b = ModelBuilder()
    x = b.input("x", (1, 1, 1, 4), scale=0.5, zero_point=0)
    y = b.tensor("y", (1, 4), scale=0.5, zero_point=0)
    b.op("SQUEEZE", [x], [y], {"squeeze_dims": [1, 2]})
    z = b.tensor("z", (1, 4), scale=0.5, zero_point=0)
    b.op("RELU", [y], [z])
    b.output(z)
    check_alias(tmp_path, b)


def test_expand_dims(tmp_path):
    b = ModelBuilder()
    x = b.input("x", (1, 4), scale=0.5, zero_point=0)
    axis = b.const("axis", np.asarray([1], np.int32), dtype="int32")
    y = b.tensor("y", (1, 1, 4), scale=0.5, zero_point=0)
    b.op("EXPAND_DIMS", [x, axis], [y])
    z = b.tensor("z", (1, 1, 4), scale=0.5, zero_point=0)
    b.op("RELU", [y], [z])
    b.output(z)
    check_alias(tmp_path, b)


def check_alias(tmp_path, builder):
    result, model_c, _ = convert(builder, tmp_path)
    alias = result.plan["operators"][0]
    assert alias["kernel"]["entry"] is None and alias["alias_of"] == "x"
    assert "_op_0(" not in model_c  # no code for the alias
    buffers = result.plan["memory"]["buffers"]
    shared = [b for b in buffers if "x" in b["tensors"]]
    assert len(shared) == 1 and "y" in shared[0]["tensors"]


def test_softmax(tmp_path):
    b = ModelBuilder()
    x = b.input("x", (1, 10), scale=0.25, zero_point=0)
    y = b.tensor("y", (1, 10), scale=1.0 / 256, zero_point=-128)
    b.op("SOFTMAX", [x], [y], {"beta": 1.0})
    b.output(y)
    result, model_c, _ = convert(b, tmp_path)
    assert only_op(result)["kernel"]["entry"] == "arm_softmax_s8"
    # beta * scale * 2^(31-5) = 2^24 -> multiplier 2^30, left shift 25; diff_min = -floor(31 * 2^26 / 2^25).
    assert_disjoint(result, "x", "y")
    assert (f"arm_softmax_s8((int8_t *){arena(result, 'x')}, 1, 10, {Q30}, 25, -62,\n"
            f"        (int8_t *){arena(result, 'y')});") in function_body(model_c, 0)


def binary_model(op_type, shape_b=(1, 2, 2, 3)):
    b = ModelBuilder()
    a = b.input("a", (1, 2, 2, 3), scale=0.5, zero_point=1)
    c = b.input("c", shape_b, scale=0.25, zero_point=-2)
    y = b.tensor("y", (1, 2, 2, 3), scale=0.5, zero_point=3)
    b.op(op_type, [a, c], [y], {"fused_activation_function": "NONE"} if op_type != "SUB" else {})
    b.output(y)
    return b


def test_add(tmp_path):
    result, model_c, _ = convert(binary_model("ADD"), tmp_path)
    assert only_op(result)["kernel"]["entry"] == "arm_elementwise_add_s8"
    body = function_body(model_c, 0)
    # twice_max = 1.0: input multipliers 0.5 and 0.25; output 1 / (2^20 * 0.5) = 2^-19.
    assert f"-1, {Q30}, 0,\n        2, {Q30}, -1,\n        20," in body
    assert f"3, {Q30}, -18, -128, 127, 12);" in body


def test_sub(tmp_path):
    result, model_c, _ = convert(binary_model("SUB", (1, 1, 1, 3)), tmp_path)
    assert only_op(result)["kernel"]["entry"] == "arm_sub_s8"
    assert "const cmsis_nn_dims input2_dims = { 1, 1, 1, 3 };" in function_body(model_c, 0)


def test_mul(tmp_path):
    result, model_c, _ = convert(binary_model("MUL"), tmp_path)
    assert only_op(result)["kernel"]["entry"] == "arm_elementwise_mul_s8"
    # 0.5 * 0.25 / 0.5 = 0.25 -> (2^30, -1).
    assert "-1, 2,\n        (int8_t *)" in function_body(model_c, 0)
    assert f"3, {Q30}, -1, -128, 127,\n        12);" in function_body(model_c, 0)


def unary_model(op_type, in_scale=0.5, in_zp=0, out_scale=0.25, out_zp=0, in_dtype="int8", out_dtype="int8",
                options=None):
    b = ModelBuilder()
    x = b.input("x", (1, 8), dtype=in_dtype, scale=in_scale, zero_point=in_zp if in_scale else None)
    y = b.tensor("y", (1, 8), dtype=out_dtype, scale=out_scale, zero_point=out_zp if out_scale else None)
    b.op(op_type, [x], [y], options)
    b.output(y)
    return b


def test_quantize_requantize(tmp_path):
    result, model_c, _ = convert(unary_model("QUANTIZE", in_zp=3, out_zp=-4), tmp_path)
    assert only_op(result)["kernel"]["entry"] == "arm_requantize_s8_s8"
    assert_disjoint(result, "x", "y")
    assert (f"arm_requantize_s8_s8((int8_t *){arena(result, 'x')}, (int8_t *){arena(result, 'y')}, 8, {Q30}, 2,\n"
            "        3, -4);") in function_body(model_c, 0)


def test_quantize_float_to_int8(tmp_path):
    result, model_c, _ = convert(unary_model("QUANTIZE", in_scale=None, in_dtype="float32", out_zp=-4), tmp_path)
    assert only_op(result)["kernel"]["entry"] is None
    body = function_body(model_c, 0)
    assert "in[i] / 0.25f" in body and "+ (-4)" in body


def test_dequantize(tmp_path):
    result, model_c, _ = convert(unary_model("DEQUANTIZE", in_zp=7, out_scale=None, out_dtype="float32"), tmp_path)
    assert only_op(result)["kernel"]["entry"] is None
    assert "(float)(0.5 * (double)((int32_t)in[i] - (7)))" in function_body(model_c, 0)


def test_relu(tmp_path):
    result, model_c, _ = convert(unary_model("RELU", out_scale=0.5, out_zp=-3, in_zp=-3), tmp_path)
    assert only_op(result)["kernel"]["entry"] == "arm_clamp_s8"
    assert ", -3, 127, (int8_t *)" in function_body(model_c, 0)


def test_relu6(tmp_path):
    result, model_c, _ = convert(unary_model("RELU6", out_zp=-10), tmp_path)
    op = only_op(result)
    assert op["kernel"]["entry"] == "arm_requantize_s8_s8"
    body = function_body(model_c, 0)
    # Requantize by 0.5/0.25 = 2 (2^30, shift 2), then clamp to [zp, zp + 6/0.25].
    assert f"8, {Q30}, 2,\n        0, -10);" in body
    assert ", -10, 14, (int8_t *)" in body


def test_leaky_relu(tmp_path):
    result, model_c, _ = convert(unary_model("LEAKY_RELU", options={"alpha": 0.5}), tmp_path)
    assert only_op(result)["kernel"]["entry"] == "arm_leaky_relu_s8"
    # alpha: 0.5 * 0.5 / 0.25 = 1.0 -> (2^30, 1); identity: 2.0 -> (2^30, 2).
    assert f", 0, 0, {Q30}, 1,\n        {Q30}, 2, (int8_t *)" in function_body(model_c, 0)


def test_hard_swish(tmp_path):
    result, model_c, _ = convert(unary_model("HARD_SWISH"), tmp_path)
    assert only_op(result)["kernel"]["entry"] == "arm_hard_swish_compat_s8"
    # output multiplier (0.5/128)/0.25 = 2^-6 -> int16 16384, exponent -5; reluish 0.5/128/(3/32768).
    body = function_body(model_c, 0)
    assert ", 0, 0, 16384, -5,\n" in body


def test_logistic(tmp_path):
    result, model_c, consts = convert(unary_model("LOGISTIC", out_scale=1.0 / 256, out_zp=-128), tmp_path)
    assert only_op(result)["kernel"]["entry"] is None
    lut = const_values(consts, "model_op0_lut")
    assert len(lut) == 256 and lut[128] == 0  # sigmoid(0) = 0.5 -> 128 codes above -128
    assert lut[0] == -128 + round(256 / (1 + np.exp(64)))
    assert "model_op0_lut[(int32_t)in[i] + 128]" in function_body(model_c, 0)


def test_tanh(tmp_path):
    result, _, consts = convert(unary_model("TANH", out_scale=1.0 / 128), tmp_path)
    lut = const_values(consts, "model_op0_lut")
    assert lut[128] == 0 and lut[129] == round(np.tanh(0.5) * 128) and lut[0] == -128


def test_concatenation(tmp_path):
    b = ModelBuilder()
    a = b.input("a", (1, 2, 2, 3), scale=0.5, zero_point=0)
    c = b.input("c", (1, 2, 2, 5), scale=0.5, zero_point=0)
    y = b.tensor("y", (1, 2, 2, 8), scale=0.5, zero_point=0)
    b.op("CONCATENATION", [a, c], [y], {"axis": 3})
    b.output(y)
    result, model_c, _ = convert(b, tmp_path)
    assert only_op(result)["kernel"]["entry"] == "arm_concatenation_s8_x"
    body = function_body(model_c, 0)
    assert re.search(r"arm_concatenation_s8_x\([^,]+, 3, 4, 1, 1, [^,]+,\n\s+8, 0\);", body)
    assert re.search(r"arm_concatenation_s8_x\([^,]+, 5, 4, 1, 1, [^,]+,\n\s+8, 3\);", body)


def test_pad(tmp_path):
    b = ModelBuilder()
    x = b.input("x", (1, 2, 2, 3), scale=0.5, zero_point=-5)
    pads = b.const("pads", np.array([[0, 0], [1, 2], [0, 1], [0, 0]], np.int32), dtype="int32")
    y = b.tensor("y", (1, 5, 3, 3), scale=0.5, zero_point=-5)
    b.op("PAD", [x, pads], [y])
    b.output(y)
    result, model_c, _ = convert(b, tmp_path)
    assert only_op(result)["kernel"]["entry"] == "arm_pad_s8"
    body = function_body(model_c, 0)
    assert "pre_pad = { 0, 1, 0, 0 };" in body and "post_pad = { 0, 2, 1, 0 };" in body
    assert "(int8_t)(-5)" in body


def test_mean(tmp_path):
    b = ModelBuilder()
    x = b.input("x", (1, 4, 4, 2), scale=0.5, zero_point=1)
    axis = b.const("axis", np.array([1, 2], np.int32), dtype="int32")
    y = b.tensor("y", (1, 1, 1, 2), scale=0.5, zero_point=-1)
    b.op("MEAN", [x, axis], [y], {"keep_dims": True})
    b.output(y)
    result, model_c, _ = convert(b, tmp_path)
    assert only_op(result)["kernel"]["entry"] == "arm_mean_s8"
    body = function_body(model_c, 0)
    assert "axis_dims = { 0, 1, 1, 0 };" in body
    # 1/16 folded into the multiplier: 2^-4 -> (2^30, -3).
    assert f"-1, {Q30}, -3);" in body


def test_transpose(tmp_path):
    b = ModelBuilder()
    x = b.input("x", (1, 2, 3, 4), scale=0.5, zero_point=0)
    perm = b.const("perm", np.array([0, 3, 1, 2], np.int32), dtype="int32")
    y = b.tensor("y", (1, 4, 2, 3), scale=0.5, zero_point=0)
    b.op("TRANSPOSE", [x, perm], [y])
    b.output(y)
    result, model_c, consts = convert(b, tmp_path)
    assert only_op(result)["kernel"]["entry"] == "arm_transpose_s8"
    assert const_values(consts, "model_op0_perm") == [0, 3, 1, 2]
    assert "output_dims = { 1, 4, 2, 3 };" in function_body(model_c, 0)


def test_strided_slice(tmp_path):
    b = ModelBuilder()
    x = b.input("x", (1, 6, 6, 4), scale=0.5, zero_point=0)
    begin = b.const("begin", np.array([0, 1, 0, 0], np.int32), dtype="int32")
    end = b.const("end", np.array([1, 5, 6, 4], np.int32), dtype="int32")
    strides = b.const("strides", np.array([1, 2, 3, 1], np.int32), dtype="int32")
    y = b.tensor("y", (1, 2, 2, 4), scale=0.5, zero_point=0)
    b.op("STRIDED_SLICE", [x, begin, end, strides], [y])
    b.output(y)
    result, model_c, _ = convert(b, tmp_path)
    assert only_op(result)["kernel"]["entry"] == "arm_strided_slice_s8"
    body = function_body(model_c, 0)
    assert "begin_dims = { 0, 1, 0, 0 };" in body and "stride_dims = { 1, 2, 3, 1 };" in body
    assert "output_dims = { 1, 2, 2, 4 };" in body


# ---- int16 variants: zero points 0; scales powers of two unless a case needs otherwise ----

def binary16(op_type, shape_b=(1, 2, 2, 3), scales=(0.5, 0.25, 0.5), options=None):
    b = ModelBuilder()
    a = b.input("a", (1, 2, 2, 3), dtype="int16", scale=scales[0], zero_point=0)
    c = b.input("c", shape_b, dtype="int16", scale=scales[1], zero_point=0)
    y = b.tensor("y", (1, 2, 2, 3), dtype="int16", scale=scales[2], zero_point=0)
    b.op(op_type, [a, c], [y], options)
    b.output(y)
    return b


def test_add_int16_general_scales(tmp_path):
    result, model_c, _ = convert(binary16("ADD", options={"fused_activation_function": "RELU",
                                                          "pot_scale_int16": False}), tmp_path)
    op = only_op(result)
    assert op["variant"] == "int16" and op["kernel"]["entry"] == "arm_elementwise_add_s16"
    body = function_body(model_c, 0)
    # Left shift 15; twice_max = 1.0: input multipliers 0.5 and 0.25; output 1 / (2^15 * 0.5) = 2^-14.
    assert f"0, {Q30}, 0,\n        0, {Q30}, -1,\n        15," in body
    assert f"0, {Q30}, -13, 0, 32767, 12);" in body  # RELU on int16: [0, 32767]


def test_add_int16_power_of_two_path(tmp_path):
    # pot_scale_int16 (the schema default) with power-of-two scales: LiteRT shifts the finer input
    # right by log2(2^-12 / 2^-14) = 2 and adds; the s16 kernel does that with left shift 1, 0.5 on
    # the inputs (shift 0 and -2) and 1.0 (0.5, shift 1) on the sum.
    scales = (2.0 ** -12, 2.0 ** -14, 2.0 ** -12)
    result, model_c, _ = convert(binary16("ADD", scales=scales, options={"pot_scale_int16": True}), tmp_path)
    body = function_body(model_c, 0)
    assert only_op(result)["kernel"]["entry"] == "arm_elementwise_add_s16"
    assert f"0, {Q30}, 0,\n        0, {Q30}, -2,\n        1," in body
    assert f"0, {Q30}, 1, -32768, 32767, 12);" in body
    with pytest.raises(UnsupportedModelError, match=r"ADD.*tensor 'y': pot_scale_int16 .*one input must share the "
                                                    r"output scale"):
        convert(binary16("ADD", scales=(2.0 ** -13, 2.0 ** -14, 2.0 ** -12), options={"pot_scale_int16": True}),
                tmp_path / "b")
    with pytest.raises(UnsupportedModelError, match=r"ADD.*tensor 'c': .*does not broadcast"):
        convert(binary16("ADD", shape_b=(1, 1, 1, 3), scales=scales, options={"pot_scale_int16": True}),
                tmp_path / "c")


def test_sub_int16_broadcast(tmp_path):
    # SUB allows an output multiplier above 1: 2 * 0.5 / (2^15 * 2^-16) = 2 -> (2^30, 2).
    result, model_c, _ = convert(binary16("SUB", shape_b=(1, 1, 1, 3), scales=(0.5, 0.25, 2.0 ** -16),
                                          options={"pot_scale_int16": False}), tmp_path)
    assert only_op(result)["kernel"]["entry"] == "arm_sub_s16"
    body = function_body(model_c, 0)
    assert "const cmsis_nn_dims input2_dims = { 1, 1, 1, 3 };" in body
    assert f"0, {Q30}, 2, -32768, 32767);" in body


def test_add_int16_output_scale_too_fine(tmp_path):
    with pytest.raises(UnsupportedModelError, match=r"ADD.*tensor 'y': output scale .* too fine"):
        convert(binary16("ADD", scales=(0.5, 0.25, 2.0 ** -16), options={"pot_scale_int16": False}), tmp_path)


def test_int16_zero_point_must_be_zero(tmp_path):
    b = ModelBuilder()
    a = b.input("a", (1, 4), dtype="int16", scale=0.5, zero_point=3)
    c = b.input("c", (1, 4), dtype="int16", scale=0.5, zero_point=0)
    y = b.tensor("y", (1, 4), dtype="int16", scale=0.5, zero_point=0)
    b.op("MUL", [a, c], [y])
    b.output(y)
    with pytest.raises(UnsupportedModelError, match=r"MUL.*tensor 'a': input 0 zero point must be 0 for int16"):
        convert(b, tmp_path)


def test_mul_int16(tmp_path):
    result, model_c, _ = convert(binary16("MUL", shape_b=(1, 2, 1, 1)), tmp_path)
    assert only_op(result)["kernel"]["entry"] == "arm_mul_s16"
    body = function_body(model_c, 0)
    # 0.5 * 0.25 / 0.5 = 0.25 -> (2^30, -1); offsets are unused by the s16 kernels.
    # 1x2x2x3 times 1x2x1x1: W and C are broadcast alike, so the kernel sees 2x6 times 2x1.
    assert "const cmsis_nn_dims input1_dims = { 1, 1, 2, 6 };" in body
    assert "const cmsis_nn_dims input2_dims = { 1, 1, 2, 1 };" in body
    assert "0, 0, (int16_t *)" in body and f"0, {Q30}, -1, -32768, 32767);" in body


def test_softmax_int16(tmp_path):
    b = ModelBuilder()
    x = b.input("x", (2, 10), dtype="int16", scale=2.0 ** -12, zero_point=0)
    y = b.tensor("y", (2, 10), dtype="int16", scale=1.0 / 32768, zero_point=0)
    b.op("SOFTMAX", [x], [y], {"beta": 1.0})
    b.output(y)
    result, model_c, consts = convert(b, tmp_path)
    assert only_op(result)["kernel"]["entry"] == "arm_softmax_s16"
    body = function_body(model_c, 0)
    # x - max scaled so [-65535, 0] covers [-10, 0]: 2^-12 * 65535 / 10 = 1.59998 -> mantissa / 2, shift 1.
    mult = round(2.0 ** -12 * 65535 / 10 / 2 * 2 ** 31)
    assert "softmax_luts = { model_op0_exp_lut, model_op0_one_by_one_lut };" in body
    assert f", 2, 10, {mult},\n        1, &softmax_luts," in body
    # The wrapped probability 1.0 is saturated after the call, over all 2 x 10 outputs.
    assert "for (i = 0; i < 20; i++)" in body and "out[i] = 32767;" in body
    exp_lut = np.array(const_values(consts, "model_op0_exp_lut"))
    inv_lut = np.array(const_values(consts, "model_op0_one_by_one_lut"))
    assert len(exp_lut) == len(inv_lut) == 513
    # Interpolated as LiteRT's LUTLookup does, over every int16 input, the tables track exp over
    # [-10, 0] and 1 / (1 + x) over [0, 1] in Q0.15 within 8 codes (512 linear steps; the lookup never
    # reaches the last entry, so the top of exp falls a few codes short).
    v = np.arange(-32768, 32768)
    index, frac = 256 + (v >> 7), v & 0x7F
    looked = lambda lut: lut[index] + ((lut[index + 1] - lut[index]) * frac + 64 >> 7)  # noqa: E731
    assert np.max(np.abs(looked(exp_lut) - np.minimum(np.exp((v - 32767) * 10.0 / 65535) * 32768, 32767))) <= 8
    assert np.max(np.abs(looked(inv_lut) - np.minimum(32768 / (1 + (v + 32768) / 65535), 32767))) <= 8


def test_softmax_int16_output_scale(tmp_path):
    b = ModelBuilder()
    x = b.input("x", (1, 10), dtype="int16", scale=2.0 ** -12, zero_point=0)
    y = b.tensor("y", (1, 10), dtype="int16", scale=1.0 / 16384, zero_point=0)
    b.op("SOFTMAX", [x], [y], {"beta": 1.0})
    b.output(y)
    with pytest.raises(UnsupportedModelError, match=r"SOFTMAX.*tensor 'y': int16 output must have scale 1/32768"):
        convert(b, tmp_path)


def test_softmax_int8_to_int16(tmp_path):
    b = ModelBuilder()
    x = b.input("x", (1, 10), scale=0.25, zero_point=0)
    y = b.tensor("y", (1, 10), dtype="int16", scale=1.0 / 65536, zero_point=-32768)
    b.op("SOFTMAX", [x], [y], {"beta": 1.0})
    b.output(y)
    result, model_c, _ = convert(b, tmp_path)
    assert only_op(result)["kernel"]["entry"] == "arm_softmax_s8_s16"
    # The int8 softmax's scaling: multiplier 2^30, left shift 25, diff_min -62.
    assert re.search(rf"arm_softmax_s8_s16\(\(int8_t \*\)\(arena \+ \d+\), 1, 10, {Q30}, 25, -62,",
                     function_body(model_c, 0))


def _softmax_int8_to_int16_model(scale: float, zero_point: int = -32768) -> ModelBuilder:
    b = ModelBuilder()
    x = b.input("x", (1, 10), scale=0.25, zero_point=0)
    y = b.tensor("y", (1, 10), dtype="int16", scale=scale, zero_point=zero_point)
    b.op("SOFTMAX", [x], [y], {"beta": 1.0})
    b.output(y)
    return b


# TFLM's band, TF_LITE_ENSURE_NEAR(scale, 1.f / 65536, 0.001f / 65536) in float32.
_TARGET = np.float32(1.0 / 65536)
_EPSILON = np.float32(0.001) * _TARGET


def _band_edge(direction: float) -> float:
    """The last float32 scale inside the band going `direction` from 1/65536."""
    edge = _TARGET
    while abs(np.nextafter(edge, np.float32(direction)) - _TARGET) <= _EPSILON:
        edge = np.nextafter(edge, np.float32(direction))
    return float(edge)


_HIGH, _LOW = _band_edge(1.0), _band_edge(0.0)


@pytest.mark.parametrize("scale", [1.0 / 65535, float(np.float32(1.0 / 65535)), _HIGH, _LOW])
def test_softmax_int8_to_int16_accepts_tflms_scale_band(tmp_path, scale):
    """Any scale TFLM accepts converts, and to the same call as 1/65536: both references write the
    codes of 1/65536 whatever scale in the band is declared (test_softmax_int8_to_int16_runs_as_litert_beyond_tflm:
    LiteRT beyond it too)."""
    _, exact, _ = convert(_softmax_int8_to_int16_model(1.0 / 65536), tmp_path / "exact")
    _, near, _ = convert(_softmax_int8_to_int16_model(scale), tmp_path / "near")
    assert function_body(near, 0) == function_body(exact, 0)


@pytest.mark.parametrize("scale, zero_point", [(float(np.nextafter(np.float32(_HIGH), np.float32(1))), -32768),
                                               (float(np.nextafter(np.float32(_LOW), np.float32(0))), -32768),
                                               (1.0 / 65536, 0), (1.0 / 32768, 0)])
def test_softmax_int8_to_int16_runs_as_litert_beyond_tflm(tmp_path, scale, zero_point):
    """TFLM refuses these output forms; LiteRT checks none and writes the codes of 1/65536 and -32768 whatever
    the output declares, and so does the module: the same call as the exact form."""
    from tests.modelgen.litert import run_reference
    x = np.random.default_rng(3).integers(-128, 128, (1, 10)).astype(np.int8)
    exact_model, model = _softmax_int8_to_int16_model(1.0 / 65536), _softmax_int8_to_int16_model(scale, zero_point)
    np.testing.assert_array_equal(run_reference(model.build(), [x])[0], run_reference(exact_model.build(), [x])[0])
    _, exact, _ = convert(exact_model, tmp_path / "exact")
    _, other, _ = convert(model, tmp_path / "other")
    assert function_body(other, 0) == function_body(exact, 0)


def sigmoid16(op_type, in_scale, out_scale=1.0 / 32768):
    return unary_model(op_type, in_scale=in_scale, out_scale=out_scale, in_dtype="int16", out_dtype="int16")


def test_logistic_int16(tmp_path):
    # Input scale 2^-12: LiteRT's power-of-two path, multiplier 0 and shift 0 (the kernel uses 3).
    result, model_c, _ = convert(sigmoid16("LOGISTIC", 2.0 ** -12), tmp_path)
    assert only_op(result)["kernel"]["entry"] == "arm_logistic_s16"
    assert re.search(r"arm_logistic_s16\([^;]*, 8, 0, 0\);", function_body(model_c, 0))
    # 2^-13 is not the power-of-two case for LOGISTIC: 2^-13 * 3 * 4096 = 1.5, doubled while at most
    # 16383.5: 1.5 * 2^14 = 24576, shift 14.
    _, model_c, _ = convert(sigmoid16("LOGISTIC", 2.0 ** -13), tmp_path / "g")
    assert re.search(r"arm_logistic_s16\([^;]*, 8, 24576, 14\);", function_body(model_c, 0))
    with pytest.raises(UnsupportedModelError, match=r"LOGISTIC.*tensor 'y': int16 output must have scale 1/32768"):
        convert(sigmoid16("LOGISTIC", 2.0 ** -12, out_scale=2.0 ** -14), tmp_path / "e")


def test_tanh_int16(tmp_path):
    # 2^-11 is TANH's second power-of-two case: multiplier 0, shift 1 (the kernel uses 3 << 1).
    result, model_c, _ = convert(sigmoid16("TANH", 2.0 ** -11), tmp_path)
    assert only_op(result)["kernel"]["entry"] == "arm_tanh_s16"
    assert re.search(r"arm_tanh_s16\([^;]*, 8, 0, 1\);", function_body(model_c, 0))
    # 5/32767 (float32): 1.87506 * 2^14 -> 30720, shift 14.
    _, model_c, _ = convert(sigmoid16("TANH", 5.0 / 32767), tmp_path / "g")
    assert re.search(r"arm_tanh_s16\([^;]*, 8, 30720, 14\);", function_body(model_c, 0))
    with pytest.raises(UnsupportedModelError, match=r"TANH.*tensor 'x': int16 input scale 6 is too coarse"):
        convert(sigmoid16("TANH", 6.0), tmp_path / "e")


def test_leaky_relu_int16(tmp_path):
    result, model_c, _ = convert(unary_model("LEAKY_RELU", in_dtype="int16", out_dtype="int16",
                                             options={"alpha": 0.5}), tmp_path)
    assert only_op(result)["kernel"]["entry"] == "arm_leaky_relu_s16"
    # alpha: 0.5 * 0.5 / 0.25 = 1.0 -> (2^30, 1); identity: 2.0 -> (2^30, 2).
    assert f", 0, 0, {Q30}, 1,\n        {Q30}, 2, (int16_t *)" in function_body(model_c, 0)


def test_relu_int16(tmp_path):
    # Scales differ (0.5 -> 0.25): one arm_relu_s16 pass, multiplier 2 -> (2^30, 2).
    result, model_c, _ = convert(unary_model("RELU", in_dtype="int16", out_dtype="int16"), tmp_path)
    assert only_op(result)["kernel"]["entry"] == "arm_relu_s16"
    assert re.search(rf"arm_relu_s16\(\(int16_t \*\)\(arena \+ \d+\), 0, 0, {Q30}, 2, \(int16_t \*\)",
                     function_body(model_c, 0))
    result, model_c, _ = convert(unary_model("RELU", out_scale=0.5, in_dtype="int16", out_dtype="int16"), tmp_path / "s")
    assert only_op(result)["kernel"]["entry"] == "arm_clamp_s16"
    assert ", 0, 32767, (int16_t *)" in function_body(model_c, 0)


def test_relu6_int16(tmp_path):
    result, model_c, _ = convert(unary_model("RELU6", in_dtype="int16", out_dtype="int16"), tmp_path)
    assert only_op(result)["kernel"]["entry"] == "arm_requantize_s16_s16"
    body = function_body(model_c, 0)
    # Requantize by 0.5 / 0.25 = 2, then clamp to [0, 6 / 0.25].
    assert f"8, {Q30}, 2,\n        0, 0);" in body
    assert re.search(r"arm_clamp_s16\([^;]*, 0, 24, \(int16_t \*\)", body)


def test_scratch_buffer_is_the_planned_one(tmp_path):
    """A kernel's scratch pointer is the plan's scratch block of that operator, and no live tensor
    overlaps it (two convolutions with scratch on the MVE build, placed separately)."""
    b = ModelBuilder()
    x = b.input("x", (1, 8, 8, 4), scale=0.5, zero_point=-3)
    mid = b.tensor("mid", (1, 8, 8, 6), scale=0.5, zero_point=0)
    y = b.tensor("y", (1, 8, 8, 5), scale=0.5, zero_point=0)
    for name, src, dst, cin, cout in (("a", x, mid, 4, 6), ("c", mid, y, 6, 5)):
        w = b.const(f"w_{name}", np.ones((cout, 3, 3, cin), np.int8), dtype="int8", scale=[0.25] * cout,
                    zero_point=0, quantized_dimension=0)
        bias = b.const(f"b_{name}", np.zeros(cout, np.int32), dtype="int32", scale=[0.125] * cout, zero_point=0)
        b.op("CONV_2D", [src, w, bias], [dst], {"padding": "SAME", "stride_w": 1, "stride_h": 1,
                                                "fused_activation_function": "NONE"})
    b.output(y)
    result, model_c, _ = convert(b, tmp_path, target="corstone300", kernel_library="ns_cmsis_nn")
    buffers = result.plan["memory"]["buffers"]
    scratch = {s["first"]: s for s in buffers if s["kind"] == "scratch"}
    assert sorted(scratch) == [0, 1], buffers
    for position, block in scratch.items():
        body = function_body(model_c, position)
        assert f"const cmsis_nn_context buf_ctx = {{ arena + {block['offset']}, {block['bytes']} }};" in body, body
        live = [t for t in buffers if t["kind"] == "tensor" and t["first"] <= position <= t["last"]]
        for t in live:
            assert t["offset"] + t["bytes"] <= block["offset"] or block["offset"] + block["bytes"] <= t["offset"], \
                (block, t)
