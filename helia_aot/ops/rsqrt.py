# SPDX-License-Identifier: Apache-2.0
"""RSQRT. int8: LiteRT's fixed-point RsqrtEvalQuantizedInt8 (a Newton-Raphson 1/sqrt of the input code,
then two requantizations) depends on the input code alone, so it is computed for all 256 codes at
conversion time and applied as a table with inline C. int16: arm_rsqrt_s16_per_op with LiteRT's
513-entry table (LUTPopulate of 1/sqrt in float32) and its interpolation, bit for bit. float32:
1.0f / sqrtf(x), LiteRT's 1.f / std::sqrt(f).

LiteRT stops with an error on an input below the zero point; int16 does too (ARM_CMSIS_NN_ARG_ERROR), the
int8 table gives such codes the largest output, as LiteRT gives the zero point itself."""

from __future__ import annotations

import numpy as np

from helia_aot.ir.quant import MultiplierRangeError
from helia_aot.ops.base import ConstArray, Lowered, OpContext, OpLowering, Rule, Variant, register, undefined
from helia_aot.ops.shared.checks import OUTPUT_SIZE_RULE, unary_validate
from helia_aot.ops.shared.lookup_tables import TableRangeError, lut_int8_lowered, lut_int16, table_args
from helia_aot.ops.shared.operands import fp32, int8_act, int16_act
from helia_aot.ops.shared.unary_math import (TABLE_RANGE_RULE, elementwise_int16_zero_point, float_lowered, fold_unary,
                                             quantized_dtype, rsqrt_int8_table, rsqrt_int16_transform)

# LiteRT's elementwise.cc GenericPrepare forms 1 / (sqrt(input scale) x output scale) with QuantizeMultiplier, which
# saturates a multiplier of 2^31 and more; the fixed-point table here needs it below 2^31 as a Q31 multiplier.
INT8_MULTIPLIER = Rule("1 / (sqrt(input scale) x output scale) a finite multiplier below 2^31", undefined(
    "LiteRT elementwise.cc RsqrtEvalQuantized / QuantizeMultiplier", "a multiplier of 2^31 or more has a shift above "
    "30; the code one above the zero point gives 1 / sqrt(1) = 2^20 in the kernel's fixed point, which "
    "MultiplyByQuantizedMultiplier shifts left by shift - 20 >= 11: past int32 (signed overflow, or a shift past "
    "the word); a non-finite one has no fixed-point form"))
_ZP = elementwise_int16_zero_point("RSQRT")


@register
class Rsqrt(OpLowering):
    op_types = ("RSQRT",)
    options_table = None
    variants = (
        Variant("int8", inputs=(int8_act(),), outputs=(int8_act("output"),), template="lut.c.j2",
                rules=(OUTPUT_SIZE_RULE, INT8_MULTIPLIER),
                notes=("256-entry table of LiteRT's fixed point, inline C",
                       "inputs below the zero point give 127 (LiteRT: an error)")),
        Variant("int16", inputs=(int16_act(sources=_ZP),), outputs=(int16_act("output", sources=_ZP),),
                entries=("arm_rsqrt_s16_per_op",), template="rsqrt_s16.c.j2", lower="lower_int16",
                rules=(OUTPUT_SIZE_RULE, TABLE_RANGE_RULE),
                notes=("negative inputs: ARM_CMSIS_NN_ARG_ERROR (LiteRT: an error)",)),
        Variant("float32", inputs=(fp32(),), outputs=(fp32("output"),), template="rsqrt_f32.c.j2",
                lower="lower_float32", rules=(OUTPUT_SIZE_RULE,), notes=("inline C (sqrtf, link libm)",)),
    )

    def _int8_table(self, ctx: OpContext) -> np.ndarray:
        try:
            return rsqrt_int8_table(*table_args(ctx))
        except MultiplierRangeError as exc:
            raise ctx.error(INT8_MULTIPLIER, ctx.out(0),
                            detail=f"1 / (sqrt(input scale) x output scale) has no fixed-point multiplier: {exc}")

    def _int16_table(self, ctx: OpContext) -> np.ndarray:
        try:
            return lut_int16(rsqrt_int16_transform(float(ctx.out(0).quant.scale)), *table_args(ctx))
        except TableRangeError as exc:
            raise ctx.error(TABLE_RANGE_RULE, ctx.out(0),
                            detail=f"LiteRT's RSQRT table is undefined for these scales: {exc}")

    def validate(self, ctx: OpContext) -> None:
        unary_validate(ctx)
        if quantized_dtype(ctx) == "int8":
            self._int8_table(ctx)
        elif quantized_dtype(ctx) == "int16":
            self._int16_table(ctx)

    def lower(self, ctx: OpContext) -> Lowered:
        return lut_int8_lowered(ctx, self._int8_table(ctx), "RSQRT")

    def lower_int16(self, ctx: OpContext) -> Lowered:
        x, y = ctx.inp(0), ctx.out(0)
        # Not arm_rsqrt_s16_universal: its shared table and separate requantization round twice (up to 3
        # codes from the per-operator result, its documentation says).
        return Lowered(entry="arm_rsqrt_s16_per_op", fixed={"lut": "per operator (LiteRT's table)"},
                       constants=[ConstArray("lut", "int16_t", self._int16_table(ctx),
                                             "RSQRT table: 512 samples over the int16 input range and the end point")],
                       params=dict(input=x.index, output=y.index, size=y.num_elements))

    def lower_float32(self, ctx: OpContext) -> Lowered:
        return float_lowered(ctx, "1 / sqrtf")

    def fold(self, ctx: OpContext):
        return fold_unary(ctx, lambda: self._int8_table(ctx), lambda: self._int16_table(ctx),
                          lambda v: np.float32(1) / np.sqrt(v))
