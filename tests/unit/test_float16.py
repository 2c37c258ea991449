# SPDX-License-Identifier: Apache-2.0
"""Native FP16: the platform gate (one rule in the operator base class), the storage paths that run
everywhere, and each float16 variant's emitted call. Models are FP16 rewrites of FP32 models built
with tests.modelgen, as the FP16 e2e cases are."""

from __future__ import annotations

import re

import numpy as np
import pytest

import helia_aot
from helia_aot.library import ns_cmsis_nn_scratch as sizes
from helia_aot.library.ns_cmsis_nn_scratch import ConvGeometry
from helia_aot.errors import InvalidConfigError, UnsupportedModelError
from helia_aot.config.targets import get_target, target_from_dict
from tests.modelgen import ModelBuilder
from tests.modelgen.fp16 import to_float16

from .helpers import compile_c, function_body, ns_cmsis_nn_dir, require_gcc
from .test_cli import one_error_line, run

M4_TARGET = {"name": "my_m4", "cpu": "cortex-m4", "capabilities": ["dsp", "fpu"],
             "memories": [{"name": "SRAM", "size": 1 << 20}]}


def fp16_conv(act="NONE", kernel=(3, 3), in_c=4, out_c=8, hw=(6, 6), padding="SAME", stride=1) -> bytes:
    """An FP32 CONV_2D with float16 weights behind DEQUANTIZE (LiteRT's FP16-weight form), rewritten."""
    b = ModelBuilder()
    x = b.input("x", (1, *hw, in_c), "float32")
    w16 = b.const("w", np.linspace(-1, 1, out_c * kernel[0] * kernel[1] * in_c).reshape(out_c, *kernel, in_c),
                  "float16")
    bias16 = b.const("b", np.arange(out_c) / 8.0, "float16")
    w = b.tensor("w_f32", w16.shape, "float32")
    bias = b.tensor("b_f32", bias16.shape, "float32")
    b.op("DEQUANTIZE", [w16], [w])
    b.op("DEQUANTIZE", [bias16], [bias])
    oh = (hw[0] + stride - 1) // stride if padding == "SAME" else (hw[0] - kernel[0]) // stride + 1
    ow = (hw[1] + stride - 1) // stride if padding == "SAME" else (hw[1] - kernel[1]) // stride + 1
    y = b.tensor("y", (1, oh, ow, out_c), "float32")
    b.op("CONV_2D", [x, w, bias], [y], {"padding": padding, "stride_h": stride, "stride_w": stride,
                                         "fused_activation_function": act})
    b.output(y)
    return to_float16(b.build())


def fp16_unary(op: str, shape=(1, 16), options=None) -> bytes:
    b = ModelBuilder()
    x = b.input("x", shape, "float32")
    y = b.tensor("y", shape, "float32")
    b.op(op, [x], [y], options)
    b.output(y)
    return to_float16(b.build())


def fp16_binary(op: str, shape_a, shape_b, out_shape, act="NONE") -> bytes:
    b = ModelBuilder()
    x1 = b.input("x1", shape_a, "float32")
    x2 = b.input("x2", shape_b, "float32")
    y = b.tensor("y", out_shape, "float32")
    b.op(op, [x1, x2], [y], {"fused_activation_function": act})
    b.output(y)
    return to_float16(b.build())


def convert(model: bytes, tmp_path, target="host", **kw):
    out = tmp_path / f"out_{target}"
    result = helia_aot.convert(model, out, target=target, **kw)
    return result, (out / "src" / "model_model.c").read_text(), (out / "include" / "model_common.h").read_text()


# ---- the gate ----------------------------------------------------------------------------------

def test_fp16_support_per_target():
    assert get_target("corstone300").supports_fp16 and get_target("apollo510_evb").supports_fp16
    assert not get_target("apollo4p_evb").supports_fp16
    assert get_target("host").supports_fp16  # the host runs FP16 modules on its compiler's half type
    assert not target_from_dict(M4_TARGET, "t").supports_fp16


