# SPDX-License-Identifier: Apache-2.0
"""SUB, int8 with broadcasting up to rank 4, lowered to arm_elementwise_sub_s8 or arm_sub_s8."""

from __future__ import annotations

from .base import Lowered, OpContext, OpLowering, register
from .common import add_sub_params, binary_validate


@register
class Sub(OpLowering):
    op_types = ("SUB",)

    def validate(self, ctx: OpContext) -> None:
        binary_validate(ctx)

    def lower(self, ctx: OpContext) -> Lowered:
        p = add_sub_params(ctx)
        entry = "arm_sub_s8" if p["broadcast"] else "arm_elementwise_sub_s8"
        return Lowered(template="add_sub.c.j2", entry=entry, calls=[entry],
                       candidates=["arm_elementwise_sub_s8", "arm_sub_s8"], params=p)
