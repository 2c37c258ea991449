# SPDX-License-Identifier: Apache-2.0
"""Convolution, depthwise and shared-helper cases that mutmut's sampled run of helia_aot/ops showed
no test pinned: entry and candidate lists of rarer paths, the s16 depthwise bias handling, the float
depthwise output, the accumulator refusal, broadcast padding and operand declarations."""

from __future__ import annotations

import re
from types import SimpleNamespace

import numpy as np
import pytest

from helia_aot.errors import InvalidModelError, UnsupportedModelError
from helia_aot.ir.graph import Quantization, Tensor
from helia_aot.ops.shared import accumulator, broadcast, operands, window
from tests.modelgen import ModelBuilder

from .helpers import function_body
from .test_ops import arena, convert, only_op


class _Refused(Exception):
    pass


# OpContext.error's signature: a rule (its text, or a declared Rule with the values at fault in `detail`).
CTX = SimpleNamespace(error=lambda rule, *args, detail="", **kwargs: _Refused(detail or getattr(rule, "text", rule)))


def test_broadcast_pads_the_shorter_shape_with_ones():
    assert broadcast.broadcast_shape((3,), (4, 3)) == (4, 3)
    assert broadcast.broadcast_shape((4, 3), (3,)) == (4, 3)
    assert broadcast.broadcast_shape((2, 1, 3), (5, 1)) == (2, 5, 3)
    assert broadcast.broadcast_shape((2, 3), (4, 3)) is None


def test_int64_accumulator_limit():
    # int16 input with an int64 bias: the bound is 2^63 - 1, so the largest bias plus any weight is refused.
    x16 = Tensor(0, "x", (1,), "int16", Quantization((1.0,), (0,)))
    w = Tensor(1, "w", (1, 1), "int8", Quantization((1.0,), (0,)), data=np.ones((1, 1), np.int8))
    b = Tensor(2, "b", (1,), "int64", Quantization((1.0,), (0,)), data=np.array([(1 << 63) - 1 - (1 << 15)]))
    accumulator.check_accumulator(CTX, x16, w, b, 0)
    b_over = Tensor(2, "b", (1,), "int64", Quantization((1.0,), (0,)), data=np.array([(1 << 63) - (1 << 15)]))
    with pytest.raises(_Refused, match="int64 accumulator"):
        accumulator.check_accumulator(CTX, x16, w, b_over, 0)


def test_filter_rank_message():
    with pytest.raises(_Refused, match="^filter must be 4-D$"):
        window.check_filter_rank(CTX, Tensor(0, "w", (3, 3, 2), "int8"))
    window.check_filter_rank(CTX, Tensor(0, "w", (1, 3, 3, 2), "int8"))


def test_operand_declarations():
    a = operands.int8_act()
    assert (a.role, a.dtypes, a.quantized) == ("input", ("int8",), True)
    s = operands.int16_act("output")
    assert (s.role, s.dtypes, s.quantized, s.symmetric) == ("output", ("int16",), True, True)


def _conv(tmp_path, in_hw, kernel, in_c=4, out_c=2, padding="VALID"):
    b = ModelBuilder()
    x = b.input("x", (1, *in_hw, in_c), scale=0.5, zero_point=-3)
    w = b.const("w", np.ones((out_c, *kernel, in_c), np.int8), dtype="int8", scale=[0.25] * out_c, zero_point=0,
                quantized_dimension=0)
    bias = b.const("b", np.arange(out_c, dtype=np.int32), dtype="int32", scale=[0.125] * out_c, zero_point=0)
    oh = in_hw[0] - kernel[0] + 1 if padding == "VALID" else in_hw[0]
    ow = in_hw[1] - kernel[1] + 1 if padding == "VALID" else in_hw[1]
    y = b.tensor("y", (1, oh, ow, out_c), scale=0.5, zero_point=1)
    b.op("CONV_2D", [x, w, bias], [y], {"padding": padding, "stride_w": 1, "stride_h": 1})
    b.output(y)
    return convert(b, tmp_path, target="corstone300")


