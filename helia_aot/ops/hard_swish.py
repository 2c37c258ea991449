# SPDX-License-Identifier: Apache-2.0
"""HARD_SWISH, int8, lowered to arm_hard_swish_compat_s8 with TFLite's 16-bit multipliers. No int16
variant: LiteRT has no int16 HARD_SWISH kernel whose numerics arm_hard_swish_precise_s16 could match.
float32: arm_nn_activation_f32, x * clamp(x / 6 + 1/2, 0, 1), a few ulp from LiteRT's x * relu6(x + 3) / 6."""

from __future__ import annotations

import numpy as np

from helia_aot.ir.quant import quantize_multiplier
from helia_aot.ops.base import Lowered, OpContext, OpLowering, Rule, Variant, litert, register
from helia_aot.ops.shared.checks import OUTPUT_SIZE_RULE, unary_validate
from helia_aot.ops.shared.float_variants import (activation_f16_lowering, activation_f16_variant, activation_lowered,
                                        activation_variant)
from helia_aot.ops.shared.operands import int8_act


# arm_hard_swish_compat_s8 returns ARM_CMSIS_NN_ARG_ERROR past it too.
OUTPUT_EXPONENT = Rule("input scale / 128 below the output scale (output multiplier exponent <= 0)", litert(
    "activations.cc HardSwishPrepare", "TF_LITE_ENSURE(params->output_multiplier_exponent <= 0)"))


def downscale_to_int16(multiplier: int) -> int:
    """TFLite's DownScaleInt32ToInt16Multiplier (round to the top 16 bits, saturate)."""
    if multiplier >= (1 << 31) - 1 - (1 << 15):
        return (1 << 15) - 1
    return (multiplier + (1 << 15)) >> 16


@register
class HardSwish(OpLowering):
    op_types = ("HARD_SWISH",)
    options_table = "HardSwishOptions"
    variants = (
        Variant("int8", inputs=(int8_act(),), outputs=(int8_act("output"),), entries=("arm_hard_swish_compat_s8",),
                template="hard_swish.c.j2", rules=(OUTPUT_SIZE_RULE, OUTPUT_EXPONENT)),
        activation_variant(("x * clamp(x / 6 + 1/2, 0, 1): rounds a few ulp from x * relu6(x + 3) / 6",)),
        # -- float16 (native FP16) --
        activation_f16_variant("x * relu6(x + 3) / 6 in float16"),
    )

    @staticmethod
    def _multipliers(ctx: OpContext) -> tuple[int, int, int, int]:
        x, y = ctx.inp(0), ctx.out(0)
        # TFLite computes these in float32.
        hires_input_scale = np.float32(1.0 / 128.0) * np.float32(x.quant.scale)
        reluish_scale = np.float32(3.0 / 32768.0)
        out_m, out_e = quantize_multiplier(float(np.float32(hires_input_scale / np.float32(y.quant.scale))))
        relu_m, relu_e = quantize_multiplier(float(np.float32(hires_input_scale / reluish_scale)))
        return out_m, out_e, relu_m, relu_e

    def validate(self, ctx: OpContext) -> None:
        unary_validate(ctx)
        if ctx.variant.name != "int8":
            return
        # TFLite and the kernel (ARM_CMSIS_NN_ARG_ERROR) take an output multiplier exponent <= 0 only.
        out_e = self._multipliers(ctx)[1]
        if out_e > 0:
            raise ctx.error(OUTPUT_EXPONENT, ctx.out(0), detail=f"input scale / 128 over output scale needs a "
                            f"multiplier exponent of {out_e}; HARD_SWISH takes at most 0 (input scale below 128 x "
                            "output scale)")

    def lower(self, ctx: OpContext) -> Lowered:
        x, y = ctx.inp(0), ctx.out(0)
        out_m, out_e, relu_m, relu_e = self._multipliers(ctx)
        return Lowered(entry="arm_hard_swish_compat_s8",
                       candidates=["arm_hard_swish_compat_s8", "arm_hard_swish_precise_s8"],
                       fixed={"compat_variant": "tflite", "use_lut": "false"},
                       params=dict(input=x.index, output=y.index, size=y.num_elements,
                                   input_zp=x.quant.zero_point, output_zp=y.quant.zero_point,
                                   out_mult=downscale_to_int16(out_m), out_exp=out_e,
                                   relu_mult=downscale_to_int16(relu_m), relu_exp=relu_e))

    def lower_float32(self, ctx: OpContext) -> Lowered:
        return activation_lowered(ctx, "HARDSWISH")

    # -- float16 (native FP16) --

    def lower_float16(self, ctx: OpContext) -> Lowered:
        return activation_f16_lowering(ctx)
