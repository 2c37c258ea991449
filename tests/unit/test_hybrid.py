# SPDX-License-Identifier: Apache-2.0
"""Hybrid (dynamic-range) FULLY_CONNECTED and CONV_2D: float32 data, int8 symmetric weights, float32 bias
and output. Each converts to inline C that quantizes the input at run time as LiteRT does; these tests
check the choices the lowering makes (input quantization, constants, scratch) and that it runs on every
target; on a core with MVE the integer part calls helia_mve_convolve_s8_s32 (kernels/helium)."""

from __future__ import annotations

import re

import numpy as np
import pytest

import helia_aot
from helia_aot.errors import UnsupportedModelError
from tests.modelgen import ModelBuilder

from .helpers import function_body


def hybrid_fc(per_channel=False, asymmetric=False, act="NONE", batches=2, bias=True) -> bytes:
    b = ModelBuilder()
    x = b.input("x", (batches, 6), "float32")
    scale = [0.5, 0.25, 0.125] if per_channel else 0.5
    w = b.const("w", np.array([[1, -2, 3, 0, 1, 1], [0, 0, 0, 0, 0, 1], [-127, 127, 5, 5, 5, 5]], np.int8), "int8",
                scale=scale, zero_point=0, quantized_dimension=0)
    bias_t = b.const("b", np.array([0.5, -1.0, 0.0], np.float32), "float32") if bias else None
    y = b.tensor("y", (batches, 3), "float32")
    b.op("FULLY_CONNECTED", [x, w, bias_t], [y], {"fused_activation_function": act,
                                                  "asymmetric_quantize_inputs": asymmetric})
    b.output(y)
    return b.build()


def hybrid_conv(scales, in_c=4, filter_c=4, out_c=2, batches=1) -> bytes:
    b = ModelBuilder()
    x = b.input("x", (batches, 5, 5, in_c), "float32")
    w = b.const("w", np.ones((out_c, 3, 3, filter_c), np.int8), "int8", scale=scales, zero_point=0,
                quantized_dimension=0)
    bias = b.const("b", np.zeros(out_c, np.float32), "float32")
    y = b.tensor("y", (batches, 5, 5, out_c), "float32")
    b.op("CONV_2D", [x, w, bias], [y], {"padding": "SAME", "stride_h": 1, "stride_w": 1,
                                         "fused_activation_function": "RELU6"})
    b.output(y)
    return b.build()


def convert(model: bytes, tmp_path, target="host", **kw):
    out = tmp_path / f"out_{target}"
    result = helia_aot.convert(model, out, target=target, **kw)
    return (result, (out / "src" / "model_model.c").read_text(), (out / "src" / "model_constants.c").read_text(),
            (out / "include" / "model_common.h").read_text())


@pytest.mark.parametrize("target", ["host", "apollo4p_evb", "corstone300"])
def test_hybrid_fc_symmetric_per_tensor(tmp_path, target):
    result, model_c, constants_c, common_h = convert(hybrid_fc(), tmp_path, target, kernel_library="portable")
    op = result.plan["operators"][0]
    helium = target == "corstone300"  # the dot products on our Helium kernel where the core has MVE
    assert op["variant"] == "hybrid"
    assert op["kernel"]["entry"] == ("helia_mve_convolve_s8_s32" if helium else None)
    assert op["fixed"] == {**({} if helium else {"implementation": "inline"}), "input_quantization": "symmetric"}
    # The quantized row (6 int8 values) is the module's own scratch, whatever the library (the kernel
    # reads it in place).
    assert op["kernel"]["local_scratch_bytes"] == 6
    body = function_body(model_c, 0)
    assert ("scale = range / 127.0f;" in body) != helium and "scale *= 0.5f;" in body
    assert ("helia_mve_quantize_symmetric_f32_s8(row, 6, quantized, &scale);" in body) == helium
    # The rescale, bias and clamp on Helium too (the core has MVE floating point); NONE clamps nothing.
    assert ("value = bias[o] + (float)acc * scale;" in body) != helium
    assert ("HELIA_RESCALE_DENSE, scale, NULL,\n                    bias, -INFINITY, INFINITY" in body) == helium
    assert ("helia_mve_rescale_s32_f32(&rescale, (const int32_t *)(const void *)dst, 1, 3, dst);" in body) == helium
    assert "offset" not in body and "value <" not in body  # NONE applies no clamp
    assert ("helia_mve_convolve_s8_s32(" in body) == helium
    assert ("acc += (int32_t)w[i] * (int32_t)quantized[i];" in body) != helium
    assert "ARM_NN_ENABLE" not in common_h
    assert result.kernel_symbols == (["helia_mve_convolve_s8_s32", "helia_mve_quantize_symmetric_f32_s8",
                                      "helia_mve_rescale_s32_f32"] if helium else [])
    assert result.report["operators"][0]["macs"] == 2 * 6 * 3