def test_conv_with_one_output_pixel_calls_the_wrapper_on_mve(tmp_path):
    # 3x3 filter over a 3x3 input, 4 channels: one output pixel, stride x channels a multiple of 4.
    result, model_c, _ = _conv(tmp_path, (3, 3), (3, 3))
    kernel = only_op(result)["kernel"]
    assert kernel["entry"] == "arm_convolve_wrapper_s8"
    assert kernel["candidates"] == ["arm_convolve_wrapper_s8", "arm_convolve_s8", "helia_mve_convolve_s8"]
    assert "arm_convolve_wrapper_s8(" in function_body(model_c, 0)
    # More than one output pixel: the plain entry, our Helium convolution, the wrapper listed once after
    # them; the cost model takes the Helium one.
    result, _, _ = _conv(tmp_path / "b", (4, 4), (3, 3))
    kernel = only_op(result)["kernel"]
    assert kernel["candidates"] == ["arm_convolve_s8", "helia_mve_convolve_s8", "arm_convolve_wrapper_s8"]
    assert kernel["entry"] == "helia_mve_convolve_s8"


def _depthwise(kernel=(3, 3), dtype="int8", bias_dtype="int32", bias_value=0, channels=8, hw=(6, 6)):
    b = ModelBuilder()
    if dtype == "float32":
        x = b.input("x", (1, *hw, channels), dtype="float32")
        w = b.const("w", np.ones((1, *kernel, channels), np.float32), dtype="float32")
        bias = b.const("b", np.zeros(channels, np.float32), dtype="float32")
        y = b.tensor("y", (1, *hw, channels), dtype="float32")
    else:
        zp = 0 if dtype == "int16" else 1
        x = b.input("x", (1, *hw, channels), dtype=dtype, scale=0.5, zero_point=zp)
        w = b.const("w", np.full((1, *kernel, channels), 2, np.int8), dtype="int8", scale=[0.25] * channels,
                    zero_point=0, quantized_dimension=3)
        bias = b.const("b", np.full(channels, bias_value, np.int64 if bias_dtype == "int64" else np.int32),
                       dtype=bias_dtype, scale=[0.125] * channels, zero_point=0)
        y = b.tensor("y", (1, *hw, channels), dtype=dtype, scale=0.25, zero_point=0)
    b.op("DEPTHWISE_CONV_2D", [x, w, bias], [y], {"padding": "SAME", "stride_h": 1, "stride_w": 1,
                                                   "depth_multiplier": 1})
    b.output(y)
    return b


def test_depthwise_candidates_list_every_applicable_entry(tmp_path):
    result, _, _ = convert(_depthwise(), tmp_path, target="corstone300")
    assert only_op(result)["kernel"]["candidates"] == ["arm_depthwise_conv_3x3_s8", "arm_depthwise_conv_s8_opt",
                                                       "helia_mve_depthwise_conv_3x3_s8", "arm_depthwise_conv_s8",
                                                       "arm_depthwise_conv_wrapper_s8"]


def test_depthwise_opt_entry_takes_the_precomputed_weight_sums_on_mve(tmp_path):
    # goal latency: by default (balanced) this lone layer keeps the scratch-free entry, the opt one's
    # 12 KiB of scratch being most of the arena.
    result, model_c, consts = convert(_depthwise(kernel=(5, 5)), tmp_path, target="corstone300",
                                      config={"optimization": {"goal": "latency"}})
    kernel = only_op(result)["kernel"]
    assert kernel["entry"] == "arm_depthwise_conv_s8_opt"
    assert kernel["weight_sums"] == "precomputed"
    assert "model_op0_weight_sum" in consts and "model_op0_weight_sum" in function_body(model_c, 0)


def test_depthwise_s16_passes_its_int64_bias(tmp_path):
    result, model_c, consts = convert(_depthwise(dtype="int16", bias_dtype="int64", bias_value=3), tmp_path)
    body = function_body(model_c, 0)
    assert "bias64" not in body and "bias_dims = { 1, 1, 1, 8 };" in body
    bias_arg = re.search(r"&bias_dims, ([^,]+),", body).group(1)
    assert bias_arg != "NULL" and "model_" in bias_arg


