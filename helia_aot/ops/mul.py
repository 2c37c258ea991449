# SPDX-License-Identifier: Apache-2.0
"""MUL, int8 and int16 with broadcasting of any rank, lowered to arm_elementwise_mul_s8/s16 or
arm_mul_s8/s16 (inline C with the same arithmetic past four merged broadcast dimensions); int32 (unquantized) as inline C with broadcasting of any rank, wrapping modulo 2^32 and then
clamped to the fused activation, as LiteRT's reference kernel (shared.binary_arith.int32_wrapping_params)."""

from __future__ import annotations

from helia_aot.ir.quant import f32, quantize_multiplier
from helia_aot.ops.base import Lowered, OpContext, OpLowering, Operand, Variant, register
from helia_aot.ops.shared.binary_arith import (BINARY_RULES, INT32_NOTES, INT32_RULES, PAST_FOUR_GROUPS,
                                               binary_validate, inline_broadcast_lowered, int32_validate,
                                               int32_wrapping_fold, int32_wrapping_params)
from helia_aot.ops.shared.broadcast import entry_dims
from helia_aot.ops.shared.fixed_point import multiply_by_quantized_multiplier_c
from helia_aot.ops.shared.float_variants import binary_lowered, float16_variant
from helia_aot.ops.shared.fused_activation import fused_activation
from helia_aot.ops.shared.operands import f16, fp32, int8_act, int16_act


def _inline_mul(ctx: OpContext, p: dict) -> Lowered:
    """A broadcast past four merged dimensions: LiteRT's MulElementwise inline, as the entries compute it (each
    input plus its offset, the product, at most 2^16 x 2^14 for int8 and 2^30 for int16, requantized, offset
    and clamped)."""
    ctype = "int8_t" if ctx.out(0).dtype == "int8" else "int16_t"
    body = [f"const int32_t product = ((int32_t)a + ({p.get('input1_offset', 0)})) * ((int32_t)b + "
            f"({p.get('input2_offset', 0)}));",
            *multiply_by_quantized_multiplier_c("scaled", "product", p["out_mult"], p["out_shift"]),
            f"const int32_t y = scaled + ({p.get('out_offset', 0)});",
            f"*out++ = ({ctype})(y < {p['act_min']} ? {p['act_min']} : (y > {p['act_max']} ? {p['act_max']} : y));"]
    return inline_broadcast_lowered(ctx, body, ctype, ctype, f"{ctx.out(0).dtype} MUL: {PAST_FOUR_GROUPS}",
                                    PAST_FOUR_GROUPS)


@register
class Mul(OpLowering):
    op_types = ("MUL",)
    options_table = "MulOptions"
    variants = (
        Variant("int8", inputs=(int8_act("input 0"), int8_act("input 1")), outputs=(int8_act("output"),),
                entries=("arm_elementwise_mul_s8", "arm_mul_s8"), template="mul.c.j2", rules=BINARY_RULES),
        Variant("int16", inputs=(int16_act("input 0"), int16_act("input 1")), outputs=(int16_act("output"),),
                entries=("arm_elementwise_mul_s16", "arm_mul_s16"), template="mul_s16.c.j2", lower="lower_int16",
                rules=BINARY_RULES),
        Variant("float32", inputs=(fp32("input 0"), fp32("input 1")), outputs=(fp32("output"),),
                entries=("arm_elementwise_mul_f32",), template="binary_f32.c.j2", lower="lower_float32",
                rules=BINARY_RULES, notes=("broadcasting: inline C",)),
        Variant("int32", inputs=(Operand("input 0", ("int32",)), Operand("input 1", ("int32",))),
                outputs=(Operand("output", ("int32",)),), template="binary_broadcast.c.j2", lower="lower_int32",
                rules=INT32_RULES, notes=INT32_NOTES),
        # -- float16 (native FP16) --
        float16_variant(inputs=(f16("input 0"), f16("input 1")), outputs=(f16("output"),),
                        entries=("arm_elementwise_mul_f16",), template="elementwise_f16.c.j2",
                        rules=BINARY_RULES, notes=("equal shapes call the entry; broadcasting is inline C",)),
    )

    def validate(self, ctx: OpContext) -> None:
        if ctx.out(0).dtype == "int32":  # by dtype: a constant fold validates before any variant is chosen
            int32_validate(ctx)
            return
        binary_validate(ctx)

    def lower(self, ctx: OpContext) -> Lowered:
        a, b, y = ctx.inp(0), ctx.inp(1), ctx.out(0)
        mult, shift = quantize_multiplier(float(a.quant.scale) * float(b.quant.scale) / float(y.quant.scale))
        act_min, act_max = fused_activation(ctx, y)
        p = dict(input1=a.index, input2=b.index, output=y.index, **entry_dims(a, b),
                 input1_offset=-a.quant.zero_point, input2_offset=-b.quant.zero_point,
                 out_offset=y.quant.zero_point, out_mult=mult, out_shift=shift,
                 act_min=act_min, act_max=act_max, size=y.num_elements)
        if p["input1_dims"] is None:
            return _inline_mul(ctx, p)
        entry = "arm_mul_s8" if p["broadcast"] else "arm_elementwise_mul_s8"
        return Lowered(entry=entry, candidates=["arm_elementwise_mul_s8", "arm_mul_s8"], params=p)

    def lower_int16(self, ctx: OpContext) -> Lowered:
        """The int16 product (|x1 * x2| <= 2^30) requantized by one multiplier. LiteRT's Prepare forms
        input1 scale * input2 scale / output scale in float32 (float operands), so this does too."""
        a, b, y = ctx.inp(0), ctx.inp(1), ctx.out(0)
        mult, shift = quantize_multiplier(f32(f32(a.quant.scale * b.quant.scale) / y.quant.scale))
        act_min, act_max = fused_activation(ctx, y)
        p = dict(input1=a.index, input2=b.index, output=y.index, **entry_dims(a, b),
                 out_mult=mult, out_shift=shift, act_min=act_min, act_max=act_max, size=y.num_elements)
        if p["input1_dims"] is None:
            return _inline_mul(ctx, p)
        entry = "arm_mul_s16" if p["broadcast"] else "arm_elementwise_mul_s16"
        return Lowered(entry=entry, candidates=["arm_elementwise_mul_s16", "arm_mul_s16"], params=p)

    def lower_int32(self, ctx: OpContext) -> Lowered:
        return Lowered(entry=None, params=int32_wrapping_params(ctx, "*", "MUL"), fixed={"implementation": "inline"})

    def fold(self, ctx: OpContext):
        if ctx.out(0).dtype != "int32":
            return None
        return int32_wrapping_fold(ctx, lambda a, b: a * b)

    def lower_float32(self, ctx: OpContext) -> Lowered:
        """arm_elementwise_mul_f32 for equal shapes (exact: one * and the clamp per element); broadcasting is
        inline C."""
        return binary_lowered(ctx, "*")

    # -- float16 (native FP16) --

    def lower_float16(self, ctx: OpContext) -> Lowered:
        """arm_elementwise_mul_f16 for equal shapes; broadcasting is inline C (float16 operation and clamp)."""
        return binary_lowered(ctx, "*")
