# SPDX-License-Identifier: Apache-2.0
"""REDUCE_PROD in inline C (ns-cmsis-nn has no product entry), as LiteRT's reference computes it.

int8 / int16 (quantized): QuantizedReduceProd. Each output starts from its first input minus the zero point;
every further input multiplies it (in int64) and the product is rescaled at once by
QuantizeMultiplier(input scale / output scale^(1 / n)), n the number of inputs per output, through TFLite's
64-bit MultiplyByQuantizedMultiplier (multiplier rounded to 16 bits, one rounding shift); the result is
rescaled once more, offset by the output zero point and clamped. float32 / int32 / int64: the plain product
in row-major order (integers wrap)."""

from __future__ import annotations

import math

import numpy as np

from helia_aot.ir.quant import MultiplierRangeError, quantize_multiplier
from helia_aot.ops.base import Axis, Lowered, OpContext, OpLowering, Operand, Rule, Variant, register, undefined
from helia_aot.ops.shared.operands import const_ints, fp32, int8_act, int16_act
from helia_aot.ops.shared.reduce import (REDUCE_RULES, SHARED_RULES, fold_reduce, inline_lowered, reduce_dims,
                                         reduce_validate)

# LiteRT's MultiplyByQuantizedMultiplier(int64) rounds with a shift by 15 - shift: up to a left shift of 14 it is
# defined (and computed here the same way; its DCHECK of shift < 8 is off in release builds), beyond it the shift
# count is negative. Measured: LiteRT runs and matches at shifts 8 to 14 (tests/e2e/differential_ops/other.py).
PROD_SHIFT = Rule("int8 / int16: the per-multiply rescaling (input scale / output scale^(1/n)) needs a left shift "
                  "of at most 14", undefined(
                      "reduce.cc EvalQuantizedProd (64-bit MultiplyByQuantizedMultiplier); TFLM has no REDUCE_PROD",
                      "past it the rescaling shifts by a negative count (undefined behaviour in C++)"))
_QUANT_RULES = SHARED_RULES + (PROD_SHIFT,)


def _mbqm64_c(x: str, mult: int, shift: int) -> str:
    """C for TFLite's MultiplyByQuantizedMultiplier(int64 x, ...): the multiplier rounded to its top 16 bits
    (at most 0x7FFF), then round(x * m / 2^(15 - shift)) with ties towards +infinity."""
    reduced = (mult + (1 << 15)) >> 16 if mult < 0x7FFF0000 else 0x7FFF
    total = 15 - shift
    return f"(int32_t)((({x}) * {reduced}LL + (1LL << {total - 1})) >> {total})"


@register
class ReduceProd(OpLowering):
    op_types = ("REDUCE_PROD",)
    options_table = "ReducerOptions"
    axes = (Axis("input 1"),)
    variants = (
        Variant("int8", inputs=(int8_act(), const_ints("axis")), outputs=(int8_act("output"),),
                template="reduce_inline.c.j2", lower="lower_quantized", rules=_QUANT_RULES,
                notes=REDUCE_RULES + ("inline C: rescaled after every multiply, as LiteRT",)),
        Variant("int16", inputs=(int16_act(), const_ints("axis")), outputs=(int16_act("output"),),
                template="reduce_inline.c.j2", lower="lower_quantized", rules=_QUANT_RULES,
                notes=REDUCE_RULES + ("inline C: rescaled after every multiply, as LiteRT",)),
        Variant("float32", inputs=(fp32(), const_ints("axis")), outputs=(fp32("output"),),
                template="reduce_inline.c.j2", lower="lower_plain", rules=SHARED_RULES,
                notes=REDUCE_RULES + ("inline C",)),
        Variant("int32", inputs=(Operand("input", ("int32",)), const_ints("axis")),
                outputs=(Operand("output", ("int32",)),), template="reduce_inline.c.j2", lower="lower_plain",
                rules=SHARED_RULES, notes=REDUCE_RULES + ("inline C, wrapping multiplies",)),
        Variant("int64", inputs=(Operand("input", ("int64",)), const_ints("axis")),
                outputs=(Operand("output", ("int64",)),), template="reduce_inline.c.j2", lower="lower_plain",
                rules=SHARED_RULES, notes=REDUCE_RULES + ("inline C, wrapping multiplies",)),
    )

    @staticmethod
    def _scaling(ctx: OpContext) -> tuple[int, int]:
        x, y = ctx.inp(0), ctx.out(0)
        n = reduce_dims(ctx)["count"]
        return quantize_multiplier(float(x.quant.scale) / math.pow(float(y.quant.scale), 1.0 / n))

    def validate(self, ctx: OpContext) -> None:
        reduce_validate(ctx)
        if ctx.variant.name in ("int8", "int16"):
            try:
                mult, shift = self._scaling(ctx)
            except MultiplierRangeError as exc:
                raise ctx.error(PROD_SHIFT, ctx.out(0), detail=f"the per-multiply rescaling: {exc}") from None
            if shift > 14:
                raise ctx.error(PROD_SHIFT, ctx.out(0), detail=f"the per-multiply rescaling needs a left shift of "
                                f"{shift}; LiteRT's 64-bit rescaling is defined up to 14")

    def lower_quantized(self, ctx: OpContext) -> Lowered:
        x, y = ctx.inp(0), ctx.out(0)
        mult, shift = self._scaling(ctx)
        lo, hi = (-128, 127) if x.dtype == "int8" else (-32768, 32767)
        zp_in, zp_out = int(x.quant.zero_point), int(y.quant.zero_point)
        combine = (f"acc = first ? (int32_t)(v - ({zp_in})) : "
                   + _mbqm64_c(f"(int64_t)acc * (v - ({zp_in}))", mult, shift) + ";")
        ctype = "int8_t" if x.dtype == "int8" else "int16_t"
        finish = ("{ int32_t r = " + _mbqm64_c("(int64_t)acc", mult, shift) + f" + ({zp_out}); "
                  f"*out++ = ({ctype})(r < {lo} ? {lo} : (r > {hi} ? {hi} : r)); }}")
        return inline_lowered(ctx, "LiteRT's quantized REDUCE_PROD, rescaled after every multiply", "int32_t", "0",
                              combine, finish)

    def lower_plain(self, ctx: OpContext) -> Lowered:
        dtype = ctx.inp(0).dtype
        if dtype == "float32":
            return inline_lowered(ctx, "REDUCE_PROD in float32", "float", "1.0f", "acc = v * acc;", "*out++ = acc;")
        wide, ctype = ("uint64_t", "int64_t") if dtype == "int64" else ("uint32_t", "int32_t")
        return inline_lowered(ctx, "REDUCE_PROD of integers (wrapping)", wide, "1", f"acc = ({wide})v * acc;",
                              f"*out++ = ({ctype})acc;")

    def fold(self, ctx: OpContext):
        if ctx.inp(0).dtype not in ("float32", "int32", "int64"):
            return None
        return fold_reduce(ctx, np.prod)
