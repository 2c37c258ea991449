# SPDX-License-Identifier: Apache-2.0
"""EXP. int8: LiteRT's 256-entry table (LUTPopulate of std::exp in float32) rebuilt at conversion time,
applied with inline C. int16: LiteRT's 513-entry table and its interpolation (LUTLookup), inline C
(ns-cmsis-nn has no EXP entry). float32: expf per element, LiteRT's reference std::exp.

Scales for which LiteRT's table is undefined (exp overflows float32 on the input range, or a code past
int32) are refused."""

from __future__ import annotations

import numpy as np

from helia_aot.ops.base import Lowered, OpContext, OpLowering, Variant, litert, register
from helia_aot.ops.shared.checks import OUTPUT_SIZE_RULE, unary_validate
from helia_aot.ops.shared.lookup_tables import TableRangeError, lut_int8_lowered, lut_int16_lowered, lut_of, table_args
from helia_aot.ops.shared.operands import fp32, int8_act, int16_act
from helia_aot.ops.shared.unary_math import TABLE_RANGE_RULE, exp_transform, float_lowered, fold_unary, quantized_dtype

_TABLE_RULES = (OUTPUT_SIZE_RULE, TABLE_RANGE_RULE)
# Measured (tests/e2e/differential_ops/elementwise.py): LiteRT's exp.cc refuses a nonzero int16 zero point.
_ZP = (("zero point 0", litert("exp.cc Prepare", "TF_LITE_ENSURE_EQ(input / output->params.zero_point, 0) for "
                               "int16")),)


@register
class Exp(OpLowering):
    op_types = ("EXP",)
    options_table = "ExpOptions"
    variants = (
        Variant("int8", inputs=(int8_act(),), outputs=(int8_act("output"),), template="lut.c.j2",
                rules=_TABLE_RULES, notes=("256-entry table, inline C",)),
        Variant("int16", inputs=(int16_act(sources=_ZP),), outputs=(int16_act("output", sources=_ZP),),
                template="lut_s16.c.j2",
                lower="lower_int16", rules=_TABLE_RULES, notes=("513-entry interpolated table, inline C",)),
        Variant("float32", inputs=(fp32(),), outputs=(fp32("output"),), template="exp_f32.c.j2",
                lower="lower_float32", rules=(OUTPUT_SIZE_RULE,), notes=("inline C (expf, link libm)",)),
    )

    def _table(self, ctx: OpContext) -> np.ndarray:
        try:
            return lut_of(ctx.inp(0).dtype, exp_transform, *table_args(ctx))
        except TableRangeError as exc:
            raise ctx.error(TABLE_RANGE_RULE, ctx.out(0),
                            "Quantize the output (or limit the input range) so exp of the largest input fits it",
                            detail=f"LiteRT's EXP table is undefined for these scales: {exc} (exp overflows float32 or "
                                   f"the output's codes)")

    def validate(self, ctx: OpContext) -> None:
        unary_validate(ctx)
        if quantized_dtype(ctx):
            self._table(ctx)

    def lower(self, ctx: OpContext) -> Lowered:
        return lut_int8_lowered(ctx, self._table(ctx), "EXP")

    def lower_int16(self, ctx: OpContext) -> Lowered:
        return lut_int16_lowered(ctx, self._table(ctx), "EXP")

    def lower_float32(self, ctx: OpContext) -> Lowered:
        return float_lowered(ctx, "expf")

    def fold(self, ctx: OpContext):
        return fold_unary(ctx, lambda: self._table(ctx), lambda: self._table(ctx), np.exp)
