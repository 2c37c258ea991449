# SPDX-License-Identifier: Apache-2.0
"""SVDF: one time step of a rank-r SVDF layer per run, its memory kept in the state (a variable
tensor, so in the persistent arena). Integer with an int16 state (LiteRT's integer SVDF) on
arm_svdf_state_s16_s8, with an int8 state (TFLM's) on arm_svdf_s8, or inline C of TFLM's arithmetic when
the state's zero point is not 0 (both kernels assume 0), float32 on arm_svdf_f32.

The rules and the reference check each mirrors (LiteRT svdf.cc Prepare/Eval, TFLM svdf_common.cc
PrepareSvdf): the shapes are both Prepares' checks; the state a variable tensor is TFLM's
TF_LITE_ENSURE_EQ(is_variable); per-tensor scales are what both read (scale->data[0], params.scale).
Accepted as the references run them: any integer fused activation, none applied (LiteRT's Eval takes RELU
only, TFLM's any; neither applies one), and any weight zero point, computed as 0 (neither LiteRT's
EvalIntegerSVDF nor TFLM's EvalIntegerSvdfReference / PrepareSvdf reads or checks one). A nonzero int16
state zero point is TFLM's form (LiteRT's EvalIntegerSVDF never reads it): run as TFLM computes it where
only TFLM runs the model (an activation other than RELU), refused where both run it and disagree (RELU)."""

from __future__ import annotations

import numpy as np

from helia_aot.emit.c_syntax import c_float
from helia_aot.ir.quant import f32, quantize_multiplier
from helia_aot.ops.base import (ConstArray, Lowered, OpContext, OpLowering, Operand, Rule, Variant, both, helia_limit,
                                kernel_limit, register, tflm)
from helia_aot.ops.shared.accumulator import requantization_kind
from helia_aot.ops.shared.fused_activation import FLT_MAX, NO_CLAMP, float_activation
from helia_aot.ops.shared.operands import dtype_range, fp32, fp32_bias, fp32_const, int8_act

_PREPARES = "svdf.cc Prepare / micro svdf_common.cc PrepareSvdf"
RANK = Rule("rank an integer >= 1 dividing the filters (units x rank)", both(
    _PREPARES, "TF_LITE_ENSURE_EQ(num_filters % rank, 0); num_units = num_filters / rank"))
SHAPES = Rule("input [batches, input size]; weights_feature [units x rank, input size]; weights_time [units x rank, "
              "memory]; bias [units]; state [batches, units x rank x memory]; output [batches, units]", both(
                  _PREPARES, "TF_LITE_ENSURE_EQ on each of these dims (NumDimensions 2, SizeOfDimension)"))
STATE_VARIABLE = Rule("state a variable tensor", tflm("svdf_common.cc PrepareSvdf",
                                                      "TF_LITE_ENSURE_EQ(activation_state->is_variable, true)"))
# Both references run an int16 state with a nonzero zero point under RELU (LiteRT's Eval takes no other
# activation) and disagree once a projection saturates: LiteRT's EvalIntegerSVDF never reads the zero point,
# TFLM's EvalIntegerSvdfReference adds it to the clamped projection (wrapping past int16) and takes it off.
STATE16_ZP = Rule("int16 state zero point 0 under fused RELU (the activation LiteRT runs)", helia_limit(
    "LiteRT and TFLM both run it and disagree: LiteRT's EvalIntegerSVDF never reads the state zero point, TFLM's "
    "EvalIntegerSvdfReference adds it to each clamped projection and takes it off in the time sums"))
# LiteRT's float SVDF applies its fused activation as a function (ApplyActivationToVector: tanh, sign bit), where
# the convolutions take TANH and SIGN_BIT as no clamp; arm_svdf_f32 only clamps.
FLOAT_ACTIVATION = Rule("fused activation NONE, RELU, RELU6 or RELU_N1_TO_1", kernel_limit(
    "arm_svdf_f32", "applies the fused activation as a clamp range; LiteRT's float SVDF applies TANH and SIGN_BIT as "
    "functions (svdf.h EvalFloatSVDF, ApplyActivationToVector)",
    "inline C applying tanh / the sign bit to the kernel's output"))
_RULES = (RANK, SHAPES, STATE_VARIABLE)


