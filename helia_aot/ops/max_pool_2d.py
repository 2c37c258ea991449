# SPDX-License-Identifier: Apache-2.0
"""MAX_POOL_2D, int8 and int16 (same scale in and out), lowered to arm_max_pool_s8 / _s16; float32 on
arm_max_pool_f32."""

from __future__ import annotations

from helia_aot.ops.base import Lowered, OpContext, OpLowering, Variant, register
from helia_aot.ops.shared.float_variants import float16_variant
from helia_aot.ops.shared.operands import f16, fp32, int8_act, int16_act
from helia_aot.ops.shared.pooling import POOL_RULES, pool_params, pool_validate


@register
class MaxPool2D(OpLowering):
    op_types = ("MAX_POOL_2D",)
    options_table = "Pool2DOptions"
    variants = (
        Variant("int8", inputs=(int8_act(),), outputs=(int8_act("output"),), entries=("arm_max_pool_s8",),
                template="pool_2d.c.j2", rules=POOL_RULES),
        Variant("int16", inputs=(int16_act(),), outputs=(int16_act("output"),), entries=("arm_max_pool_s16",),
                template="pool_2d.c.j2", rules=POOL_RULES),
        Variant("float32", inputs=(fp32(),), outputs=(fp32("output"),), entries=("arm_max_pool_f32",),
                template="pool_2d_f32.c.j2", rules=POOL_RULES),
        # -- float16 (native FP16) --
        float16_variant(inputs=(f16(),), outputs=(f16("output"),), entries=("arm_max_pool_f16",),
                        template="pool_2d_f16.c.j2", rules=POOL_RULES),
    )

    def validate(self, ctx: OpContext) -> None:
        pool_validate(ctx)

    def lower(self, ctx: OpContext) -> Lowered:
        p = pool_params(ctx)
        return Lowered(
            entry=ctx.variant.entries[0], scratch_bytes=0,
            macs=0,  # MACs count convolution, depthwise and fully connected layers only
            params=p,
        )

    # -- float16 (native FP16) --

    def lower_float16(self, ctx: OpContext) -> Lowered:
        return self.lower(ctx)