def test_hybrid_fc_asymmetric_per_channel(tmp_path):
    result, model_c, constants_c, _ = convert(hybrid_fc(per_channel=True, asymmetric=True, act="RELU"), tmp_path)
    assert result.plan["operators"][0]["fixed"]["input_quantization"] == "asymmetric"
    body = function_body(model_c, 0)
    assert "const double step = (rmax - rmin) / 255.0;" in body
    assert "acc -= model_op0_row_sum[o] * offset;" in body
    assert "value = bias[o] + (float)acc * (scale * model_op0_filter_scale[o]);" in body
    assert "value = (value < 0.0f) ? 0.0f : value;" in body and "value >" not in body
    assert re.search(r"model_op0_row_sum\[3\] = \{\n    4, 1, 20,", constants_c)
    assert "model_op0_filter_scale[3] = {\n    0.5f, 0.25f, 0.125f," in constants_c


def test_hybrid_fc_without_bias(tmp_path):
    _, model_c, _, _ = convert(hybrid_fc(bias=False), tmp_path)
    assert "value = 0.0f + (float)acc * scale;" in function_body(model_c, 0)


def test_hybrid_conv_per_tensor_is_symmetric(tmp_path):
    # Per-channel scales that are all equal take LiteRT's per-tensor (symmetric) kernel too.
    for scales in (0.25, [0.25, 0.25]):
        result, model_c, constants_c, _ = convert(hybrid_conv(scales), tmp_path)
        op = result.plan["operators"][0]
        assert op["fixed"]["input_quantization"] == "symmetric"
        assert op["kernel"]["local_scratch_bytes"] == 5 * 5 * 4
        body = function_body(model_c, 0)
        assert "scale *= 0.25f;" in body and "acc += (int32_t)tap[ic] * (int32_t)x[ic];" in body
        assert "value = (float)acc * scale;\n" in body and "value += bias[oc];" in body
        assert "value = (value > 6.0f) ? 6.0f : value;" in body
        assert "filter_scale" not in constants_c


def test_hybrid_conv_per_channel_is_asymmetric(tmp_path):
    result, model_c, constants_c, _ = convert(hybrid_conv([0.25, 0.5]), tmp_path, "apollo4p_evb")
    assert result.plan["operators"][0]["fixed"]["input_quantization"] == "asymmetric"
    body = function_body(model_c, 0)
    assert "acc += (int32_t)tap[ic] * ((int32_t)x[ic] - offset);" in body
    assert "value = (float)acc * model_op0_filter_scale[oc] * scale;" in body
    assert "model_op0_filter_scale[2] = {\n    0.25f, 0.5f," in constants_c


def test_hybrid_grouped_conv_needs_per_channel_scales(tmp_path):
    with pytest.raises(UnsupportedModelError) as refusal:
        helia_aot.convert(hybrid_conv(0.25, in_c=4, filter_c=2, out_c=2), tmp_path / "o")
    assert ("a hybrid grouped convolution needs per-channel weight scales (LiteRT's per-tensor hybrid kernel "
            "has no groups)") in str(refusal.value)
    _, model_c, _, _ = convert(hybrid_conv([0.25, 0.5], in_c=4, filter_c=2, out_c=2), tmp_path)
    assert "+ (oc / 1) * 2;" in function_body(model_c, 0)


def test_hybrid_conv_macs_count_every_batch(tmp_path):
    # Three batches of a 5x5 SAME output, 2 channels, 3x3 taps over 4 input channels.
    result, _, _, _ = convert(hybrid_conv([0.25, 0.5], batches=3), tmp_path)
    assert result.report["operators"][0]["macs"] == 3 * 5 * 5 * 2 * 3 * 3 * 4


def test_hybrid_weights_must_be_symmetric(tmp_path):
    b = ModelBuilder()
    x = b.input("x", (1, 4), "float32")
    w = b.const("w", np.ones((2, 4), np.int8), "int8", scale=0.5, zero_point=3)
    y = b.tensor("y", (1, 2), "float32")
    b.op("FULLY_CONNECTED", [x, w, None], [y])
    b.output(y)
    with pytest.raises(UnsupportedModelError, match="zero point must be 0 for hybrid"):
        helia_aot.convert(b.build(), tmp_path / "o")


