# SPDX-License-Identifier: Apache-2.0
"""SQRT. int8: arm_sqrt_s8, a 256-entry table lookup; the table is LiteRT's SqrtEvalQuantized for every
input code (float32 sqrt of the dequantized input over the output scale, truncated toward zero), built
at conversion time. int16: inline C with that float32 arithmetic per element: ns-cmsis-nn's
arm_sqrt_s16 interpolates a 513-entry table, which cannot follow sqrt's steep start nor LiteRT's
truncation within one code. float32: sqrtf per element, LiteRT's std::sqrt (NaN below zero).

LiteRT stops with an error on a negative dequantized input; the integer variants give the output zero
point (sqrt of 0) there."""

from __future__ import annotations

import numpy as np

from helia_aot.emit.c_syntax import c_float
from helia_aot.ops.base import ConstArray, Lowered, OpContext, OpLowering, Variant, register
from helia_aot.ops.shared.checks import OUTPUT_SIZE_RULE, unary_validate
from helia_aot.ops.shared.lookup_tables import table_args
from helia_aot.ops.shared.operands import fp32, int8_act, int16_act
from helia_aot.ops.shared.unary_math import (elementwise_int16_zero_point, float_lowered, fold_unary, quantized_dtype,
                                             sqrt_int8_table_u8, sqrt_quantized)

_NEGATIVE = "a negative input gives the output zero point (LiteRT: an error)"
_ZP = elementwise_int16_zero_point("SQRT")


@register
class Sqrt(OpLowering):
    op_types = ("SQRT",)
    options_table = None
    variants = (
        Variant("int8", inputs=(int8_act(),), outputs=(int8_act("output"),), entries=("arm_sqrt_s8",),
                template="sqrt_s8.c.j2", rules=(OUTPUT_SIZE_RULE,), notes=(_NEGATIVE,)),
        Variant("int16", inputs=(int16_act(sources=_ZP),), outputs=(int16_act("output", sources=_ZP),),
                template="sqrt_s16.c.j2", lower="lower_int16", rules=(OUTPUT_SIZE_RULE,),
                notes=("inline C (sqrtf, link libm)", _NEGATIVE)),
        Variant("float32", inputs=(fp32(),), outputs=(fp32("output"),), template="sqrt_f32.c.j2",
                lower="lower_float32", rules=(OUTPUT_SIZE_RULE,), notes=("inline C (sqrtf, link libm)",)),
    )

    def validate(self, ctx: OpContext) -> None:
        unary_validate(ctx)

    def lower(self, ctx: OpContext) -> Lowered:
        x, y = ctx.inp(0), ctx.out(0)
        table = sqrt_int8_table_u8(*table_args(ctx))
        return Lowered(entry="arm_sqrt_s8",
                       constants=[ConstArray("lut", "int8_t", table,
                                             "SQRT of every input code, indexed by (uint8_t)code")],
                       params=dict(input=x.index, output=y.index, size=y.num_elements))

    def lower_int16(self, ctx: OpContext) -> Lowered:
        x, y = ctx.inp(0), ctx.out(0)
        return Lowered(entry=None, fixed={"implementation": "inline", "function": "sqrtf"},
                       params=dict(input=x.index, output=y.index, size=y.num_elements,
                                   input_scale=c_float(x.quant.scale), output_scale=c_float(y.quant.scale)))

    def lower_float32(self, ctx: OpContext) -> Lowered:
        return float_lowered(ctx, "sqrtf")

    def fold(self, ctx: OpContext):
        x = ctx.inp(0)
        if quantized_dtype(ctx):
            info = np.iinfo(x.dtype)
            out = sqrt_quantized(np.asarray(x.data), *table_args(ctx), int(info.min), int(info.max))
            return [out.astype(x.dtype)]
        return fold_unary(ctx, float_fn=np.sqrt)