def test_native_fp16_is_refused_for_apollo4p_in_one_line_naming_operator_target_and_core(tmp_path):
    with pytest.raises(UnsupportedModelError) as info:
        helia_aot.convert(fp16_conv(), tmp_path / "o", target="apollo4p_evb")
    text = str(info.value)
    assert "\n" not in text
    assert "operator main:y (CONV_2D, index 0)" in text
    assert "target 'apollo4p_evb' is a cortex-m4" in text and "MVE-FP" in text
    assert not (tmp_path / "o").exists()


def test_native_fp16_is_refused_for_a_custom_cortex_m4(tmp_path):
    with pytest.raises(UnsupportedModelError, match=r"target 'my_m4' is a cortex-m4 \(capabilities: dsp, fpu\)"):
        helia_aot.convert(fp16_conv(), tmp_path / "o", config={"target": {"name": "my_m4", "custom": M4_TARGET}})


def test_the_cli_prints_the_gate_as_one_error_line(tmp_path):
    model = tmp_path / "fp16.tflite"
    model.write_bytes(fp16_conv())
    line = one_error_line(run("convert", str(model), "-o", str(tmp_path / "o"), "--target", "apollo4p_evb"),
                          "UnsupportedModelError")
    assert "CONV_2D" in line and "apollo4p_evb" in line and "cortex-m4" in line


@pytest.mark.parametrize("target", ["corstone300", "apollo510_evb", "host"])
def test_native_fp16_converts_for_fp16_targets(tmp_path, target):
    result, model_c, common_h = convert(fp16_conv(), tmp_path, target)
    assert "arm_convolve_wrapper_f16(&buf_ctx, &conv_params" in function_body(model_c, 0)
    # The module refuses to compile without the switch the library needs for float16 entries.
    assert "#if !defined(ARM_NN_ENABLE_F16) || !(ARM_NN_ENABLE_F16)" in common_h
    assert "ARM_NN_ENABLE_F32" not in common_h
    assert result.plan["platform"]["supports_fp16"] is True


def test_fp16_storage_paths_convert_on_a_core_without_fp16(tmp_path):
    """DEQUANTIZE float16 -> float32 and float16 byte moves are not gated and need no float switch."""
    b = ModelBuilder()
    x = b.input("x", (1, 4, 8), "float16")
    r = b.tensor("r", (1, 32), "float16")
    b.op("RESHAPE", [x, b.const("shape", np.array([1, 32], np.int32))], [r], {"new_shape": [1, 32]})
    y = b.tensor("y", (1, 32), "float32")
    b.op("DEQUANTIZE", [r], [y])
    b.output(y)
    for target in ("apollo4p_evb", "host"):
        result, model_c, common_h = convert(b.build(), tmp_path, target)
        assert "ARM_NN_ENABLE_F16" not in common_h and "float16_t" not in model_c
        assert [o["variant"] for o in result.plan["operators"]] == ["any", "float16_to_float32"]
        assert "(const uint16_t *)(arena + " in model_c  # the bits, read without a half type


def test_a_float16_constant_dequantized_at_conversion_is_stored_as_float32(tmp_path):
    b = ModelBuilder()
    x = b.input("x", (1, 4), "float32")
    c16 = b.const("c", np.array([[0.5, -2.0, 65504.0, 2.0 ** -24]]), "float16")
    c = b.tensor("c_f32", (1, 4), "float32")
    b.op("DEQUANTIZE", [c16], [c])
    y = b.tensor("y", (1, 4), "float32")
    b.op("DEQUANTIZE", [c16], [y])  # a model output: stored widened and copied, not folded away
    b.output(y)
    b.output(x)
    result, model_c, common_h = convert(b.build(), tmp_path, "apollo4p_evb")
    constants_c = (tmp_path / "out_apollo4p_evb" / "src" / "model_constants.c").read_text()
    assert "const float model_op0_value[4] = {\n    0.5f, -2.0f, 65504.0f, 5.960464477539063e-08f," in constants_c
    assert "float16_t" not in constants_c and "ARM_NN_ENABLE_F16" not in common_h
    assert "memcpy(" in function_body(model_c, 0)


