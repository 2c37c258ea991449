# SPDX-License-Identifier: Apache-2.0
"""ADD, int8 with broadcasting up to rank 4, lowered to arm_elementwise_add_s8 or arm_add_s8."""

from __future__ import annotations

from .base import Lowered, OpContext, OpLowering, Variant, register
from .common import BINARY_RULES, add_sub_params, binary_validate, int8_act


@register
class Add(OpLowering):
    op_types = ("ADD",)
    variants = (
        Variant("int8", inputs=(int8_act("input 0"), int8_act("input 1")), outputs=(int8_act("output"),),
                entries=("arm_elementwise_add_s8", "arm_add_s8"), template="add_sub.c.j2", notes=BINARY_RULES),
    )

    def validate(self, ctx: OpContext) -> None:
        binary_validate(ctx)

    def lower(self, ctx: OpContext) -> Lowered:
        p = add_sub_params(ctx)
        entry = "arm_add_s8" if p["broadcast"] else "arm_elementwise_add_s8"
        return Lowered(entry=entry,
                       candidates=["arm_elementwise_add_s8", "arm_add_s8"], params=p)
