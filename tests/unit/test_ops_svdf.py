# SPDX-License-Identifier: Apache-2.0
"""SVDF: the emitted ns-cmsis-nn call and its parameters (scales are powers of two, so the
multipliers are checked by hand), the state in the persistent arena, the work buffers in scratch,
and the rules it refuses."""

from __future__ import annotations

import numpy as np
import pytest

import helia_aot
from helia_aot.errors import UnsupportedModelError
from tests.modelgen import ModelBuilder

from .helpers import function_body

Q30 = 1 << 30
B, I, U, R, T = 2, 5, 3, 2, 4  # batches, input size, units, rank, memory
F = U * R


def svdf_model(state: str = "int16", act: str = "RELU", bias: bool = True, variable: bool = True,
               state_zero_point: int = 0, weights_zero_points: tuple[int, int] = (0, 0)) -> ModelBuilder:
    b = ModelBuilder()
    if state == "float32":
        x = b.input("x", (B, I), "float32")
        wf = b.const("wf", np.ones((F, I), np.float32))
        wt = b.const("wt", np.ones((F, T), np.float32))
        bb = b.const("bias", np.ones(U, np.float32)) if bias else None
        s = b.tensor("state", (B, F * T), "float32", variable=variable)
        y = b.tensor("y", (B, U), "float32")
    else:
        x = b.input("x", (B, I), "int8", 0.5, -3)
        wf = b.const("wf", np.ones((F, I), np.int8), "int8", 0.25, weights_zero_points[0])
        wt = b.const("wt", np.ones((F, T), np.int8 if state == "int8" else np.int16), state, 0.5,
                     weights_zero_points[1])
        bb = b.const("bias", np.arange(U, dtype=np.int32), "int32", 0.125, 0) if bias else None
        s = (b.tensor("state", (B, F * T), state, 0.125, state_zero_point, variable=True) if variable
             else b.input("state", (B, F * T), state, 0.125, 0))
        y = b.tensor("y", (B, U), "int8", 0.25, 7)
    b.op("SVDF", [x, wf, wt, bb, s], [y], {"rank": R, "fused_activation_function": act})
    b.output(y)
    return b


def convert(b: ModelBuilder, tmp_path, target="host", **kw):
    out = tmp_path / "out"
    result = helia_aot.convert(b.build(), out, target=target, **kw)
    return result, (out / "src" / "model_model.c").read_text(), (out / "src" / "model_constants.c").read_text()


def test_svdf_int16_state(tmp_path):
    result, model_c, _ = convert(svdf_model(), tmp_path)
    op = result.plan["operators"][0]
    assert (op["variant"], op["kernel"]["entry"]) == ("int8", "arm_svdf_state_s16_s8")
    body = function_body(model_c, 0)
    # input 0.5 x weights 0.25 / state 0.125 = 1.0; state 0.125 x time 0.5 / output 0.25 = 0.25
    assert "svdf_params = {\n        2, -3, 7, { -32768, 32767 }, { -128, 127 }\n    };" in body
    assert f"input_quant = {{ {Q30}, 1 }}" in body and f"output_quant = {{ {Q30}, -1 }}" in body
    assert "input_dims = { 2, 5, 1, 1 }" in body and "weights_time_dims = { 6, 4, 1, 1 }" in body
    assert "output_dims = { 2, 3, 1, 1 }" in body and "bias_dims = { 3, 1, 1, 1 }" in body
    # work buffers in scratch: 2 x 6 then 2 x 3 int32
    assert op["kernel"]["local_scratch_bytes"] == (B * F + B * U) * 4
    assert "input_ctx = { arena + " in body and f", {B * F * 4} }};" in body
    # the state lives in the persistent arena and is reset to zero
    assert "(int16_t *)(persistent + 0)" in body
    assert result.plan["memory"]["persistent_buffers"] == [
        {"name": "v4", "tensor": "state", "offset": 0, "bytes": B * F * T * 2, "initial": "zero"}]
    assert result.report["total_macs"] == B * F * (I + T)


@pytest.mark.parametrize("target, sums", [("corstone300", True), ("apollo4p_evb", False)])
def test_svdf_int8_state_kernel_sums_on_mve_only(tmp_path, target, sums):
    result, model_c, consts = convert(svdf_model("int8"), tmp_path, target=target)
    op = result.plan["operators"][0]
    assert (op["variant"], op["kernel"]["entry"]) == ("int8_state8", "arm_svdf_s8")
    body = function_body(model_c, 0)
    assert "{ -128, 127 }, { -128, 127 }" in body
    if sums:
        # -input zero point (3) x the row sums of the all-ones [6, 5] weights
        assert op["kernel"]["weight_sums"] == "precomputed"
        assert "model_op0_kernel_sum[6] = {\n    15, 15, 15, 15, 15, 15," in consts
    else:
        assert "sum_ctx = { NULL, 0 }" in body


def test_svdf_float32(tmp_path):
    result, model_c, _ = convert(svdf_model("float32", act="RELU6", bias=False), tmp_path)
    op = result.plan["operators"][0]
    assert (op["variant"], op["kernel"]["entry"]) == ("float32", "arm_svdf_f32")
    body = function_body(model_c, 0)
    assert "{ 0.0f, 6.0f }" in body and "&bias_dims, NULL," in body
    assert "(float *)(persistent + 0)" in body


