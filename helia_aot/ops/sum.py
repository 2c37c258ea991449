# SPDX-License-Identifier: Apache-2.0
"""SUM. float32 on ns-cmsis-nn's arm_reduce_sum_f32 (each output sums its inputs from 0 in row-major order, as
LiteRT's reference, and as the inline loop that replaces it where the library lacks it; ns-cmsis-nn's Helium build sums a contiguous run four lanes at a time, a last-bit
difference within the FP32 bound). int32 / int64 in inline C (wrapping adds, LiteRT's int arithmetic).

int8 and int16 in inline C as TensorFlow Lite Micro's reference computes them (QuantizedMeanOrSum): the codes
summed in int32, minus the input zero point times the count, rescaled by QuantizeMultiplier(input scale / output
scale) (gemmlowp double rounding), plus the output zero point, clamped to the type (bit-identical to TFLM on every
case). LiteRT 2.3's reference differs: it reads int8 codes as uint8 (c < 0 counts as c + 256) and clamps to
[0, 255], and leaves the high byte of int16 outputs unwritten (measured 49218 codes from TFLM), defects a module
must not reproduce, so these cases are checked against TFLM (tests/e2e/cases/sum_int8_*.yaml and
sum_int16_rescaled.yaml, reference tflm)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from helia_aot.ir.quant import MultiplierRangeError, quantize_multiplier
from helia_aot.ops.base import Axis, Lowered, OpContext, OpLowering, Operand, Rule, Variant, register, undefined
from helia_aot.ops.shared.operands import const_ints, fp32, int8_act, int16_offset_act
from helia_aot.ops.shared.reduce import (REDUCE_RULES, SHARED_RULES, fold_reduce, entry_lowered, fits_4d,
                                         inline_lowered, reduce_dims, reduce_validate)

# TFLM sums the codes in int32 and rescales with MultiplyByQuantizedMultiplier, whose left shift is int32
# arithmetic: past this bound either overflows (undefined in C++), so there is no defined reference output.
RESCALE_RANGE = Rule("int8 / int16: (largest |code| + |input zero point|) x count, shifted left by the rescaling's "
                     "left shift, fits int32", undefined(
                         "micro reduce_common.cc QuantizedMeanOrSum", "sums in int32 and rescales by "
                         "MultiplyByQuantizedMultiplier, whose int32 left shift overflows past it (signed overflow)"))


def _requantize_c(x: str, mult: int, shift: int) -> str:
    """C for gemmlowp's MultiplyByQuantizedMultiplier of int32 `x` (left shift, doubling high multiply,
    rounding right shift), in 64-bit arithmetic so no step overflows or shifts a negative value."""
    left, right = max(shift, 0), max(-shift, 0)
    return (f"{{ const int64_t prod = (int64_t)({x}) * {1 << left} * {mult}LL; "
            f"const int64_t nudge = prod >= 0 ? (1LL << 30) : (1 - (1LL << 30)); "
            f"int64_t high = (prod + nudge) / (1LL << 31); "
            f"const int64_t mask = (1LL << {right}) - 1; const int64_t rem = high & mask; "
            f"const int64_t thr = (mask >> 1) + (high < 0 ? 1 : 0); "
            f"scaled = (int32_t)((high >> {right}) + (rem > thr ? 1 : 0)); }}")


@register
class Sum(OpLowering):
    op_types = ("SUM",)
    options_table = "ReducerOptions"
    axes = (Axis("input 1"),)
    variants = (
        Variant("int8", inputs=(int8_act(), const_ints("axis")), outputs=(int8_act("output"),),
                template="reduce_inline.c.j2", lower="lower_int8",
                rules=SHARED_RULES + (RESCALE_RANGE,),
                notes=REDUCE_RULES + ("inline C: TFLM's integer sum, rescaled, clamped to int8",)),
        Variant("int16", inputs=(int16_offset_act(), const_ints("axis")), outputs=(int16_offset_act("output"),),
                template="reduce_inline.c.j2", lower="lower_int8", rules=SHARED_RULES + (RESCALE_RANGE,),
                notes=REDUCE_RULES + ("inline C: TFLM's integer sum, rescaled, clamped to int16",)),
        Variant("float32", inputs=(fp32(), const_ints("axis")), outputs=(fp32("output"),),
                entries=("arm_reduce_sum_f32",), template="reduce.c.j2", lower="lower_float32", notes=REDUCE_RULES,
                rules=SHARED_RULES,
                fallbacks=(("arm_reduce_sum_f32", None),)),
        Variant("int32", inputs=(Operand("input", ("int32",)), const_ints("axis")),
                outputs=(Operand("output", ("int32",)),), template="reduce_inline.c.j2", lower="lower_int",
                rules=SHARED_RULES, notes=REDUCE_RULES + ("inline C, wrapping adds",)),
        Variant("int64", inputs=(Operand("input", ("int64",)), const_ints("axis")),
                outputs=(Operand("output", ("int64",)),), template="reduce_inline.c.j2", lower="lower_int",
                rules=SHARED_RULES, notes=REDUCE_RULES + ("inline C, wrapping adds",)),
    )

    def validate(self, ctx: OpContext) -> None:
        x, y = ctx.inp(0), ctx.out(0)
        reduce_validate(ctx)
        if ctx.variant.name in ("int8", "int16"):
            try:
                mult, shift = quantize_multiplier(float(x.quant.scale) / float(y.quant.scale))
            except MultiplierRangeError as exc:
                raise ctx.error(RESCALE_RANGE, y, detail=f"the rescaling of the sum: {exc}") from None
            largest = 128 if x.dtype == "int8" else 32768
            bound = (largest + abs(int(x.quant.zero_point))) * reduce_dims(ctx)["count"]
            if bound << max(shift, 0) >= 1 << 31:
                raise ctx.error(RESCALE_RANGE, y, detail=f"input scale / output scale "
                                f"({float(x.quant.scale) / float(y.quant.scale):g}) overflows TFLM's int32 rescaling "
                                "of this sum")

    def lower_int8(self, ctx: OpContext) -> Lowered:
        x, y = ctx.inp(0), ctx.out(0)
        count = reduce_dims(ctx)["count"]
        mult, shift = quantize_multiplier(float(x.quant.scale) / float(y.quant.scale))
        lo, hi = (-128, 127) if x.dtype == "int8" else (-32768, 32767)
        finish = ("{ int32_t scaled; " + _requantize_c(f"acc - {int(x.quant.zero_point) * count}", mult, shift)
                  + f" scaled += {int(y.quant.zero_point)}; scaled = scaled < {lo} ? {lo} : (scaled > {hi} ? {hi} : "
                  f"scaled); *out++ = ({x.dtype}_t)scaled; }}")
        return inline_lowered(ctx, f"{x.dtype} SUM as TFLM: the codes summed, minus zero point x count, rescaled, "
                                   "clamped", "int32_t", "0", "acc += v;", finish)

    def lower_float32(self, ctx: OpContext) -> Lowered:
        fixed = None
        if fits_4d(ctx):
            if ctx.library_entry(ctx.variant.entries[0]) is not None:
                return entry_lowered(ctx)
            fixed = {"why": f"{ctx.kernels.description} has no {ctx.variant.entries[0]}"}
        # more than four alternating reduced / kept groups, or no entry in the library: the same sums in
        # LiteRT's order, inline
        return replace(inline_lowered(ctx, "SUM in float32", "float", "0.0f", "acc += v;", "*out++ = acc;", fixed),
                       template="reduce_inline.c.j2")

    def lower_int(self, ctx: OpContext) -> Lowered:
        wide = "uint64_t" if ctx.inp(0).dtype == "int64" else "uint32_t"
        ctype = "int64_t" if ctx.inp(0).dtype == "int64" else "int32_t"
        # unsigned adds wrap without undefined behaviour; the conversion back is the two's complement value
        return inline_lowered(ctx, "SUM of integers (wrapping)", wide, "0", f"acc += ({wide})v;",
                              f"*out++ = ({ctype})acc;")

    def fold(self, ctx: OpContext):
        if ctx.inp(0).dtype not in ("float32", "int32", "int64"):
            return None
        return fold_reduce(ctx, np.sum)
