# SPDX-License-Identifier: Apache-2.0
"""The clamp operators' base classes: RELU and RELU6 (ClampLowering), RELU_N1_TO_1 and RELU_0_TO_1
(BoundedReluLowering). Each operator declares the real range it clamps to (`clamp_bounds`); its integer
lowerings clamp to that range in output codes (clamp_codes), and so does the fold_clamp rewrite when it
moves such a clamp into the operator that produced its input."""

from __future__ import annotations

import math

import numpy as np

from helia_aot.emit.c_syntax import c_float
from helia_aot.ir.graph import Tensor
from helia_aot.ir.quant import f32, multiplier_shift, quantize_multiplier, quantize_value
from helia_aot.ops.base import INT16_ZERO_POINT_SOURCE, Lowered, OpContext, OpLowering, Rule, Variant, both, litert
from helia_aot.ops.shared.checks import OUTPUT_SIZE_RULE, unary_validate
from helia_aot.ops.shared.fixed_point import multiply_by_quantized_multiplier
from helia_aot.ops.shared.float_variants import (activation_f16_lowering, activation_f16_variant, activation_lowered,
                                                 activation_variant)
from helia_aot.ops.shared.operands import dtype_range, fp32, int8_act, int16_offset_act
from helia_aot.ops.shared.unary_math import fits_left_shift, float_lowered, left_shift_rule, quantized_dtype

# arm_relu_generic_s8 and LiteRT's ReluX shift (q - zero point) left before the multiply; a shift of 22 or less
# keeps 255 << shift within int32.
BOUNDED_NO_INT16 = Rule("no int16 (LiteRT's kernel computes float32, uint8 and int8 only)", litert(
    "activations.cc Relu1Eval / Relu0to1Eval", "\"Only float32, uint8, int8 supported currently\" for any other type"))
RELU_X_SHIFT = left_shift_rule("arm_relu_generic_s8", "q - zero point for every int8 q")
# RELU / RELU6 rescale by input / output scale as LiteRT's QuantizedReluX (activations.cc): the same int32 shift.
REQUANTIZE_SHIFT = left_shift_rule("arm_requantize_s8_s8 / arm_requantize_s16_s16 / arm_relu_s16",
                                   "q - zero point for every input code")


def clamp_codes(bounds: tuple[float, float], scale: float, zero_point: int, qmin: int, qmax: int) -> tuple[int, int]:
    """The real range `bounds` in output codes as LiteRT's CalculateActivationRangeQuantized forms it:
    each finite bound quantized (float32 quotient, rounded half away), within the dtype's range; an
    infinite one is the dtype's end."""
    low, high = bounds
    lo = qmin if low == -math.inf else max(qmin, quantize_value(low, scale, zero_point))
    hi = qmax if high == math.inf else min(qmax, quantize_value(high, scale, zero_point))
    return lo, hi


# int16 zero points: LiteRT's ReluX takes none (the int16 kernels' check), TFLM's RELU none either. TFLM's RELU6
# clamps the input's codes between its quantized 0 and 6 (Relu6Quantized), which is RELU6 exactly when the output
# shares the input's quantization: that form converts (a clamp), any other is refused.
RELU_INT16_OFFSETS = Rule("int16 RELU: zero points 0", both(
    "activations.cc ReluPrepare / micro activations_common.cc ReluPrepare",
    "TF_LITE_ENSURE_EQ(input / output params.zero_point, 0) for kTfLiteInt16"))
RELU6_INT16_OFFSETS = Rule("int16 RELU6 with a zero point: output quantized as the input", litert(
    INT16_ZERO_POINT_SOURCE.where, INT16_ZERO_POINT_SOURCE.check, "clamps the input's codes between its quantized "
    "0 and 6 and writes them whatever the output's scale and zero point (activations_common.cc Relu6Prepare)"))