def test_catalog_names_the_gate_and_the_switch():
    proc = run("operators")
    assert proc.returncode == 0
    blocks = re.split(r"\n(?=\S)", proc.stdout)  # one block per "OP [variant]" heading
    conv = next(b for b in blocks if b.startswith("CONV_2D [float16]"))
    assert "    needs native FP16: a target with the fp16 capability (MVE-FP), or host" in conv
    assert "    needs ns-cmsis-nn built with ARM_NN_ENABLE_F16" in conv
    deq = next(b for b in blocks if b.startswith("DEQUANTIZE [float16_to_float32]"))
    assert "needs" not in deq


def test_gated_variants_are_exactly_the_float16_compute_ones():
    from helia_aot import ops
    for op_type, variant in ops.catalog():
        float16_out = any("float16" in o.dtypes for o in variant.outputs) and \
            all(o.dtypes == ("float16",) for o in variant.outputs)
        assert variant.requires_fp16 == (float16_out and variant.name != "any"), (op_type, variant.name)
        assert ("ARM_NN_ENABLE_F16" in variant.switches) == variant.requires_fp16, (op_type, variant.name)


def test_custom_target_fp16_needs_mve():
    with pytest.raises(InvalidConfigError, match="fp16 without mve"):
        target_from_dict(dict(M4_TARGET, capabilities=["dsp", "fpu", "fp16"]), "t")


# ---- each float16 variant ----------------------------------------------------------------------

def test_conv_2d_float16(tmp_path):
    result, model_c, _ = convert(fp16_conv(act="RELU6", stride=2), tmp_path, "corstone300")
    op = result.plan["operators"][0]
    body = function_body(model_c, 0)
    assert op["variant"] == "float16" and op["kernel"]["entry"] == "arm_convolve_wrapper_f16"
    assert "{ 2, 2 }, /* stride w, h */\n        { 0, 0 }, /* padding w, h */" in body
    assert "{ (float16_t)0.0f, (float16_t)6.0f },\n        ARM_NN_WEIGHT_FORMAT_STANDARD" in body
    assert "const cmsis_nn_dims filter_dims = { 8, 3, 3, 4 };" in body
    # The patch-GEMM scratch: 8 rows of 3 * 3 * 4 float16 values.
    assert op["kernel"]["local_scratch_bytes"] == 8 * 36 * 2
    constants_c = (tmp_path / "out_corstone300" / "src" / "model_constants.c").read_text()
    assert re.search(r"const float16_t model_t\d+\[288\] = \{\n    -1\.0f,", constants_c)
    portable, _, _ = convert(fp16_conv(act="RELU6", stride=2), tmp_path / "p", "corstone300",
                             kernel_library="portable")
    assert portable.plan["operators"][0]["kernel"]["local_scratch_bytes"] == 0


def test_conv_2d_float16_refuses_groups(tmp_path):
    b = ModelBuilder()
    x = b.input("x", (1, 4, 4, 4), "float16")
    w = b.const("w", np.ones((4, 1, 1, 2)), "float16")
    y = b.tensor("y", (1, 4, 4, 4), "float16")
    b.op("CONV_2D", [x, w, None], [y], {"padding": "VALID", "stride_h": 1, "stride_w": 1})
    b.output(y)
    with pytest.raises(UnsupportedModelError, match="float16 grouped convolution"):
        helia_aot.convert(b.build(), tmp_path / "o")


def test_depthwise_conv_2d_float16(tmp_path):
    b = ModelBuilder()
    x = b.input("x", (1, 6, 6, 4), "float16")
    w = b.const("w", np.ones((1, 3, 3, 8)), "float16")
    bias = b.const("b", np.zeros(8), "float16")
    y = b.tensor("y", (1, 3, 3, 8), "float16")
    b.op("DEPTHWISE_CONV_2D", [x, w, bias], [y], {"padding": "SAME", "stride_h": 2, "stride_w": 2,
                                                   "depth_multiplier": 2, "fused_activation_function": "RELU"})
    b.output(y)
    result, model_c, _ = convert(b.build(), tmp_path)
    body = function_body(model_c, 0)
    assert "arm_depthwise_conv_wrapper_f16(&buf_ctx, &dw_conv_params" in body
    assert "const cmsis_nn_dw_conv_params_f16 dw_conv_params = {\n        2," in body
    assert "{ (float16_t)0.0f, ARM_NN_F16_FINITE_MAX }" in body
    assert result.plan["operators"][0]["kernel"]["local_scratch_bytes"] == 0  # multiplier 2: no fast path


