# SPDX-License-Identifier: Apache-2.0
"""LOG. int8: LiteRT's 256-entry table (LogLUTPrepare: std::log in float32, the output's lowest value for
inputs <= 0) rebuilt at conversion time, applied with inline C. int16: LiteRT's 513-entry table and its
interpolation, inline C (ns-cmsis-nn has no LOG entry). float32: logf per element, LiteRT's std::log
(-inf at 0, NaN below)."""

from __future__ import annotations

import numpy as np

from helia_aot.ops.base import Lowered, OpContext, OpLowering, Variant, register
from helia_aot.ops.shared.checks import OUTPUT_SIZE_RULE, unary_validate
from helia_aot.ops.shared.lookup_tables import TableRangeError, lut_int8_lowered, lut_int16_lowered, lut_of, table_args
from helia_aot.ops.shared.operands import fp32, int8_act, int16_act
from helia_aot.ops.shared.unary_math import (F32, TABLE_RANGE_RULE, elementwise_int16_zero_point, f32, float_lowered,
                                             fold_unary, log_transform, quantized_dtype)

_TABLE_RULES = (OUTPUT_SIZE_RULE, TABLE_RANGE_RULE)
_ZP = elementwise_int16_zero_point("LOG")


@register
class Log(OpLowering):
    op_types = ("LOG",)
    options_table = None
    variants = (
        Variant("int8", inputs=(int8_act(),), outputs=(int8_act("output"),), template="lut.c.j2",
                rules=_TABLE_RULES, notes=("256-entry table, inline C", "inputs <= 0 give the output's lowest code")),
        Variant("int16", inputs=(int16_act(sources=_ZP),), outputs=(int16_act("output", sources=_ZP),),
                template="lut_s16.c.j2", lower="lower_int16", rules=_TABLE_RULES,
                notes=("513-entry interpolated table, inline C",)),
        Variant("float32", inputs=(fp32(),), outputs=(fp32("output"),), template="log_f32.c.j2",
                lower="lower_float32", rules=(OUTPUT_SIZE_RULE,), notes=("inline C (logf, link libm)",)),
    )

    def _table(self, ctx: OpContext) -> np.ndarray:
        y = ctx.out(0)
        lowest = -128 if y.dtype == "int8" else -32768
        output_min = f32(F32(lowest - int(y.quant.zero_point)) * f32(y.quant.scale))
        try:
            return lut_of(y.dtype, log_transform(output_min), *table_args(ctx))
        except TableRangeError as exc:
            raise ctx.error(TABLE_RANGE_RULE, y, detail=f"LiteRT's LOG table is undefined for these scales: {exc}")

    def validate(self, ctx: OpContext) -> None:
        unary_validate(ctx)
        if quantized_dtype(ctx):
            self._table(ctx)

    def lower(self, ctx: OpContext) -> Lowered:
        return lut_int8_lowered(ctx, self._table(ctx), "LOG")

    def lower_int16(self, ctx: OpContext) -> Lowered:
        return lut_int16_lowered(ctx, self._table(ctx), "LOG")

    def lower_float32(self, ctx: OpContext) -> Lowered:
        return float_lowered(ctx, "logf")

    def fold(self, ctx: OpContext):
        return fold_unary(ctx, lambda: self._table(ctx), lambda: self._table(ctx), np.log)