class ClampLowering(OpLowering):
    """RELU and RELU6, int8: arm_clamp_s8 when the scales match, else arm_requantize_s8_s8 then an
    in-place clamp; int16 likewise on the s16 entries, RELU in one arm_relu_s16 pass. Subclasses name
    their op_types, `activation` (the float kernels' activation type) and `clamp_bounds`."""

    activation = ""
    variants = (
        Variant("int8", inputs=(int8_act(),), outputs=(int8_act("output"),),
                entries=("arm_clamp_s8", "arm_requantize_s8_s8"), template="clamp.c.j2",
                rules=(OUTPUT_SIZE_RULE, REQUANTIZE_SHIFT)),
        Variant("int16", inputs=(int16_offset_act(),), outputs=(int16_offset_act("output"),),
                entries=("arm_clamp_s16", "arm_requantize_s16_s16", "arm_relu_s16"), template="clamp_s16.c.j2",
                lower="lower_int16", rules=(OUTPUT_SIZE_RULE, REQUANTIZE_SHIFT, RELU_INT16_OFFSETS,
                                            RELU6_INT16_OFFSETS)),
        activation_variant(),
        # -- float16 (native FP16) --
        activation_f16_variant(),
    )

    def validate(self, ctx: OpContext) -> None:
        unary_validate(ctx)
        if ctx.variant is not None and ctx.variant.name == "int16":
            self._int16_offsets(ctx)
        if ctx.variant is not None and ctx.variant.name in ("int8", "int16"):
            x, y = ctx.inp(0), ctx.out(0)
            ratio = f32(f32(x.quant.scale) / f32(y.quant.scale)) if ctx.variant.name == "int16" \
                else float(x.quant.scale) / float(y.quant.scale)
            shift = multiplier_shift(ratio)
            low, high = dtype_range(x.dtype)
            zp = x.quant.zero_point
            if shift > 0 and not fits_left_shift(low - zp, high - zp, shift):
                raise ctx.error(REQUANTIZE_SHIFT, y, detail=f"input scale {x.quant.scale:g} over output scale "
                                f"{y.quant.scale:g} needs a left shift of {shift}, which overflows int32 for q - "
                                f"zero point in [{low - zp}, {high - zp}]")

    def lower(self, ctx: OpContext) -> Lowered:
        x, y = ctx.inp(0), ctx.out(0)
        act_min, act_max = clamp_codes(self.clamp_bounds, y.quant.scale, y.quant.zero_point, *dtype_range(y.dtype))
        same = x.quant.scale == y.quant.scale and x.quant.zero_point == y.quant.zero_point
        mult, shift = quantize_multiplier(float(x.quant.scale) / float(y.quant.scale))
        return Lowered(entry="arm_clamp_s8" if same else "arm_requantize_s8_s8",
                       params=dict(input=x.index, output=y.index, size=y.num_elements, requantize=not same,
                                   mult=mult, shift=shift, input_zp=x.quant.zero_point,
                                   output_zp=y.quant.zero_point, act_min=act_min, act_max=act_max))

    def _int16_offsets(self, ctx: OpContext) -> None:
        x, y = ctx.inp(0), ctx.out(0)
        if x.quant.zero_point == 0 and y.quant.zero_point == 0:
            return
        held = next(t for t in (x, y) if t.quant.zero_point != 0)
        if self.activation != "RELU6":
            raise ctx.error(RELU_INT16_OFFSETS, held, detail=f"int16 {ctx.op.op_type}: zero point must be 0 (tensor "
                                                             f"'{held.name}' has {held.quant.zero_point})")
        if (x.quant.scale, x.quant.zero_point) != (y.quant.scale, y.quant.zero_point):
            raise ctx.error(RELU6_INT16_OFFSETS, held, detail=f"int16 RELU6 with zero point {held.quant.zero_point}: "
                                                              "the output must share the input's scale and zero point "
                                                              f"(input {x.quant.scale:g}/{x.quant.zero_point}, output "
                                                              f"{y.quant.scale:g}/{y.quant.zero_point})")

    def lower_int16(self, ctx: OpContext) -> Lowered:
        """LiteRT's int16 ReluX: requantize by input/output scale (a float32 quotient), clamp to the
        activation's range. Equal scales: a clamp alone. RELU's range starts at the output zero point
        (0), which is exactly arm_relu_s16's lower bound, so it needs one pass."""
        x, y = ctx.inp(0), ctx.out(0)
        # A zero point only with equal quantization (_int16_offsets): the clamp alone, between TFLM's codes.
        act_min, act_max = clamp_codes(self.clamp_bounds, y.quant.scale, y.quant.zero_point, *dtype_range("int16"))
        if x.quant.scale == y.quant.scale:
            entry = "arm_clamp_s16"
        else:
            entry = "arm_relu_s16" if self.activation == "RELU" else "arm_requantize_s16_s16"
        mult, shift = quantize_multiplier(f32(f32(x.quant.scale) / f32(y.quant.scale)))
        return Lowered(entry=entry,
                       params=dict(input=x.index, output=y.index, size=y.num_elements, mult=mult, shift=shift,
                                   act_min=act_min, act_max=act_max))

    def lower_float32(self, ctx: OpContext) -> Lowered:
        """arm_nn_activation_f32's RELU / RELU6: max(x, 0), min(max(x, 0), 6), exactly as LiteRT."""
        return activation_lowered(ctx, self.activation)

    # -- float16 (native FP16) --

    def lower_float16(self, ctx: OpContext) -> Lowered:
        return activation_f16_lowering(ctx)