def test_fully_connected_float16(tmp_path):
    b = ModelBuilder()
    x = b.input("x", (3, 10), "float16")
    w = b.const("w", np.ones((5, 10)), "float16")
    y = b.tensor("y", (3, 5), "float16")
    b.op("FULLY_CONNECTED", [x, w, None], [y], {"fused_activation_function": "RELU_N1_TO_1"})
    b.output(y)
    result, model_c, _ = convert(b.build(), tmp_path, "apollo510_evb")
    body = function_body(model_c, 0)
    assert "{ { (float16_t)-1.0f, (float16_t)1.0f }, ARM_NN_WEIGHT_FORMAT_STANDARD }" in body
    assert "const cmsis_nn_dims input_dims = { 3, 1, 1, 10 };" in body
    assert "const cmsis_nn_dims filter_dims = { 10, 1, 1, 5 };" in body
    assert "&bias_dims, NULL," in body and "ARM_NN_LAYOUT_NHWC);" in body
    assert result.report["operators"][0]["macs"] == 3 * 10 * 5


def test_transpose_conv_float16(tmp_path):
    b = ModelBuilder()
    shape = b.const("shape", np.array([1, 8, 8, 2], np.int32))
    w = b.const("w", np.ones((2, 3, 3, 4)), "float16")
    x = b.input("x", (1, 4, 4, 4), "float16")
    y = b.tensor("y", (1, 8, 8, 2), "float16")
    b.op("TRANSPOSE_CONV", [shape, w, x, None], [y], {"padding": "SAME", "stride_h": 2, "stride_w": 2})
    b.output(y)
    model = b.build()
    _, model_c, _ = convert(model, tmp_path, kernel_library="portable")
    body = function_body(model_c, 0)
    assert "arm_transpose_conv_wrapper_f16(&buf_ctx, &unused_ctx, &conv_params" in body
    # SAME, 3x3, stride 2 on 8: one row/column of padding in total, after (LiteRT's offset).
    assert "{ 0, 0 }, /* padding w, h (leading) */\n        { 1, 1 }," in body
    # ns-cmsis-nn 7.29.2 adds the offset to every output position (LiteRT has no such term): it gets none,
    # which a scatter bounded by the output never needs.
    result, model_c, _ = convert(model, tmp_path / "ns", kernel_library="ns_cmsis_nn")
    assert "{ 0, 0 }, /* padding w, h (leading) */\n        { 0, 0 }," in function_body(model_c, 0)
    assert "padding_offsets" in result.plan["operators"][0]["fixed"]


@pytest.mark.parametrize("op, entry", [("AVERAGE_POOL_2D", "arm_avg_pool_f16"), ("MAX_POOL_2D", "arm_max_pool_f16")])
def test_pools_float16(tmp_path, op, entry):
    b = ModelBuilder()
    x = b.input("x", (1, 5, 5, 3), "float16")
    y = b.tensor("y", (1, 3, 3, 3), "float16")
    b.op(op, [x], [y], {"padding": "SAME", "stride_h": 2, "stride_w": 2, "filter_height": 2, "filter_width": 2,
                        "fused_activation_function": "RELU"})
    b.output(y)
    _, model_c, _ = convert(b.build(), tmp_path)
    body = function_body(model_c, 0)
    assert f"{entry}(&buf_ctx, &pool_params, &input_dims" in body
    assert "{ (float16_t)0.0f, ARM_NN_F16_FINITE_MAX }" in body


def test_softmax_float16_and_its_beta_rule(tmp_path):
    _, model_c, _ = convert(fp16_unary("SOFTMAX", (3, 7), {"beta": 1.0}), tmp_path)
    assert "return arm_softmax_f16((float16_t *)(arena + " in function_body(model_c, 0)
    assert ", 3, 7, (float16_t *)(arena + " in function_body(model_c, 0)
    with pytest.raises(UnsupportedModelError, match="float16 softmax needs beta 1"):
        helia_aot.convert(fp16_unary("SOFTMAX", (3, 7), {"beta": 0.5}), tmp_path / "b")


