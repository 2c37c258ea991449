# SPDX-License-Identifier: Apache-2.0
"""ADD, int8 and int16 with broadcasting up to rank 4, lowered to arm_elementwise_add_s8/s16 or
arm_add_s8/s16; int32 (unquantized) as inline C with broadcasting of any rank, wrapping modulo 2^32 and then
clamped to the fused activation, as LiteRT's reference kernel (shared.binary_arith.int32_wrapping_params)."""

from __future__ import annotations

from helia_aot.ops.base import Lowered, OpContext, OpLowering, Operand, Variant, register
from helia_aot.ops.shared.add_sub import add_sub_params, add_sub_s16_params
from helia_aot.ops.shared.binary_arith import (BINARY_RULES, INT32_RULES, binary_validate, int32_validate,
                                               int32_wrapping_fold, int32_wrapping_params)
from helia_aot.ops.shared.float_variants import binary_lowered, float16_variant
from helia_aot.ops.shared.operands import f16, fp32, int8_act, int16_act

_INT16_RULES = BINARY_RULES + (
    "pot_scale_int16 true with power-of-two scales: one input shares the output scale, the other is no coarser, "
    "same shapes",
    "general scales: 2 x larger input scale < 2^15 x output scale")


@register
class Add(OpLowering):
    op_types = ("ADD",)
    options_table = "AddOptions"
    variants = (
        Variant("int8", inputs=(int8_act("input 0"), int8_act("input 1")), outputs=(int8_act("output"),),
                entries=("arm_elementwise_add_s8", "arm_add_s8"), template="add_sub.c.j2", notes=BINARY_RULES),
        Variant("int16", inputs=(int16_act("input 0"), int16_act("input 1")), outputs=(int16_act("output"),),
                entries=("arm_elementwise_add_s16", "arm_add_s16"), template="add_sub_s16.c.j2",
                lower="lower_int16", notes=_INT16_RULES),
        Variant("float32", inputs=(fp32("input 0"), fp32("input 1")), outputs=(fp32("output"),),
                entries=("arm_elementwise_add_f32",), template="binary_f32.c.j2", lower="lower_float32",
                notes=BINARY_RULES + ("broadcasting: inline C",)),
        Variant("int32", inputs=(Operand("input 0", ("int32",)), Operand("input 1", ("int32",))),
                outputs=(Operand("output", ("int32",)),), template="binary_broadcast.c.j2", lower="lower_int32",
                notes=INT32_RULES),
        # -- float16 (native FP16) --
        float16_variant(inputs=(f16("input 0"), f16("input 1")), outputs=(f16("output"),),
                        entries=("arm_elementwise_add_f16",), template="elementwise_f16.c.j2",
                        notes=BINARY_RULES + ("equal shapes call the entry; broadcasting is inline C",)),
    )

    def validate(self, ctx: OpContext) -> None:
        if ctx.out(0).dtype == "int32":  # by dtype: a constant fold validates before any variant is chosen
            int32_validate(ctx)
            return
        binary_validate(ctx)
        if ctx.out(0).dtype == "int16":
            add_sub_s16_params(ctx)  # raises on LiteRT's int16 scale rules

    def lower(self, ctx: OpContext) -> Lowered:
        p = add_sub_params(ctx)
        entry = "arm_add_s8" if p["broadcast"] else "arm_elementwise_add_s8"
        return Lowered(entry=entry,
                       candidates=["arm_elementwise_add_s8", "arm_add_s8"], params=p)

    def lower_int16(self, ctx: OpContext) -> Lowered:
        p = add_sub_s16_params(ctx)
        entry = "arm_add_s16" if p["broadcast"] else "arm_elementwise_add_s16"
        return Lowered(entry=entry, candidates=["arm_elementwise_add_s16", "arm_add_s16"], params=p)

    def lower_int32(self, ctx: OpContext) -> Lowered:
        return Lowered(entry=None, params=int32_wrapping_params(ctx, "+", "ADD"), fixed={"implementation": "inline"})

    def fold(self, ctx: OpContext):
        if ctx.out(0).dtype != "int32":
            return None
        return int32_wrapping_fold(ctx, lambda a, b: a + b)

    def lower_float32(self, ctx: OpContext) -> Lowered:
        """arm_elementwise_add_f32 for equal shapes (exact: one + and the clamp per element); broadcasting is
        inline C."""
        return binary_lowered(ctx, "+")

    # -- float16 (native FP16) --

    def lower_float16(self, ctx: OpContext) -> Lowered:
        """arm_elementwise_add_f16 for equal shapes; broadcasting is inline C (float16 operation and clamp)."""
        return binary_lowered(ctx, "+")