def test_depthwise_float32_writes_its_output_tensor(tmp_path):
    result, model_c, _ = convert(_depthwise(dtype="float32"), tmp_path)
    body = function_body(model_c, 0)
    assert f"&output_dims, (float *){arena(result, 'y')});" in body


def test_depthwise_accumulator_refusal(tmp_path):
    with pytest.raises((InvalidModelError, UnsupportedModelError), match="can accumulate"):
        convert(_depthwise(bias_value=(1 << 31) - 100), tmp_path)


@pytest.mark.parametrize("op_type", ["AVERAGE_POOL_2D", "MAX_POOL_2D"])
def test_pool_same_padding_reaches_the_kernel(tmp_path, op_type):
    # A 3x2 window at stride 1 with SAME padding on 5x4: total padding 2 in H, 1 in W; the smaller half
    # before: h 1, w 0. A 3x3 window pads 1 on both sides of both.
    for (fh, fw), (pw, ph) in (((3, 2), (0, 1)), ((3, 3), (1, 1))):
        b = ModelBuilder()
        x = b.input("x", (1, 5, 4, 2), scale=0.5, zero_point=0)
        y = b.tensor("y", (1, 5, 4, 2), scale=0.5, zero_point=0)
        b.op(op_type, [x], [y], {"padding": "SAME", "stride_w": 1, "stride_h": 1, "filter_width": fw,
                                 "filter_height": fh})
        b.output(y)
        _, model_c, _ = convert(b, tmp_path / f"{fh}x{fw}")
        assert f"{{ {pw}, {ph} }}, /* padding w, h */" in function_body(model_c, 0)


def test_accumulator_bound_counts_minus_128_as_128():
    # |-128| must not wrap in int8: one weight of -128 spans 128 * 255 codes.
    x8 = Tensor(0, "x", (1,), "int8", Quantization((1.0,), (0,)))
    w = Tensor(1, "w", (1, 1), "int8", Quantization((1.0,), (0,)), data=np.array([[-128]], np.int8))
    limit = (1 << 31) - 1
    accumulator.check_accumulator(CTX, x8, w, Tensor(2, "b", (1,), "int32", data=np.array([limit - 128 * 255])), 0)
    over = Tensor(2, "b", (1,), "int32", data=np.array([limit - 128 * 255 + 1]))
    with pytest.raises(_Refused, match="can accumulate 2147483648"):
        accumulator.check_accumulator(CTX, x8, w, over, 0)


def test_accumulator_refusal_names_its_remedy(tmp_path):
    with pytest.raises((InvalidModelError, UnsupportedModelError),
                       match="Check the bias and weight values: no exporter writes these"):
        convert(_depthwise(bias_value=(1 << 31) - 100), tmp_path)


def test_reshape_under_another_quantization_aliases_the_input(tmp_path):
    # LiteRT's reshape.cc hands the input's bytes to the output whatever the output's scale says (issue #30:
    # the rule refusing it was stricter than LiteRT and TFLM; tests/unit/test_rules_shaping.py runs it).
    b = ModelBuilder()
    x = b.input("x", (1, 2, 3, 4), scale=0.5, zero_point=0)
    shape = b.const("shape", np.array([1, 24], np.int32), dtype="int32")
    y = b.tensor("y", (1, 24), scale=0.25, zero_point=0)
    b.op("RESHAPE", [x, shape], [y])
    b.output(y)
    result, _, _ = convert(b, tmp_path)
    assert only_op(result)["alias_of"] == "x"


def test_depthwise_s16_fast_path_scratch_on_mve(tmp_path):
    # Multiplier 1, no dilation: the wrapper takes the fast s16 kernel, whose MVE buffer holds one
    # int16 im2col window per four outputs: 4 * (C * kh * kw) * 2 bytes, plus 8.
    result, _, _ = convert(_depthwise(dtype="int16", bias_dtype="int64"), tmp_path, target="corstone300")
    assert only_op(result)["kernel"]["local_scratch_bytes"] == 4 * (8 * 3 * 3) * 2 + 8