@pytest.mark.parametrize("op, operator", [("ADD", "+"), ("SUB", "-"), ("MUL", "*")])
def test_elementwise_float16(tmp_path, op, operator):
    entry = f"arm_elementwise_{op.lower()}_f16"
    result, model_c, _ = convert(fp16_binary(op, (1, 2, 3, 4), (1, 2, 3, 4), (1, 2, 3, 4), "RELU6"), tmp_path)
    assert f"return {entry}((float16_t *)(arena + " in function_body(model_c, 0)
    assert "(float16_t)0.0f, (float16_t)6.0f, 24);" in function_body(model_c, 0)
    assert result.plan["operators"][0]["kernel"]["entry"] == entry
    broadcast, model_c, common_h = convert(fp16_binary(op, (1, 2, 3, 4), (4,), (1, 2, 3, 4)), tmp_path / "b")
    body = function_body(model_c, 0)
    assert entry not in body and f"float16_t v = (float16_t)(a {operator} b);" in body
    # Over the merged dims (6 x 4: the two broadcast axes are one): operand 2 ([4]) is read with stride 1
    # along channels and 0 elsewhere; a size-1 axis has stride 0.
    assert "in2[n * 0 + h * 0 + w * 0 + c * 1]" in body and "in1[n * 0 + h * 0 + w * 4 + c * 1]" in body
    assert broadcast.plan["operators"][0]["kernel"]["entry"] is None
    assert "ARM_NN_ENABLE_F16" in common_h  # no float16 entry is called, but the code names float16_t


def test_pad_padv2_float16(tmp_path):
    b = ModelBuilder()
    x = b.input("x", (1, 2, 2, 3), "float32")
    pads = b.const("pads", np.array([[0, 0], [1, 0], [0, 2], [0, 0]], np.int32))
    v16 = b.const("v", np.array(-0.75), "float16")
    v = b.tensor("v_f32", (), "float32")
    b.op("DEQUANTIZE", [v16], [v])
    y = b.tensor("y", (1, 3, 4, 3), "float32")
    b.op("PADV2", [x, pads, v], [y])
    b.output(y)
    _, model_c, _ = convert(to_float16(b.build()), tmp_path)
    body = function_body(model_c, 0)
    assert "arm_pad_f16((float16_t *)(arena + " in body and "(float16_t)((float16_t)-0.75f)" in body
    assert "const cmsis_nn_dims pre_pad = { 0, 1, 0, 0 };" in body
    _, model_c, _ = convert(fp16_binary_pad(), tmp_path / "pad")
    assert "(float16_t)((float16_t)0.0f)" in function_body(model_c, 0)


def fp16_binary_pad() -> bytes:
    b = ModelBuilder()
    x = b.input("x", (1, 2, 2, 3), "float16")
    pads = b.const("pads", np.array([[0, 0], [1, 0], [0, 2], [0, 0]], np.int32))
    y = b.tensor("y", (1, 3, 4, 3), "float16")
    b.op("PAD", [x, pads], [y])
    b.output(y)
    return b.build()


def test_strided_slice_and_transpose_float16(tmp_path):
    b = ModelBuilder()
    x = b.input("x", (2, 3, 4), "float16")
    y = b.tensor("y", (2, 2, 2), "float16")
    b.op("STRIDED_SLICE", [x, b.const("b", np.array([0, 1, 0], np.int32)), b.const("e", np.array([2, 3, 4], np.int32)),
                           b.const("s", np.array([1, 1, 2], np.int32))], [y])
    t = b.tensor("t", (2, 2, 2), "float16")
    b.op("TRANSPOSE", [y, b.const("perm", np.array([2, 0, 1], np.int32))], [t])
    b.output(t)
    _, model_c, _ = convert(b.build(), tmp_path)
    assert "return arm_strided_slice_f16((float16_t *)(arena + " in function_body(model_c, 0)
    assert "const cmsis_nn_dims begin_dims = { 0, 0, 1, 0 };" in function_body(model_c, 0)
    body = function_body(model_c, 1)
    assert "const cmsis_nn_transpose_params_f16 transpose_params = { 4, { 0, 3, 1, 2 }, ARM_NN_LAYOUT_NHWC };" in body
    assert "arm_transpose_f16(NULL, &transpose_params, &input_dims" in body