class BoundedReluLowering(OpLowering):
    """LiteRT's ReluPrepare + QuantizedReluX for int8 (arm_relu_generic_s8), Relu1 / Relu0To1 for float32
    (inline C). Subclasses name op_types and `clamp_bounds`."""

    variants = (
        Variant("int8", inputs=(int8_act(),), outputs=(int8_act("output"),), entries=("arm_relu_generic_s8",),
                template="relu_generic_s8.c.j2",
                rules=(OUTPUT_SIZE_RULE, RELU_X_SHIFT, BOUNDED_NO_INT16)),
        Variant("float32", inputs=(fp32(),), outputs=(fp32("output"),), template="relu_range_f32.c.j2",
                lower="lower_float32", rules=(OUTPUT_SIZE_RULE,), notes=("inline C",)),
    )

    def select(self, ctx: OpContext) -> Variant:
        if ctx.out(0).dtype == "int16":
            raise ctx.error(BOUNDED_NO_INT16, ctx.out(0), f"Keep {ctx.op.op_type} in int8 or float32",
                            detail=f"int16 {ctx.op.op_type} is not supported (LiteRT's kernel has no int16 path)")
        return super().select(ctx)

    def _requantization(self, ctx: OpContext) -> tuple[int, int]:
        """input scale / output scale as LiteRT forms it (a float32 quotient), as multiplier and shift."""
        x, y = ctx.inp(0), ctx.out(0)
        mult, shift = quantize_multiplier(float(np.float32(x.quant.scale) / np.float32(y.quant.scale)))
        # (q - zero point) << shift must fit int32 in LiteRT's and the kernels' arithmetic, for every int8 q.
        low, high = -128 - int(x.quant.zero_point), 127 - int(x.quant.zero_point)
        if shift > 0 and (high << shift > (1 << 31) - 1 or low << shift < -(1 << 31)):
            raise ctx.error(RELU_X_SHIFT, y, detail=f"input scale {x.quant.scale:g} over output scale "
                            f"{y.quant.scale:g} needs a left shift of {shift}, which takes q - zero point "
                            f"({low}..{high}) past int32")
        return mult, shift

    def validate(self, ctx: OpContext) -> None:
        unary_validate(ctx)
        if quantized_dtype(ctx) == "int8":
            self._requantization(ctx)

    def _act_range(self, y: Tensor) -> tuple[int, int]:
        return clamp_codes(self.clamp_bounds, float(y.quant.scale), int(y.quant.zero_point), -128, 127)

    def lower(self, ctx: OpContext) -> Lowered:
        x, y = ctx.inp(0), ctx.out(0)
        mult, shift = self._requantization(ctx)
        act_min, act_max = self._act_range(y)
        return Lowered(entry="arm_relu_generic_s8",
                       params=dict(input=x.index, output=y.index, size=y.num_elements, input_zp=x.quant.zero_point,
                                   output_zp=y.quant.zero_point, mult=mult, shift=shift, act_min=act_min,
                                   act_max=act_max))

    def lower_float32(self, ctx: OpContext) -> Lowered:
        lowered = float_lowered(ctx, "clamp")
        lowered.params.update(lower=c_float(self.clamp_bounds[0]), upper=c_float(self.clamp_bounds[1]))
        return lowered

    def fold(self, ctx: OpContext):
        x, y = ctx.inp(0), ctx.out(0)
        data = np.asarray(x.data)
        if x.dtype == "float32" and y.dtype == "float32":
            low, high = (np.float32(b) for b in self.clamp_bounds)
            return [np.where(data > high, high, np.where(data < low, low, data)).astype(np.float32)]
        if quantized_dtype(ctx) != "int8":
            return None
        mult, shift = self._requantization(ctx)
        act_min, act_max = self._act_range(y)
        out = [multiply_by_quantized_multiplier(int(v) - int(x.quant.zero_point), mult, shift) + int(y.quant.zero_point)
               for v in data.reshape(-1)]
        clamped = np.minimum(np.maximum(np.asarray(out, dtype=np.int64), act_min), act_max)
        return [clamped.reshape(data.shape).astype(np.int8)]
