# SPDX-License-Identifier: Apache-2.0
"""AVERAGE_POOL_2D, int8 (same scale in and out), lowered to arm_avgpool_s8."""

from __future__ import annotations

from .. import cmsis_nn_sizes as sizes
from .base import Lowered, OpContext, OpLowering, Variant, register
from .common import POOL_RULES, int8_act, pool_params, pool_validate


@register
class AveragePool2D(OpLowering):
    op_types = ("AVERAGE_POOL_2D",)
    variants = (
        Variant("int8", inputs=(int8_act(),), outputs=(int8_act("output"),), entries=("arm_avgpool_s8",),
                template="pool_2d.c.j2", notes=POOL_RULES),
    )

    def validate(self, ctx: OpContext) -> None:
        pool_validate(ctx)

    def lower(self, ctx: OpContext) -> Lowered:
        p = pool_params(ctx)
        out = p["output_dims"]
        return Lowered(
            entry="arm_avgpool_s8",
            scratch_bytes=ctx.kernels.scratch(sizes.avgpool_s8, out[2], p["input_dims"][3]),
            macs=0,  # MACs count convolution, depthwise and fully connected layers only
            params=p,
        )