@pytest.mark.parametrize("op, kind, options, param", [
    ("RELU", "RELU", None, "(float16_t)0.0f"),
    ("RELU6", "RELU6", None, "(float16_t)0.0f"),
    ("LOGISTIC", "SIGMOID", None, "(float16_t)0.0f"),
    ("TANH", "TANH", None, "(float16_t)0.0f"),
    ("HARD_SWISH", "HARDSWISH", None, "(float16_t)0.0f"),
    ("LEAKY_RELU", "LEAKY_RELU", {"alpha": 0.2}, "(float16_t)0.199951171875f"),  # alpha as a float16
])
def test_activations_float16(tmp_path, op, kind, options, param):
    result, model_c, _ = convert(fp16_unary(op, (1, 16), options), tmp_path)
    body = function_body(model_c, 0)
    assert f", 16, ARM_NN_FLT_ACT_{kind}, {param});" in body
    assert body.strip().startswith("return arm_nn_activation_f16((float16_t *)(arena + ")
    assert result.plan["operators"][0]["variant"] == "float16"


# ---- scratch sizers against ns-cmsis-nn's f16 ones -----------------------------------------------

SIZER_PROGRAM = r"""
#include <stdio.h>
#include "arm_nnfunctions.h"
static const int cases[][12] = { %(cases)s };
int main(void)
{
    unsigned i;
    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
    {
        const int *c = cases[i];
        /* h, w, cin, kh, kw, cout, stride_h, stride_w, pad_h, pad_w, oh, ow */
        const cmsis_nn_conv_params_f16 cp = {{c[7], c[6]}, {c[9], c[8]}, {1, 1}, {0, 0}, ARM_NN_WEIGHT_FORMAT_STANDARD};
        const cmsis_nn_dw_conv_params_f16 dp = {c[5] / c[2], {c[7], c[6]}, {c[9], c[8]}, {1, 1}, {0, 0}};
        const cmsis_nn_dims in = {1, c[0], c[1], c[2]};
        const cmsis_nn_dims f = {c[5], c[3], c[4], c[2]};
        const cmsis_nn_dims dwf = {1, c[3], c[4], c[5]};
        const cmsis_nn_dims o = {1, c[10], c[11], c[5]};
        printf("%%d %%d\n", (int)arm_convolve_wrapper_f16_get_buffer_size(&cp, &in, &f, &o),
               (int)arm_depthwise_conv_wrapper_f16_get_buffer_size(&dp, &in, &dwf, &o));
    }
    return 0;
}
"""


def _sizer_cases():
    cases = []
    for h, w, cin, kh, kw, cout, sh, sw, ph, pw in [
            (8, 8, 4, 3, 3, 8, 1, 1, 1, 1), (8, 8, 4, 1, 1, 8, 1, 1, 0, 0), (8, 8, 4, 1, 1, 8, 2, 2, 0, 0),
            (1, 16, 8, 1, 3, 4, 1, 1, 0, 0), (1, 16, 8, 1, 4, 4, 1, 1, 0, 0), (1, 16, 8, 1, 5, 4, 1, 2, 0, 0),
            (1, 16, 8, 1, 3, 4, 1, 1, 0, 1), (9, 7, 4, 5, 3, 8, 2, 2, 2, 1), (6, 6, 16, 3, 3, 16, 1, 1, 1, 1),
            (6, 6, 1, 3, 3, 8, 1, 1, 1, 1), (5, 5, 3, 2, 2, 3, 2, 2, 0, 0)]:
        oh = (h + 2 * ph - kh) // sh + 1
        ow = (w + 2 * pw - kw) // sw + 1
        cases.append((h, w, cin, kh, kw, cout, sh, sw, ph, pw, oh, ow))
    return cases


