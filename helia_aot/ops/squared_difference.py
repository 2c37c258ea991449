# SPDX-License-Identifier: Apache-2.0
"""SQUARED_DIFFERENCE: int8 on ns-cmsis-nn's squared-difference entries with LiteRT's rule (both inputs
rescaled to twice the larger scale after a left shift of 7, the squared difference requantized once),
float32 and int32 inline C; int16 inline C as TFLM computes it (LiteRT's kernel refuses int16 at Invoke,
so TFLM is the reference there).

int8 picks arm_elementwise_squared_difference_s8 for equal shapes, arm_squared_difference_scalar_s8 when one
input is a single element (passed first: the entry takes the scalar as input 1), and
arm_squared_difference_s8 with the broadcast's merged (n, h, w, c) dims otherwise; a broadcast of more than
four merged dimensions (rank 5+ alternating) runs LiteRT's arithmetic in the inline loop."""

from __future__ import annotations

import numpy as np

from helia_aot.ir.quant import f32, quantize_multiplier
from helia_aot.ops.base import Lowered, OpContext, OpLowering, Operand, Rule, Variant, both, register, undefined
from helia_aot.ops.shared.binary_arith import PAST_FOUR_GROUPS, inline_broadcast_lowered, inline_params
from helia_aot.ops.shared.broadcast import BROADCAST_RULE, check_broadcast, kernel_broadcast_dims
from helia_aot.ops.shared.fixed_point import (INT32_MAX, multiply_by_quantized_multiplier,
                                              multiply_by_quantized_multiplier_c)
from helia_aot.ops.shared.operands import fp32, int8_act, int16_act

LEFT_SHIFT = 7
OUTPUT_MULTIPLIER = Rule("(2 x larger input scale)^2 / 2^14 below the output scale", both(
    "squared_difference.cc Prepare (LiteRT and micro)", "QuantizeMultiplierSmallerThanOneExp of the output multiplier "
    "(TFLITE_CHECK_LT(double_multiplier, 1.)): the check aborts the interpreter"))
# int16: LiteRT's squared_difference.cc refuses it at Invoke; TFLM's computes it (zero points 0, no left shift,
# the output multiplier any size), and so does the int16 variant, in inline C (ns-cmsis-nn has no _s16 entry).
INT16_OUTPUT_SHIFT = Rule("int16: the largest squared difference, shifted left by the output multiplier's exponent, "
                          "fits int32", undefined(
                              "micro squared_difference.cc SquaredDifference<int16_t>", "MultiplyByQuantizedMultiplier "
                              "shifts the squared difference left by the output multiplier's exponent in int32 "
                              "(signed overflow past it)"))
INT16_NOTES = ("inline C: TFLM's int16 arithmetic (LiteRT's kernel refuses int16)",)


def _quantized_body(p: dict, ctype: str) -> list[str]:
    """The per-element C of the references' quantized squared difference (LiteRT's int8, TFLM's int16): each
    input offset, shifted left and rescaled, the difference squared (at most 2^30), rescaled to the output,
    offset and clamped."""
    return [f"const int32_t shifted1 = ((int32_t)a + ({p.get('input1_offset', 0)})) * (1 << {p['left_shift']});",
            f"const int32_t shifted2 = ((int32_t)b + ({p.get('input2_offset', 0)})) * (1 << {p['left_shift']});",
            *multiply_by_quantized_multiplier_c("scaled1", "shifted1", p["input1_mult"], p["input1_shift"]),
            *multiply_by_quantized_multiplier_c("scaled2", "shifted2", p["input2_mult"], p["input2_shift"]),
            "const int32_t raw = scaled1 - scaled2;",
            *multiply_by_quantized_multiplier_c("squared", "raw * raw", p["out_mult"], p["out_shift"]),
            f"const int32_t y = squared + ({p.get('out_offset', 0)});",
            f"*out++ = ({ctype})(y < {p['act_min']} ? {p['act_min']} : (y > {p['act_max']} ? {p['act_max']} : y));"]


