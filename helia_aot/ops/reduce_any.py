# SPDX-License-Identifier: Apache-2.0
"""REDUCE_ANY on bool tensors in inline C (ns-cmsis-nn has no entry): an output is 1 when any of its inputs is."""

from __future__ import annotations

import numpy as np

from helia_aot.ops.base import Axis, Lowered, OpContext, OpLowering, Operand, Variant, register
from helia_aot.ops.shared.operands import const_ints
from helia_aot.ops.shared.reduce import REDUCE_RULES, SHARED_RULES, fold_reduce, inline_lowered, reduce_validate


@register
class ReduceAny(OpLowering):
    op_types = ("REDUCE_ANY",)
    options_table = "ReducerOptions"
    axes = (Axis("input 1"),)
    variants = (
        Variant("bool", inputs=(Operand("input", ("bool",)), const_ints("axis")),
                outputs=(Operand("output", ("bool",)),), template="reduce_inline.c.j2",
                rules=SHARED_RULES, notes=REDUCE_RULES + ("inline C",)),
    )

    def validate(self, ctx: OpContext) -> None:
        reduce_validate(ctx)

    def lower(self, ctx: OpContext) -> Lowered:
        return inline_lowered(ctx, "REDUCE_ANY", "uint8_t", "0", "acc = (uint8_t)(acc || v);", "*out++ = acc;")

    def fold(self, ctx: OpContext):
        return [v.astype(bool) for v in fold_reduce(ctx, np.any)]