def test_float16_sizers_match_ns_cmsis_nn_plain_c(tmp_path):
    root = ns_cmsis_nn_dir()
    gcc = require_gcc()
    cases = _sizer_cases()
    src = tmp_path / "sizes.c"
    src.write_text(SIZER_PROGRAM % {"cases": ", ".join("{" + ", ".join(map(str, c)) + "}" for c in cases)})
    exe = tmp_path / "sizes"
    proc = compile_c([gcc, "-std=c99", "-DARM_NN_ENABLE_F16=1", "-I", str(root / "Include"),
                      "-I", str(root / "Source" / "NNSupportFunctions"), str(src),
                      str(root / "Source" / "NNSupportFunctions" / "arm_get_buffer_size_f16.c"), "-o", str(exe)])
    assert proc.returncode == 0, proc.stderr
    lines = compile_c([str(exe)]).stdout.splitlines()
    assert len(lines) == len(cases)
    for case, line in zip(cases, lines):
        h, w, cin, kh, kw, cout, sh, sw, ph, pw, oh, ow = case
        g = ConvGeometry(sw, sh, pw, ph)
        want = [int(v) for v in line.split()]
        got = [sizes.convolve_wrapper_f16("plain", g, (1, h, w, cin), (cout, kh, kw, cin), (1, oh, ow, cout)),
               sizes.depthwise_wrapper_f16("plain", g, cout // cin, (1, h, w, cin), (1, kh, kw, cout),
                                           (1, oh, ow, cout))]
        assert got == want, case


def test_concatenation_float16(tmp_path):
    b = ModelBuilder()
    x1 = b.input("x1", (2, 3, 4), "float16")
    x2 = b.input("x2", (2, 1, 4), "float16")
    y = b.tensor("y", (2, 4, 4), "float16")
    b.op("CONCATENATION", [x1, x2], [y], {"axis": -2})
    b.output(y)
    _, model_c, common_h = convert(b.build(), tmp_path)
    body = function_body(model_c, 0)
    # Two rows (the batch); 12 and 4 elements per row into rows of 16.
    assert "for (row = 0; row < 2; row++)" in body
    assert re.search(r"memcpy\(out \+ row \* 16 \+ 0, \(float16_t \*\)\(arena \+ \d+\) \+ row \* 12,\n"
                     r" +12 \* sizeof\(float16_t\)\);", body)
    assert re.search(r"memcpy\(out \+ row \* 16 \+ 12, \(float16_t \*\)\(arena \+ \d+\) \+ row \* 4,", body)
    assert "ARM_NN_ENABLE_F16" in common_h
    b2 = ModelBuilder()
    x = b2.input("x", (1, 4), "float16")
    z = b2.tensor("z", (1, 8), "float16")
    b2.op("CONCATENATION", [x, x], [z], {"axis": 1, "fused_activation_function": "RELU"})
    b2.output(z)
    with pytest.raises(UnsupportedModelError, match="fused activation on CONCATENATION"):
        helia_aot.convert(b2.build(), tmp_path / "relu")


def test_mean_float16(tmp_path):
    b = ModelBuilder()
    x = b.input("x", (2, 3, 4, 5), "float16")
    y = b.tensor("y", (2, 5), "float16")
    b.op("MEAN", [x, b.const("axis", np.array([2, -3], np.int32))], [y], {"keep_dims": False})
    b.output(y)
    result, model_c, common_h = convert(b.build(), tmp_path)
    body = function_body(model_c, 0)
    assert "for (n = 0; n < 2; n++)" in body and "for (c = 0; c < 5; c++)" in body
    assert "for (rh = 0; rh < 3; rh++)" in body and "for (rw = 0; rw < 4; rw++)" in body
    assert "for (rn = 0; rn < 1; rn++)" in body and "for (rc = 0; rc < 1; rc++)" in body
    assert "*out++ = (float16_t)(sum / 12.0f);" in body
    assert result.plan["operators"][0]["kernel"]["entry"] is None and "ARM_NN_ENABLE_F16" in common_h