def test_hybrid_conv_on_mve_calls_the_helium_kernel(tmp_path):
    """corstone300: the int32 sums from helia_mve_convolve_s8_s32, scaled in place over the float output;
    a symmetric input quantized by helia_mve_quantize_symmetric_f32_s8;
    the gathered columns (2 x 3 x 3 x 4 bytes) follow the quantized input in scratch; an asymmetric layer
    passes its row sums and its run-time offset."""
    for scales, asymmetric in ((0.25, False), ([0.25, 0.5], True)):
        result, model_c, constants_c, _ = convert(hybrid_conv(scales), tmp_path, "corstone300",
                                                  kernel_library="portable")
        op = result.plan["operators"][0]
        assert op["kernel"]["entry"] == "helia_mve_convolve_s8_s32"
        assert "implementation" not in op["fixed"]  # the kernel entry says how
        assert op["kernel"]["local_scratch_bytes"] == 5 * 5 * 4 + 2 * 3 * 3 * 4
        body = function_body(model_c, 0)
        assert "status = helia_mve_convolve_s8_s32(&buf_ctx, &conv_params," in body
        assert "acc +=" not in body  # no taps loop left
        assert ("conv_params.input_offset = -offset;" in body) == asymmetric
        assert ("model_op0_row_sum" in body) == asymmetric
        # The symmetric quantization on Helium too; the asymmetric one (double step, zero point) inline.
        assert ("helia_mve_quantize_symmetric_f32_s8(row, 100, quantized, &scale);" in body) != asymmetric
        assert ("const double step = (rmax - rmin) / 255.0;" in body) == asymmetric
        if asymmetric:
            assert "model_op0_row_sum[2] = {\n    36, 36," in constants_c


def test_hybrid_grouped_conv_on_mve_keeps_the_taps_loop(tmp_path):
    # The kernel takes one group; a grouped layer (per-channel scales) stays inline on any core.
    result, model_c, _, _ = convert(hybrid_conv([0.25, 0.5], in_c=4, filter_c=2), tmp_path, "corstone300",
                                    kernel_library="portable")
    op = result.plan["operators"][0]
    assert op["kernel"]["entry"] is None and op["fixed"]["implementation"] == "inline"
    assert "acc += (int32_t)tap[ic] * ((int32_t)x[ic] - offset);" in function_body(model_c, 0)


def test_hybrid_conv_on_mve_rescales_on_helium(tmp_path):
    """corstone300 (MVE floating point): the kernel's sums become floats in place by
    helia_mve_rescale_s32_f32 in CONV_2D's order, with the per-channel scales where the layer has them,
    the bias and the RELU6 bounds; the inline rescale loop is gone."""
    for scales, per_channel in ((0.25, False), ([0.25, 0.5], True)):
        result, model_c, _, _ = convert(hybrid_conv(scales), tmp_path, "corstone300", kernel_library="portable")
        body = function_body(model_c, 0)
        assert "helia_mve_rescale_s32_f32" in result.kernel_symbols
        scale_arg = "model_op0_filter_scale" if per_channel else "NULL"
        assert f"HELIA_RESCALE_CONV, scale, {scale_arg},\n                    bias, 0.0f, 6.0f" in body
        assert "status = helia_mve_rescale_s32_f32(&rescale, sums, 25, 2, output + b * 50);" in body
        assert "value" not in body


def test_hybrid_fc_asymmetric_on_mve_offsets_the_dot_products(tmp_path):
    """With the Helium rescale the asymmetric row's offset enters the kernel's dot products through the
    row sums (the corrected sums of the inline loop), and the rescale runs FULLY_CONNECTED's order."""
    result, model_c, _, _ = convert(hybrid_fc(per_channel=True, asymmetric=True, act="RELU", bias=False),
                                    tmp_path, "corstone300", kernel_library="portable")
    body = function_body(model_c, 0)
    assert "    cmsis_nn_conv_params conv_params = {" in body  # not static: the offset changes per row
    assert "conv_params.input_offset = -offset;" in body
    assert "helia_mve_convolve_s8_s32(&buf_ctx, &conv_params, model_op0_row_sum, &input_dims" in body
    assert "acc -=" not in body
    assert "HELIA_RESCALE_DENSE, scale, model_op0_filter_scale,\n                    NULL, 0.0f, INFINITY" in body


def test_hybrid_on_mve_without_mve_f_rescales_inline(tmp_path):
    # A Cortex-M55 without MVE floating point: the integer kernel still, the float rescale inline (the
    # Helium rescale would only run its plain C there).
    custom = {"name": "m55_int", "cpu": "cortex-m55", "capabilities": ["dsp", "mve", "fpu"],
              "memories": [{"name": "SRAM", "size": 1 << 20}]}
    for model, line in ((hybrid_fc(), "value = bias[o] + (float)acc * scale;"),
                        (hybrid_conv([0.25, 0.5]), "value = (float)sum[oc] * model_op0_filter_scale[oc] * scale;")):
        out = tmp_path / f"o{len(line)}"
        result = helia_aot.convert(model, out, kernel_library="portable",
                                   config={"target": {"name": "m55_int", "custom": custom}})
        body = function_body((out / "src" / "model_model.c").read_text(), 0)
        assert "helia_mve_convolve_s8_s32" in result.kernel_symbols
        assert "helia_mve_rescale_s32_f32" not in result.kernel_symbols
        assert line in body
