# SPDX-License-Identifier: Apache-2.0
"""SQUARE, float32 only: LiteRT's reference kernel takes no other type (int8 and int16 are refused by its
Prepare, "Type INT8 is unsupported by op Square"). Inline C: x * x per element, LiteRT's f * f."""

from __future__ import annotations

from helia_aot.ops.base import Lowered, OpContext, OpLowering, Variant, register
from helia_aot.ops.shared.checks import OUTPUT_SIZE_RULE, unary_validate
from helia_aot.ops.shared.operands import fp32
from helia_aot.ops.shared.unary_math import float_lowered, fold_unary


@register
class Square(OpLowering):
    op_types = ("SQUARE",)
    options_table = "SquareOptions"
    variants = (
        Variant("float32", inputs=(fp32(),), outputs=(fp32("output"),), template="square_f32.c.j2",
                lower="lower_float32", rules=(OUTPUT_SIZE_RULE,), notes=("inline C: x * x",)),
    )

    def validate(self, ctx: OpContext) -> None:
        unary_validate(ctx)

    def lower_float32(self, ctx: OpContext) -> Lowered:
        return float_lowered(ctx, "x * x")

    def fold(self, ctx: OpContext):
        return fold_unary(ctx, float_fn=lambda v: v * v)