def _integer_variant(name: str, state: str, entry: str) -> Variant:
    # No weight is symmetric here: neither reference reads a weight zero point (both compute as if 0), nor
    # does this module. The int16 state's zero point is checked in validate() (it depends on the activation).
    notes = ("any fused activation, none applied (LiteRT's Eval takes RELU only, TFLM's any; neither applies one)",
             "weight zero points ignored, as both references do",
             f"state zero point other than 0: inline C of TFLM's arithmetic ({entry} assumes 0)"
             + (", under an activation other than RELU (only TFLM runs it)" if state == "int16" else ""))
    return Variant(name, inputs=(int8_act(), Operand("weights_feature", ("int8",), constant=True, quantized=True),
                                 Operand("weights_time", (state,), constant=True, quantized=True),
                                 Operand("bias", ("int32",), optional=True, constant=True),
                                 Operand("state", (state,), quantized=True)),
                   outputs=(int8_act("output"),), entries=(entry,), template="svdf_s8.c.j2", lower="lower_int",
                   notes=notes, rules=_RULES + ((STATE16_ZP,) if state == "int16" else ()))


@register
class Svdf(OpLowering):
    op_types = ("SVDF",)
    options_table = "SVDFOptions"
    keeps_state = True
    variants = (
        _integer_variant("int8", "int16", "arm_svdf_state_s16_s8"),
        _integer_variant("int8_state8", "int8", "arm_svdf_s8"),
        Variant("float32", inputs=(fp32(), fp32_const("weights_feature"), fp32_const("weights_time"), fp32_bias(),
                                   fp32("state")),
                outputs=(fp32("output"),), entries=("arm_svdf_f32",), template="svdf_f32.c.j2",
                lower="lower_float32",
                rules=_RULES + (FLOAT_ACTIVATION,)),
    )

    def validate(self, ctx: OpContext) -> None:
        x, wf, wt, b, state, y = ctx.inp(0), ctx.inp(1), ctx.inp(2), ctx.inp(3), ctx.inp(4), ctx.out(0)
        rank = ctx.options("rank", 0)
        if not isinstance(rank, int) or isinstance(rank, bool) or rank < 1:
            raise ctx.error(RANK, detail=f"rank {rank!r} must be an integer >= 1")
        for t, what in ((x, "input"), (wf, "weights_feature"), (wt, "weights_time"), (state, "state"), (y, "output")):
            if len(t.shape) != 2:
                raise ctx.error(SHAPES, t, detail=f"{what} must be 2-D, got {list(t.shape)}")
        batches, input_size = x.shape
        features, memory = wt.shape
        if tuple(wf.shape) != (features, input_size):
            raise ctx.error(SHAPES, wf, detail=f"weights_feature {list(wf.shape)} must be [{features}, {input_size}] "
                                               "(time weights' filters, input size)")
        if features % rank:
            raise ctx.error(RANK, wt, detail=f"{features} filters are not a multiple of rank {rank}")
        units = features // rank
        if b is not None and tuple(b.shape) != (units,):
            raise ctx.error(SHAPES, b, detail=f"bias {list(b.shape)} must be [{units}]")
        if tuple(state.shape) != (batches, features * memory):
            raise ctx.error(SHAPES, state, detail=f"state {list(state.shape)} must be [{batches}, {features * memory}] "
                                                  "(batches, filters x memory)")
        if not state.is_variable:
            raise ctx.error(STATE_VARIABLE, state, "Export the model with the SVDF state as a variable tensor",
                            detail="state must be a variable tensor (LiteRT keeps it between invocations)")
        if tuple(y.shape) != (batches, units):
            raise ctx.error(SHAPES, y, detail=f"output {list(y.shape)} must be [{batches}, {units}]")
        act = ctx.options("fused_activation_function", "NONE")
        if state.dtype == "int16" and state.quant.zero_point != 0 and act == "RELU":
            raise ctx.error(STATE16_ZP, state, "Re-export the model with the int16 state's zero point 0",
                            detail=f"int16 state zero point {state.quant.zero_point} under fused RELU: LiteRT and "
                                   "TFLM both run it and disagree (LiteRT's SVDF never reads it)")
        if ctx.variant.name == "float32":
            if act in NO_CLAMP:
                raise ctx.error(FLOAT_ACTIVATION, y, "Apply the activation as its own operator after the SVDF",
                                detail=f"fused activation {act} is not supported on the float SVDF")
            float_activation(ctx, y)  # refuses values LiteRT does not define

    def _dims(self, ctx: OpContext) -> dict:
        x, wt, y = ctx.inp(0), ctx.inp(2), ctx.out(0)
        batches, input_size = (int(d) for d in x.shape)
        features, memory = (int(d) for d in wt.shape)
        units = int(y.shape[1])
        return dict(batches=batches, input_size=input_size, features=features, memory=memory, units=units,
                    rank=features // units, input=x.index, weights_feature=ctx.inp(1).index,
                    weights_time=wt.index, bias=ctx.inp(3).index if ctx.inp(3) is not None else None,
                    state=ctx.inp(4).index, output=y.index,
                    feature_bytes=batches * features * 4, unit_bytes=batches * units * 4)

    def _macs(self, p: dict) -> int:
        return p["batches"] * p["features"] * (p["input_size"] + p["memory"])

    def lower_int(self, ctx: OpContext) -> Lowered:
        """LiteRT's EvalIntegerSVDF: the projection scaled by input x weights_feature / state scale into the
        state (clamped to its type), the time dot products plus bias scaled by state x weights_time /
        output scale (both products in float32, as LiteRT's Prepare computes them), then the output zero
        point and the int8 clamp."""
        x, wf, wt, state, y = ctx.inp(0), ctx.inp(1), ctx.inp(2), ctx.inp(4), ctx.out(0)
        p = self._dims(ctx)
        # The weight zero points are not read: both references compute as if they were 0.
        scale_1 = float(np.float32(np.float32(x.quant.scale) * np.float32(wf.quant.scale))
                        / np.float32(state.quant.scale))
        scale_2 = float(np.float32(np.float32(state.quant.scale) * np.float32(wt.quant.scale))
                        / np.float32(y.quant.scale))
        m1, s1 = quantize_multiplier(f32(scale_1))
        m2, s2 = quantize_multiplier(f32(scale_2))
        in_min, in_max = dtype_range(state.dtype)
        entry = ctx.variant.entries[0]
        p.update(input_offset=x.quant.zero_point, output_offset=y.quant.zero_point, in_mult=m1, in_shift=s1,
                 out_mult=m2, out_shift=s2, in_min=in_min, in_max=in_max, out_min=-128, out_max=127,
                 int8_state=entry == "arm_svdf_s8")
        requantization = requantization_kind([m1, m2], [s1, s2])
        if state.quant.zero_point != 0:
            # TFLM's arithmetic inline: an int8 state (TFLM's form), or an int16 one under an activation LiteRT
            # refuses (validate() refused RELU), so only TFLM runs it.
            p.update(state_zero_point=int(state.quant.zero_point), state_ctype=f"{state.dtype}_t",
                     weights_time_ctype=f"{wt.dtype}_t", state_mask=(1 << (8 * np.dtype(state.dtype).itemsize)) - 1)
            return Lowered(template="svdf_s8_state_offset.c.j2", entry=None, macs=self._macs(p), params=p,
                           requantization=requantization,
                           fixed={"implementation": "inline", "why": f"state zero point != 0 ({entry} assumes 0)"})
        constants, weight_sums = [], None
        if entry == "arm_svdf_s8" and ctx.kernels.wants_weight_sums:
            # ctx->buf of the Helium build: -input_offset x each feature's weight sum (arm_vector_sum_s8).
            sums = wf.data.astype(np.int64).sum(axis=1) * -int(x.quant.zero_point)
            constants.append(ConstArray("kernel_sum", "int32_t", sums, "-input zero point x weights_feature row sums, "
                                                                        "ctx->buf of the MVE kernel"))
            weight_sums = "precomputed"
        return Lowered(entry=entry, scratch_bytes=p["feature_bytes"] + p["unit_bytes"], macs=self._macs(p),
                       params=p, constants=constants, weight_sums=weight_sums, requantization=requantization)

    def lower_float32(self, ctx: OpContext) -> Lowered:
        """LiteRT's EvalFloatSVDF on arm_svdf_f32: the projection unclamped (+-FLT_MAX), the fused
        activation as the output clamp."""
        p = self._dims(ctx)
        act_min, act_max = float_activation(ctx, ctx.out(0))
        p.update(act_min=act_min, act_max=act_max, in_min=c_float(-FLT_MAX), in_max=c_float(FLT_MAX))
        return Lowered(entry="arm_svdf_f32", scratch_bytes=p["feature_bytes"] + p["unit_bytes"], macs=self._macs(p),
                       params=p)