@pytest.mark.parametrize("act", ["TANH", "SIGN_BIT"])
def test_svdf_float32_refuses_an_activation_its_reference_applies_as_a_function(tmp_path, act):
    """Unlike the convolutions, which take a fused TANH / SIGN_BIT as no clamp, LiteRT's float SVDF applies
    the function (ApplyActivationToVector): its outputs are not NONE's, which arm_svdf_f32 (a clamp) would
    give, so the float SVDF refuses them by its kernel limit."""
    from tests.modelgen.litert import run_reference
    x = np.linspace(-2.0, 2.0, B * I, dtype=np.float32).reshape(B, I)
    none, applied = (run_reference(svdf_model("float32", act=a).build(), [x])[0] for a in ("NONE", act))
    assert not np.array_equal(none, applied), "LiteRT applies nothing: the float SVDF could take it as NONE"
    with pytest.raises(UnsupportedModelError, match=rf"tensor 'y': fused activation {act} is not supported on the "
                                                    r"float SVDF \(kernel limit: arm_svdf_f32"):
        convert(svdf_model("float32", act=act), tmp_path)


def test_svdf_refusals(tmp_path):
    # state fed by the caller instead of kept: LiteRT would reset nothing and carry nothing
    with pytest.raises(UnsupportedModelError, match="tensor 'state': state must be a variable tensor"):
        convert(svdf_model(variable=False), tmp_path)


@pytest.mark.parametrize("target", ["host", "corstone300"])
def test_svdf_int8_state_zero_point_runs_inline(tmp_path, target):
    """TFLM's int8 state with a zero point other than 0 (arm_svdf_s8 assumes 0): inline C on every
    build, the zero point added to the projection after its clamp and taken off in the time sums."""
    result, model_c, consts = convert(svdf_model("int8", state_zero_point=-5), tmp_path, target=target)
    op = result.plan["operators"][0]
    assert (op["variant"], op["kernel"]["entry"]) == ("int8_state8", None)
    assert op["fixed"]["implementation"] == "inline"
    body = function_body(model_c, 0)
    assert "arm_svdf_s8(" not in body and "kernel_sum" not in consts
    assert "q = (q < -128 ? -128 : (q > 127 ? 127 : q)) + (-5);" in body
    assert "- (-5));" in body
    # the state starts at real 0: every byte its zero point
    (state,) = result.plan["memory"]["persistent_buffers"]
    assert state["initial"] == "zero_point"


def test_svdf_int16_state_zero_point_refused_under_relu(tmp_path):
    # Both references run it under RELU and disagree (LiteRT's SVDF never reads it, TFLM's does): refused.
    with pytest.raises(UnsupportedModelError, match=r"tensor 'state': int16 state zero point 3 under fused RELU: "
                                                    r"LiteRT and TFLM both run it and disagree.*\(helia-aot limit\)"):
        convert(svdf_model("int16", state_zero_point=3), tmp_path)


@pytest.mark.parametrize("act", ["NONE", "TANH", "RELU6"])
def test_svdf_int16_state_zero_point_runs_inline_where_only_tflm_runs(tmp_path, act):
    """LiteRT's integer SVDF takes RELU only; TFLM's takes any activation, applies none and uses the int16
    state's zero point: inline C with the int16 clamp, wrap and types (tests/unit/test_ops_svdf_references.py
    runs it against TFLM)."""
    result, model_c, _ = convert(svdf_model("int16", act=act, state_zero_point=3), tmp_path)
    op = result.plan["operators"][0]
    assert (op["variant"], op["kernel"]["entry"], op["fixed"]["implementation"]) == ("int8", None, "inline")
    body = function_body(model_c, 0)
    assert "arm_svdf_state_s16_s8(" not in body
    assert "const int16_t *weights_time" in body and "int16_t *state" in body
    assert "q = (q < -32768 ? -32768 : (q > 32767 ? 32767 : q)) + (3);" in body
    assert "(int16_t)(((q - (-32768)) & 65535) + (-32768));" in body and "- (3));" in body
    # TFLM resets an int16 variable to zero bytes (only int8 ones to their zero point)
    (state,) = result.plan["memory"]["persistent_buffers"]
    assert state["initial"] == "zero"


@pytest.mark.parametrize("act", ["NONE", "TANH", "SIGN_BIT", "RELU_N1_TO_1"])
def test_svdf_integer_takes_any_activation_and_applies_none(tmp_path, act):
    """TFLM's integer SVDF takes any fused activation and applies none (LiteRT's takes RELU and applies
    none): the same call as under RELU."""
    _, relu_c, _ = convert(svdf_model(), tmp_path / "relu")
    _, model_c, _ = convert(svdf_model(act=act), tmp_path / act)
    assert function_body(model_c, 0) == function_body(relu_c, 0)


def test_svdf_weight_zero_points_are_ignored(tmp_path):
    """Neither reference reads a weight zero point (LiteRT's EvalIntegerSVDF, TFLM's EvalIntegerSvdfReference
    and PrepareSvdf): the module computes as with 0."""
    for state in ("int16", "int8"):
        _, plain_c, plain_consts = convert(svdf_model(state), tmp_path / f"{state}_plain")
        _, model_c, consts = convert(svdf_model(state, weights_zero_points=(4, -2)), tmp_path / f"{state}_zp")
        assert function_body(model_c, 0) == function_body(plain_c, 0)
        # the same constants (the header names the model's hash, which differs)
        assert [ln for ln in consts.splitlines() if "sha256" not in ln] == \
            [ln for ln in plain_consts.splitlines() if "sha256" not in ln]
