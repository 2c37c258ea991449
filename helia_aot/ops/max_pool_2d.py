# SPDX-License-Identifier: Apache-2.0
"""MAX_POOL_2D, int8 (same scale in and out), lowered to arm_max_pool_s8."""

from __future__ import annotations

from .base import Lowered, OpContext, OpLowering, register
from .common import pool_params, pool_validate


@register
class MaxPool2D(OpLowering):
    op_types = ("MAX_POOL_2D",)

    def validate(self, ctx: OpContext) -> None:
        pool_validate(ctx)

    def lower(self, ctx: OpContext) -> Lowered:
        p = pool_params(ctx)
        out = p["output_dims"]
        return Lowered(
            template="pool_2d.c.j2", entry="arm_max_pool_s8", calls=["arm_max_pool_s8"], scratch_bytes=0,
            macs=0,  # MACs count convolution, depthwise and fully connected layers only
            params=p,
        )
