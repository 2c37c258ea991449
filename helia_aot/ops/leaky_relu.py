# SPDX-License-Identifier: Apache-2.0
"""LEAKY_RELU, int8 and int16, lowered to arm_leaky_relu_s8/s16 with TFLite's alpha and identity
multipliers; float32 on arm_nn_activation_f32 (x or alpha * x, exactly as LiteRT)."""

from __future__ import annotations

import numpy as np

from helia_aot.ir.quant import f32, quantize_multiplier
from helia_aot.ops.base import Lowered, OpContext, OpLowering, Variant, register
from helia_aot.ops.shared.checks import OUTPUT_SIZE_RULE, unary_validate
from helia_aot.ops.shared.float_variants import (activation_f16_lowering, activation_f16_variant, activation_lowered,
                                                 activation_variant)
from helia_aot.ops.shared.fused_activation import f16_literal
from helia_aot.ops.shared.operands import int8_act, int16_offset_act


@register
class LeakyRelu(OpLowering):
    op_types = ("LEAKY_RELU",)
    options_table = "LeakyReluOptions"
    variants = (
        Variant("int8", inputs=(int8_act(),), outputs=(int8_act("output"),), entries=("arm_leaky_relu_s8",),
                template="leaky_relu.c.j2", rules=(OUTPUT_SIZE_RULE,)),
        Variant("int16", inputs=(int16_offset_act(),), outputs=(int16_offset_act("output"),),
                entries=("arm_leaky_relu_s16",),
                template="leaky_relu.c.j2", lower="lower_int16", rules=(OUTPUT_SIZE_RULE,)),
        activation_variant(),
        # -- float16 (native FP16) --
        activation_f16_variant("alpha rounded to float16 (the entry's act_param)"),
    )

    def validate(self, ctx: OpContext) -> None:
        unary_validate(ctx)

    def lower(self, ctx: OpContext) -> Lowered:
        x, y = ctx.inp(0), ctx.out(0)
        alpha = float(ctx.options("alpha", 0.2))
        ma, sa = quantize_multiplier(float(x.quant.scale) * alpha / float(y.quant.scale))
        mi, si = quantize_multiplier(float(x.quant.scale) / float(y.quant.scale))
        return Lowered(entry="arm_leaky_relu_s8",
                       params=dict(input=x.index, output=y.index, size=y.num_elements,
                                   input_zp=x.quant.zero_point, output_zp=y.quant.zero_point,
                                   mult_alpha=ma, shift_alpha=sa, mult_identity=mi, shift_identity=si))

    def lower_int16(self, ctx: OpContext) -> Lowered:
        """LiteRT's LeakyReluPrepare forms input scale x alpha / output scale and input / output scale
        from float operands, so in float32 (TFLM's too, which also takes zero points: LiteRT's are 0)."""
        x, y = ctx.inp(0), ctx.out(0)
        alpha = f32(ctx.options("alpha", 0.2))
        ma, sa = quantize_multiplier(f32(f32(x.quant.scale * alpha) / y.quant.scale))
        mi, si = quantize_multiplier(f32(x.quant.scale / y.quant.scale))
        return Lowered(entry="arm_leaky_relu_s16",
                       params=dict(input=x.index, output=y.index, size=y.num_elements, input_zp=x.quant.zero_point,
                                   output_zp=y.quant.zero_point,
                                   mult_alpha=ma, shift_alpha=sa, mult_identity=mi, shift_identity=si))

    def lower_float32(self, ctx: OpContext) -> Lowered:
        """alpha is the float32 option value, as LiteRT multiplies by it."""
        return activation_lowered(ctx, "LEAKY_RELU", float(ctx.options("alpha", 0.2)))

    # -- float16 (native FP16) --

    def lower_float16(self, ctx: OpContext) -> Lowered:
        """arm_nn_activation_f16 LEAKY_RELU: max(x, 0) + alpha * min(x, 0), alpha as a float16."""
        alpha = float(np.float16(ctx.options("alpha", 0.2)))
        return activation_f16_lowering(ctx, f16_literal(alpha))