@register
class SquaredDifference(OpLowering):
    op_types = ("SQUARED_DIFFERENCE",)
    options_table = "SquaredDifferenceOptions"
    variants = (
        Variant("int8", inputs=(int8_act("input 0"), int8_act("input 1")), outputs=(int8_act("output"),),
                entries=("arm_elementwise_squared_difference_s8", "arm_squared_difference_scalar_s8",
                         "arm_squared_difference_s8"),
                template="squared_difference.c.j2", rules=(BROADCAST_RULE, OUTPUT_MULTIPLIER)),
        Variant("int16", inputs=(int16_act("input 0"), int16_act("input 1")), outputs=(int16_act("output"),),
                template="binary_broadcast.c.j2", lower="lower_int16", rules=(BROADCAST_RULE, INT16_OUTPUT_SHIFT),
                notes=INT16_NOTES),
        Variant("float32", inputs=(fp32("input 0"), fp32("input 1")), outputs=(fp32("output"),),
                template="binary_broadcast.c.j2", lower="lower_float32", rules=(BROADCAST_RULE,),
                notes=("inline C",)),
        Variant("int32", inputs=(Operand("input 0", ("int32",)), Operand("input 1", ("int32",))),
                outputs=(Operand("output", ("int32",)),), template="binary_broadcast.c.j2", lower="lower_int32",
                rules=(BROADCAST_RULE,),
                notes=("inline C; the square wraps modulo 2^32 as LiteRT's int32 arithmetic does",)),
    )

    @staticmethod
    def _multipliers(ctx: OpContext, left_shift: int = LEFT_SHIFT):
        """The references' Prepare: twice the larger float32 input scale; the input multipliers in (0, 1/2], the
        output one (2 max)^2 / (2^(2 left_shift) output scale), in double; int8 shifts left by 7, TFLM's int16
        by 0."""
        a, b, y = ctx.inp(0), ctx.inp(1), ctx.out(0)
        twice_max = 2.0 * max(f32(a.quant.scale), f32(b.quant.scale))
        m1 = quantize_multiplier(f32(a.quant.scale) / twice_max)
        m2 = quantize_multiplier(f32(b.quant.scale) / twice_max)
        real_out = twice_max * twice_max / ((1 << (2 * left_shift)) * f32(y.quant.scale))
        return m1, m2, real_out

    def _int16_params(self, ctx: OpContext) -> tuple[tuple[int, int], tuple[int, int], tuple[int, int]]:
        """TFLM's int16 multipliers (QuantizeMultiplier for the output: it may exceed 1), with the output's
        left shift checked against the largest squared difference the inputs can give."""
        (m1, s1), (m2, s2), real_out = self._multipliers(ctx, left_shift=0)
        mo, so = quantize_multiplier(real_out)
        largest = sum(max(abs(multiply_by_quantized_multiplier(v, m, s)) for v in (-32768, 32767))
                      for m, s in ((m1, s1), (m2, s2)))
        if so > 0 and largest * largest << so > INT32_MAX:
            raise ctx.error(INT16_OUTPUT_SHIFT, ctx.out(0), detail=f"output scale {ctx.out(0).quant.scale:g} gives "
                            f"TFLM's int16 output multiplier a left shift of {so}, which overflows int32 for the "
                            f"largest squared difference {largest * largest}")
        return (m1, s1), (m2, s2), (mo, so)

    def validate(self, ctx: OpContext) -> None:
        a, b, y = ctx.inp(0), ctx.inp(1), ctx.out(0)
        check_broadcast(ctx, a, b, y)
        if ctx.variant is not None and ctx.variant.name == "int16":
            self._int16_params(ctx)
        if ctx.variant is None or ctx.variant.name != "int8":  # None: folding constants
            return
        real_out = self._multipliers(ctx)[2]
        if real_out >= 1.0:
            raise ctx.error(OUTPUT_MULTIPLIER, y, detail=f"output scale {y.quant.scale:g} is too fine: (2 x larger "
                            f"input scale)^2 / 2^14 over it is {real_out:g}, LiteRT's rule needs it below 1")

    def lower_int16(self, ctx: OpContext) -> Lowered:
        """TFLM's SquaredDifference<int16_t>: each input rescaled (no left shift), the difference squared (at
        most 2^30), rescaled to the output and clamped to int16 (zero points 0)."""
        (m1, s1), (m2, s2), (mo, so) = self._int16_params(ctx)
        body = _quantized_body(dict(left_shift=0, input1_mult=m1, input1_shift=s1, input2_mult=m2, input2_shift=s2,
                                    out_mult=mo, out_shift=so, act_min=-32768, act_max=32767), "int16_t")
        return Lowered(entry=None, params=inline_params(ctx, body, "int16_t", "int16_t",
                                                        "SQUARED_DIFFERENCE int16: TFLM's arithmetic"),
                       fixed={"implementation": "inline"})

    def lower(self, ctx: OpContext) -> Lowered:
        a, b, y = ctx.inp(0), ctx.inp(1), ctx.out(0)
        (m1, s1), (m2, s2), real_out = self._multipliers(ctx)
        mo, so = quantize_multiplier(real_out)
        first, second = (a, (m1, s1)), (b, (m2, s2))
        dims = kernel_broadcast_dims(a.shape, b.shape)
        if dims is None:
            form, entry = "inline", None
        elif tuple(a.shape) == tuple(b.shape) or dims[0] == dims[1]:
            form, entry = "elementwise", "arm_elementwise_squared_difference_s8"
        elif a.num_elements == 1 or b.num_elements == 1:
            form, entry = "scalar", "arm_squared_difference_scalar_s8"
            if b.num_elements == 1 and a.num_elements != 1:
                first, second = second, first
        else:
            form, entry = "broadcast", "arm_squared_difference_s8"
        (t1, (mult1, shift1)), (t2, (mult2, shift2)) = first, second
        p = dict(form=form, input1=t1.index, input2=t2.index, output=y.index, size=y.num_elements,
                 input1_dims=dims and dims[0], input2_dims=dims and dims[1], output_dims=dims and dims[2],
                 input1_offset=-t1.quant.zero_point, input1_mult=mult1, input1_shift=shift1,
                 input2_offset=-t2.quant.zero_point, input2_mult=mult2, input2_shift=shift2,
                 left_shift=LEFT_SHIFT, out_offset=y.quant.zero_point, out_mult=mo, out_shift=so, act_min=-128,
                 act_max=127)
        if dims is None:  # LiteRT's arithmetic in the any-rank loop (inputs in their own order: no swap)
            p = dict(p, input1_offset=-a.quant.zero_point, input1_mult=m1, input1_shift=s1,
                     input2_offset=-b.quant.zero_point, input2_mult=m2, input2_shift=s2)
            return inline_broadcast_lowered(ctx, _quantized_body(p, "int8_t"), "int8_t", "int8_t",
                                            f"SQUARED_DIFFERENCE int8: {PAST_FOUR_GROUPS}", PAST_FOUR_GROUPS)
        return Lowered(entry=entry, candidates=list(ctx.variant.entries), params=p)

    def lower_float32(self, ctx: OpContext) -> Lowered:
        body = ["const float d = a - b;", "*out++ = d * d;"]
        return Lowered(entry=None, params=inline_params(ctx, body, "float", "float",
                                                        "SQUARED_DIFFERENCE float32: (a - b)^2 as LiteRT"),
                       fixed={"implementation": "inline"})

    def lower_int32(self, ctx: OpContext) -> Lowered:
        # In uint32_t: the difference and the square wrap modulo 2^32 without undefined behaviour.
        body = ["const uint32_t d = (uint32_t)a - (uint32_t)b;", "*out++ = (int32_t)(d * d);"]
        return Lowered(entry=None, params=inline_params(ctx, body, "int32_t", "int32_t",
                                                        "SQUARED_DIFFERENCE int32: (a - b)^2, wrapping"),
                       fixed={"implementation": "inline"})

    def fold(self, ctx: OpContext):
        a, b = np.asarray(ctx.inp(0).data), np.asarray(ctx.inp(1).data)
        if a.dtype == np.float32:
            d = a - b
            return [(d * d).astype(np.float32)]
        if a.dtype == np.int32:
            d = (a.astype(np.int64) - b.astype(np.int64)) % (1 << 32)
            return [((d * d) % (1 << 32)).astype(np.uint32).view(np.int32)]
        return None
